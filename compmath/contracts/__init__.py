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
    every run, so it is asked only when the package is not a plain folder (a zip import)."""
    here = Path(__file__).parent
    if (here / "class.schema.json").is_file():
        return here
    from importlib.resources import as_file, files

    found = as_file(files(__name__))  # extracted once for the life of the process
    return Path(found.__enter__())


FOLDER = _folder()


def path(name: str) -> Path:
    """The installed schema of contract `name` (one of NAMES)."""
    if name not in NAMES:
        raise ValueError(f"no contract named {name!r}")
    return FOLDER / f"{name}.schema.json"


def file_name(name: str) -> str:
    """How the contract's file is named (`class.schema.json`), in messages and in a course."""
    return f"{name}.schema.json"
