"""Una salida NaN escondida en una lista."""

import numpy as np


def run() -> dict:
    return {"n": 2, "mitad": 1.0, "vector": [1.0, float(np.nan)]}
