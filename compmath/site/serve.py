"""`compmath site --serve`: the built site on http://127.0.0.1:PORT, rebuilt when a course file
changes (watchfiles: one event per editor save, polling by itself where events do not arrive)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from compmath.errors import CompmathError


class QuietHandler(SimpleHTTPRequestHandler):
    """Serve the site's files without a log line per request."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


def watched(root: Path) -> list[Path]:
    """What a page is made of: the classes, the schemas and curso.toml (never the output)."""
    return [p for p in (root / "classes", root / "schemas", root / "curso.toml") if p.exists()]


def serve_forever(root: Path, out: Path, port: int, rebuild: Callable[[], object]) -> None:
    """Serve `out` on 127.0.0.1 and call `rebuild` after each change under the course, until
    interrupted; a rebuild that fails says why and the last good site stays served."""
    from watchfiles import watch

    from compmath.present.layout import Command, line
    from compmath.present.output import emit, emit_error

    try:
        server = ThreadingHTTPServer(("127.0.0.1", port), partial(QuietHandler, directory=str(out)))
    except OSError as exc:
        raise CompmathError(
            f"no se puede servir en 127.0.0.1:{port} ({exc.strerror or exc})",
            f"prueba con otro puerto: compmath site --serve --port {port + 1 if port else 8001}",
        ) from None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{server.server_address[1]}/"
    emit(
        [
            line("sirviendo la web en:"),
            Command(address),
            line("se rehace al cambiar una clase (Ctrl-C para parar)"),
        ]
    )
    try:
        for _changes in watch(*watched(root)):
            try:
                rebuild()
            except CompmathError as exc:
                emit_error(exc.message, exc.hint)
    finally:
        server.shutdown()
        server.server_close()
