"""Loaded YAML that remembers where it came from: mappings load as YMap and sequences as
YList, plain dict/list subclasses carrying the file name and the line/column of each key or
item, so any later check can report `file:line:col: problem`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict

Position = tuple[int, int]  # 1-based line, column


class Where(TypedDict, total=False):
    """Where a value was written, as keyword arguments of a PnpgenError (`**where(...)`);
    `where()` gives all three, a CSV row file and line."""

    file: str | Path | None
    line: int | None
    column: int | None


class YMap(dict[Any, Any]):
    file: str = "<memory>"
    position: Position = (0, 0)
    key_positions: dict[Any, Position]
    value_positions: dict[Any, Position]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.key_positions = {}
        self.value_positions = {}


class YList(list[Any]):
    file: str = "<memory>"
    position: Position = (0, 0)
    item_positions: list[Position]

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.item_positions = []
