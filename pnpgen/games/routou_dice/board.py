"""Board geometry: cells, neighbours, lines and routes. A board is a tuple of ints,
one per cell: 0 empty, +v a first-player die of value v, -v a second-player die."""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from pnpgen.games.routou_dice.config import Config

Board = tuple[int, ...]
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # row, column, two diagonals


def owner(cell_value: int) -> int:
    """Seat owning a die (0 first, 1 second); only call on occupied cells."""
    return 0 if cell_value > 0 else 1


def signed(seat: int, value: int) -> int:
    return value if seat == 0 else -value


class Geometry:
    """Cell indices, neighbourhoods and the winning-line windows of one board size."""

    def __init__(self, config: Config) -> None:
        self.x0, self.x1 = config.columns
        self.y0, self.y1 = config.rows
        self.width, self.height = config.width, config.height
        self.size = self.width * self.height
        self.cells = range(self.size)
        self.names = [f"{x}{y}" for x, y in map(self.xy, self.cells)]
        self.orth: list[tuple[int, ...]] = []
        self.ring: list[tuple[int, ...]] = []
        for i in self.cells:
            x, y = self.xy(i)
            self.orth.append(tuple(self.index(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                                   if self.on_board(x + dx, y + dy)))
            self.ring.append(tuple(self.index(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                                   if (dx or dy) and self.on_board(x + dx, y + dy)))
        self.line = config.line
        self.windows: list[tuple[int, ...]] = []
        for i in self.cells:
            x, y = self.xy(i)
            for dx, dy in DIRECTIONS:
                if self.on_board(x + dx * (self.line - 1), y + dy * (self.line - 1)):
                    self.windows.append(tuple(self.index(x + dx * k, y + dy * k) for k in range(self.line)))
        self.windows_at: list[list[tuple[int, ...]]] = [[] for _ in self.cells]
        for window in self.windows:
            for i in window:
                self.windows_at[i].append(window)
        # each window with a reader of its cells' values (itemgetter: one C call per window)
        self.window_getters = [[(w, _reader(w)) for w in at] for at in self.windows_at]
        # from each cell, in each direction, the cells ahead and those behind (as far as a line reaches)
        self.rays: list[list[tuple[tuple[int, ...], tuple[int, ...]]]] = [
            [(self._ray(i, dx, dy), self._ray(i, -dx, -dy)) for dx, dy in DIRECTIONS] for i in self.cells]

    def _ray(self, i: int, dx: int, dy: int) -> tuple[int, ...]:
        x, y = self.xy(i)
        steps = range(1, self.line)
        return tuple(self.index(x + dx * k, y + dy * k) for k in steps if self.on_board(x + dx * k, y + dy * k))

    def on_board(self, x: int, y: int) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def index(self, x: int, y: int) -> int:
        return (x - self.x0) + (y - self.y0) * self.width

    def xy(self, i: int) -> tuple[int, int]:
        return self.x0 + i % self.width, self.y0 + i // self.width

    def name(self, i: int) -> str:
        """A cell in notation: its X digit then its Y digit ('34' is X=3, Y=4)."""
        return self.names[i]

    def distances(self, board: Board, start: int, limit: int, blocked: int | None = None) -> dict[int, int]:
        """Steps to every empty cell reachable from `start` in at most `limit` orthogonal
        steps without passing any die (`blocked` is one more occupied cell)."""
        dist = {start: 0}
        frontier = [start]
        orth = self.orth
        for d in range(1, limit + 1):  # breadth first, a level at a time (the order a queue gives)
            found = []
            for i in frontier:
                for j in orth[i]:
                    if not board[j] and j not in dist and j != blocked:
                        dist[j] = d
                        found.append(j)
            if not found:
                break
            frontier = found
        return dist

    def reach(self, board: Board, start: int, ends: tuple[int, ...], limit: int) -> int | None:
        """The fewest free orthogonal steps (at most `limit`) from `start` to any of `ends`:
        the distance distances() gives the nearest of them, found without searching further."""
        if start in ends:
            return 0
        seen = {start}
        frontier = [start]
        orth = self.orth
        for d in range(1, limit + 1):
            found = []
            for i in frontier:
                for j in orth[i]:
                    if not board[j] and j not in seen:
                        if j in ends:
                            return d
                        seen.add(j)
                        found.append(j)
            if not found:
                return None
            frontier = found
        return None

    def line_through(self, board: Board, cells: list[int], seat: int) -> tuple[int, ...] | None:
        """A winning window of `seat` through one of `cells`, if any."""
        getters = self.window_getters
        sign = 1 if seat == 0 else -1  # the seat's dice are > 0 for the first seat, < 0 for the second
        for i in cells:
            if not self._in_row(board, i, sign):
                continue
            for window, get in getters[i]:  # the first window in order, as the events name it
                if (min(get(board)) > 0) if seat == 0 else (max(get(board)) < 0):
                    return window
        return None

    def _in_row(self, board: Board, i: int, sign: int) -> bool:
        """Whether `i` and dice of `sign`'s seat before and after it in some direction make a row
        as long as a winning line (a quick test before the windows are read)."""
        need = self.line - 1
        for ahead, behind in self.rays[i]:
            run = 0
            for j in ahead:
                if board[j] * sign <= 0:
                    break
                run += 1
            for j in behind:
                if run >= need or board[j] * sign <= 0:
                    break
                run += 1
            if run >= need:
                return True
        return False

    def any_line(self, board: Board, seat: int) -> tuple[int, ...] | None:
        return self.line_through(board, list(self.cells), seat)


def _reader(cells: tuple[int, ...]) -> Callable[[Board], tuple[int, ...]]:
    """The values of `cells` on a board, as a tuple."""
    if len(cells) == 1:
        return lambda board: (board[cells[0]],)
    return itemgetter(*cells)
