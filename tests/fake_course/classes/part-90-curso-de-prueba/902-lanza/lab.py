"""Un laboratorio que lanza."""


def calcula(n: int) -> float:
    return 1 / (n - n)


def run(n: int = 2) -> dict:
    return {"n": n, "mitad": calcula(n), "vector": []}
