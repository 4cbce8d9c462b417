"""What a grading wrote: each file or folder with how the closing summary names it.

Each writer returns the entry of what it wrote, and `grade` lists what they returned, so the
summary's list cannot drift from the files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Written:
    """A file or folder a grading wrote, and what it is, as the summary says it."""

    path: Path
    what: str  # «las notas», «el resumen», «3 comentarios (uno por alumno)»
    folder: bool = False
