"""How large (or small) the numbers of a component may be (limits in pnpgen.limits).

The schema says that a key holds a number; a bound says which numbers. Content is
untrusted: a length of 10^5 mm, a repeat of 10^8 or a font size of 0 must end in one
line naming the file, line and limit, not in MemoryError or an endless loop.

A bound spec mirrors the schema: a dict of key -> spec (`*` any key), a one-item list
for every item of a list, a tuple for a value that takes several forms (each part only
looks at values of its own form), and at the leaves the schema's `Range` (with its unit
and whether the low end itself is refused).
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.content.schema import Range
from pnpgen.content.yamlpos import Where, where
from pnpgen.errors import ContentError
from pnpgen.limits import MAX_DRAWS, MAX_FONT_PT, MAX_LEADING, MAX_LENGTH_MM, MAX_PAGES, MAX_REPEAT

Location = Where  # keyword arguments of ContentError: file, line, column


LENGTH = Range(float, 0, MAX_LENGTH_MM, "mm")  # a margin, bleed, gap or line: 0 or more
SIZE = Range(float, 0, MAX_LENGTH_MM, "mm", above=True)  # a width or height: more than 0
OFFSET = Range(float, -MAX_LENGTH_MM, MAX_LENGTH_MM, "mm")  # a shift either way
FONT = Range(float, 0, MAX_FONT_PT, "pt", above=True)
REPEAT = Range(int, 0, MAX_REPEAT)
LINE_HEIGHT = Range(float, 0, MAX_LEADING, "times the size", above=True)  # line height as a multiple of the font size




def check_bounds(value: object, spec: object, path: str = "", parent: object = None, key: object = None) -> None:
    """Raise ContentError at the first number of `value` outside its bound in `spec`."""
    if isinstance(spec, tuple):
        for option in spec:
            check_bounds(value, option, path, parent, key)
    elif isinstance(spec, Range):
        problem = spec.problem(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
        if problem:
            raise ContentError(f"{path}: {problem}", **where(parent, key, value=True))
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
