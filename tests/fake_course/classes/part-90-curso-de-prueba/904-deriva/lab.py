"""Un número que se movió respecto de su instantánea."""


def run() -> dict:
    return {"n": 3, "mitad": 1.6, "vector": [0.0, 0.333333, 0.666667]}
