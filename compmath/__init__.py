"""compmath: the runner of the computational-math course's labs."""

__version__ = "0.1.0"
