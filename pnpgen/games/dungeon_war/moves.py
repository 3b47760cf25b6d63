"""Dungeon War's moves, one class per kind (docs/notation/dungeon-war.md).

Each move is a flat tuple whose first item names its kind, e.g. `('warp', sr, sc, dr, dc)`:
a class per kind adds named fields and is what the rules dispatch on, while the value stays
the tuple it always was (equal, same hash, same repr), so notation, golden playthroughs and
the engine's move keys are unchanged. Variable parts come last: a declared path (`Walk`,
`Go`), the board piece D-DW-22 re-uses (`source`), a list of cards or shot statuses.
"""

from __future__ import annotations

from typing import Any, ClassVar

Square = tuple[int, int]


def _pairs(values: tuple[Any, ...]) -> tuple[Square, ...]:
    return tuple((int(values[i]), int(values[i + 1])) for i in range(0, len(values) - 1, 2))


class Move(tuple[Any, ...]):
    """A move: `(head, *fields)`. Subclasses name the fields; `typed` turns a plain tuple into one."""

    __slots__ = ()
    head: ClassVar[str] = ""

    def __reduce__(self) -> tuple[Any, ...]:
        return typed, (tuple(self),)


class _Plain(Move):
    """A move with no fields: ('end',) ('alchemy',) ('draw',) ('discard',) ('pass',)."""

    __slots__ = ()

    def __new__(cls) -> Any:
        return tuple.__new__(cls, (cls.head,))


class End(_Plain):
    __slots__ = ()
    head = "end"


class Alchemy(_Plain):
    __slots__ = ()
    head = "alchemy"


class Draw(_Plain):
    __slots__ = ()
    head = "draw"


class Discard(_Plain):
    __slots__ = ()
    head = "discard"


class Pass(_Plain):
    __slots__ = ()
    head = "pass"


class _One(Move):
    """A move with one field: ('face', total) ('element', index) ('card', index) ..."""

    __slots__ = ()

    def __new__(cls, value: Any) -> Any:
        return tuple.__new__(cls, (cls.head, value))

    @property
    def value(self) -> Any:
        return self[1]


class Face(_One):  # chance: the knight's rolled move
    __slots__ = ()
    head = "face"


class Element(_One):  # the slimes' element, an index into the cycle
    __slots__ = ()
    head = "element"


class Card(_One):  # chance: a war card drawn
    __slots__ = ()
    head = "card"


class Dungeon(_One):  # chance: a dungeon card drawn
    __slots__ = ()
    head = "dungeon"


class Lay(_One):  # lay the drawn dungeon card, flipped or not
    __slots__ = ()
    head = "lay"


class Fight(_One):  # chance: a melee's result
    __slots__ = ()
    head = "fight"


class Charm(_One):  # chance: brainwashing works or not
    __slots__ = ()
    head = "charm"


class Ambush(_One):  # spring this face-down trap card
    __slots__ = ()
    head = "ambush"


class Acid(_One):  # the card acid melts
    __slots__ = ()
    head = "acid"


class _Cards(Move):
    """A list of war cards: ('change', card...) ('dispose', card...)."""

    __slots__ = ()

    def __new__(cls, *cards: int) -> Any:
        return tuple.__new__(cls, (cls.head, *cards))

    @property
    def cards(self) -> tuple[int, ...]:
        return self[1:]


class Change(_Cards):  # card change: the hand cards discarded
    __slots__ = ()
    head = "change"


class Dispose(_Cards):  # the worn disposable cards a fighter uses (the others are kept)
    __slots__ = ()
    head = "dispose"


class Deal(Move):  # chance: a first dungeon card, flipped or not
    __slots__ = ()
    head = "deal"

    def __new__(cls, layout: int, flipped: bool) -> Deal:
        return tuple.__new__(cls, ("deal", layout, flipped))


class Place(Move):  # initial placement: the piece code and its square
    __slots__ = ()
    head = "place"

    def __new__(cls, code: str, r: int, c: int) -> Place:
        return tuple.__new__(cls, ("place", code, r, c))

    @property
    def square(self) -> Square:
        return self[2], self[3]


class _Square(Move):
    """A move naming one square: ('roll', sr, sc) ('dash', ...) ('revive', r, c) ('remake', cr, cc)."""

    __slots__ = ()

    def __new__(cls, r: int, c: int) -> Any:
        return tuple.__new__(cls, (cls.head, r, c))

    @property
    def square(self) -> Square:
        return self[1], self[2]


class Roll(_Square):
    __slots__ = ()
    head = "roll"


class Dash(_Square):
    __slots__ = ()
    head = "dash"


class Revive(_Square):
    __slots__ = ()
    head = "revive"


class Remake(_Square):  # the card spot (card row, card column)
    __slots__ = ()
    head = "remake"


class _FromTo(Move):
    """A piece's action from `src` to `dst`, then more numbers: ('warp', sr, sc, dr, dc) ..."""

    __slots__ = ()

    def __new__(cls, sr: int, sc: int, dr: int, dc: int, *rest: int) -> Any:
        return tuple.__new__(cls, (cls.head, sr, sc, dr, dc, *rest))

    @property
    def src(self) -> Square:
        return self[1], self[2]

    @property
    def dst(self) -> Square:
        return self[3], self[4]


class Walk(_FromTo):
    """('move', sr, sc, dr, dc, r1, c1, ...): a move, with the declared path when one is given."""

    __slots__ = ()
    head = "move"

    @property
    def path(self) -> tuple[Square, ...]:
        return _pairs(self[5:])


class Warp(_FromTo):
    __slots__ = ()
    head = "warp"


class Make(_FromTo):  # dst: the card spot
    __slots__ = ()
    head = "make"


class Reverse(_FromTo):  # dst: the card spot
    __slots__ = ()
    head = "reverse"


class _Neutral(_FromTo):
    """('block', sr, sc, r, c[, from r, c]): a neutral piece put at range."""

    __slots__ = ()

    @property
    def source(self) -> tuple[int, ...]:
        return self[5:]


class Block(_Neutral):
    __slots__ = ()
    head = "block"


class Fence(_Neutral):
    __slots__ = ()
    head = "fence"


class Go(Move):
    """('go', r, c, r1, c1, ...): the rolled knight's destination (and declared path)."""

    __slots__ = ()
    head = "go"

    def __new__(cls, r: int, c: int, *path: int) -> Go:
        return tuple.__new__(cls, ("go", r, c, *path))

    @property
    def dst(self) -> Square:
        return self[1], self[2]

    @property
    def path(self) -> tuple[Square, ...]:
        return _pairs(self[3:])


class Put(Move):
    """('put', r, c[, from r, c]): an event's piece; ('put', -1, -1) when none can go."""

    __slots__ = ()
    head = "put"

    def __new__(cls, r: int, c: int, *source: int) -> Put:
        return tuple.__new__(cls, ("put", r, c, *source))

    @property
    def square(self) -> Square:
        return self[1], self[2]

    @property
    def source(self) -> tuple[int, ...]:
        return self[3:]


class Summon(Move):
    """('summon', kind, r, c[, from r, c])."""

    __slots__ = ()
    head = "summon"

    def __new__(cls, kind: str, r: int, c: int, *source: int) -> Summon:
        return tuple.__new__(cls, ("summon", kind, r, c, *source))

    @property
    def square(self) -> Square:
        return self[2], self[3]

    @property
    def source(self) -> tuple[int, ...]:
        return self[4:]


class _Slot(Move):
    """('equip', card, slot) ('unequip', card, slot): one step of Card placement."""

    __slots__ = ()

    def __new__(cls, card: int, slot: str) -> Any:
        return tuple.__new__(cls, (cls.head, card, slot))

    @property
    def card(self) -> int:
        return int(self[1])

    @property
    def slot(self) -> str:
        return str(self[2])


class Equip(_Slot):
    __slots__ = ()
    head = "equip"


class Unequip(_Slot):
    __slots__ = ()
    head = "unequip"


class _CardUse(Move):
    """A worn card used by the piece on (sr, sc)."""

    __slots__ = ()

    @property
    def src(self) -> Square:
        return self[1], self[2]

    @property
    def card(self) -> int:
        return int(self[3])


class UseCard(_CardUse):
    """('use', sr, sc, card): a card with an AP effect."""

    __slots__ = ()
    head = "use"

    def __new__(cls, sr: int, sc: int, card: int) -> UseCard:
        return tuple.__new__(cls, ("use", sr, sc, card))


class Brainwash(_CardUse):
    """('use', sr, sc, card, tr, tc[, from r, c]): a targeted use (Charm)."""

    __slots__ = ()
    head = "use"

    def __new__(cls, sr: int, sc: int, card: int, tr: int, tc: int, *source: int) -> Brainwash:
        return tuple.__new__(cls, ("use", sr, sc, card, tr, tc, *source))

    @property
    def target(self) -> Square:
        return self[4], self[5]


class Shoot(_CardUse):
    """('shoot', sr, sc, card, r, c): a shot aimed at (r, c)."""

    __slots__ = ()
    head = "shoot"

    def __new__(cls, sr: int, sc: int, card: int, r: int, c: int) -> Shoot:
        return tuple.__new__(cls, ("shoot", sr, sc, card, r, c))

    @property
    def aim(self) -> Square:
        return self[4], self[5]


class Shot(Move):
    """Chance: ('shot', status per target..., [reach]); status hit, close (a King Dragon missed
    by <= 9) or miss; a breath's rolled range last."""

    __slots__ = ()
    head = "shot"

    def __new__(cls, *fields: str | int) -> Shot:
        return tuple.__new__(cls, ("shot", *fields))

    @property
    def reach(self) -> int | None:
        last = self[-1]
        return last if isinstance(last, int) and not isinstance(last, bool) else None

    @property
    def statuses(self) -> tuple[str, ...]:
        return tuple(str(v) for v in (self[1:-1] if self.reach is not None else self[1:]))


class Trap(Move):
    """('trap', card[, r, c[, from r, c]]): a trap called in a window (or a Mirror Shield)."""

    __slots__ = ()
    head = "trap"

    def __new__(cls, card: int, *where: int) -> Trap:
        return tuple.__new__(cls, ("trap", card, *where))

    @property
    def card(self) -> int:
        return int(self[1])

    @property
    def square(self) -> Square:
        return self[2], self[3]

    @property
    def source(self) -> tuple[int, ...]:
        return self[4:]


KINDS: dict[str, type[Move]] = {cls.head: cls for cls in (
    End, Alchemy, Draw, Discard, Pass, Face, Element, Card, Dungeon, Lay, Fight, Charm, Ambush, Acid, Change,
    Dispose, Deal, Place, Roll, Dash, Revive, Remake, Walk, Warp, Make, Reverse, Block, Fence, Go, Put, Summon,
    Equip, Unequip, UseCard, Shoot, Shot, Trap)}


def typed(move: tuple[Any, ...]) -> Move:
    """The move's class for a plain tuple (a move written by hand or read back)."""
    if isinstance(move, Move):
        return move
    cls = Brainwash if move[0] == "use" and len(move) > 4 else KINDS.get(str(move[0]) if move else "", Move)
    return tuple.__new__(cls, move)
