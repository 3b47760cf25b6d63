"""Dungeon War's moves, one class per kind (docs/notation/dungeon-war.md).

Each move is a flat tuple whose first item names its kind, e.g. `('warp', sr, sc, dr, dc)`:
a class per kind adds named fields and is what the rules dispatch on, while the value stays
the tuple it always was (equal, same hash, same repr), so notation, golden playthroughs and
the engine's move keys are unchanged. Variable parts come last: a declared path (`Walk`,
`Go`), the board piece D-DW-22 re-uses (`source`), a list of cards or shot statuses.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, ClassVar, Self, cast

Square = tuple[int, int]


class Bare(type):
    """The metaclass of the moves and pendings: each class is a bare tuple (`__slots__ = ()`)."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> Bare:
        namespace.setdefault("__slots__", ())
        return super().__new__(mcs, name, bases, namespace, **kwargs)


# A field reads the tuple (a read-only property); typed Any so a class states its field's type.
def at(i: int, cast: Any = None) -> Any:
    return property(itemgetter(i) if cast is None else lambda t: cast(t[i]))


def pair(i: int) -> Any:
    return property(itemgetter(i, i + 1))


def tail(i: int) -> Any:
    return property(itemgetter(slice(i, None)))


def pairs_from(i: int) -> Any:
    """The (row, column) pairs from item i on: a declared path."""
    return property(lambda t: tuple((int(t[k]), int(t[k + 1])) for k in range(i, len(t) - 1, 2)))


class Move(tuple[Any, ...], metaclass=Bare):
    """A move: `(head, *fields)`. Subclasses name the fields; `typed` turns a plain tuple into one."""

    head: ClassVar[str] = ""

    def __init_subclass__(cls, head: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.head = head or cls.head

    def __reduce__(self) -> tuple[Any, ...]:
        return typed, (tuple(self),)


class _Plain(Move):
    """A move with no fields: ('end',) ('alchemy',) ('draw',) ('discard',) ('pass',)."""

    def __new__(cls) -> Self:
        return tuple.__new__(cls, (cls.head,))


class End(_Plain, head="end"): ...  # the end of the turn
class Alchemy(_Plain, head="alchemy"): ...  # the King Dragon's alchemy: gold
class Draw(_Plain, head="draw"): ...  # the King Dragon draws a war card
class Discard(_Plain, head="discard"): ...  # the drawn dungeon card is discarded, not laid
class Pass(_Plain, head="pass"): ...  # no trap, Mirror Shield or ambush now


class _One(Move):
    """A move with one field: ('face', total) ('element', index) ('card', index) ..."""

    value: Any = at(1)

    def __new__(cls, value: Any) -> Self:
        return tuple.__new__(cls, (cls.head, value))


class Face(_One, head="face"): ...  # chance: the knight's rolled move
class Element(_One, head="element"): ...  # the slimes' element, an index into the cycle
class Card(_One, head="card"): ...  # chance: a war card drawn
class Dungeon(_One, head="dungeon"): ...  # chance: a dungeon card drawn
class Lay(_One, head="lay"): ...  # lay the drawn dungeon card, flipped or not
class Fight(_One, head="fight"): ...  # chance: a melee's result
class Charm(_One, head="charm"): ...  # chance: brainwashing works or not
class Ambush(_One, head="ambush"): ...  # spring this face-down trap card
class Acid(_One, head="acid"): ...  # the card acid melts


class _Cards(Move):
    """A list of war cards: ('change', card...) ('dispose', card...)."""

    cards: tuple[int, ...] = tail(1)

    def __new__(cls, *cards: int) -> Self:
        return tuple.__new__(cls, (cls.head, *cards))


class Change(_Cards, head="change"): ...  # card change: the hand cards discarded
class Dispose(_Cards, head="dispose"): ...  # the worn disposable cards a fighter uses (the others are kept)


class Deal(Move, head="deal"):
    """Chance: a first dungeon card, flipped or not."""

    def __new__(cls, layout: int, flipped: bool) -> Deal:
        return tuple.__new__(cls, ("deal", layout, flipped))


class Place(Move, head="place"):
    """Initial placement: the piece code and its square."""

    square: Square = pair(2)

    def __new__(cls, code: str, r: int, c: int) -> Place:
        return tuple.__new__(cls, ("place", code, r, c))


class _Square(Move):
    """A move naming one square: ('roll', sr, sc) ('dash', ...) ('revive', r, c) ('remake', cr, cc)."""

    square: Square = pair(1)

    def __new__(cls, r: int, c: int) -> Self:
        return tuple.__new__(cls, (cls.head, r, c))


class Roll(_Square, head="roll"): ...  # the knight's move: the die is rolled first
class Dash(_Square, head="dash"): ...  # the knight's dash
class Revive(_Square, head="revive"): ...  # an immortal piece comes back here
class Remake(_Square, head="remake"): ...  # the card spot (card row, card column) remade


class _FromTo(Move):
    """A piece's action from `src` to `dst`, then more numbers: ('warp', sr, sc, dr, dc) ..."""

    src: Square = pair(1)
    dst: Square = pair(3)

    def __new__(cls, sr: int, sc: int, dr: int, dc: int, *rest: int) -> Self:
        return tuple.__new__(cls, (cls.head, sr, sc, dr, dc, *rest))


class Walk(_FromTo, head="move"):
    """('move', sr, sc, dr, dc, r1, c1, ...): a move, with the declared path when one is given."""

    path: tuple[Square, ...] = pairs_from(5)


class Warp(_FromTo, head="warp"): ...  # cross warp
class Make(_FromTo, head="make"): ...  # Dungeon Make; dst: the card spot
class Reverse(_FromTo, head="reverse"): ...  # Dungeon Reverse; dst: the card spot


class _Neutral(_FromTo):
    """('block', sr, sc, r, c[, from r, c]): a neutral piece put at range."""

    source: tuple[int, ...] = tail(5)


class Block(_Neutral, head="block"): ...  # an earth slime's block
class Fence(_Neutral, head="fence"): ...  # a wood slime's fence


class Go(Move, head="go"):
    """('go', r, c, r1, c1, ...): the rolled knight's destination (and declared path)."""

    dst: Square = pair(1)
    path: tuple[Square, ...] = pairs_from(3)

    def __new__(cls, r: int, c: int, *path: int) -> Go:
        return tuple.__new__(cls, ("go", r, c, *path))


class Put(Move, head="put"):
    """('put', r, c[, from r, c]): an event's piece; ('put', -1, -1) when none can go."""

    square: Square = pair(1)
    source: tuple[int, ...] = tail(3)

    def __new__(cls, r: int, c: int, *source: int) -> Put:
        return tuple.__new__(cls, ("put", r, c, *source))


class Summon(Move, head="summon"):
    """('summon', kind, r, c[, from r, c])."""

    square: Square = pair(2)
    source: tuple[int, ...] = tail(4)

    def __new__(cls, kind: str, r: int, c: int, *source: int) -> Summon:
        return tuple.__new__(cls, ("summon", kind, r, c, *source))


class _Slot(Move):
    """('equip', card, slot) ('unequip', card, slot): one step of Card placement."""

    card: int = at(1, int)
    slot: str = at(2, str)

    def __new__(cls, card: int, slot: str) -> Self:
        return tuple.__new__(cls, (cls.head, card, slot))


class Equip(_Slot, head="equip"): ...  # a card from the hand placed in a slot
class Unequip(_Slot, head="unequip"): ...  # a placed card discarded from its slot


class _CardUse(Move):
    """A worn card used by the piece on (sr, sc)."""

    src: Square = pair(1)
    card: int = at(3, int)


class UseCard(_CardUse, head="use"):
    """('use', sr, sc, card): a card with an AP effect."""

    def __new__(cls, sr: int, sc: int, card: int) -> UseCard:
        return tuple.__new__(cls, ("use", sr, sc, card))


class Brainwash(_CardUse, head="use"):
    """('use', sr, sc, card, tr, tc[, from r, c]): a targeted use (Charm)."""

    target: Square = pair(4)

    def __new__(cls, sr: int, sc: int, card: int, tr: int, tc: int, *source: int) -> Brainwash:
        return tuple.__new__(cls, ("use", sr, sc, card, tr, tc, *source))


class Shoot(_CardUse, head="shoot"):
    """('shoot', sr, sc, card, r, c): a shot aimed at (r, c)."""

    aim: Square = pair(4)

    def __new__(cls, sr: int, sc: int, card: int, r: int, c: int) -> Shoot:
        return tuple.__new__(cls, ("shoot", sr, sc, card, r, c))


class Shot(Move, head="shot"):
    """Chance: ('shot', status per target..., [reach]); status hit, close (a King Dragon missed
    by <= 9) or miss; a breath's rolled range last."""

    def __new__(cls, *fields: str | int) -> Shot:
        return tuple.__new__(cls, ("shot", *fields))

    @property
    def reach(self) -> int | None:
        last = self[-1]
        return last if isinstance(last, int) and not isinstance(last, bool) else None

    @property
    def statuses(self) -> tuple[str, ...]:
        return tuple(str(v) for v in (self[1:-1] if self.reach is not None else self[1:]))


class Trap(Move, head="trap"):
    """('trap', card[, r, c[, from r, c]]): a trap called in a window (or a Mirror Shield)."""

    card: int = at(1, int)
    square: Square = pair(2)
    source: tuple[int, ...] = tail(4)

    def __new__(cls, card: int, *where: int) -> Trap:
        return tuple.__new__(cls, ("trap", card, *where))


KINDS: dict[str, type[Move]] = {cls.head: cls for cls in (
    End, Alchemy, Draw, Discard, Pass, Face, Element, Card, Dungeon, Lay, Fight, Charm, Ambush, Acid, Change,
    Dispose, Deal, Place, Roll, Dash, Revive, Remake, Walk, Warp, Make, Reverse, Block, Fence, Go, Put, Summon,
    Equip, Unequip, UseCard, Shoot, Shot, Trap)}

CLASSES = frozenset((Move, Brainwash, *KINDS.values()))


def typed(move: tuple[Any, ...]) -> Move:
    """The move's class for a plain tuple (a move written by hand or read back)."""
    if type(move) in CLASSES:  # (not isinstance: a metaclass makes it slow, and this is on every apply)
        return cast(Move, move)
    cls = Brainwash if move[0] == "use" and len(move) > 4 else KINDS.get(str(move[0]) if move else "", Move)
    return tuple.__new__(cls, move)
