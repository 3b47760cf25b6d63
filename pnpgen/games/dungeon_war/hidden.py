"""Dungeon War's hidden information (HiddenInformation): what each seat sees.

Hidden: the war cards in each hand, the cards face down in the trap slots, and the order
and make-up of the war deck. Public: the board, every play-sheet card placed face up, the
war discard pile, the dungeon cards (their deck is known by elimination: no one holds
dungeon cards), gold, fatigue, elements, and how many cards each hand, trap slot row and
the war deck hold. A seat's view keeps its own hand and traps; of the others it keeps
counts only (docs/notation/dungeon-war.md, "Views").

A determinised state deals the unseen war cards (the copies not visible to the seat) at
random into the others' hands, their face-down trap slots (trap cards only) and the deck,
uniformly over such deals. In a window that asks only the seats able to answer (an ambush,
a trap window, a Mirror Shield) the table sees which seat is asked, so that seat gets a
face-down trap that answers; with `assume`, the
cards a move names are dealt first where it needs them. Memory of cards seen earlier is
not part of a view: a view is what the table shows now.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from pnpgen.content.yamlpos import where
from pnpgen.engine.protocol import Unseen
from pnpgen.errors import ImpossibleState

from . import cards, files, shooting
from .notation import square_text
from .state import Move, State

if TYPE_CHECKING:
    from .model import DungeonWarRules

FACE_DOWN = "trap"  # the play-sheet slot whose cards lie face down (digest §7; model._place_card)
UNKNOWN = "?"  # a face-down card of another seat in a view file: `trap ?`


class View(NamedTuple):
    """One seat's view: `state` with every hidden card taken out (the others' hands empty,
    their face-down traps off their sheets, the war deck all zero), plus the counts."""

    seat: int
    state: State
    hands: tuple[int, ...]  # cards in each seat's hand
    traps: tuple[int, ...]  # face-down trap cards on each play sheet
    deck: int  # cards in the war deck


def view(rules: DungeonWarRules, state: State, seat: int) -> View:
    hands = tuple(len(h) for h in state.hands)
    traps = tuple(sum(1 for slot, _ in gear if slot == FACE_DOWN) for gear in state.equip)
    equip = tuple(gear if s == seat else tuple(g for g in gear if g[0] != FACE_DOWN)
                  for s, gear in enumerate(state.equip))
    shown = state._replace(hands=tuple(h if s == seat else () for s, h in enumerate(state.hands)), equip=equip,
                           war_deck=(0,) * len(state.war_deck))
    return View(seat, shown, hands, traps, sum(state.war_deck))


def unseen_cards(rules: DungeonWarRules, v: View) -> list[int] | None:
    """Copies of each war card the seat cannot see (None when the view shows too many)."""
    s = v.state
    seen = Counter(i for hand in s.hands for i in hand)
    seen.update(i for gear in s.equip for _, i in gear)
    left = [card.count - seen[i] - s.war_discard[i] for i, card in enumerate(rules.cfg.war_cards)]
    return None if min(left, default=0) < 0 else left


def _needs(rules: DungeonWarRules, v: View, move: Move | None) -> list[tuple[str, int, int]]:
    """Hidden places the move `move` needs a card in: (hand | trap | deck, seat, card)."""
    if move is None:
        return []
    s, head = v.state, move[0]
    if head == "ambush" and s.phase == "ambush" and s.pending[5] != v.seat:
        return [("trap", s.pending[5], int(move[1]))]
    if head == "trap" and s.phase in ("window", "mirror") and s.pending[-1] != v.seat:
        return [("trap", s.pending[-1], int(move[1]))]
    if head == "equip" and s.seat != v.seat:
        return [("hand", s.seat, int(move[1]))]
    if head == "change" and s.seat != v.seat:
        return [("hand", s.seat, int(i)) for i in move[1:]]
    if head == "unequip" and move[2] == FACE_DOWN and s.seat != v.seat:
        return [("trap", s.seat, int(move[1]))]
    if head == "card" and v.deck and sum(v.hands[o] + v.traps[o] for o in range(s.players) if o != v.seat):
        return [("deck", -1, int(move[1]))]
    return []


def determinise(rules: DungeonWarRules, v: View, rng: random.Random, assume: Move | None = None) -> State | None:
    """A state consistent with `v` (see the module docstring); None if there is none, or none
    in which the hidden facts `assume` needs hold."""
    s, cfg = v.state, rules.cfg
    left = unseen_cards(rules, v)
    if left is None:
        return None
    others = [o for o in range(s.players) if o != v.seat]
    places = sum(v.hands[o] + v.traps[o] for o in others) + v.deck
    own_traps = sum(1 for slot, _ in s.equip[v.seat] if slot == FACE_DOWN)
    if sum(left) != places or v.hands[v.seat] != len(s.hands[v.seat]) or v.traps[v.seat] != own_traps:
        return None
    hands: dict[int, list[int]] = {o: [] for o in others}
    traps: dict[int, list[int]] = {o: [] for o in others}
    deck: list[int] = []
    pool = Counter({i: n for i, n in enumerate(left) if n})

    def take(i: int) -> bool:
        if pool[i] <= 0:
            return False
        pool[i] -= 1
        return True

    for where_, seat, i in _needs(rules, v, assume):
        target = deck if where_ == "deck" else (hands if where_ == "hand" else traps)[seat]
        room = v.deck if where_ == "deck" else (v.hands if where_ == "hand" else v.traps)[seat]
        if len(target) >= room or not take(i) or (where_ == "trap" and FACE_DOWN not in cfg.war_cards[i].categories):
            return None
        target.append(i)
    asked = _asked(rules, v)
    if asked is not None:  # the table sees the seat asked: it holds a face-down trap that answers
        seat, answers = asked
        if not any(answers(i) for i in traps[seat]):
            fits = [i for i in sorted(pool.elements()) if FACE_DOWN in cfg.war_cards[i].categories and answers(i)]
            if not fits or len(traps[seat]) >= v.traps[seat]:
                return None
            i = rng.choice(fits)
            take(i)
            traps[seat].append(i)
    for o in others:  # the other face-down slots: trap cards only
        need = v.traps[o] - len(traps[o])
        fits = [i for i in sorted(pool.elements()) if FACE_DOWN in cfg.war_cards[i].categories]
        if len(fits) < need:
            return None
        for i in rng.sample(fits, need):
            take(i)
            traps[o].append(i)
    rest = sorted(pool.elements())
    rng.shuffle(rest)
    for o in others:
        need = v.hands[o] - len(hands[o])
        hands[o] += rest[:need]
        rest = rest[need:]
    deck += rest
    if len(deck) != v.deck:
        return None
    counts = Counter(deck)
    return s._replace(
        hands=tuple(tuple(sorted(hands[o])) if o != v.seat else s.hands[o] for o in range(s.players)),
        equip=tuple(gear if o == v.seat else tuple(sorted((*gear, *((FACE_DOWN, i) for i in traps[o]))))
                    for o, gear in enumerate(s.equip)),
        war_deck=tuple(counts[i] for i in range(len(cfg.war_cards))))


def _asked(rules: DungeonWarRules, v: View) -> tuple[int, Any] | None:
    """In a window that asks only seats able to answer (an ambush on the square entered, a
    trap window, a Mirror Shield against the shot), the other seat asked and which of its
    face-down cards would let it answer; None otherwise."""
    s, cfg = v.state, rules.cfg
    if s.phase == "ambush" and s.pending[5] != v.seat:
        code = rules.dungeon(s).terrain[(s.pending[2], s.pending[3])]
        return s.pending[5], lambda i: cfg.war_cards[i].effects.get("ambush") == code
    if s.phase in ("window", "mirror") and s.pending[-1] != v.seat:
        seat = s.pending[-1]

        def answers(i: int) -> bool:
            own = tuple(g for g in s.equip[seat] if g[0] != FACE_DOWN)
            trial = s._replace(equip=tuple((*own, (FACE_DOWN, i)) if o == seat else gear
                                           for o, gear in enumerate(s.equip)))
            calls = (cards.trap_calls(rules, trial, seat) if s.phase == "window"
                     else shooting.mirrors(rules, trial, seat))
            return bool(calls)

        return seat, answers
    return None


def unseen(rules: DungeonWarRules, v: View, move: Move) -> Unseen:
    """The hidden facts a move rests on, in words (the referee prints them)."""
    cfg, s = rules.cfg, v.state
    needs = _needs(rules, v, move)
    if needs:
        facts = []
        for where_, seat, i in needs:
            name = cfg.war_cards[i].name_en
            facts.append(f"the war deck holds a {name} ({v.deck} cards in it; seat {v.seat + 1} cannot see which)"
                         if where_ == "deck" else
                         f"seat {seat + 1} holds a {name} in hand ({v.hands[seat]} cards, unseen)"
                         if where_ == "hand" else
                         f"seat {seat + 1} has a {name} face down in a trap slot ({v.traps[seat]} face down)")
        return Unseen(legal_if=" and ".join(facts))
    dst = _destination(s, move)
    if dst is None or s.phase not in ("turn", "go", "ambush") or dst in rules.occupants(s):
        return Unseen()
    terrain = rules.dungeon(s).terrain.get(dst)
    springs = sorted({c.name_en for c in cfg.war_cards if c.effects.get("ambush") == terrain})
    mover = s.seat
    holders = [o for o in range(s.players) if o not in (v.seat, mover) and v.traps[o]]
    if s.phase == "ambush":  # passing on: the seats after the one asked may still be asked
        holders = [o for o in holders if (o - s.seat) % s.players > (s.pending[5] - s.seat) % s.players]
    if not springs or not holders:
        return Unseen()
    seats = ", ".join(f"seat {o + 1} ({v.traps[o]} face down)" for o in holders)
    return Unseen(then=f"an ambush on {square_text(*dst)} if one of {seats} holds a {' or '.join(springs)} "
                       "face down; the view cannot tell")


def _destination(s: State, move: Move) -> tuple[int, int] | None:
    head = move[0]
    if head in ("move", "warp"):
        return int(move[3]), int(move[4])
    if head == "go":
        return int(move[1]), int(move[2])
    if head == "pass" and s.phase == "ambush":
        return s.pending[2], s.pending[3]
    return None


# --- view files ---------------------------------------------------------------------------
def view_to_data(rules: DungeonWarRules, v: View) -> dict[str, Any]:
    """A state file of `v`: `view: N` first; the others' hands as counts, their face-down
    traps as `trap ?`, the war deck as a count."""
    data = files.to_data(rules, v.state)
    data["hands"] = [cards if s == v.seat else v.hands[s] for s, cards in enumerate(data["hands"])]
    data["equip"] = [gear if s == v.seat else gear + [f"{FACE_DOWN} {UNKNOWN}"] * v.traps[s]
                     for s, gear in enumerate(data["equip"])]
    data["war_deck"] = v.deck
    return {"view": v.seat + 1, **data}


def _shape_problem(rules: DungeonWarRules, s: State) -> str | None:
    """What a view's `pending` must hold before the seat asked and the square entered are
    read from it (a full state has these checked by files.check, which needs every card)."""
    shape = files.pending_problem(s)
    if shape:
        return shape
    p = s.pending
    if s.phase == "ambush" and not (0 <= p[5] < s.players and p[5] != s.seat
                                    and (p[2], p[3]) in rules.dungeon(s).terrain):
        return "pending: an ambush is [mover's row, column, target row, column, dash, asked seat or trap card]"
    if s.phase in ("window", "mirror") and not 0 <= p[-1] < s.players:
        return f"pending: the {s.phase} phase ends with the seat asked, 1 to {s.players}"
    return None


def view_from_data(rules: DungeonWarRules, data: Any) -> View:
    if not isinstance(data, dict):
        raise ImpossibleState("a state file is a mapping")
    seat = data.get("view")
    players = data.get("players")
    if type(seat) is not int or type(players) is not int or not 1 <= seat <= players:
        raise ImpossibleState("view: the seat whose view this is, 1 to players", **where(data, "view", value=True))
    seat -= 1
    full = {k: v for k, v in data.items() if k != "view"}
    hands, equip, deck = full.get("hands"), full.get("equip", [[]] * players), full.get("war_deck")
    if not isinstance(hands, list) or len(hands) != players:
        raise ImpossibleState("hands: one entry per seat (a list for the view's seat, a count for the others)",
                              **where(data, "hands", value=True))
    if not isinstance(equip, list) or len(equip) != players or any(not isinstance(g, list) for g in equip):
        raise ImpossibleState("equip: one list of placed cards per seat", **where(data, "equip", value=True))
    if type(deck) is not int or deck < 0:
        raise ImpossibleState("war_deck: in a view, the number of cards in the war deck",
                              **where(data, "war_deck", value=True))
    counts, traps = [], []
    for s in range(players):
        if s == seat:
            if not isinstance(hands[s], list):
                raise ImpossibleState(f"hands: seat {s + 1} sees its own hand: list its cards",
                                      **where(data, "hands", value=True))
            counts.append(len(hands[s]))
        else:
            if type(hands[s]) is not int or hands[s] < 0:
                raise ImpossibleState(f"hands: seat {seat + 1} sees only how many cards seat {s + 1} holds: a count",
                                      **where(data, "hands", value=True))
            counts.append(hands[s])
        down = [g for g in equip[s] if re.fullmatch(rf"{FACE_DOWN} \{UNKNOWN}", str(g))]
        if s == seat and down:
            raise ImpossibleState(f"equip: seat {s + 1} knows its own face-down traps: name them",
                                  **where(data, "equip", value=True))
        if s != seat and any(str(g).startswith(f"{FACE_DOWN} ") and g not in down for g in equip[s]):
            raise ImpossibleState(f"equip: seat {seat + 1} cannot see seat {s + 1}'s face-down traps: write "
                                  f"'{FACE_DOWN} {UNKNOWN}'", **where(data, "equip", value=True))
        traps.append(len(down) if s != seat else sum(1 for g in equip[s] if str(g).startswith(f"{FACE_DOWN} ")))
    full["hands"] = [h if s == seat else [] for s, h in enumerate(hands)]
    full["equip"] = [[g for g in gear if s == seat or not str(g).startswith(f"{FACE_DOWN} ")]
                     for s, gear in enumerate(equip)]
    full["war_deck"] = {}
    state = files.from_data(rules, full)
    shape = _shape_problem(rules, state)
    if shape:
        raise ImpossibleState(shape, **where(data, "pending" if "pending" in data else "view", value=True))
    v = View(seat, state, tuple(counts), tuple(traps), deck)
    if any(t > rules.cfg.slots.get(FACE_DOWN, 0) for t in traps):
        raise ImpossibleState(f"equip: at most {rules.cfg.slots.get(FACE_DOWN, 0)} face-down traps a sheet",
                              **where(data, "equip", value=True))
    if any(n > rules.cfg.caps["hand"] for n in counts):
        raise ImpossibleState(f"hands: at most {rules.cfg.caps['hand']} cards", **where(data, "hands", value=True))
    world = determinise(rules, v, random.Random(0))
    if world is None:
        left = unseen_cards(rules, v)
        problem = ("the cards shown exceed the game's copies" if left is None else
                   f"{sum(left)} war cards are unseen but the hidden hands, face-down traps and deck hold "
                   f"{sum(counts[o] + traps[o] for o in range(players) if o != seat) + deck}, "
                   "or too few trap cards are unseen for the face-down slots")
        raise ImpossibleState(f"war_deck: no state fits this view: {problem}", **where(data, "war_deck", value=True))
    problems = files.check(rules, world)
    if problems:
        key = problems[0].split(":", 1)[0]
        raise ImpossibleState(problems[0], **where(data, key if key in data else "view", value=True))
    return v
