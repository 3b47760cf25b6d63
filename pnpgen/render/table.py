"""One table model for every renderer.

A table is a header row, body rows, an alignment per column and, optionally, relative
column widths. The tables a game's rules publish (`rulebook_table(name, lang)`: rows of
text, header first) become a TableModel here, once for every target: the rulebook sets it in
Typst (rulebook/), and the print kit draws it with its one ReportLab table drawer
(kit/ruled.py), as a card or board element of one-line cells (kit/elements.py) or a sheet's
table block (kit/blocks.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from pnpgen.engine.protocol import Rules
from pnpgen.render.publishing import rulebook_table

S = TypeVar("S")
M = TypeVar("M")

ALIGNS = ("left", "center", "right")


@dataclass(frozen=True)
class TableModel:
    """`header` and `rows` of text; `align[c]` is column c's alignment; `widths`, when given,
    are relative column widths (renderers otherwise size columns from their text)."""

    header: list[str]
    rows: list[list[str]]
    align: list[str]
    widths: list[float] | None = None

    @classmethod
    def of(cls, rows: Sequence[Sequence[Any]], align: str = "center", first: str = "left",
           widths: Sequence[float] | None = None) -> TableModel:
        """A table from rows, header first (each cell as text): the first column aligned
        `first`, the others `align`."""
        text = [[str(cell) for cell in row] for row in rows]
        columns = max((len(row) for row in text), default=0)
        return cls(text[0] if text else [], text[1:], [first] + [align] * (columns - 1) if columns else [],
                   list(widths) if widths is not None else None)

    def aligned(self, align: str, first: str = "left") -> TableModel:
        """The same table with the first column aligned `first` and the others `align`."""
        return replace(self, align=[first] + [align] * (self.columns - 1) if self.columns else [])

    @property
    def columns(self) -> int:
        return len(self.align)

    @property
    def lines(self) -> list[list[str]]:
        """The header then the rows, as given."""
        return [self.header, *self.rows] if self.header or self.rows else []

    def grid(self) -> list[list[str]]:
        """The header then the rows, each filled out with empty cells to every column."""
        return [line + [""] * (self.columns - len(line)) for line in self.lines]


class UnknownTable(KeyError):
    """The rules publish no table of that name."""


def rules_table(rules: Rules[S, M], name: str, lang: str) -> TableModel:
    """The table `name` a game's rules publish, in `lang`. UnknownTable when there is none;
    a KeyError raised inside the game's own table code is a bug and goes through as it is."""
    try:
        rows = rulebook_table(rules, name, lang)
    except KeyError as error:
        if error.args != (name,):
            raise
        raise UnknownTable(name) from None
    return TableModel.of(rows)
