"""Every class as a Jupyter notebook that checks its own numbers: build.py makes it."""
