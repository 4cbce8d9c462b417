"""The helper a lab's `__main__` calls: parse `--set`, run the lab, print canonical JSON."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from compmath.base.encode import DEFAULT_DECIMALS, EncodeError, canonical_json
from compmath.course.metadata import lab_decimals
from compmath.course.params import ParamError, parse_assignments, specs_from_function
from compmath.errors import CompmathError

USAGE = "uso: python lab.py [--set NOMBRE=VALOR]..."


def _assignments(argv: list[str]) -> list[str]:
    items: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--set":
            value = next(it, None)
            if value is None:
                raise ParamError("--set necesita NOMBRE=VALOR", USAGE)
            items.append(value)
        elif arg.startswith("--set="):
            items.append(arg[len("--set=") :])
        elif arg in ("-h", "--help"):
            raise ParamError("ayuda", USAGE)
        else:
            raise ParamError(f"argumento no reconocido «{arg}»", USAGE)
    return items


def main(run: Callable[..., dict[str, Any]], argv: list[str] | None = None) -> None:
    """Run `run` with the `--set` overrides of argv and print its canonical JSON to stdout."""
    args = sys.argv[1:] if argv is None else argv
    try:
        params = parse_assignments(specs_from_function(run), _assignments(args))
    except ParamError as exc:
        if str(exc) == "ayuda":
            print(USAGE)
            raise SystemExit(0) from None
        print(f"error: {exc}\n{exc.hint}", file=sys.stderr)
        raise SystemExit(2) from None
    # The lab's own prints go to stderr so that stdout carries only the result.
    with contextlib.redirect_stdout(sys.stderr):
        outputs = run(**params)
    try:
        lab_file = getattr(sys.modules.get(run.__module__), "__file__", None)
        decimals = lab_decimals(Path(lab_file).resolve().parent) if lab_file else DEFAULT_DECIMALS
        text = canonical_json(outputs, decimals)
    except CompmathError as exc:
        print(f"error: {exc.message}\n{exc.hint}", file=sys.stderr)
        raise SystemExit(2) from None
    except EncodeError as exc:
        print(f"error: la salida {exc.path} {exc.problem}", file=sys.stderr)
        raise SystemExit(1) from None
    sys.stdout.write(text)
