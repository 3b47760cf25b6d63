"""Errors a user can act on: one line naming the file, line and problem."""

from __future__ import annotations

from pathlib import Path


class PnpgenError(Exception):
    """Bad input. The CLI prints `str(err)` on one line and exits with code 2."""

    exit_code = 2

    def __init__(
        self,
        message: str,
        file: str | Path | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        # one line, whatever the message quotes: splitlines also breaks at \r, \x1c-\x1e, \x85, \u2028, …
        return " ".join((where + self.message).splitlines())


class ContentError(PnpgenError):
    """A content file is malformed or inconsistent."""


class BadMove(PnpgenError):
    """A move's text cannot be parsed."""


class ImpossibleState(PnpgenError):
    """A state file describes a state the game can never reach."""


class UnknownGame(PnpgenError):
    """No game of that name in the content folder."""


class BuildError(PnpgenError):
    """Rendering failed because of the content (e.g. overflowing text)."""


class Interrupted(BaseException):
    """Ctrl-C. pnpgen's own SIGINT handler raises it: not a KeyboardInterrupt, which click would
    turn into Abort after printing a blank line of its own. Its message, when there is one,
    says what became of the work so far; the CLI prints `interrupted: <message>` and exits 130."""
