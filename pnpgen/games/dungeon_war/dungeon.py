"""The growing dungeon: squares, terrain, walls, warp zones and the outside world, derived
from the placed cards. Squares are (row, column), 0-based over the whole card grid; a card
position is (row, column) in cards. A flipped card is turned 180° (D-DW-10)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from .config import Config, Layout

Square = tuple[int, int]
Placed = tuple[int, int, int, bool]  # card row, card column, layout index (-1: stairs), flipped
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def manhattan(a: Square, b: Square) -> int:
    """Range (exactly this Manhattan distance; walls and the outside world ignored)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@lru_cache(maxsize=4096)
def in_range(center: Square, low: int, high: int) -> frozenset[Square]:
    """The squares at range `low` to `high` (Manhattan distance) from `center`, on or off the board."""
    return frozenset((center[0] + dr, center[1] + dc) for dr in range(-high, high + 1)
                     for dc in range(-high + abs(dr), high - abs(dr) + 1) if abs(dr) + abs(dc) >= low)


@dataclass(frozen=True)
class Dungeon:
    terrain: dict[Square, str]  # every square of a placed card
    walls: dict[frozenset[Square], str]  # edge -> 'wall' or 'cracked_wall'
    warps: dict[Square, tuple[Square, ...]]  # warp zone -> its partners
    stairs: tuple[Square, ...]
    height: int
    width: int
    card_rows: int
    card_columns: int
    occupied_cards: frozenset[tuple[int, int]]

    def card_of(self, square: Square) -> tuple[int, int]:
        return square[0] // self.card_rows, square[1] // self.card_columns

    def squares_of(self, card: tuple[int, int]) -> Iterator[Square]:
        for i in range(self.card_rows):
            for j in range(self.card_columns):
                yield card[0] * self.card_rows + i, card[1] * self.card_columns + j

    def steps(self, square: Square) -> Iterator[tuple[Square | None, str]]:
        """Each orthogonal step from `square`: (next square, wall kind or ''); None for the
        outside world (D-DW-11), warp partners last (D-DW-12)."""
        r, c = square
        for dr, dc in STEPS:
            nxt = (r + dr, c + dc)
            if nxt not in self.terrain:
                yield None, ""
            else:
                yield nxt, self.walls.get(frozenset((square, nxt)), "")
        for partner in self.warps.get(square, ()):
            yield partner, ""

    def adjacent(self, square: Square) -> Iterator[Square]:
        """Squares adjacent to `square`: orthogonal, inside the dungeon, no wall between
        (cracked walls included), plus warp partners."""
        for nxt, wall in self.steps(square):
            if nxt is not None and not wall:
                yield nxt


def build_dungeon(config: Config, cards: tuple[Placed, ...]) -> Dungeon:
    terrain: dict[Square, str] = {}
    walls: dict[frozenset[Square], str] = {}
    letters: dict[str, list[Square]] = {}
    rows, columns = config.card_rows, config.card_columns
    for cr, cc, index, flipped in cards:
        layout: Layout = config.stairs_card if index < 0 else config.layouts[index]

        def at(i: int, j: int, cr: int = cr, cc: int = cc, flip: bool = flipped) -> Square:
            if flip:
                i, j = rows - 1 - i, columns - 1 - j
            return cr * rows + i, cc * columns + j

        for i, line in enumerate(layout.rows):
            for j, code in enumerate(line):
                square = at(i, j)
                terrain[square] = code
                if config.terrain[code].get("warp") and layout.warp:
                    letters.setdefault(layout.warp, []).append(square)
        for a, b, kind in layout.walls:
            walls[frozenset((at(*a), at(*b)))] = kind
    warps = {sq: tuple(p for p in group if p != sq) for group in letters.values() for sq in group}
    stairs = tuple(sorted(sq for sq, code in terrain.items() if code == "S"))
    return Dungeon(terrain, walls, warps, stairs, config.height, config.width, rows, columns,
                   frozenset((cr, cc) for cr, cc, _, _ in cards))


def open_spots(config: Config, cards: tuple[Placed, ...]) -> list[tuple[int, int]]:
    """Card positions where Dungeon Make may put a card: empty, inside the grid, next to a card."""
    placed = {(cr, cc) for cr, cc, _, _ in cards}
    spots = set()
    for cr, cc in placed:
        for dr, dc in STEPS:
            spot = (cr + dr, cc + dc)
            if spot not in placed and 0 <= spot[0] < config.rows and 0 <= spot[1] < config.columns:
                spots.add(spot)
    return sorted(spots)
