"""Dungeon War move notation (docs/notation/dungeon-war.md). Squares are a column letter
and a row number (`k5`); card spots are `row.column` in cards (`3.5`)."""

from __future__ import annotations

import re
from typing import Any

from pnpgen.errors import BadMove

from .config import ARMY, Config
from .moves import Move, typed

COLUMNS = "abcdefghijklmnopqrstuvwxyz"
SQ = r"([a-z])(\d{1,2})"
SPOT = r"(\d)\.(\d)"
RESULTS = ("win", "close-win", "draw", "close-loss", "loss")


def square_text(r: int, c: int) -> str:
    return f"{COLUMNS[c]}{r + 1}" if 0 <= c < len(COLUMNS) else "-"


def _sq(match: re.Match[str], first: int) -> tuple[int, int]:
    return int(match.group(first + 1)) - 1, COLUMNS.index(match.group(first))


def _spot(match: re.Match[str], first: int) -> tuple[int, int]:
    return int(match.group(first)) - 1, int(match.group(first + 1)) - 1


def format_move(cfg: Config, move: Move) -> str:
    head, rest = move[0], [int(v) if isinstance(v, bool | int) else v for v in move[1:]]
    if head == "deal":
        return f"deal {cfg.layouts[int(rest[0])].id}{'~' if move[2] else ''}"
    if head == "place":
        return f"{rest[0]}@{square_text(int(rest[1]), int(rest[2]))}"
    if head in ("end", "alchemy", "draw", "discard"):
        return str(head)
    if head == "move" and len(rest) > 4:  # a declared path: start, then every square entered
        return "-".join(square_text(int(rest[i]), int(rest[i + 1])) for i in [0, *range(4, len(rest), 2)])
    if head == "go" and len(rest) > 2:
        return "go " + "-".join(square_text(int(rest[i]), int(rest[i + 1])) for i in range(2, len(rest), 2))
    if head in ("move", "warp"):
        sep = "-" if head == "move" else "*"
        return f"{square_text(int(rest[0]), int(rest[1]))}{sep}{square_text(int(rest[2]), int(rest[3]))}"
    if head in ("roll", "dash"):
        return f"{square_text(int(rest[0]), int(rest[1]))} {head}"
    if head == "face":
        return f"roll {rest[0]}"
    if head == "put" and len(rest) > 2:
        return f"put {square_text(int(rest[0]), int(rest[1]))}" + _source(rest[2:])
    if head in ("go", "put"):
        return f"{head} {square_text(int(rest[0]), int(rest[1]))}" if int(rest[0]) >= 0 else f"{head} none"
    if head in ("make", "reverse"):
        return f"{square_text(int(rest[0]), int(rest[1]))} {head} {int(rest[2]) + 1}.{int(rest[3]) + 1}"
    if head in ("block", "fence"):
        return (f"{square_text(int(rest[0]), int(rest[1]))} {head} {square_text(int(rest[2]), int(rest[3]))}"
                + _source(rest[4:]))
    if head == "summon":
        return f"summon {cfg.pieces[str(rest[0])].code}@{square_text(int(rest[1]), int(rest[2]))}" + _source(rest[3:])
    if head == "remake":
        return f"remake {int(rest[0]) + 1}.{int(rest[1]) + 1}"
    if head == "element":
        return f"element {cfg.cycle[int(rest[0])]}"
    if head == "fight":
        return f"fight {rest[0]}"
    if head == "card":
        return f"card {cfg.war_cards[int(rest[0])].id}"
    if head == "dungeon":
        return f"dungeon {cfg.layouts[int(rest[0])].id}"
    if head == "lay":
        return "lay~" if move[1] else "lay"
    if head in ("equip", "unequip"):
        card = cfg.war_cards[int(rest[0])]
        fits = [cat for cat in card.categories if cat in cfg.slots]
        return f"{head} {card.id}" + (f" as {rest[1]}" if len(fits) > 1 else "")
    if head == "shoot":
        return (f"{square_text(int(rest[0]), int(rest[1]))} shoot {cfg.war_cards[int(rest[2])].id} "
                f"{square_text(int(rest[3]), int(rest[4]))}")
    if head == "change":
        return "change " + " ".join(cfg.war_cards[int(i)].id for i in rest)
    if head == "shot":
        return "shot " + " ".join(str(v) if isinstance(v, str) else f"reach {v}" for v in rest)
    if head == "ambush":
        return f"ambush {cfg.war_cards[int(rest[0])].id}"
    if head == "trap":
        where = f" {square_text(int(rest[1]), int(rest[2]))}" if len(rest) > 1 else ""
        return f"trap {cfg.war_cards[int(rest[0])].id}{where}" + _source(rest[3:])
    if head == "acid":
        return f"acid {cfg.war_cards[int(rest[0])].id}"
    if head == "dispose":
        return " ".join(["dispose", *(cfg.war_cards[int(i)].id for i in rest)])
    if head == "revive":
        return f"revive {square_text(int(rest[0]), int(rest[1]))}"
    if head == "charm":
        return f"charm {'yes' if move[1] else 'no'}"
    if head == "pass":
        return "pass"
    if head == "use":
        target = f" {square_text(int(rest[3]), int(rest[4]))}" if len(rest) > 3 else ""
        return (f"{square_text(int(rest[0]), int(rest[1]))} use {cfg.war_cards[int(rest[2])].id}{target}"
                + _source(rest[5:]))
    return repr(move)


def _source(rest: list[Any]) -> str:
    """` from j4`: the board piece D-DW-22 re-uses, when none is unused."""
    return f" from {square_text(int(rest[0]), int(rest[1]))}" if len(rest) >= 2 else ""


FROM = r"(?: from " + SQ + ")?"


def _from(m: re.Match[str], first: int) -> tuple[int, ...]:
    return _checked(_sq(m, first)) if m.group(first) else ()


def parse_move(cfg: Config, text: Any) -> Move:
    return typed(_parse(cfg, text))


def _parse(cfg: Config, text: Any) -> tuple[Any, ...]:
    if not isinstance(text, str) or len(text) > 80:
        raise BadMove("a move is a short line of text (see docs/notation/dungeon-war.md)")
    t = " ".join(text.strip().split())
    codes = {cfg.pieces[name].code: name for name in ARMY}
    layouts = {layout.id: i for i, layout in enumerate(cfg.layouts)}
    cards = {card.id: i for i, card in enumerate(cfg.war_cards)}
    if t in ("end", "alchemy", "draw", "discard", "pass"):
        return (t,)
    if m := re.fullmatch(r"(trap|acid) ([a-z0-9_-]+)(?: " + SQ + FROM + ")?", t):
        if m.group(2) not in cards:
            raise BadMove(f"no war card '{m.group(2)}'")
        if m.group(3) and m.group(1) == "trap":
            return ("trap", cards[m.group(2)], *_checked(_sq(m, 3)), *_from(m, 5))
        if m.group(3):
            raise BadMove("acid names the card it melts, no square")
        return (m.group(1), cards[m.group(2)])
    if m := re.fullmatch(r"dispose((?: [a-z0-9_-]+)*)", t):
        names = m.group(1).split()
        if unknown := [n for n in names if n not in cards]:
            raise BadMove(f"no war card '{unknown[0]}'")
        return ("dispose", *sorted(cards[n] for n in names))
    if m := re.fullmatch(r"revive " + SQ, t):
        return ("revive", *_checked(_sq(m, 1)))
    if t in ("charm yes", "charm no"):
        return ("charm", t == "charm yes")
    if m := re.fullmatch(r"ambush ([a-z0-9_-]+)", t):
        if m.group(1) not in cards:
            raise BadMove(f"no war card '{m.group(1)}'")
        return ("ambush", cards[m.group(1)])
    if t in ("lay", "lay~"):
        return ("lay", t == "lay~")
    if m := re.fullmatch(r"deal ([a-z0-9_-]+)(~?)", t):
        if m.group(1) not in layouts:
            raise BadMove(f"no dungeon card '{m.group(1)}'")
        return ("deal", layouts[m.group(1)], bool(m.group(2)))
    if m := re.fullmatch(r"([A-Z])@" + SQ, t):
        if m.group(1) not in codes:
            raise BadMove(f"no piece code '{m.group(1)}' ({', '.join(codes)})")
        return ("place", m.group(1), *_checked(_sq(m, 2)))
    if re.fullmatch(SQ + r"(?:-" + SQ + "){2,}", t):  # a declared path
        squares = [_checked((int(row) - 1, COLUMNS.index(col))) for col, row in re.findall(SQ, t)]
        path = [v for sq in squares[1:] for v in sq]
        return ("move", *squares[0], *squares[-1], *path)
    if re.fullmatch(r"go " + SQ + r"(?:-" + SQ + ")+", t):
        squares = [_checked((int(row) - 1, COLUMNS.index(col))) for col, row in re.findall(SQ, t[3:])]
        return ("go", *squares[-1], *[v for sq in squares for v in sq])
    if m := re.fullmatch(SQ + r"([-*])" + SQ, t):
        return ("move" if m.group(3) == "-" else "warp", *_checked(_sq(m, 1)), *_checked(_sq(m, 4)))
    if m := re.fullmatch(SQ + r" (roll|dash)", t):
        return (m.group(3), *_checked(_sq(m, 1)))
    if m := re.fullmatch(r"roll (\d{1,2})", t):
        return ("face", int(m.group(1)))
    if m := re.fullmatch(r"put " + SQ + r" from " + SQ, t):
        return ("put", *_checked(_sq(m, 1)), *_checked(_sq(m, 3)))
    if m := re.fullmatch(r"(go|put) " + SQ, t):
        return (m.group(1), *_checked(_sq(m, 2)))
    if t == "put none":
        return ("put", -1, -1)
    if m := re.fullmatch(SQ + r" (make|reverse) " + SPOT, t):
        return (m.group(3), *_checked(_sq(m, 1)), *_spot(m, 4))
    if m := re.fullmatch(SQ + r" (block|fence) " + SQ + FROM, t):
        return (m.group(3), *_checked(_sq(m, 1)), *_checked(_sq(m, 4)), *_from(m, 6))
    if m := re.fullmatch(r"summon ([A-Z])@" + SQ + FROM, t):
        if m.group(1) not in codes:
            raise BadMove(f"no piece code '{m.group(1)}' ({', '.join(codes)})")
        return ("summon", codes[m.group(1)], *_checked(_sq(m, 2)), *_from(m, 4))
    if m := re.fullmatch(r"remake " + SPOT, t):
        return ("remake", *_spot(m, 1))
    if m := re.fullmatch(r"element (\w+)", t):
        if m.group(1) not in cfg.cycle:
            raise BadMove(f"no slime element '{m.group(1)}' ({', '.join(cfg.cycle)})")
        return ("element", cfg.cycle.index(m.group(1)))
    if m := re.fullmatch(r"fight ([a-z-]+)", t):
        if m.group(1) not in RESULTS:
            raise BadMove(f"a fight result is one of {', '.join(RESULTS)}")
        return ("fight", m.group(1))
    if m := re.fullmatch(r"(equip|unequip) ([a-z0-9_-]+)(?: as ([a-z]+))?", t):
        if m.group(2) not in cards:
            raise BadMove(f"no war card '{m.group(2)}'")
        card = cfg.war_cards[cards[m.group(2)]]
        fits = [cat for cat in card.categories if cat in cfg.slots]
        slot = m.group(3) or fits[0]
        if slot not in fits:
            raise BadMove(f"{card.id} fits the slot(s) {', '.join(fits)}")
        if len(fits) > 1 and not m.group(3):
            raise BadMove(f"{card.id} fits {' or '.join(fits)}: write 'as {fits[0]}'")
        return (m.group(1), cards[m.group(2)], slot)
    if m := re.fullmatch(SQ + r" shoot ([a-z0-9_-]+) " + SQ, t):
        if m.group(3) not in cards:
            raise BadMove(f"no war card '{m.group(3)}'")
        return ("shoot", *_checked(_sq(m, 1)), cards[m.group(3)], *_checked(_sq(m, 4)))
    if m := re.fullmatch(r"shot((?: (?:hit|close|miss))+)(?: reach (\d{1,2}))?", t):
        return ("shot", *m.group(1).split(), *((int(m.group(2)),) if m.group(2) else ()))
    if m := re.fullmatch(SQ + r" use ([a-z0-9_-]+)(?: " + SQ + FROM + ")?", t):
        if m.group(3) not in cards:
            raise BadMove(f"no war card '{m.group(3)}'")
        target = _checked(_sq(m, 4)) if m.group(4) else ()
        return ("use", *_checked(_sq(m, 1)), cards[m.group(3)], *target, *_from(m, 6))
    if m := re.fullmatch(r"change ([a-z0-9_-]+)(?: ([a-z0-9_-]+))?", t):
        ids = [g for g in m.groups() if g]
        for card_id in ids:
            if card_id not in cards:
                raise BadMove(f"no war card '{card_id}'")
        return ("change", *sorted(cards[card_id] for card_id in ids))
    if m := re.fullmatch(r"card ([a-z0-9_-]+)", t):
        if m.group(1) not in cards:
            raise BadMove(f"no war card '{m.group(1)}'")
        return ("card", cards[m.group(1)])
    if m := re.fullmatch(r"dungeon ([a-z0-9_-]+)", t):
        if m.group(1) not in layouts:
            raise BadMove(f"no dungeon card '{m.group(1)}'")
        return ("dungeon", layouts[m.group(1)])
    raise BadMove(f"cannot read '{t}' as a Dungeon War move (see docs/notation/dungeon-war.md)")


def _checked(square: tuple[int, int]) -> tuple[int, int]:
    if square[0] < 0:
        raise BadMove("rows count from 1")
    return square
