"""The decision a phase waits on (State.pending), one class per phase.

Like the moves, each is a flat tuple of ints (what state files and views store, unchanged)
with named fields; `Cls.of(state)` reads a state's pending as that class, so a state read
back from a file (plain tuples) works the same. The `turn` and `over` phases keep `()`.
"""

from __future__ import annotations

from typing import TypeVar

from .moves import Acid, Ambush, Bare, Discard, Dispose, Go, Lay, Move, Pass, Place, Put, Revive, Trap, at, pair, tail

Square = tuple[int, int]
P = TypeVar("P", bound="Pending")


class Pending(tuple[int, ...], metaclass=Bare):
    @classmethod
    def of(cls: type[P], state: object) -> P:
        found = state.pending  # type: ignore[attr-defined]
        return found if type(found) is cls else tuple.__new__(cls, found)

    @classmethod
    def make(cls: type[P], *values: int) -> P:
        return tuple.__new__(cls, values)


class Dealing(Pending):
    """deal: (first spot filled next,)."""

    spot: int = at(0)


class Placing(Pending):
    """place: (placement round,) — the index into first_pieces."""

    round: int = at(0)


class _Src(Pending):
    src: Square = pair(0)


class Rolling(_Src):
    """roll: (knight's row, column, dash)."""

    dash: bool = at(2, bool)


class Going(Rolling):
    """go: (knight's row, column, dash, steps rolled)."""

    steps: int = at(3)


class Building(Pending):
    """build: (0 Make | 1 Remake, card row, card column)."""

    spot: Square = pair(1)

    @property
    def remake(self) -> bool:
        return self[0] == 1


class Laying(Building):
    """lay, event: (0 Make | 1 Remake, card row, card column, dungeon card drawn)."""

    card: int = at(3)


class Melee(_Src):
    """fight: (attacker's row, column, defender's row, column, dash, kept cards...); a kept
    disposable card is noted 2 x card + side (0 attacker, 1 defender)."""

    dst: Square = pair(2)
    dash: bool = at(4, bool)

    def kept(self, side: int) -> tuple[int, ...]:
        """The disposable cards side 0 (attacker) or 1 (defender) keeps."""
        return tuple(v // 2 for v in self[5:] if v % 2 == side)


class Disposing(Pending):
    """dispose: (the melee's numbers..., side choosing, its seat)."""

    side: int = at(-2)
    chooser: int = at(-1)

    @property
    def melee(self) -> Melee:
        return tuple.__new__(Melee, self[:-2])


class Shooting(_Src):
    """shot, mirror: (shooter's row, column, war card, aim row, column[, seat]); the seat is,
    in 'shot', the Mirror Shield's that reflected it, in 'mirror', the seat asked."""

    card: int = at(2)
    aim: Square = pair(3)
    seat: int = at(5)

    @property
    def reflected(self) -> bool:
        return len(self) > 5

    @property
    def shot(self) -> Shooting:
        """The declared shot alone (its first five numbers)."""
        return tuple.__new__(Shooting, self[:5])


class AcidChoice(Pending):
    """acid: (mode, five numbers, chooser): mode 0 the attacker's acid on the defender, 2 the
    defender's on the attacker (the numbers: the melee's); 1 a shot's on its aim; 3 + k the
    shot's k-th target's acid on the shooter (the numbers: the shot's)."""

    mode: int = at(0)
    chooser: int = at(-1)

    @property
    def numbers(self) -> tuple[int, ...]:
        return self[1:6]


class _OnTheWay(_Src):
    """A move interrupted on a square it enters: (mover's row, column, square row, column,
    dash, a seat or card, the declared path still ahead...)."""

    dst: Square = pair(2)
    dash: bool = at(4, bool)
    rest: tuple[int, ...] = tail(6)


class AmbushAsk(_OnTheWay):
    """ambush: the seat asked (6th number) whether it springs a trap on the square."""

    seat: int = at(5)


class Ambushed(_OnTheWay):
    """ambushed: the trap card sprung (6th number); the mover stands on the square."""

    card: int = at(5)


class Window(Pending):
    """window: (seat asked,) for a trap it may call (D-DW-21)."""

    seat: int = at(0)


class Reviving(Pending):
    """revive: (seat, army piece index) pairs of immortal pieces waiting to come back."""

    seat: int = at(0)
    piece: int = at(1)
    rest: tuple[int, ...] = tail(2)


class Charming(_Src):
    """charm: (user's row, column, war card, target row, column[, from row, column])."""

    card: int = at(2)
    target: Square = pair(3)
    source: tuple[int, ...] = tail(5)


PENDING: dict[str, type[Pending]] = {
    "deal": Dealing, "place": Placing, "roll": Rolling, "go": Going, "build": Building, "lay": Laying,
    "event": Laying, "fight": Melee, "dispose": Disposing, "shot": Shooting, "mirror": Shooting,
    "acid": AcidChoice, "ambush": AmbushAsk, "ambushed": Ambushed, "window": Window, "revive": Reviving,
    "charm": Charming,
}

# the moves that answer each decision phase (the turn takes the rest); legal_moves lists them
# and the referee refuses any other kind in that phase
ANSWERS: dict[str, tuple[type[Move], ...]] = {
    "place": (Place,), "go": (Go,), "lay": (Lay, Discard), "event": (Put,), "ambush": (Ambush, Pass),
    "window": (Trap, Pass), "mirror": (Trap, Pass), "acid": (Acid,), "revive": (Revive,), "dispose": (Dispose,),
}
