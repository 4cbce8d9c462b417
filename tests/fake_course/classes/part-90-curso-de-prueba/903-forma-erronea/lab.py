"""Una salida con forma errónea: vector demasiado largo y una clave de más."""


def run() -> dict:
    return {"n": 1, "mitad": 0.5, "vector": list(range(12)), "sobra": True}
