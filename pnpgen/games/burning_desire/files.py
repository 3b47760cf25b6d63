"""Burning Desire's state files: seats 1-based, only the keys the phase uses, and the
invariants a state must keep (the referee reads and writes these)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpgen.content.schema import Choice, Each, Schema
from pnpgen.content.schema import check as check_schema
from pnpgen.content.yamlpos import where
from pnpgen.engine.state_data import checked
from pnpgen.errors import ImpossibleState
from pnpgen.games.burning_desire.state import CHOOSE, GAMBLE, MULTIPLY, OVER, PHASES, ROLL, State

if TYPE_CHECKING:
    from pnpgen.games.burning_desire.game import BurningDesire

STATE_SCHEMA: Schema = {
    "scores": Each(int, min=1),
    "turn": int,
    "phase": Choice(*PHASES),
    "rolls?": int,
    "dice?": [int],
    "bonus?": int,
    "combination?": str,
    "points?": int,
    "final_round?": {"trigger": int, "to_play?": [int]},
    "tie_break?": {"round": int},
    "winners?": [int],
    "end?": str,
    "turns_played?": int,
}


# A custom codec: the file format (1-based seats, nested final_round) predates the
#     default one and referee files in the wild use it.


def to_data(rules: BurningDesire, state: State) -> dict[str, object]:
    data: dict[str, object] = {"scores": list(state.scores), "turn": state.turn + 1, "phase": state.phase}
    if state.phase in (ROLL, CHOOSE):
        data["rolls"] = state.rolls
        data["dice"] = list(state.dice)
        if state.bonus:
            data["bonus"] = state.bonus
    if state.phase in (GAMBLE, MULTIPLY):
        data["combination"] = state.combination
        data["points"] = state.points
    if state.trigger >= 0:
        data["final_round"] = {"trigger": state.trigger + 1, "to_play": [s + 1 for s in state.to_play]}
    if state.tie_round:
        data["tie_break"] = {"round": state.tie_round}
    if state.phase == OVER:
        data["winners"] = [s + 1 for s in state.winners]
        data["end"] = state.end
    if state.turns:
        data["turns_played"] = state.turns
    return data


def from_data(rules: BurningDesire, data: Any) -> State:
    check_schema(data, STATE_SCHEMA)
    cfg = rules.cfg
    scores = data["scores"]
    n = len(scores)

    def bad(message: str, container: object, key: object = None) -> ImpossibleState:
        return ImpossibleState(message, **where(container, key, value=True))

    if not rules.min_players <= n <= rules.max_players:
        raise bad(f"scores: {n} players; the game takes {rules.min_players}–{rules.max_players}", data, "scores")
    for i, value in enumerate(scores):
        if value < 0:
            raise bad(f"scores[{i}]: a total cannot be negative ({value})", scores, i)

    def seat(container: Any, key: Any, label: str) -> int:
        value = container[key]
        if not 1 <= value <= n:
            raise bad(f"{label}: seat {value} is out of range, seats are 1–{n}", container, key)
        return int(value) - 1

    phase = data["phase"]
    dice = data.get("dice", [])
    for i, face in enumerate(dice):
        if not 1 <= face <= cfg.faces:
            raise bad(f"dice[{i}]: {face} is not a face of a d{cfg.faces} (1–{cfg.faces})", dice, i)
    if len(dice) > cfg.dice:
        raise bad(f"dice: {len(dice)} main dice, the game has {cfg.dice}", data, "dice")
    bonus = data.get("bonus", 0)
    if "bonus" in data and not 1 <= bonus <= cfg.bonus_faces:
        raise bad(f"bonus: {bonus} is not a face of the bonus die (1–{cfg.bonus_faces})", data, "bonus")
    rolls = data.get("rolls", 0)
    if not 0 <= rolls <= cfg.rolls:
        raise bad(f"rolls: {rolls} rolls made, a turn has {cfg.rolls}", data, "rolls")
    if phase == CHOOSE:
        if len(dice) != cfg.dice or not bonus:
            raise bad(f"phase choose needs all {cfg.dice} main dice and the bonus die showing", data, "phase")
        if rolls < 1:
            raise bad("rolls: the dice show, so at least 1 roll was made", data, "phase")
    if phase == ROLL and rolls >= cfg.rolls:
        raise bad(f"rolls: a roll is due but all {cfg.rolls} rolls are used", data, "rolls")
    combination = data.get("combination", "")
    points = data.get("points", 0)
    if phase in (GAMBLE, MULTIPLY):
        if cfg.combination(combination) is None:
            known = ", ".join(c.id for c in cfg.combinations)
            raise bad(f"combination: '{combination}' is not a combination ({known})", data,
                      "combination" if "combination" in data else None)
        if points <= 0:
            raise bad(f"points: {points}; a turn with nothing to multiply has already ended", data,
                      "points" if "points" in data else None)
    trigger = -1
    to_play: tuple[int, ...] = ()
    final = data.get("final_round")
    if final is not None:
        trigger = seat(final, "trigger", "final_round.trigger")
        items = final.get("to_play", [])
        to_play = tuple(seat(items, i, f"final_round.to_play[{i}]") for i in range(len(items)))
    tie_round = data["tie_break"]["round"] if "tie_break" in data else 0
    if tie_round and trigger < 0:
        raise bad("tie_break: tie-break rounds need final_round", data, "tie_break")
    winners: tuple[int, ...] = ()
    if phase == OVER:
        items = data.get("winners", [])
        winners = tuple(seat(items, i, f"winners[{i}]") for i in range(len(items)))
        if data.get("end") not in rules.end_conditions():
            raise bad(f"end: expected one of {', '.join(rules.end_conditions())}", data,
                      "end" if "end" in data else None)
    state = State(
        scores=tuple(scores), turn=seat(data, "turn", "turn"), phase=phase, rolls=rolls,
        dice=tuple(sorted(dice)), bonus=bonus, combination=combination if phase in (GAMBLE, MULTIPLY) else "",
        points=points if phase in (GAMBLE, MULTIPLY) else 0, trigger=trigger, to_play=to_play,
        tie_round=tie_round, winners=winners, end=str(data.get("end", "")) if phase == OVER else "",
        turns=data.get("turns_played", 0),
    )
    return checked(rules, state, data)


def example_state(rules: BurningDesire) -> State:
    """Three players; seat 2 (on 960) has rolled once and may keep or score."""
    return State((420, 960, 610), 1, CHOOSE, rolls=1, dice=(1, 4, 4, 5, 6, 6), bonus=5, turns=10)


def check(rules: BurningDesire, state: State) -> list[str]:
    cfg = rules.cfg
    n = len(state.scores)
    problems = []
    if any(s < 0 for s in state.scores):
        problems.append("a total is negative")
    if state.turns < 0:
        problems.append(f"turns_played: {state.turns} cannot be negative")
    if not 0 <= state.turn < n:
        problems.append(f"seat {state.turn + 1} on turn is not a seat of {n}")
    if state.phase == OVER:
        if not state.winners or any(state.scores[w] != max(state.scores) for w in state.winners):
            problems.append("the game is over but the winners are not the leaders")
        return problems
    if state.trigger < 0:
        over = [s + 1 for s in range(n) if state.scores[s] >= cfg.threshold]
        if over:
            problems.append(f"seat {over[0]} has {cfg.threshold} or more but no final round is recorded")
        if state.to_play:
            problems.append("final_round.to_play without a final round")
    else:
        if state.scores[state.trigger] < cfg.threshold:
            problems.append(f"the final round was started by seat {state.trigger + 1}, "
                            f"who has less than {cfg.threshold}")
        if state.turn in state.to_play or len(set(state.to_play)) != len(state.to_play):
            problems.append("a seat appears twice among the seats to play")
        if not state.tie_round and (state.turn == state.trigger or state.trigger in state.to_play):
            problems.append(f"seat {state.trigger + 1} started the final round and takes no more turns")
    if state.tie_round > rules.tie_break_cap:
        problems.append(f"tie-break round {state.tie_round} is past the cap of {rules.tie_break_cap}")
    if state.phase == GAMBLE and state.points <= 0:
        problems.append("a turn with nothing to multiply has already ended")
    if state.phase == MULTIPLY and not rules.gamble_allowed(state):
        problems.append("the multiplier dice are rolling although they are not allowed (BD-4.1)")
    if state.phase == CHOOSE and (len(state.dice) != cfg.dice or not 1 <= state.rolls <= cfg.rolls):
        problems.append("choosing needs every main die showing after 1 to "
                        f"{cfg.rolls} rolls")
    if state.phase == ROLL and (len(state.dice) >= cfg.dice and state.bonus):
        problems.append("a roll is due but every die is kept")
    if state.phase == ROLL and state.rolls == 0 and (state.dice or state.bonus):
        problems.append("dice are kept before the turn's first roll")
    return problems
