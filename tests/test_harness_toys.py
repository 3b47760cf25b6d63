"""Toy games for the harness tests: windy Nim (2 players, chance), solo Pig, and a
coin race with no capability at all (the core contract only).

They implement the rules protocol with numbers from an in-memory game.yaml, so the
harness is tested without depending on the real game modules. Deliberately broken
variants check that verification catches each kind of fault.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pnpgen.content.game import GameContent
from pnpgen.content.yamlpos import YMap
from pnpgen.engine.protocol import (
    CHANCE,
    TERMINAL,
    Analysis,
    Event,
    IllegalMove,
    Notation,
    Outcome,
    Presentation,
    Rules,
    StateCodec,
)
from pnpgen.errors import BadMove, ImpossibleState


def toy_content(game_id: str, rules: dict[str, Any], ends: dict[str, str],
                players: tuple[int, int] = (2, 2), simulation: dict[str, Any] | None = None) -> GameContent:
    data = YMap({
        "id": game_id, "engine": "toy", "title": game_id, "version": 3,
        "players": {"min": players[0], "max": players[1]}, "time_minutes": 5,
        "end_conditions": ends, "rules": rules, "simulation": simulation or {},
    })
    return GameContent(folder=Path("/nonexistent") / game_id, data=data)


# --- windy Nim ------------------------------------------------------------------------
# Players take 1..max_take stones; after each take the wind blows 0 or 1 more stone
# away. Taking the last stone wins; if the wind takes it, the game is a draw.

@dataclass(frozen=True)
class NimState:
    pile: int
    to_move: int  # seat, CHANCE or TERMINAL
    last: int  # seat that took last
    end: str = ""
    winners: tuple[int, ...] = ()


class Nim(Rules[NimState, str], Notation[NimState, str], StateCodec[NimState],
          Analysis[NimState, str], Presentation[NimState]):
    min_players = max_players = 2

    def __init__(self, content: GameContent) -> None:
        self.content = content
        self.id = content.id
        r = content.data["rules"]
        self.pile, self.max_take = int(r["pile"]), int(r["max_take"])
        self.wind = [(f"w{k}", Fraction(p)) for k, p in r["wind"].items()]
        self.max_steps = 2 * self.pile

    def initial_state(self, players: int) -> NimState:
        return NimState(self.pile, 0, 1)

    def current_player(self, state: NimState) -> int:
        return state.to_move

    def num_players(self, state: NimState) -> int:
        return 2

    def legal_moves(self, state: NimState) -> list[str]:
        if state.to_move < 0:
            return []
        return [f"t{k}" for k in range(1, min(self.max_take, state.pile) + 1)]

    def chance_outcomes(self, state: NimState) -> list[tuple[str, Fraction]]:
        return list(self.wind) if state.to_move == CHANCE else []

    def apply(self, state: NimState, move: str) -> tuple[NimState, list[Event]]:
        count = int(move[1:])
        if state.to_move == CHANCE:
            pile = state.pile - count
            if pile <= 0:
                return replace(state, pile=0, to_move=TERMINAL, end="wind"), [Event("wind", "wind")]
            return replace(state, pile=pile, to_move=1 - state.last), [Event("wind", "wind")] if count else []
        if move not in self.legal_moves(state):
            raise IllegalMove("N-1", f"cannot take {count} from {state.pile}")
        pile = state.pile - count
        seat = state.to_move
        if pile == 0:
            return NimState(0, TERMINAL, seat, "last_stone", (seat,)), [Event("take", "last")]
        return NimState(pile, CHANCE, seat), [Event("take", "take")]

    def outcome(self, state: NimState) -> Outcome:
        scores = tuple(1.0 if s in state.winners else 0.0 for s in range(2))
        return Outcome(state.winners, scores, state.end)

    def parse_move(self, text: str, state: NimState | None = None) -> str:
        if len(text) < 2 or text[0] not in "tw" or not text[1:].isdigit():
            raise BadMove(f"bad move '{text}'")
        return text

    def format_move(self, move: str) -> str:
        return move

    def to_data(self, state: NimState) -> dict[str, Any]:
        return {"pile": state.pile, "to_move": state.to_move, "last": state.last,
                "end": state.end, "winners": list(state.winners)}

    def from_data(self, data: Any) -> NimState:
        try:
            return NimState(int(data["pile"]), int(data["to_move"]), int(data["last"]),
                            str(data["end"]), tuple(data["winners"]))
        except (KeyError, TypeError, ValueError) as err:
            raise ImpossibleState(f"bad state: {err}") from None

    def example_state(self) -> NimState:
        return NimState(5, 0, 1)

    def check(self, state: NimState) -> list[str]:
        return [] if state.pile >= 0 else [f"pile {state.pile} is negative"]

    def evaluate(self, state: NimState, seat: int) -> float:
        if state.to_move == TERMINAL:
            return 1.0 if seat in state.winners else 0.0
        return 0.5


NIM_RULES = {"pile": 15, "max_take": 3, "wind": {0: "2/3", 1: "1/3"}}
NIM_ENDS = {"last_stone": "took the last stone", "wind": "the wind took the last stone"}


def nim(**changes: Any) -> Nim:
    rules = {**NIM_RULES, **changes.pop("rules", {})}
    ends = changes.pop("ends", NIM_ENDS)
    cls = changes.pop("cls", Nim)
    return cls(toy_content("toy-nim", rules, ends, **changes))


# --- solo Pig ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PigState:
    turn: int
    total: int
    banked: int  # points this turn
    rolls: int  # rolls this turn
    to_move: int
    end: str = ""


class Pig(Rules[PigState, str], Notation[PigState, str], StateCodec[PigState],
          Analysis[PigState, str], Presentation[PigState]):
    min_players = max_players = 1

    def __init__(self, content: GameContent) -> None:
        self.content = content
        self.id = content.id
        r = content.data["rules"]
        self.target, self.turns, self.max_rolls = int(r["target"]), int(r["turns"]), int(r["max_rolls"])
        self.max_steps = self.turns * (2 * self.max_rolls + 1)
        self.die = [(f"d{k}", Fraction(1, 6)) for k in range(1, 7)]

    def initial_state(self, players: int) -> PigState:
        return PigState(1, 0, 0, 0, 0)

    def current_player(self, state: PigState) -> int:
        return state.to_move

    def legal_moves(self, state: PigState) -> list[str]:
        if state.to_move != 0:
            return []
        moves = ["roll"] if state.rolls < self.max_rolls else []
        return moves + ["stop"] if state.rolls else moves

    def chance_outcomes(self, state: PigState) -> list[tuple[str, Fraction]]:
        return self.die if state.to_move == CHANCE else []

    def _next_turn(self, state: PigState, total: int) -> PigState:
        if total >= self.target:
            return PigState(state.turn, total, 0, 0, TERMINAL, "target")
        if state.turn >= self.turns:
            return PigState(state.turn, total, 0, 0, TERMINAL, "out_of_turns")
        return PigState(state.turn + 1, total, 0, 0, 0)

    def apply(self, state: PigState, move: str) -> tuple[PigState, list[Event]]:
        if state.to_move == CHANCE:
            pips = int(move[1:])
            if pips == 1:
                return self._next_turn(state, state.total), [Event("bust", "rolled a 1")]
            return replace(state, banked=state.banked + pips, to_move=0), []
        if move not in self.legal_moves(state):
            raise IllegalMove("P-1", f"cannot {move} now")
        if move == "roll":
            return replace(state, rolls=state.rolls + 1, to_move=CHANCE), []
        return self._next_turn(state, state.total + state.banked), [Event("bank", "banked")]

    def outcome(self, state: PigState) -> Outcome:
        return Outcome((0,) if state.end == "target" else (), (float(state.total),), state.end)

    def parse_move(self, text: str, state: PigState | None = None) -> str:
        if text not in ("roll", "stop") and not (text[:1] == "d" and text[1:] in "123456"):
            raise BadMove(f"bad move '{text}'")
        return text

    def format_move(self, move: str) -> str:
        return move

    def to_data(self, state: PigState) -> dict[str, Any]:
        return {"turn": state.turn, "total": state.total, "banked": state.banked,
                "rolls": state.rolls, "to_move": state.to_move, "end": state.end}

    def from_data(self, data: Any) -> PigState:
        return PigState(**data)

    def example_state(self) -> PigState:
        return PigState(2, 7, 4, 1, 0)

    def evaluate(self, state: PigState, seat: int) -> float:
        return float(state.total + state.banked)

    def game_stats(self, state: PigState) -> dict[str, float]:
        return {"turns": float(state.turn)}


PIG_RULES = {"target": 30, "turns": 5, "max_rolls": 8}


def pig() -> Pig:
    return Pig(toy_content("toy-pig", PIG_RULES, {"target": "reached the target",
                                                  "out_of_turns": "ran out of turns"}, players=(1, 1)))


# --- broken variants --------------------------------------------------------------------

# --- coin race: the core contract only (no notation, state files, analysis, presentation)
# Each turn a seat steps 1 or 2, then a coin adds 1 more on heads. First to `target` wins.

@dataclass(frozen=True)
class CoinState:
    places: tuple[int, ...]
    turn: int
    flipping: bool = False


class CoinRace(Rules[CoinState, str]):
    def __init__(self, content: GameContent) -> None:
        super().__init__(content)
        self.target = int(self.settings["target"])

    def initial_state(self, players: int) -> CoinState:
        return CoinState((0,) * players, 0)

    def num_players(self, state: CoinState) -> int:
        return len(state.places)

    def current_player(self, state: CoinState) -> int:
        if max(state.places) >= self.target:
            return TERMINAL
        return CHANCE if state.flipping else state.turn

    def legal_moves(self, state: CoinState) -> list[str]:
        return ["step 1", "step 2"] if self.current_player(state) >= 0 else []

    def chance_outcomes(self, state: CoinState) -> list[tuple[str, Fraction]]:
        return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))] if state.flipping else []

    def apply(self, state: CoinState, move: str) -> tuple[CoinState, list[Event]]:
        if (move in ("heads", "tails")) != state.flipping or move not in ("step 1", "step 2", "heads", "tails"):
            raise IllegalMove("C-1", f"'{move}' is not a move now")
        gain = {"step 1": 1, "step 2": 2, "heads": 1, "tails": 0}[move]
        places = tuple(p + gain * (i == state.turn) for i, p in enumerate(state.places))
        turn = (state.turn + 1) % len(places) if state.flipping and places[state.turn] < self.target else state.turn
        flipping = not state.flipping and places[state.turn] < self.target
        return CoinState(places, turn, flipping), [Event(move.split()[0], f"{move}: {places}", {"gain": gain})]

    def outcome(self, state: CoinState) -> Outcome:
        return Outcome((state.places.index(max(state.places)),), tuple(map(float, state.places)), "target")


RULES_SCHEMA: dict[str, Any] = {"target": int}  # coin race as an engine module (tests/test_core_only_game.py)


def create(content: GameContent) -> list[Rules[Any, Any]]:
    return [CoinRace(content)]


class BadChanceNim(Nim):
    def chance_outcomes(self, state: NimState) -> list[tuple[str, Fraction]]:
        return [("w0", Fraction(2, 3)), ("w1", Fraction(1, 2))] if state.to_move == CHANCE else []

    def sample_chance(self, state: NimState, rng: random.Random) -> str:
        return "w0"


class OverdrawNim(Nim):
    """Lets a player take more stones than the pile holds; the invariant catches it."""

    def legal_moves(self, state: NimState) -> list[str]:
        return [f"t{k}" for k in range(1, self.max_take + 1)] if state.to_move >= 0 else []

    def apply(self, state: NimState, move: str) -> tuple[NimState, list[Event]]:
        if state.to_move >= 0 and int(move[1:]) >= state.pile:
            seat = state.to_move
            return NimState(state.pile - int(move[1:]), TERMINAL, seat, "last_stone", (seat,)), []
        return super().apply(state, move)


class ForgetfulNim(Nim):
    """Its state file forgets who took last."""

    def to_data(self, state: NimState) -> dict[str, Any]:
        data = super().to_data(state)
        data["last"] = 0
        return data


class MutatingNim(Nim):
    """A state kept in a mutable list that apply changes in place."""

    def initial_state(self, players: int) -> Any:
        return [self.pile, 0]

    def current_player(self, state: Any) -> int:
        return TERMINAL if state[0] <= 0 else state[1]

    def legal_moves(self, state: Any) -> list[str]:
        return [f"t{k}" for k in range(1, min(self.max_take, state[0]) + 1)]

    def apply(self, state: Any, move: str) -> tuple[Any, list[Event]]:
        state[0] -= int(move[1:])
        state[1] = 1 - state[1]
        return state, []

    def outcome(self, state: Any) -> Outcome:
        return Outcome((1 - state[1],), (0.0, 0.0), "last_stone")

    def to_data(self, state: Any) -> dict[str, Any]:
        return {"pile": state[0], "to_move": state[1]}

    def from_data(self, data: Any) -> Any:
        return [data["pile"], data["to_move"]]

    def check(self, state: Any) -> list[str]:
        return []


class EndlessNim(Nim):
    """Declares a maximum length shorter than its games."""

    def __init__(self, content: GameContent) -> None:
        super().__init__(content)
        self.max_steps = 3


# --- the toys themselves work -------------------------------------------------------------

def test_nim_plays_by_its_rules() -> None:
    rules = nim()
    state = rules.initial_state(2)
    assert rules.legal_moves(state) == ["t1", "t2", "t3"]
    state, _ = rules.apply(state, "t3")
    assert rules.current_player(state) == CHANCE
    assert sum(p for _, p in rules.chance_outcomes(state)) == 1
    state, _ = rules.apply(state, "w1")
    assert (state.pile, rules.current_player(state)) == (11, 1)
    with pytest.raises(IllegalMove):
        rules.apply(NimState(2, 0, 1), "t3")


def test_pig_ends_on_target_or_turns() -> None:
    rules = pig()
    state = PigState(5, 25, 4, 1, 0)
    done, _ = rules.apply(state, "stop")
    assert rules.outcome(done) == Outcome((), (29.0,), "out_of_turns")
    won, _ = rules.apply(PigState(2, 25, 6, 1, 0), "stop")
    assert rules.outcome(won).winners == (0,) and won.end == "target"
