"""Un laboratorio que no termina."""

import time


def run() -> dict:
    while True:
        time.sleep(0.05)
