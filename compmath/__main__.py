"""`python -m compmath …`: the same command line as the `compmath` console script (for a
Python where the script is not on PATH, or to be sure which interpreter runs it)."""

from compmath.entry import console

if __name__ == "__main__":
    console()
