"""NoGaps: solver."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, NamedTuple

from pnpgen.engine.bots import best_of
from pnpgen.engine.protocol import Bot
from pnpgen.games.fast_alone.no_gaps.rules import (
    OVER,
    ROLL,
    WON,
    Move,
    State,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.no_gaps import NoGaps


def _sums(sizes: list[int]) -> int:
    """The cell counts some tiles left add up to, as a bitset (bit k: k cells)."""
    reach = 1
    for size, n in enumerate(sizes):
        for _ in range(n):
            if size:
                reach |= reach << size
    return reach


class Board(NamedTuple):
    """What the solver's bit tricks need of a side, computed once."""

    not_first: int  # cells not in the first column
    not_last: int  # cells not in the last column
    small: tuple[tuple[int, int], ...]  # (tile, 6 - size) of the tiles of 3 cells or fewer
    sizes_of: tuple[tuple[int, int], ...]  # (tile, size) of every tile
    sizes: dict[tuple[int, ...], int]  # tiles left -> their _sums (filled in as met)
    tileable: dict[tuple[int, tuple[int, ...]], bool]  # (region, tiles that fit) -> tileable (as met)


def board(rules: NoGaps) -> Board:
    first = sum(1 << (r * rules.cols) for r in range(rules.rows))
    last = first << (rules.cols - 1)
    small = tuple((i, 6 - t.size) for i, t in enumerate(rules.tiles) if t.size <= 3)
    sizes_of = tuple((i, t.size) for i, t in enumerate(rules.tiles))
    return Board(rules.full & ~first, rules.full & ~last, small, sizes_of, {}, {})


def sample_move(rules: NoGaps, state: State, rng: random.Random) -> Move:
    """The random player's move: a die in hand, then one of its tiles, then a place for it,
    each equally likely. (The generic `uniform` bot is uniform over every placement, so it
    favours the big tiles, which have the most places.)"""
    moves = rules.legal_moves(state)
    face = rng.choice(sorted({m.face for m in moves}))
    tile = rng.choice(sorted({m.tile for m in moves if m.face == face}))
    return rng.choice([m for m in moves if m.face == face and m.tile == tile])


def solver_bot(rules: NoGaps) -> Bot[State, Move]:
    """Greedy: every die, tile and placement in hand; keep the best position."""

    def choose(state: State, rng: random.Random) -> Move:
        moves = rules.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        # the placements still open now: the only ones that can be open after a move
        free = tuple(tuple(m for m in t.masks if not m & state.filled) for t in rules.tiles)

        def value(move: Move) -> float:
            filled = state.filled | move.mask
            if filled == rules.full:
                return 1e6 + rules.tiles[move.tile].points
            left = list(state.left)
            left[move.tile] -= 1
            hand = list(state.hand)
            hand.remove(move.face)
            return rules.position_value(filled, tuple(left), tuple(hand), free)

        return best_of(((move, value(move)) for move in moves), rng, tolerance=1e-9)

    return choose


# The random player, the solver and the figures simulation reports.

BOTS = {"solver": solver_bot}


def evaluate(rules: NoGaps, state: State, seat: int) -> float:
    if state.phase == OVER:
        return 1000.0 + rules.last_points(state) if state.end == WON else -1000.0
    return rules.position_value(state.filled, state.left)


def regions(rules: NoGaps, filled: int) -> list[int]:
    """The empty cells as edge-connected regions (bitmasks), by their first cell."""
    empty = rules.full & ~filled
    not_first, not_last, cols = rules.board.not_first, rules.board.not_last, rules.cols
    result = []
    while empty:
        region = frontier = empty & -empty
        while frontier:  # grow by one step each way, inside the empty cells
            grow = (frontier << 1 & not_first) | (frontier >> 1 & not_last) | frontier << cols | frontier >> cols
            frontier = grow & empty & ~region
            region |= frontier
        result.append(region)
        empty &= ~region
    return result


def tileable(rules: NoGaps, region: int, left: tuple[int, ...]) -> bool:
    """The region can be covered exactly by tiles not yet crossed off (shapes, not dice)."""
    if not region:
        return True
    known = rules.board.tileable
    # the answer depends on the tiles that could go in, each at most as often as it could
    n = region.bit_count()
    key = (region, tuple(min(left[i], n // size) for i, size in rules.board.sizes_of if size <= n))
    if key in known:
        return known[key]
    low = region & -region  # the first empty cell must be covered by some tile
    counts = list(left)
    found = False
    for i, tile in enumerate(rules.tiles):
        if counts[i]:
            for m in tile.masks:
                if m & low and m & region == m:
                    counts[i] -= 1
                    if rules.tileable(region & ~m, tuple(counts)):
                        found = True
                        break
                    counts[i] += 1
            if found:
                break
    if len(known) > 200_000:  # a bound on memory over long runs
        known.clear()
    known[key] = found
    return found


def position_value(rules: NoGaps, filled: int, left: tuple[int, ...], hand: tuple[int, ...] = (),
                   free: tuple[tuple[int, ...], ...] | None = None) -> float:
    """Solver heuristic: compact empty space, no region that the tiles left cannot fill,
    every face still able to place a tile, no die in hand lost. `free`: per tile, the
    placements that may still be open (by default all of them)."""
    w = rules.weights
    places = free if free is not None else tuple(t.masks for t in rules.tiles)
    usable = lost = 0
    fitting = {}
    for f, indices in rules.by_face.items():
        if indices:  # some tile of face f not yet crossed off fits in the empty cells
            fit = False
            for i in indices:
                if left[i]:
                    for m in places[i]:
                        if not m & filled:
                            fit = True
                            break
                    if fit:
                        break
            fitting[f] = fit
            usable += fit
    for d in hand:
        lost += not fitting.get(d, False)
    empty = rules.full & ~filled
    cols = rules.cols
    # each empty cell's sides that do not touch an empty cell: 4 per cell, less 2 per touching pair
    pairs = (empty & empty >> 1 & rules.board.not_last).bit_count() + (empty & empty >> cols).bit_count()
    perimeter = 4 * empty.bit_count() - 2 * pairs
    regions = rules.regions(filled)
    sums = rules.board.sizes.get(left)
    if sums is None:
        sizes = [0] * (rules.size + 1)
        for i, tile in enumerate(rules.tiles):
            sizes[tile.size] += left[i]
        if len(rules.board.sizes) > 200_000:  # a bound on memory over long runs
            rules.board.sizes.clear()
        sums = rules.board.sizes[left] = _sums(sizes)
    dead = small = 0
    for region in regions:
        n = region.bit_count()
        if n <= 5:
            small += 1
            if not rules.tileable(region, left):
                dead += 1
        elif not sums >> n & 1:
            dead += 1
    kept = sum(left[i] * k for i, k in rules.board.small)
    return (-w["perimeter"] * perimeter - w["regions"] * max(0, len(regions) - 1)
            - w["dead"] * dead - w["small_region"] * small + w["tiles_kept"] * kept
            + w["usable_face"] * usable - w["lost_die"] * lost)


def game_stats(rules: NoGaps, state: State) -> dict[str, float]:
    return {
        "turns": float(1 + state.rerolls if state.drawn or state.phase != ROLL else 0),
        "tiles drawn": float(len(state.drawn)),
        "cells filled": float(state.filled.bit_count()),
        "dice removed": float(state.removed),
        "score (last tile points)": float(rules.last_points(state) if state.end == WON else 0),
    }
