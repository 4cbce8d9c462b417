"""Una salida que no es un dict."""


def run() -> list:
    return [1, 2, 3]
