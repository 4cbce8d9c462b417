"""Notebook cells as nbformat 4 dicts, Python literals for their data, and the notebook's text.

The text is what nbformat itself writes (sorted keys, one-space indent, sources as lists of
lines, a final newline): the same notebook gives the same bytes, and Jupyter saving it again
changes nothing, so committed notebooks diff cleanly.
"""

from __future__ import annotations

import json
import pprint
from typing import Any

from compmath.errors import CompmathError
from compmath.notebook.labcode import cell_id

WIDTH = 96  # the data cell's literals wrap before this column


class Cells:
    """A notebook's cells in order, each with a unique id."""

    def __init__(self) -> None:
        self.cells: list[dict[str, Any]] = []
        self.ids: set[str] = set()

    def _id(self, name: str) -> str:
        base = cell_id(name)
        unique, n = base, 2
        while unique in self.ids:
            unique, n = f"{base}-{n}", n + 1
        self.ids.add(unique)
        return unique

    def markdown(self, name: str, source: str) -> None:
        """Add a Markdown cell."""
        cell = {"cell_type": "markdown", "id": self._id(name), "metadata": {}, "source": source}
        self.cells.append(cell)

    def code(self, name: str, source: str, *, hidden: bool = False) -> None:
        """Add a code cell; a hidden one shows folded in Jupyter and as a form in Colab."""
        metadata = {"cellView": "form", "jupyter": {"source_hidden": True}} if hidden else {}
        self.cells.append(
            {
                "cell_type": "code",
                "execution_count": None,
                "id": self._id(name),
                "metadata": metadata,
                "outputs": [],
                "source": source,
            }
        )


def literal(value: Any, indent: int = 0) -> str:
    """A value as readable Python, its order kept: a dict that does not fit on one line gets
    one key per line."""
    text = pprint.pformat(value, width=WIDTH - indent, sort_dicts=False, compact=True)
    if not isinstance(value, dict) or "\n" not in text:
        return text
    rows = ["{"]
    for key, item in value.items():
        head = " " * (indent + 4) + f"{key!r}: "
        text = pprint.pformat(item, width=WIDTH - len(head), sort_dicts=False, compact=True)
        rows.append(head + text.replace("\n", "\n" + " " * len(head)) + ",")
    return "\n".join([*rows, " " * indent + "}"])


def dumps_notebook(notebook: dict[str, Any]) -> str:
    """The notebook as nbformat writes it: sorted keys, indent 1, sources as lists of lines."""
    cells = [
        {**cell, "source": cell["source"].splitlines(keepends=True)} for cell in notebook["cells"]
    ]
    text = json.dumps(
        {**notebook, "cells": cells},
        indent=1,
        sort_keys=True,
        separators=(",", ": "),
        ensure_ascii=False,
    )
    return text + "\n"


def validate_notebook(text: str, shown: str) -> None:
    """Raise CompmathError unless `text` is a valid nbformat 4 notebook (nbformat's schema).

    Through nbformat's fastjsonschema validator (nbformat depends on it): twelve times faster
    than its default jsonschema one, which a site build of 40 notebooks would feel (1,1 s).
    """
    import nbformat
    from nbformat.validator import get_validator

    notebook = json.loads(text)
    validator = get_validator(  # type: ignore[no-untyped-call]
        version=notebook.get("nbformat"),
        version_minor=notebook.get("nbformat_minor"),
        name="fastjsonschema",
    )
    try:
        validator.validate(notebook)
    except nbformat.ValidationError as exc:
        raise CompmathError(
            f"el cuaderno {shown} no es válido: {exc.message}",
            "es un fallo de compmath notebook; avisa con este mensaje",
        ) from None
