"""Move notation (documented in docs/notation/routou-dice.md).

Cells are two digits, X then Y ('34' is X=3, Y=4). Moves:
  L                 large placement (roll 6 dice)       S      small placement (roll 3)
  r012345           the roll (faces, any order)          pass   pass the whole turn
  p012/345          place: the rolled dice grouped into XYV triples, in order;
                    '~' after a triple declines it; '+s' buys a stock, '+d55' destroys
                    the die on 55 (zero currency)
  m34-37            move the die on 34 to 37 (shortest route); m34-35-45 with its path
  x34-37            slash the enemy die on 37 (x34-35-36-37 with its path)
  c34:2@34,3@36     shadow clone: split the die on 34 into 2 (stays) and 3 (ends on 36)
  b56               bodyguard contract on 56
"""

from __future__ import annotations

import re

from pnpgen.errors import BadMove
from pnpgen.games.routou_dice.board import Geometry
from pnpgen.games.routou_dice.state import Move
from pnpgen.games.words import number

_CELL = re.compile(r"^[0-9][0-9]$")
_TRIPLE = re.compile(r"^([0-9])([0-9])([0-9])(~?)$")


def cell_of(geo: Geometry, text: str, whole: str) -> int:
    if not _CELL.match(text):
        raise BadMove(f"'{whole}': '{text}' is not a cell (two digits, X then Y, e.g. 34)")
    x, y = int(text[0]), int(text[1])
    if not geo.on_board(x, y):
        raise BadMove(f"'{whole}': cell {text} is off the board (X {geo.x0}–{geo.x1}, Y {geo.y0}–{geo.y1})")
    return geo.index(x, y)


def parse(geo: Geometry, text: str) -> Move:
    whole = text
    t = "".join(text.split()).lower()
    if not t:
        raise BadMove("empty move")
    if t in ("l", "large"):
        return Move("large")
    if t in ("s", "small"):
        return Move("small")
    if t == "pass":
        return Move("pass")
    head, body = t[0], t[1:]
    if head == "r":
        if not (body.isascii() and body.isdigit()):
            raise BadMove(f"'{whole}': a roll is r followed by the faces, e.g. r012345")
        return Move("roll", dice=tuple(sorted(int(c) for c in body)))
    if head == "p":
        return _parse_place(geo, body, whole)
    if head in "mx":
        cells = body.split("-")
        if len(cells) < 2:
            raise BadMove(f"'{whole}': give the start and the end cell, e.g. {head}34-37")
        return Move("move" if head == "m" else "slash", path=tuple(cell_of(geo, c, whole) for c in cells))
    if head == "c":
        origin, sep, rest = body.partition(":")
        parts = rest.split(",")
        if not sep or len(parts) != 2:
            raise BadMove(f"'{whole}': a clone is c<cell>:<value>@<cell>,<value>@<cell>, e.g. c34:2@34,3@36")
        split = []
        for part in parts:
            value, at, end = part.partition("@")
            amount = number(value)
            if not at or amount is None:
                raise BadMove(f"'{whole}': '{part}' is not <value>@<cell>")
            split.append((amount, cell_of(geo, end, whole)))
        return Move("clone", cell=cell_of(geo, origin, whole), parts=(split[0], split[1]))
    if head == "b":
        return Move("contract", cell=cell_of(geo, body, whole))
    raise BadMove(f"'{whole}' is not a move (L, S, pass, r…, p…, m…, x…, c…, b…)")


def _parse_place(geo: Geometry, body: str, whole: str) -> Move:
    groups, *extras = body.split("+")
    triples: list[tuple[int, int, int]] = []
    declined: list[bool] = []
    for group in groups.split("/") if groups else []:
        m = _TRIPLE.match(group)
        if not m:
            raise BadMove(f"'{whole}': '{group}' is not a triple of three digits X, Y, value")
        triples.append((int(m[1]), int(m[2]), int(m[3])))
        declined.append(bool(m[4]))
    if not triples:
        raise BadMove(f"'{whole}': group the rolled dice into triples, e.g. p123/456")
    stocks, destroys = 0, []
    for extra in extras:
        if extra == "s":
            stocks += 1
        elif extra.startswith("d"):
            destroys.append(cell_of(geo, extra[1:], whole))
        else:
            raise BadMove(f"'{whole}': '+{extra}' is neither +s (stock) nor +d<cell> (destroy)")
    return Move("place", triples=tuple(triples), declined=tuple(declined), stocks=stocks,
                destroys=tuple(destroys))


def format_move(geo: Geometry, move: Move) -> str:
    k = move.kind
    if k == "large":
        return "L"
    if k == "small":
        return "S"
    if k == "pass":
        return "pass"
    if k == "roll":
        return "r" + "".join(str(d) for d in move.dice)
    if k == "place":
        groups = "/".join(f"{x}{y}{v}" + ("~" if no else "")
                          for (x, y, v), no in zip(move.triples, move.declined, strict=True))
        extras = "+s" * move.stocks + "".join(f"+d{geo.name(c)}" for c in move.destroys)
        return f"p{groups}{extras}"
    if k in ("move", "slash"):
        return ("m" if k == "move" else "x") + "-".join(geo.name(c) for c in move.path)
    if k == "clone":
        assert move.cell is not None
        parts = ",".join(f"{v}@{geo.name(c)}" for v, c in move.parts)
        return f"c{geo.name(move.cell)}:{parts}"
    if k == "contract":
        assert move.cell is not None
        return f"b{geo.name(move.cell)}"
    raise ValueError(k)
