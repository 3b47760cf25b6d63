"""Pig as a pnpgen game in its own package: roll to add faces to your turn total, hold to bank
it, the bust face loses it; the first to bank the target wins. Numbers come from `rules:`."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Choice, Each, Range
from pnpgen.content.yamlpos import where
from pnpgen.engine.events import Event, IllegalMove, Outcome
from pnpgen.engine.protocol import CHANCE, TERMINAL, Rules
from pnpgen.engine.state_data import fields_from_data, fields_to_data, refuse
from pnpgen.errors import BadMove, ContentError
from pnpgen.games.words import number

RULES_SCHEMA: dict[str, Any] = {"target": Range(int, 1, 10**6),
                                "die": {"faces": Each(Range(int, 1, 1000), min=2), "bust": int}}
SIMULATION_SCHEMA: dict[str, Any] = {"hold_at?": Each(Range(int, 1, 10**6))}  # bots hold-at-N, checked by pnpgen
CHOOSE, ROLL, OVER = "choose", "roll", "over"  # a seat rolls or holds / the die is rolling / game over
Move = str  # in notation: "roll" or "hold" (a seat's choice), "die 4" (the face rolled: a chance outcome)


class State(NamedTuple):  # its fields are the state file's keys (the default codec: fields_to_data)
    scores: tuple[int, ...]
    turn: int  # seat on turn, 0-based (1-based in state files and events)
    phase: str
    turn_total: int = 0  # the points at stake this turn


def create(content: GameContent) -> list[Rules[Any, Any]]:
    return [Pig(content)]


class Pig(Rules[State, Move]):  # with notation, state files, bots and rulebook values: capabilities by name
    SEATS = ("turn",)  # the default codec (State's fields as keys) writes the seat on turn 1-based
    STATE_SCHEMA = {"scores": [int], "turn": int, "phase": Choice(CHOOSE, ROLL, OVER), "turn_total?": int,
                    "winner?": int}

    def __init__(self, content: GameContent) -> None:
        super().__init__(content)  # id, players, settings (rules:), simulation, max_steps
        self.target, die = int(self.settings["target"]), self.settings["die"]
        self.faces, self.bust = tuple(die["faces"]), int(die["bust"])
        if self.bust not in self.faces or set(self.faces) == {self.bust}:
            raise ContentError("rules.die.bust: must be a face of the die, and not its only one",
                               **where(die, "bust", value=True))
        self.hold_at = [int(n) for n in self.simulation.get("hold_at", [])]
        self.outcomes = [(f"die {f}", Fraction(self.faces.count(f), len(self.faces))) for f in sorted(set(self.faces))]

    def num_players(self, state: State) -> int:
        return len(state.scores)

    def initial_state(self, players: int) -> State:
        return State((0,) * players, 0, CHOOSE)

    def current_player(self, state: State) -> int:
        return {CHOOSE: state.turn, ROLL: CHANCE}.get(state.phase, TERMINAL)

    def legal_moves(self, state: State) -> list[Move]:
        return [] if state.phase != CHOOSE else ["roll", "hold"][: 2 if state.turn_total else 1]

    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        return list(self.outcomes) if state.phase == ROLL else []

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        seat, nxt, (kind, _, face_text) = state.turn + 1, (state.turn + 1) % len(state.scores), move.partition(" ")
        face = number(face_text) or 0
        if state.phase == OVER:
            raise IllegalMove("PIG-5", "the game is over")
        if (kind == "die") != (state.phase == ROLL):
            raise IllegalMove("PIG-1", "the die is rolling: the next move is its face" if state.phase == ROLL
                              else f"seat {seat} rolls or holds; the die is not rolling")
        if kind == "roll":
            return state._replace(phase=ROLL), [Event("roll", f"seat {seat} rolls", {"player": seat})]
        if kind == "die":
            if face not in self.faces:
                raise IllegalMove("PIG-2", f"the die shows one of {', '.join(map(str, sorted(set(self.faces))))}")
            if face == self.bust:
                return State(state.scores, nxt, CHOOSE), [Event("bust", f"seat {seat} rolls {face}, loses "
                    f"{state.turn_total}", {"player": seat, "face": face, "lost": state.turn_total})]
            total = state.turn_total + face
            return state._replace(phase=CHOOSE, turn_total=total), [Event("die", f"seat {seat} rolls {face}: "
                f"turn total {total}", {"player": seat, "face": face, "turn_total": total})]
        if not state.turn_total:
            raise IllegalMove("PIG-4", "nothing to hold: roll at least once this turn")
        scores = tuple(s + state.turn_total * (i == state.turn) for i, s in enumerate(state.scores))
        events = [Event("hold", f"seat {seat} holds {state.turn_total}: {scores[state.turn]}",
                        {"player": seat, "points": state.turn_total, "score": scores[state.turn]})]
        if scores[state.turn] >= self.target:
            return State(scores, state.turn, OVER), events  # the seat on turn has won
        return State(scores, nxt, CHOOSE), events

    def outcome(self, state: State) -> Outcome:
        return Outcome((state.turn,), tuple(map(float, state.scores)), "target")

    def parse_move(self, text: str, state: State | None = None) -> Move:
        words = text.split()
        if words in (["roll"], ["hold"]) or len(words) == 2 and words[0] == "die" and number(words[1]) is not None:
            return " ".join([words[0], *(str(number(w)) for w in words[1:])])  # canonical: "die 04" is "die 4"
        raise BadMove(f"cannot read move '{text}': expected 'roll', 'hold' or 'die N' (the face rolled)")

    def format_move(self, move: Move) -> str:
        return move

    def to_data(self, state: State) -> dict[str, Any]:  # the default, but a finished game names its winner
        data = fields_to_data(self, state)
        if state.phase == OVER:
            del data["turn_total"]
            data["winner"] = data["turn"]
        return data

    def from_data(self, data: Any) -> State:
        state: State = fields_from_data(self, data)  # the schema, then check(): problems at the key they name
        over = state.phase == OVER
        if over != ("winner" in data) or over and ("turn_total" in data or data["winner"] != data["turn"]):
            refuse("phase: only a finished game has a winner (the seat on turn), and then no turn_total", data)
        return state

    def example_state(self) -> State:
        """Three players; seat 2 has rolled 9 this turn and decides whether to roll on."""
        return State((34, 61, 12), 1, CHOOSE, 9)

    def check(self, state: State) -> list[str]:
        n, target, low, high = len(state.scores), self.target, self.min_players, self.max_players
        if not low <= n <= high:
            return [f"scores: {n} players; Pig takes {low}–{high}"]
        if not 0 <= state.turn < n:
            return [f"turn: seat {state.turn + 1} is not a seat of 1–{n}"]
        if any(s < 0 for s in state.scores) or state.turn_total < 0:
            return ["scores: no score (nor the turn_total) can be negative"]
        if state.phase == OVER and state.scores[state.turn] < target:
            return [f"winner: seat {state.turn + 1} has less than {target}, so the game is not over"]
        over = [i + 1 for i, s in enumerate(state.scores) if s >= target and (i, OVER) != (state.turn, state.phase)]
        return [f"scores: seat {over[0]} has {target} or more, so the game is over"] if over else []

    def bots(self) -> dict[str, Any]:
        return {f"hold-at-{n}": (lambda n=n: lambda state, rng: self.hold_at_move(state, n)) for n in self.hold_at}

    def hold_at_move(self, state: State, limit: int) -> Move:  # roll until the turn total is N or wins
        enough = state.turn_total >= limit or state.scores[state.turn] + state.turn_total >= self.target
        return "hold" if enough else "roll"

    def rulebook_context(self, lang: str) -> dict[str, Any]:
        busts = self.faces.count(self.bust)  # rolling on gains on average below break_even
        even = Fraction(sum(f for f in self.faces if f != self.bust), busts)
        return {"target": self.target, "sides": len(self.faces), "bust": self.bust, "hold_at": self.hold_at,
                "faces": ", ".join(map(str, self.faces)), "bust_chance": str(Fraction(busts, len(self.faces))),
                "break_even": int(even) if even.denominator == 1 else round(float(even), 1)}
