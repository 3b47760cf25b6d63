"""Pairing Five (2つが5つ): GAMES.md §3.5, decision D-FA-10.

All ten dice are rolled (one chance node: the red face and the multiset of the white
ones). The red die goes first, on any area's 1st cell; then the white dice, one at a
time. Placing a die fires its area's effect on one unused die (it must be able to);
no 2nd cell before every 1st cell is filled; the areas hold different faces and the
two dice of an area match. Placing the last die wins; no legal placement loses.
The areas and their effects are board data in rules.yaml (one list per side).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction
from itertools import combinations
from typing import Any, NamedTuple

from pnpgen.content.game import GameContent
from pnpgen.content.schema import text_for
from pnpgen.engine.collection import Variant
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Outcome
from pnpgen.errors import BadMove
from pnpgen.games.fast_alone.dice import roll, roll_multisets
from pnpgen.games.fast_alone.pairing_five.board import CHANGES, Area, read_area
from pnpgen.games.fast_alone.puzzle import content_error
from pnpgen.games.words import number

WON, STUCK = "p5_won", "p5_stuck"

ENDS = (WON, STUCK)


class Move(NamedTuple):
    kind: str  # "roll" (all ten dice), "reroll" (the dice an effect rerolls) or "place"
    face: int = 0  # place: the face of the die placed
    area: int = -1  # place: the area
    effect: str = ""  # place: "change", "reroll", "every", "swap", or "" (the last die)
    a: int = 0  # change: the unused die's face; reroll/every: that face; swap: 1st area
    b: int = 0  # change: its new face; swap: 2nd area
    dice: tuple[int, ...] = ()  # roll: the white faces; reroll: the new faces
    red: int = 0  # roll: the red face


class State(NamedTuple):
    cells: tuple[int, ...]  # two per area (1st, 2nd), in board order; 0 empty
    red: int  # the red die's face while it waits to be placed, else 0
    red_area: int  # the area holding the red die, -1 before it is placed
    pool: tuple[int, ...]  # the unused white dice, sorted
    pending: int  # dice taken by a reroll effect, to be rolled (a chance node)
    turns: int  # dice placed
    rerolls: int  # reroll effects fired
    end: str  # "" while the game goes on


class PairingFiveRules(Variant[State, Move]):
    """One board side of Pairing Five."""

    ENDS = ENDS

    def __init__(self, content: GameContent, key: str, data: Any, side: str) -> None:
        super().__init__(content, key, data, side)
        self.depth = int(data["solver"]["depth"])
        self.exact_from = int(data["solver"]["exact_from"])
        self.misfit_cost = float(data["solver"]["misfit_cost"])
        entry = data["sides"][side]
        self.white = int(data["dice"]["white"])
        self.faces = int(data["dice"]["faces"])
        self.areas = tuple(read_area(a, self.faces) for a in entry["areas"])
        self.n = len(self.areas)
        labels = [a.label for a in self.areas]
        if len(set(labels)) != len(labels) or not all(re.fullmatch(r"[A-Z]", x) for x in labels):
            raise content_error(f"sides.{side}.areas: labels must be different capital letters", entry, "areas")
        if self.white + 1 != 2 * self.n:
            raise content_error(f"dice.white: {self.white} white dice and the red fill {self.white + 1} cells, "
                        f"but {self.n} areas have {2 * self.n}", data["dice"], "white")
        if not 2 <= self.faces <= 20 or self.faces < self.n:
            raise content_error(f"dice.faces: between {self.n} (one face per area) and 20", data["dice"], "faces")
        self.max_steps = 4 * (self.white + 2)


    # --- board queries -------------------------------------------------------------------
    def count(self, cells: tuple[int, ...], area: int) -> int:
        return (cells[2 * area] > 0) + (cells[2 * area + 1] > 0)

    def first_full(self, cells: tuple[int, ...]) -> bool:
        return all(cells[0::2])

    def label(self, area: int) -> str:
        return self.areas[area].label

    def spots(self, state: State) -> list[tuple[int, int]]:
        """(face, area) for every placement the cell rules allow (effects not yet checked)."""
        cells = state.cells
        if state.red:
            return [(state.red, a) for a in range(self.n) if not cells[2 * a]]
        firsts = cells[0::2]
        result = []
        if all(firsts):  # every area started: a second die matching the first
            seconds = cells[1::2]
            for face in sorted(set(state.pool)):
                result += [(face, a) for a, first in enumerate(firsts) if first == face and not seconds[a]]
        else:  # a first die of a face no area holds yet, in an empty area
            empty = [a for a, first in enumerate(firsts) if not first]
            for face in sorted(set(state.pool)):
                if face not in firsts:
                    result += [(face, a) for a in empty]
        return result

    def changes(self, area: Area, face: int) -> list[int]:
        """The new faces a change effect may give a die showing `face`."""
        if area.effect == "down":
            return list(range(1, face))
        if area.effect == "up":
            return list(range(face + 1, self.faces + 1))
        if area.effect == "flip":
            return [self.faces + 1 - face]
        if area.effect == "shift":  # D-FA-11: the low half only goes up, the high half only down
            new = face + area.by if face <= self.faces // 2 else face - area.by
            return [new] if 1 <= new <= self.faces else []
        return [f for f in range(1, self.faces + 1) if f != face]

    def effect_options(self, area: int, cells: tuple[int, ...], pool: tuple[int, ...]) -> list[tuple[str, int, int]]:
        """How the area's effect can fire once a die sits in it (cells, pool: after placing).
        The last die fires nothing: [("", 0, 0)]."""
        if not pool:
            return [("", 0, 0)]
        spec = self.areas[area]
        if spec.effect == "swap":
            held = [a for a in range(self.n) if cells[2 * a]]
            return [("swap", p, q) for p, q in combinations(held, 2)]
        faces = sorted(set(pool))
        if spec.effect == "reroll":
            return [("reroll", f, 0) for f in faces]
        if spec.effect == "reroll_same":
            counts = Counter(pool)
            return [("every", f, 0) for f in faces if counts[f] >= spec.least]
        return [("change", f, new) for f in faces for new in self.changes(spec, f)]

    def _placed(self, state: State, face: int, area: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Cells and unused dice once a die of `face` is put in `area` (no checks)."""
        cells = list(state.cells)
        cells[2 * area + (1 if cells[2 * area] else 0)] = face
        pool = state.pool
        if not state.red:
            i = pool.index(face)
            pool = pool[:i] + pool[i + 1:]
        return tuple(cells), pool

    # --- lifecycle -----------------------------------------------------------------------
    def initial_state(self, players: int) -> State:
        return State((0,) * (2 * self.n), 0, -1, (), 0, 0, 0, "")

    def rolled(self, state: State) -> bool:
        return bool(state.red or state.pool or any(state.cells))

    def current_player(self, state: State) -> int:
        if state.end:
            return TERMINAL
        return CHANCE if state.pending or not self.rolled(state) else 0

    def legal_moves(self, state: State) -> list[Move]:
        if self.current_player(state) != 0:
            return []
        moves = []
        for face, area in self.spots(state):
            cells, pool = self._placed(state, face, area)
            moves += [Move("place", face, area, e, a, b) for e, a, b in self.effect_options(area, cells, pool)]
        return moves

    def has_move(self, state: State) -> bool:
        for face, area in self.spots(state):
            cells, pool = self._placed(state, face, area)
            if self.effect_options(area, cells, pool):
                return True
        return False

    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        if self.current_player(state) != CHANCE:
            return []
        if state.pending:
            return [(Move("reroll", dice=d), p) for d, p in roll_multisets(state.pending, self.faces)]
        red = Fraction(1, self.faces)
        return [(Move("roll", dice=d, red=r), p * red) for r in range(1, self.faces + 1)
                for d, p in roll_multisets(self.white, self.faces)]

    def sample_chance(self, state: State, rng: random.Random) -> Move:
        if state.pending:
            return Move("reroll", dice=roll(state.pending, self.faces, rng))
        red = rng.randint(1, self.faces)
        return Move("roll", dice=roll(self.white, self.faces, rng), red=red)

    def advance(self, state: State, move: Move) -> State:
        """The mechanics of a move already known to be legal (no events): the solver's step."""
        return self.settle(self.moved(state, move))

    def moved(self, state: State, move: Move) -> State:
        """advance() before the end is settled: the dice moved, `end` still ""."""
        if move.kind == "roll":
            return state._replace(red=move.red, pool=tuple(sorted(move.dice)))
        if move.kind == "reroll":
            return state._replace(pool=tuple(sorted(state.pool + move.dice)), pending=0)
        cells, pool = self._placed(state, move.face, move.area)
        red_area = move.area if state.red else state.red_area
        pending, rerolls = 0, state.rerolls
        if move.effect == "change":
            i = pool.index(move.a)
            pool = tuple(sorted(pool[:i] + pool[i + 1:] + (move.b,)))
        elif move.effect in ("reroll", "every"):
            pending = 1 if move.effect == "reroll" else pool.count(move.a)
            i = pool.index(move.a)
            pool = pool[:i] + pool[i + pending:]
            rerolls += 1
        elif move.effect == "swap":
            p, q = move.a, move.b
            swapped = list(cells)
            swapped[2 * p:2 * p + 2], swapped[2 * q:2 * q + 2] = cells[2 * q:2 * q + 2], cells[2 * p:2 * p + 2]
            cells = tuple(swapped)
            red_area = {p: q, q: p}.get(red_area, red_area)
        return State(cells, 0, red_area, pool, pending, state.turns + 1, rerolls, "")

    def settle(self, state: State) -> State:
        """Every cell filled wins; with no reroll waiting, no legal placement loses. (The end
        depends on cells, red, pool and pending only.)"""
        if all(state.cells):
            return state._replace(end=WON)
        if not state.pending and not self.has_move(state):
            return state._replace(end=STUCK)
        return state

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        if state.end:
            raise IllegalMove("P5-8", "the game is over")
        if move.kind == "roll":
            if self.rolled(state):
                raise IllegalMove("P5-2", "the ten dice are already rolled")
            if len(move.dice) != self.white or not all(1 <= d <= self.faces for d in move.dice + (move.red,)):
                raise IllegalMove("P5-2", f"the roll is one red and {self.white} white faces 1–{self.faces}")
            new = self.advance(state, move)
            shown = " ".join(map(str, new.pool))
            events = [Event("roll", lambda: f"roll: red {move.red}, white {shown}",
                            {"red": move.red, "white": list(new.pool)})]
            return new, self._ending(new, events)
        if move.kind == "reroll":
            if not state.pending:
                raise IllegalMove("P5-5", "no effect is rerolling dice")
            if len(move.dice) != state.pending or not all(1 <= d <= self.faces for d in move.dice):
                raise IllegalMove("P5-5", f"{state.pending} dice are being rerolled (faces 1–{self.faces})")
            new = self.advance(state, move)
            shown = " ".join(map(str, sorted(move.dice)))
            events = [Event("reroll", lambda: f"the rerolled dice show {shown}", {"dice": sorted(move.dice)})]
            return new, self._ending(new, events)
        if not self.rolled(state):
            raise IllegalMove("P5-2", "the ten dice must be rolled first")
        if state.pending:
            raise IllegalMove("P5-5", f"{state.pending} rerolled dice must be rolled first")
        self._check_place(state, move)
        new = self.advance(state, move)
        return new, self._ending(new, self._place_events(state, move))

    def _check_place(self, state: State, move: Move) -> None:
        face, area = move.face, move.area
        if not 0 <= area < self.n:
            raise IllegalMove("P5-4", f"there is no area {area}")
        name = self.label(area)
        cells = state.cells
        if state.red:
            if face != state.red:
                raise IllegalMove("P5-3", f"the red die ({state.red}) is placed first")
        elif face not in state.pool:
            raise IllegalMove("P5-4", f"no unused die shows {face} (unused: {self._shown(state.pool)})")
        count = self.count(cells, area)
        if count == 2:
            raise IllegalMove("P5-4", f"both cells of area {name} are filled")
        if count == 1:
            if not self.first_full(cells):
                empty = ", ".join(self.label(a) for a in range(self.n) if not cells[2 * a])
                raise IllegalMove("P5-4.1", f"area {name}'s 2nd cell waits until every 1st cell is filled "
                                  f"(still empty: {empty})")
            if cells[2 * area] != face:
                raise IllegalMove("P5-4.3", f"area {name} holds a {cells[2 * area]}: its 2nd die must show "
                                  f"{cells[2 * area]}, not {face}")
        else:
            other = next((a for a in range(self.n) if cells[2 * a] == face), -1)
            if other >= 0:
                raise IllegalMove("P5-4.2", f"area {self.label(other)} already holds a {face}: each area "
                                  "holds a different face")
        after, pool = self._placed(state, face, area)
        options = self.effect_options(area, after, pool)
        spec = self.areas[area]
        what = text_for(spec.name, "en")
        if not options:
            raise IllegalMove("P5-5.1", f"area {name}'s effect ({what}) cannot fire on the unused dice "
                              f"{self._shown(pool)}{self._why_not(spec, after, pool)}, so no die may go there")
        if not pool:
            if move.effect:
                raise IllegalMove("P5-5.2", "the last die fires no effect")
            return
        chosen = (move.effect, move.a, move.b)
        if move.effect == "swap":  # a swap is the same whichever area is named first
            chosen = ("swap", min(move.a, move.b), max(move.a, move.b))
        if chosen in options:
            return
        if not move.effect:
            raise IllegalMove("P5-5", f"placing a die in area {name} fires {what}: say how, e.g. "
                              f"'{self.format_move(Move('place', face, area, *options[0]))}'")
        raise IllegalMove(spec.rule, self._bad_effect(spec, move, after, pool))

    def _why_not(self, spec: Area, cells: tuple[int, ...], pool: tuple[int, ...]) -> str:
        if spec.effect == "swap":
            return " (it swaps two areas that hold dice, and only one does)"
        if spec.effect == "reroll_same":
            return f" (it needs {spec.least} unused dice of one face)"
        return ""

    def _bad_effect(self, spec: Area, move: Move, cells: tuple[int, ...], pool: tuple[int, ...]) -> str:
        what = text_for(spec.name, "en")
        form = {"change": "'<face>><new face>'", "reroll": "'reroll <face>'", "every": "'reroll all <face>'",
                "swap": "'swap <area> <area>'"}
        wanted = "change" if spec.effect in CHANGES else {"reroll": "reroll", "reroll_same": "every"}.get(
            spec.effect, "swap")
        if move.effect != wanted:
            return f"area {spec.label} fires {what}: write it as {form[wanted]}"
        if wanted == "swap":
            held = [self.label(a) for a in range(self.n) if cells[2 * a]]
            return (f"{what} swaps two different areas that each hold a die (now: {', '.join(held)}); "
                    f"not {self._area_name(move.a)} and {self._area_name(move.b)}")
        if move.a not in pool:
            return f"{what} acts on an unused die, and none shows {move.a} (unused: {self._shown(pool)})"
        if wanted == "every":
            return (f"{what} needs at least {spec.least} unused dice showing {move.a}; "
                    f"{pool.count(move.a)} do")
        allowed = self.changes(spec, move.a)
        return (f"{what} turns a {move.a} into {' or '.join(map(str, allowed)) or 'nothing'}, "
                f"not {move.b}")

    def _area_name(self, area: int) -> str:
        return self.label(area) if 0 <= area < self.n else str(area)

    def _shown(self, pool: tuple[int, ...]) -> str:
        return " ".join(map(str, pool)) or "none"

    def _place_events(self, state: State, move: Move) -> list[Event]:
        name = self.label(move.area)
        cell = "2nd" if state.cells[2 * move.area] else "1st"
        die = "red" if state.red else "white"
        face = move.face
        events = [Event("place", lambda: f"the {die} {face} goes in area {name}'s {cell} cell",
                        {"face": face, "area": name, "cell": cell, "red": bool(state.red)})]
        spec = self.areas[move.area]
        what = text_for(spec.name, "en")
        a, b = move.a, move.b
        if move.effect == "change":
            events.append(Event("effect", lambda: f"{what}: an unused {a} becomes {b}",
                                {"effect": spec.effect, "from": a, "to": b}))
        elif move.effect in ("reroll", "every"):
            count = 1 if move.effect == "reroll" else state.pool.count(a) - (face == a and not state.red)
            events.append(Event("effect", lambda: f"{what}: {count} unused {a}{'s' if count > 1 else ''} "
                                f"to be rolled again", {"effect": spec.effect, "face": a, "dice": count}))
        elif move.effect == "swap":
            pa, pb = self.label(a), self.label(b)
            events.append(Event("effect", lambda: f"{what}: the dice of areas {pa} and {pb} change places",
                                {"effect": spec.effect, "areas": [pa, pb]}))
        return events

    def _ending(self, state: State, events: list[Event]) -> list[Event]:
        if state.end == WON:
            turns = state.turns
            events.append(Event("won", lambda: f"all {turns} dice are placed: the game is won",
                                {"end": WON, "placed": turns}))
        elif state.end == STUCK:
            events.append(Event("stuck", lambda: f"no unused die can be placed ({self._shown(state.pool)}): "
                                "the game is lost", {"end": STUCK, "placed": state.turns}))
        return events

    def outcome(self, state: State) -> Outcome:
        return Outcome((0,) if state.end == WON else (), (float(state.turns),), state.end)

    # --- notation ------------------------------------------------------------------------
    def _parse_area(self, text: str, word: str) -> int:
        labels = [a.label for a in self.areas]
        if word.upper() not in labels:
            raise BadMove(f"cannot read move '{text}': '{word}' is not an area ({', '.join(labels)})")
        return labels.index(word.upper())

    def _parse_face(self, text: str, word: str) -> int:
        face = number(word)
        if face is None or not 1 <= face <= self.faces:
            raise BadMove(f"cannot read move '{text}': '{word}' is not a face 1–{self.faces}")
        return face

    def parse_move(self, text: str, state: State | None = None) -> Move:
        forms = ("'roll red 5 white 1 2 2 3 4 4 5 6 6', 'reroll 3 5', 'place 5 in A with 6>2', "
                 "'place 5 in D with reroll 4', 'place 5 in E with reroll all 3', 'place 4 in E with swap A C' "
                 "or 'place 4 in C' (the last die)")
        words = [w for w in text.replace(",", " ").split() if w.lower() != "with"]
        if not words:
            raise BadMove(f"cannot read an empty move: expected {forms}")
        head = words[0].lower()
        if head == "roll" and len(words) == self.white + 4 and words[1] == "red" and words[3] == "white":
            faces = [self._parse_face(text, w) for w in [words[2]] + words[4:]]
            return Move("roll", dice=tuple(sorted(faces[1:])), red=faces[0])
        if head == "reroll" and len(words) > 1:
            return Move("reroll", dice=tuple(sorted(self._parse_face(text, w) for w in words[1:])))
        if head != "place" or len(words) < 4 or words[2] != "in":
            raise BadMove(f"cannot read move '{text}': expected {forms}")
        face, area = self._parse_face(text, words[1]), self._parse_area(text, words[3])
        rest = words[4:]
        if not rest:
            return Move("place", face, area)
        m = re.fullmatch(r"([0-9]+)>([0-9]+)", rest[0])
        if m and len(rest) == 1:
            return Move("place", face, area, "change", self._parse_face(text, m[1]), self._parse_face(text, m[2]))
        if rest[0] == "reroll" and len(rest) == 2:
            return Move("place", face, area, "reroll", self._parse_face(text, rest[1]))
        if rest[:2] == ["reroll", "all"] and len(rest) == 3:
            return Move("place", face, area, "every", self._parse_face(text, rest[2]))
        if rest[0] == "swap" and len(rest) == 3:
            p, q = sorted((self._parse_area(text, rest[1]), self._parse_area(text, rest[2])))
            return Move("place", face, area, "swap", p, q)
        raise BadMove(f"cannot read the effect in '{text}': expected '6>2', 'reroll 4', 'reroll all 3' "
                      "or 'swap A C'")

    def format_move(self, move: Move) -> str:
        if move.kind == "roll":
            return f"roll red {move.red} white " + " ".join(map(str, move.dice))
        if move.kind == "reroll":
            return "reroll " + " ".join(map(str, move.dice))
        head = f"place {move.face} in {self._area_name(move.area)}"
        if move.effect == "change":
            return f"{head} with {move.a}>{move.b}"
        if move.effect == "reroll":
            return f"{head} with reroll {move.a}"
        if move.effect == "every":
            return f"{head} with reroll all {move.a}"
        if move.effect == "swap":
            return f"{head} with swap {self._area_name(move.a)} {self._area_name(move.b)}"
        return head
