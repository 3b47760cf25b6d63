"""NoGaps: solver."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

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


def _sum_reachable(sizes: list[int], total: int) -> bool:
    """Some tiles left (sizes[k] tiles of k cells) add up to `total` cells."""
    reach = 1
    for size, n in enumerate(sizes):
        for _ in range(n):
            if size:
                reach |= reach << size
    return bool(reach >> total & 1)


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

        def value(move: Move) -> float:
            filled = state.filled | move.mask
            if filled == rules.full:
                return 1e6 + rules.tiles[move.tile].points
            left = list(state.left)
            left[move.tile] -= 1
            hand = list(state.hand)
            hand.remove(move.face)
            return rules.position_value(filled, tuple(left), tuple(hand))

        return best_of(((move, value(move)) for move in moves), rng, tolerance=1e-9)

    return choose


# The random player, the solver and the figures simulation reports.

BOTS = {"solver": solver_bot}


def evaluate(rules: NoGaps, state: State, seat: int) -> float:
    if state.phase == OVER:
        return 1000.0 + rules.last_points(state) if state.end == WON else -1000.0
    return rules.position_value(state.filled, state.left)


def regions(rules: NoGaps, filled: int) -> list[int]:
    """The empty cells as edge-connected regions (bitmasks)."""
    empty = rules.full & ~filled
    result = []
    while empty:
        low = empty & -empty
        region = frontier = low
        while frontier:
            grow = 0
            f = frontier
            while f:
                bit = f & -f
                grow |= rules.neighbours[bit.bit_length() - 1]
                f ^= bit
            frontier = grow & empty & ~region
            region |= frontier
        result.append(region)
        empty &= ~region
    return result


def tileable(rules: NoGaps, region: int, left: tuple[int, ...]) -> bool:
    """The region can be covered exactly by tiles not yet crossed off (shapes, not dice)."""
    if not region:
        return True
    low = region & -region  # the first empty cell must be covered by some tile
    counts = list(left)
    for i, tile in enumerate(rules.tiles):
        if counts[i]:
            for m in tile.masks:
                if m & low and m & region == m:
                    counts[i] -= 1
                    if rules.tileable(region & ~m, tuple(counts)):
                        return True
                    counts[i] += 1
    return False


def position_value(rules: NoGaps, filled: int, left: tuple[int, ...], hand: tuple[int, ...] = ()) -> float:
    """Solver heuristic: compact empty space, no region that the tiles left cannot fill,
    every face still able to place a tile, no die in hand lost."""
    w = rules.weights
    fitting = {f: rules.fits(filled, left, f) for f in rules.by_face if rules.by_face[f]}
    usable = sum(fitting.values())
    lost = sum(not fitting.get(d, False) for d in hand)
    empty = rules.full & ~filled
    perimeter = 0
    e = empty
    while e:
        bit = e & -e
        cell = bit.bit_length() - 1
        perimeter += 4 - (rules.neighbours[cell] & empty).bit_count()
        e ^= bit
    regions = rules.regions(filled)
    sizes = [0] * (rules.size + 1)
    for i, tile in enumerate(rules.tiles):
        sizes[tile.size] += left[i]
    dead = small = 0
    for region in regions:
        n = region.bit_count()
        if n <= 5:
            small += 1
            if not rules.tileable(region, left):
                dead += 1
        elif not _sum_reachable(sizes, n):
            dead += 1
    kept = sum(left[i] * (6 - t.size) for i, t in enumerate(rules.tiles) if t.size <= 3)
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
