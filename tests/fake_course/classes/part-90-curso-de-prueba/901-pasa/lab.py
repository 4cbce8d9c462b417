"""Un laboratorio que pasa."""

import numpy as np

N = 4


def run(n: int = N, escala: float = 0.5, activo: bool = True, nombre: str = "x") -> dict:
    ### BEGIN SOLUTION
    mitad = n * escala
    ### END SOLUTION
    return {"n": n, "mitad": mitad, "vector": np.arange(n) / 3}


if __name__ == "__main__":
    from compmath.labmain import main

    main(run)
