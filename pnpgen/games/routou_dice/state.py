"""ROUTOU DICE states and moves (plain immutable values)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from pnpgen.games.routou_dice.board import Board

SEATS = ("A", "B")  # A moves first, B second


@dataclass(frozen=True)
class Roll:
    """Dice an action is waiting for: `dice` is None until chance rolls them."""

    action: str  # large, small or contract
    dice: tuple[int, ...] | None = None  # sorted faces once rolled
    cell: int | None = None  # the contract's chosen cell


@dataclass(frozen=True)
class State:
    board: Board
    supply: tuple[int, int]
    kills: tuple[int, int]  # dice of the opponent each seat has destroyed
    stock: tuple[int, int]  # bodyguard stock
    turn: int = 0
    phase: int = 0  # phases already used this turn
    roll: Roll | None = None
    waiting: frozenset[int] = frozenset()  # contract dice that may not act this turn
    passes: int = 0  # passes in a row
    result: tuple[str, tuple[int, ...]] | None = None  # (end id, winners) once over
    actions: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0)  # times each action kind was taken


@dataclass(frozen=True)
class Move:
    """One move. kinds: large, small, pass, move, slash, clone, contract (player
    actions); roll (chance); place (the player's grouping of rolled dice)."""

    kind: str
    dice: tuple[int, ...] = ()  # roll: the faces
    triples: tuple[tuple[int, int, int], ...] = ()  # place: (X, Y, value) in order
    declined: tuple[bool, ...] = ()  # place: triples the player marked as not placed
    stocks: int = 0  # place: zero pairs spent on stock
    destroys: tuple[int, ...] = ()  # place: cells destroyed with zero triples
    path: tuple[int, ...] = ()  # move/slash: start, then each step (or just the end)
    parts: tuple[tuple[int, int], ...] = field(default=())  # clone: (value, end cell) in order
    cell: int | None = None  # clone origin; contract cell


_MOVE_FIELDS = {f.name: f.default for f in fields(Move)}


def make_move(kind: str, **values: Any) -> Move:
    """Move(kind, **values) without the frozen dataclass's __init__, which sets the nine
    fields one object.__setattr__ at a time (most of a sampled move's cost); the same value."""
    new = object.__new__(Move)
    data = new.__dict__
    data.update(_MOVE_FIELDS, kind=kind, **values)
    if len(data) != len(_MOVE_FIELDS):  # a key that is no field was added
        raise TypeError(f"Move has no field {sorted(values.keys() - _MOVE_FIELDS.keys())[0]!r}")
    return new
