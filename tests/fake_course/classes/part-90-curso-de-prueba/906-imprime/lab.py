"""Un laboratorio que imprime por su cuenta."""

import sys


def run() -> dict:
    print("mensaje del laboratorio")
    print("aviso por stderr", file=sys.stderr)
    return {"n": 2, "mitad": 1.0, "vector": [1.0]}
