"""The pnpgen command line's entry point: exit codes and one-line errors for every command.

`--json` on every command prints one JSON object on stdout, the same envelope for all
(docs/json.md): {"ok": bool, "errors": [{"file", "line", "column", "message"}], ...the
command's data}. `ok` is true exactly when the exit code is 0; bad input (exit 2) and bugs
(exit 3) are envelopes too, with nothing on stderr.

`pnpgen referee` and `pnpgen list` with plainly well-formed options skip Typer altogether
(its import and its per-option coercion, which imports pydantic: about 45 ms of a start-up
that must stay under 200 ms); the command functions are the same (pnpgen.commands).
Anything else (help, completion, an unknown, repeated or `--opt=value` option, a value
that starts with '-') goes through the Typer app (pnpgen.app).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from pnpgen import commands
from pnpgen.commands import CommandExit, emit, error_entry, one_line
from pnpgen.errors import Interrupted, PnpgenError

# The commands a plain call runs without Typer: their functions in pnpgen.commands, whose
# signatures are the one statement of their options (`_options`); Typer declares the same
# (tests/test_cli_direct.py holds them equal).
_DIRECT = {"list": "list_games", "referee": "referee"}  # command -> its function in pnpgen.commands


def _options(function: Callable[..., Any]) -> tuple[int, dict[str, tuple[str, type | None]]]:
    """A command function's positional count and options, `--name` -> (parameter, the type of
    its value, or None for a flag), read from its signature: `example_state` is
    `--example-state`, `as_json` is `--json`."""
    import inspect
    import typing

    hints = typing.get_type_hints(function)
    positionals, options = 0, {}
    for name, parameter in inspect.signature(function).parameters.items():
        if parameter.default is inspect.Parameter.empty:
            positionals += 1
            continue
        kinds = [k for k in typing.get_args(hints[name]) or (hints[name],) if k is not type(None)]
        flag = "--json" if name == "as_json" else "--" + name.replace("_", "-")
        options[flag] = (name, None if kinds == [bool] else kinds[0])
    return positionals, options


def _direct_call(args: list[str]) -> tuple[Callable[..., Any], list[str], dict[str, Any]] | None:
    """(command, positional arguments, options) for a plain referee or list call, else None."""
    import os

    if not args or args[0] not in _DIRECT or any(key.startswith("_PNPGEN_COMPLETE") for key in os.environ):
        return None
    function = getattr(commands, _DIRECT[args[0]])
    positionals, options = _options(function)
    given: dict[str, Any] = {}
    plain: list[str] = []
    rest = iter(args[1:])
    for arg in rest:
        if arg.startswith("-"):
            if arg not in options or options[arg][0] in given:
                return None
            key, kind = options[arg]
            if kind is None:
                given[key] = True
                continue
            value = next(rest, None)
            if value is None or value == "" or value.startswith("-"):
                return None
            given[key] = kind(value)
        elif arg == "" or len(plain) == positionals:
            return None
        else:
            plain.append(arg)
    return (function, plain, given) if len(plain) == positionals else None


def main() -> None:
    """Entry point. Bad input (content, state, move, option, output folder) is one line on
    stderr and exit 2; anything unexpected is a bug: one line asking for a report, exit 3.
    `--debug` shows the traceback instead. With `--json` the error is the JSON envelope on
    stdout instead of the line on stderr, with the same exit code."""
    args = sys.argv[1:]
    options = args[:args.index("--")] if "--" in args else args
    debug, as_json = "--debug" in options, "--json" in options
    if not args:
        sys.argv.append("--help")
    previous = _catch_ctrl_c()
    try:
        try:
            code = _run(args)
        except CommandExit as done:
            code = done.code
        sys.stdout.flush()  # here, not at exit: a closed pipe is then caught below
    except (KeyboardInterrupt, Interrupted) as stop:
        print(_interrupted(options, stop), file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:  # the reader stopped early (`| head`): quiet, as other tools are
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        sys.exit(141)  # 128 + SIGPIPE, what a shell reports for a tool the pipe stopped
    except Exception as error:  # noqa: BLE001 - the last guard: never a traceback, never exit 1
        if debug:
            raise
        sys.exit(_report(error, as_json))
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    sys.exit(code if isinstance(code, int) else 0)


def _raise_interrupted(signum: int, frame: object) -> None:
    raise Interrupted


def _catch_ctrl_c() -> Any:
    """Route Ctrl-C to Interrupted (in the main thread); the handler it replaces, or None."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGINT, _raise_interrupted)


# Commands whose work is a simulation: what Ctrl-C leaves of it.
_DROPPED = {"simulate": "the games played so far were dropped (a summary is printed for a whole run only)",
            "report": "the games played so far were dropped; no report was written",
            "sweep": "the points played so far were dropped; no sweep table was written"}


def _interrupted(options: list[str], stop: BaseException) -> str:
    """The one line Ctrl-C prints: 'interrupted', and what became of partial results (the
    command's own words when it gave some)."""
    if isinstance(stop, Interrupted) and str(stop):
        return f"interrupted: {one_line(stop)}"
    command = next((a for a in options if not a.startswith("-")), "")
    return f"interrupted: {_DROPPED[command]}" if command in _DROPPED else "interrupted"


def _run(args: list[str]) -> object:
    """The command's exit code: a plain list or referee call directly, else through Typer."""
    direct = _direct_call(args)
    if direct is not None:
        function, plain, options = direct
        function(*plain, **options)
        return 0
    from pnpgen.app import click_command

    try:
        return click_command()(standalone_mode=False)
    except SystemExit as done:
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":  # click's answer to a closed pipe: exit 1
            raise BrokenPipeError from done
        raise


def _report(error: Exception, as_json: bool) -> int:
    """One line on stderr (or the JSON envelope) for a command that failed; its exit code."""
    usage, abort = _typer_errors()
    if isinstance(error, abort):
        print("interrupted", file=sys.stderr)
        return 130
    if isinstance(error, PnpgenError | OSError | usage):
        code = 2 if isinstance(error, OSError) else getattr(error, "exit_code", 2)
        message = f"error: {one_line(error)}"
        entry = error_entry(error)
    else:
        code = 3
        message = (f"internal error, please report: {type(error).__name__}: {one_line(error)[:300]} "
                   "(run again with --debug for the traceback)")
        entry = error_entry(message)
    if as_json:
        emit(False, errors=[entry])
    else:
        print(message, file=sys.stderr)  # one line, as it is (no rich: errors start fast too)
    return int(code)


class _NotRaised(Exception):
    """Stands for Typer's errors when the Typer app never ran."""


def _typer_errors() -> tuple[type[Exception], type[BaseException]]:
    """Typer's usage error and its abort (imported only if the Typer app ran)."""
    if "typer" not in sys.modules:
        return _NotRaised, _NotRaised
    import typer
    from typer.exceptions import TyperException

    return TyperException, typer.Abort


def __getattr__(name: str) -> object:
    """`pnpgen.cli.app`: the Typer app, imported on first use."""
    if name == "app":
        from pnpgen.app import app

        return app
    raise AttributeError(name)
