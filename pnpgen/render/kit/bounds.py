"""How large (or small) the numbers of a component may be (limits in pnpgen.limits).

The schema says that a key holds a number; a bound says which numbers. Content is
untrusted: a length of 10^5 mm, a repeat of 10^8 or a font size of 0 must end in one
line naming the file, line and limit, not in MemoryError or an endless loop.

A bound spec mirrors the schema: a dict of key -> spec (`*` any key), a one-item list
for every item of a list, a tuple for a value that takes several forms (each part only
looks at values of its own form), and a `Bound` at the leaves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pnpgen.content.yamlpos import where
from pnpgen.errors import ContentError
from pnpgen.limits import MAX_DRAWS, MAX_FONT_PT, MAX_LEADING, MAX_LENGTH_MM, MAX_PAGES, MAX_REPEAT

Location = dict[str, Any]  # keyword arguments of ContentError: file, line, column


@dataclass(frozen=True)
class Bound:
    """Numbers from `low` to `high`; `above`: `low` itself is refused (a size must be > 0)."""

    low: float
    high: float
    unit: str = ""  # "mm", "pt", or "" for a count
    above: bool = False

    def problem(self, value: float) -> str | None:
        """What is wrong with `value` ("100,000 mm; the limit is 5,000 mm"), or None."""
        unit = f" {self.unit}" if self.unit else ""
        if not math.isfinite(value):
            return f"{value} is not a finite number"
        if value > self.high:
            return f"{number(value)}{unit}; the limit is {number(self.high)}{unit}"
        if value < self.low or (self.above and value == self.low):
            wanted = f"more than {number(self.low)}{unit}" if self.above else f"{number(self.low)}{unit} or more"
            return f"{number(value)}{unit}; must be {wanted}"
        return None

    def check(self, value: float, path: str, location: Location) -> None:
        problem = self.problem(value)
        if problem:
            raise ContentError(f"{path}: {problem}", **location)


LENGTH = Bound(0, MAX_LENGTH_MM, "mm")  # a margin, bleed, gap or line: 0 or more
SIZE = Bound(0, MAX_LENGTH_MM, "mm", above=True)  # a width or height: more than 0
OFFSET = Bound(-MAX_LENGTH_MM, MAX_LENGTH_MM, "mm")  # a shift either way
FONT = Bound(0, MAX_FONT_PT, "pt", above=True)
REPEAT = Bound(0, MAX_REPEAT)
LINE_HEIGHT = Bound(0, MAX_LEADING, "times the size", above=True)  # line height as a multiple of the font size


def number(value: float) -> str:
    """1,000 and 0.5, as messages print them."""
    text = f"{value:,}"
    return text[:-2] if text.endswith(".0") else text


def check_bounds(value: Any, spec: Any, path: str = "", parent: Any = None, key: Any = None) -> None:
    """Raise ContentError at the first number of `value` outside its bound in `spec`."""
    if isinstance(spec, tuple):
        for option in spec:
            check_bounds(value, option, path, parent, key)
    elif isinstance(spec, Bound):
        if isinstance(value, int | float) and not isinstance(value, bool):
            spec.check(value, path, where(parent, key, value=True))
    elif isinstance(spec, list) and isinstance(value, list):
        for index, item in enumerate(value):
            check_bounds(item, spec[0], f"{path}[{index}]", value, index)
    elif isinstance(spec, dict) and isinstance(value, dict):
        for name, item in value.items():
            inner = spec.get(name, spec.get("*"))
            if inner is not None:
                check_bounds(item, inner, f"{path}.{name}" if path else str(name), value, name)


def check_pages(pages: int, what: str, location: Location) -> None:
    if pages > MAX_PAGES:
        raise ContentError(f"{what} makes {pages:,} pages; the limit is {MAX_PAGES:,} pages in one file", **location)


def check_draws(total: int, detail: str, location: Location) -> None:
    """`total` things drawn into one file (`detail` says how they add up)."""
    if total > MAX_DRAWS:
        raise ContentError(f"{detail} is {total:,} drawings; the limit is {MAX_DRAWS:,} in one file", **location)


@dataclass
class Budget:
    """Cells, labels, boxes and texts of one copy of a sheet or board, counted while it is
    planned so that a huge table is refused before it is laid out."""

    used: int = 0

    def add(self, count: int, what: str, location: Location) -> None:
        self.used += count
        if self.used > MAX_DRAWS:
            raise ContentError(f"{what}: more than {MAX_DRAWS:,} cells, labels and texts to draw in one file "
                               "(the limit)", **location)
