"""The contracts compmath enforces, carried by the package: the JSON Schemas of its own files.

class.toml, part.toml, curso.toml, the private variants file and the JSON reports (`run`/`check
--json`, `diff --json`, `grade`) are checked against these schemas, read from the installed
package, so the same file is accepted or refused the same way in every course. A course adds
its own schemas (schemas/<id>.schema.json, the outputs of its labs), never replaces these.
"""

from __future__ import annotations

from pathlib import Path

# The contracts by name; a file schemas/<name>.schema.json in a course is not read.
NAMES = ("class", "part", "course", "report", "diff", "grade", "private-variants")


def _folder() -> Path:
    """Where the schemas are installed: this package's folder.

    `importlib.resources.files` gives exactly this folder for a package on the file system (a
    wheel, an editable install); it costs ~15 ms of imports that `python lab.py` would pay on
    every run, so it is asked only when the schemas are not beside this module."""
    here = Path(__file__).parent
    if (here / "class.schema.json").is_file():
        return here
    from importlib.resources import files

    return Path(str(files(__name__)))


FOLDER = _folder()


def path(name: str) -> Path:
    """The installed schema of contract `name` (one of NAMES); CompmathError when the
    installation lost it (nothing is checked against a contract that is not there)."""
    if name not in NAMES:
        raise ValueError(f"no contract named {name!r}")
    found = FOLDER / file_name(name)
    if not found.is_file():
        from compmath.errors import CompmathError

        raise CompmathError(
            f"a esta instalación de compmath le falta {file_name(name)} ({FOLDER})",
            "reinstala compmath: pip install --force-reinstall compmath",
        )
    return found


def file_name(name: str) -> str:
    """How the contract's file is named (`class.schema.json`), in messages and in a course."""
    return f"{name}.schema.json"
