"""The `compmath` console script: start lab workers first, then load the CLI.

Workers import numpy in their own processes while this one imports Typer, Rich and jsonschema,
so `compmath run` costs about as much as `python lab.py` instead of both start-ups in a row.
"""

from __future__ import annotations

import os
import sys

LAB_COMMANDS = {"run", "update", "check", "practice", "lint", "grade", "site", "init"}


def _warm_start(argv: list[str]) -> None:
    """For commands that run labs, start the (single) worker before anything else loads."""
    words = [a for a in argv if not a.startswith("-")]
    if not words or words[0] not in LAB_COMMANDS or "--help" in argv or "-h" in argv:
        return
    if words[:2] == ["grade", "merge"]:  # joins reports: runs no lab
        return
    from compmath.execution.pool import prestart

    prestart(1)


def _interrupted(args: list[str]) -> int:
    """Say what Ctrl-C interrupted; the exit code of an interruption."""
    from compmath.cli.interrupt import interrupted
    from compmath.errors import ExitCode
    from compmath.present.layout import line, para
    from compmath.present.output import emit

    what, hint = interrupted(args)
    emit([para(("interrumpido: ", "bold yellow"), what, hang=2), line(hint)], sys.stderr)
    return ExitCode.INTERRUPTED


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code. Each call runs in a context of its own, so
    what one call chose (colour) or was doing (for Ctrl-C) is never seen by another."""
    import contextvars

    return contextvars.copy_context().run(_main, sys.argv[1:] if argv is None else argv)


def _main(args: list[str]) -> int:
    _warm_start(args)
    import typer

    from compmath.cli import app, completion
    from compmath.cli.clicklib import UsageError
    from compmath.errors import ExitCode

    if completion.requested():
        completion.prepare()
    try:
        result = app(args=args, prog_name="compmath", standalone_mode=False)
    except typer.Exit as exc:
        result = exc.exit_code
    except SystemExit as exc:  # the shell's completion request ends this way
        return exc.code if isinstance(exc.code, int) else 0
    except (typer.Abort, KeyboardInterrupt):
        return _interrupted(args)
    except UsageError as exc:  # the parser's usage errors
        if type(exc).__name__ == "NoArgsIsHelpError" and exc.ctx is not None:
            from compmath.cli.help import show_help

            show_help(exc.ctx)
            return ExitCode.OK
        from compmath.cli.usage import spanish_usage_error
        from compmath.present.output import emit_error

        words = [a for a in args if not a.startswith("-")]
        names = {c.name for c in app.registered_commands}
        typed = words[0] if words and words[0] in names else ""
        message, suggestions, hint = spanish_usage_error(exc, typed)
        emit_error(message, hint, suggestions)
        return ExitCode.USAGE
    if result == ExitCode.INTERRUPTED:  # Typer catches Ctrl-C inside a command: its exit code
        return _interrupted(args)
    return int(result or 0)


def console() -> None:
    """The console script: run, end the workers, flush, and leave without interpreter teardown.

    Finalizing a few hundred imported modules costs about 30 ms on every call and has nothing
    left to do once the output is flushed and the workers are ended.
    """
    code = main()
    from compmath.errors import ExitCode
    from compmath.execution.pool import shutdown

    shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or ExitCode.FAILED
    os._exit(code)


if __name__ == "__main__":
    console()
