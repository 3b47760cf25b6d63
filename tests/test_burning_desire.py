"""Burning Desire: scoring, turns, final round, tie-breaks, notation, solver, bots."""

from __future__ import annotations

import json
import math
import random
import shutil
import statistics
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from pnpgen.content.game import load_game
from pnpgen.engine.protocol import CHANCE, TERMINAL, IllegalMove
from pnpgen.engine.simulate import simulate
from pnpgen.errors import BadMove
from pnpgen.examples import check_examples
from pnpgen.games import find_rules, rules_for_content
from pnpgen.games.burning_desire import BurningDesire
from pnpgen.games.burning_desire.state import CHOOSE, GAMBLE, ROLL, Move, State
from tests.conftest import ROOT, CliRun

CONTENT = ROOT / "content"
REFEREE = ROOT / "tests" / "referee" / "burning-desire"

# The source's score table (combination -> points for 1..6 counted dice).
SOURCE_TABLE = {
    "1": [10, 25, 60, 120, 250, 500],
    "2-3": [0, 10, 20, 30, 100, 180],
    "4-6": [0, 5, 10, 20, 30, 80],
}
FILLER = {"1": 4, "2-3": 5, "4-6": 2}  # a face the combination does not count


@pytest.fixture(scope="module")
def rules() -> BurningDesire:
    found = find_rules(CONTENT, "burning-desire")
    assert isinstance(found, BurningDesire)
    return found


def choose(dice: tuple[int, ...], bonus: int, scores: tuple[int, ...] = (0, 0), rolls: int = 3) -> State:
    return State(scores, 0, CHOOSE, rolls=rolls, dice=tuple(sorted(dice)), bonus=bonus)


def points(rules: BurningDesire, dice: tuple[int, ...], bonus: int, combination: str) -> dict[str, Any]:
    _, events = rules.apply(choose(dice, bonus), Move("score", combination=combination))
    return next(e.data for e in events if e.kind == "score")


# --- scoring -----------------------------------------------------------------------------


@pytest.mark.parametrize("combination", list(SOURCE_TABLE))
@pytest.mark.parametrize("count", range(7))
def test_whole_score_table(rules: BurningDesire, combination: str, count: int) -> None:
    counted = {"1": 1, "2-3": 3, "4-6": 6}[combination]
    dice = (counted,) * count + (FILLER[combination],) * (6 - count)
    bonus = FILLER[combination] if count < 6 else {"1": 2, "2-3": 4, "4-6": 1}[combination]  # never matches
    data = points(rules, dice, bonus, combination)
    expected = SOURCE_TABLE[combination][count - 1] if count else 0
    assert (data["count"], data["base"], data["bonus"], data["doubled"], data["points"]) == (
        count, expected, 0, False, expected)


@pytest.mark.parametrize(
    ("dice", "bonus", "combination", "count", "base", "extra", "total"),
    [
        ((1, 4, 4, 5, 6, 6), 5, "4-6", 5, 30, 10, 40),  # one match: +10
        ((1, 4, 4, 5, 6, 6), 6, "4-6", 5, 30, 20, 50),  # two matches
        ((1, 4, 4, 5, 6, 6), 1, "4-6", 5, 30, 0, 30),  # bonus face not counted
        ((2, 2, 3, 5, 6, 6), 2, "2-3", 3, 20, 20, 40),
        ((2, 2, 3, 5, 6, 6), 4, "2-3", 3, 20, 0, 20),
        ((2, 2, 2, 2, 3, 3), 2, "2-3", 6, 180, 80, 260),  # all six counted: 20 each
        ((2, 2, 2, 2, 3, 3), 3, "2-3", 6, 180, 40, 220),
        ((4, 4, 4, 4, 4, 4), 4, "4-6", 6, 80, 120, 200),
        ((4, 5, 6, 4, 5, 1), 4, "4-6", 5, 30, 20, 50),  # five counted: still 10 each
        ((2, 3, 4, 5, 6, 6), 6, "2-3", 2, 10, 0, 10),  # match among uncounted dice only
    ],
)
def test_per_die_bonus(rules: BurningDesire, dice: tuple[int, ...], bonus: int, combination: str,
                       count: int, base: int, extra: int, total: int) -> None:
    data = points(rules, dice, bonus, combination)
    assert (data["count"], data["base"], data["bonus"], data["doubled"], data["points"]) == (
        count, base, extra, False, total)


@pytest.mark.parametrize("count", range(7))
@pytest.mark.parametrize("bonus", range(1, 7))
def test_ones_double_only_on_bonus_one(rules: BurningDesire, count: int, bonus: int) -> None:
    dice = (1,) * count + (5,) * (6 - count)
    data = points(rules, dice, bonus, "1")
    base = SOURCE_TABLE["1"][count - 1] if count else 0
    assert data["bonus"] == 0 and data["base"] == base
    assert data["doubled"] is (bonus == 1)
    assert data["points"] == (2 * base if bonus == 1 else base)


def test_zero_point_turn_ends_without_gamble(rules: BurningDesire) -> None:
    state, events = rules.apply(choose((1, 1, 1, 1, 1, 1), 1, scores=(0, 0)), Move("score", combination="4-6"))
    assert [e.kind for e in events] == ["score", "bank"]
    assert (state.phase, state.turn, state.scores) == (ROLL, 1, (0, 0))


# --- the worked examples ------------------------------------------------------------------


def test_every_example_replays(rules: BurningDesire) -> None:
    results = check_examples(rules.content, [rules])
    assert [r.example for r in results][:6] == [
        "ex1-five-of-four-to-six", "ex2-bonus-die-matches", "ex2b-bonus-die-not-counted",
        "ex3-all-six-counted", "ex4-ones-doubled", "ex5-gamble-in-the-final-round"]
    assert len(results) == 12 and results[-1].example == "ex11-keep-the-ones"  # a keep, then the reroll
    assert all(r.ok for r in results), [(r.example, r.problems) for r in results if not r.ok]


def test_source_examples_figures(rules: BurningDesire) -> None:
    assert points(rules, (1, 4, 4, 5, 6, 6), 3, "4-6")["points"] == 30  # example 1
    assert points(rules, (1, 4, 4, 5, 6, 6), 5, "4-6")["points"] == 40  # example 2
    assert points(rules, (1, 4, 4, 5, 6, 6), 1, "4-6")["points"] == 30
    assert points(rules, (2, 2, 2, 2, 3, 3), 2, "2-3")["points"] == 260  # example 3
    assert points(rules, (1, 1, 1, 1, 2, 3), 4, "1")["points"] == 120  # example 4
    assert points(rules, (1, 1, 1, 1, 2, 3), 1, "1")["points"] == 240
    # example 5: 100 × 1 × 2 = 200, then a 0 ends the turn with nothing
    state = State((1200, 820, 500), 1, GAMBLE, combination="4-6", points=100, trigger=0, to_play=(2,))
    for text in ("gamble", "mult 1 2"):
        state, _ = rules.apply(state, rules.parse_move(text, state))
    assert (state.phase, state.points) == (GAMBLE, 200)
    state, _ = rules.apply(state, rules.parse_move("gamble", state))
    state, events = rules.apply(state, rules.parse_move("mult 0 3", state))
    assert state.scores == (1200, 820, 500) and state.turn == 2
    assert [e.kind for e in events] == ["bust", "bank"]


def test_a_wrong_example_expectation_fails(rules: BurningDesire, tmp_path: Path) -> None:
    folder = tmp_path / "burning-desire"
    shutil.copytree(CONTENT / "burning-desire", folder)
    path = folder / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "{count: 5, base: 30, bonus: 0, doubled: false, points: 30}",
        "{count: 5, base: 30, bonus: 0, doubled: false, points: 35}", 1), encoding="utf-8")
    content = load_game(folder)
    results = check_examples(content, rules_for_content(content))
    assert results[0].problems and "points" in results[0].problems[0]
    assert all(r.ok for r in results[1:])


# --- turn flow, final round, tie-breaks -------------------------------------------------------


def test_keep_and_reroll_legality(rules: BurningDesire) -> None:
    state = choose((1, 1, 2, 4, 5, 6), 1, rolls=1)
    assert len(rules.legal_moves(state)) == 3 + 3 * 2 * 2 * 2 * 2 * 2 - 1  # scores + keeps
    assert len(rules.legal_moves(choose((1, 1, 2, 4, 5, 6), 1, rolls=3))) == 3
    with pytest.raises(IllegalMove) as info:
        rules.apply(choose((1, 1, 2, 4, 5, 6), 1, rolls=3), Move("keep", (1, 1), 1))
    assert info.value.rule == "BD-2.1"
    with pytest.raises(IllegalMove) as info:
        rules.apply(state, Move("keep", (1, 1, 1), 0))
    assert info.value.rule == "BD-2.2"
    with pytest.raises(IllegalMove) as info:
        rules.apply(state, Move("keep", state.dice, 1))
    assert info.value.rule == "BD-2.2"
    kept, _ = rules.apply(state, Move("keep", (1, 1), 1))
    assert (kept.phase, kept.dice, kept.bonus, rules.current_player(kept)) == (ROLL, (1, 1), 1, CHANCE)
    outcomes = rules.chance_outcomes(kept)
    assert len(outcomes) == math.comb(4 + 5, 5) and sum(p for _, p in outcomes) == 1
    rolled, _ = rules.apply(kept, Move("roll", (2, 3, 3, 6)))
    assert (rolled.phase, rolled.rolls, rolled.dice, rolled.bonus) == (CHOOSE, 2, (1, 1, 2, 3, 3, 6), 1)
    with pytest.raises(IllegalMove) as info:
        rules.apply(kept, Move("roll", (2, 3, 3, 6), 4))  # the bonus die was kept
    assert info.value.rule == "BD-2.3"


@pytest.mark.parametrize("kept", range(7))
def test_roll_outcomes_are_exact_multisets(rules: BurningDesire, kept: int) -> None:
    for bonus_kept in (0, 3):
        state = State((0, 0), 0, ROLL, rolls=1, dice=(1,) * kept, bonus=bonus_kept)
        if kept == 6 and bonus_kept:
            continue
        outcomes = rules.chance_outcomes(state)
        assert len(outcomes) == math.comb(6 - kept + 5, 5) * (1 if bonus_kept else 6)
        assert sum(p for _, p in outcomes) == 1
        assert len({rules.format_move(m) for m, _ in outcomes}) == len(outcomes)


def test_multiplier_outcomes(rules: BurningDesire) -> None:
    state = State((0, 0), 0, "multiply", combination="1", points=50, trigger=0)
    outcomes = dict(rules.chance_outcomes(state))
    assert len(outcomes) == 9 and sum(outcomes.values()) == 1
    assert outcomes[Move("mult", (1, 2))] == Fraction(3, 6) * Fraction(2, 6)
    assert sum(p for m, p in outcomes.items() if 0 not in m.dice) == Fraction(1, 3)


def test_gamble_allowed_on_reaching_threshold_and_in_final_round(rules: BurningDesire) -> None:
    assert rules.gamble_allowed(State((960, 0), 0, GAMBLE, combination="1", points=40))
    assert not rules.gamble_allowed(State((959, 0), 0, GAMBLE, combination="1", points=40))
    assert rules.gamble_allowed(State((1200, 10), 1, GAMBLE, combination="1", points=5, trigger=0))
    with pytest.raises(IllegalMove) as info:
        rules.apply(State((959, 0), 0, GAMBLE, combination="1", points=40), Move("gamble"))
    assert info.value.rule == "BD-4.1" and "959 + 40 = 999" in info.value.reason


def test_final_round_every_other_player_once_then_winner(rules: BurningDesire) -> None:
    state = State((300, 990, 500, 100), 1, GAMBLE, combination="4-6", points=30)
    state, events = rules.apply(state, Move("stop"))
    assert state.trigger == 1 and state.turn == 2 and state.to_play == (3, 0)
    assert any(e.kind == "final_round" and e.data["to_play"] == [3, 4, 1] for e in events)
    order = []
    while state.phase != "over":
        order.append(state.turn)
        state = State(state.scores, state.turn, GAMBLE, combination="1", points=10,
                      trigger=state.trigger, to_play=state.to_play)
        state, _ = rules.apply(state, Move("stop"))
    assert order == [2, 3, 0]  # the trigger (seat 2) takes no further turn
    assert rules.outcome(state).winners == (1,) and rules.outcome(state).end == "final_round"


def test_successful_gamble_starts_final_round(rules: BurningDesire) -> None:
    state = State((900, 0), 0, GAMBLE, combination="1", points=120)
    state, _ = rules.apply(state, Move("gamble"))
    state, events = rules.apply(state, Move("mult", (1, 2)))
    state, events = rules.apply(state, Move("stop"))
    assert state.scores == (1140, 0) and state.trigger == 0 and state.turn == 1


def test_tie_break_then_decided(rules: BurningDesire) -> None:
    state = State((1100, 1050, 1000), 2, GAMBLE, combination="2-3", points=100, trigger=1)
    state, _ = rules.apply(state, Move("stop"))
    assert (state.tie_round, state.turn, state.to_play) == (1, 0, (2,))
    state = State(state.scores, 0, GAMBLE, combination="1", points=10, trigger=1, to_play=(2,), tie_round=1)
    state, _ = rules.apply(state, Move("stop"))
    assert state.turn == 2
    state = State(state.scores, 2, GAMBLE, combination="1", points=20, trigger=1, tie_round=1)
    state, _ = rules.apply(state, Move("stop"))
    outcome = rules.outcome(state)
    assert rules.current_player(state) == TERMINAL
    assert (outcome.winners, outcome.end, outcome.scores) == ((2,), "tie_break", (1110.0, 1050.0, 1120.0))


def test_tie_break_cap_is_a_shared_win(rules: BurningDesire) -> None:
    assert rules.tie_break_cap == 5
    state = State((1150, 1050, 1100), 2, GAMBLE, combination="4-6", points=50, trigger=1, tie_round=5)
    state, events = rules.apply(state, Move("stop"))
    outcome = rules.outcome(state)
    assert (outcome.winners, outcome.end, outcome.shared) == ((0, 2), "shared_win", True)
    assert events[-1].data == {"winners": [1, 3], "end": "shared_win"}


# --- notation and state files ------------------------------------------------------------------


def test_notation_round_trips_for_every_move(rules: BurningDesire) -> None:
    state = choose((1, 1, 2, 4, 5, 6), 1, rolls=1)
    moves = rules.legal_moves(state) + [m for m, _ in rules.chance_outcomes(
        State((0, 0), 0, ROLL))] + [m for m, _ in rules._mult_outcomes()] + [Move("gamble"), Move("stop")]
    for move in moves:
        assert rules.parse_move(rules.format_move(move), state) == move
    assert rules.parse_move("reroll 4 5 6", state) == rules.parse_move("keep 1 1 2 b", state)
    assert rules.parse_move("reroll 2 4 5 6 b", state) == Move("keep", (1, 1), 0)
    assert rules.parse_move("reroll all", state) == Move("keep", (), 0)
    assert rules.parse_move('score "2–3"') == Move("score", combination="2-3")
    assert rules.format_move(Move("roll", (1, 4, 4, 5, 6, 6), 5)) == "roll 1 4 4 5 6 6 b5"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("keep 1 7", "cannot read move 'keep 1 7': '7' is not a die face 1–6"),
        ("score 7-8", "cannot read move 'score 7-8': unknown combination '7-8' (combinations: 1, 2-3, 4-6)"),
        ("roll 1 2 3 4 5 6 6", "cannot read move 'roll 1 2 3 4 5 6 6': 7 main dice, there are 6"),
        ("reroll 3", "cannot read move 'reroll 3': no main die shows 3 to reroll"),
        ("mult 1", "cannot read move 'mult 1': expected 'roll 1 4 4 5 6 6 b5', 'keep 1 1 b', "
                   "'reroll 4 5', 'score 4-6', 'gamble', 'stop' or 'mult 0 0'"),
    ],
)
def test_bad_move_text(rules: BurningDesire, text: str, message: str) -> None:
    with pytest.raises(BadMove) as info:
        rules.parse_move(text, choose((1, 1, 2, 4, 5, 6), 1, rolls=1))
    assert info.value.message == message


def test_state_files_round_trip(rules: BurningDesire) -> None:
    from pnpgen.referee import load_state

    files = sorted(REFEREE.glob("*.yaml"))
    assert len(files) >= 8
    for path in files:
        state = load_state(rules, path)
        assert rules.from_data(json.loads(json.dumps(rules.to_data(state)))) == state, path.name
    example = rules.example_state()
    assert rules.check(example) == [] and rules.from_data(rules.to_data(example)) == example


# --- the referee through the CLI ---------------------------------------------------------------

REFEREE_CASES = [
    # state file, move, exit code, rule, (event kind, expected data subset)
    ("final-roll", "score 4-6", 0, None, ("score", {"base": 30, "bonus": 10, "doubled": False, "points": 40,
                                                    "gamble_allowed": False})),
    ("all-six-counted", "score 2-3", 0, None, ("score", {"count": 6, "base": 180, "bonus": 80, "points": 260})),
    ("ones-doubled", "score 1", 0, None, ("score", {"base": 120, "doubled": True, "points": 240})),
    ("final-roll", "keep 1 b", 1, "BD-2.1", None),
    ("first-roll", "keep 1 1 1", 1, "BD-2.2", None),
    ("first-roll", "reroll 2 4 5 6", 0, None, ("keep", {"kept": [1, 1], "kept_bonus": True})),
    ("first-roll", "gamble", 1, "BD-4.1", None),
    ("reaching-threshold", "gamble", 0, None, ("gamble", {"points": 60})),
    ("below-threshold", "gamble", 1, "BD-4.1", None),
    ("below-threshold", "stop", 0, None, ("bank", {"points": 40, "total": 540})),
    ("final-round-behind", "gamble", 0, None, ("gamble", {"player": 2})),
    ("multiplier-rolling", "mult 2 3", 0, None, ("multiply", {"faces": [2, 3], "points": 1200})),
    ("multiplier-rolling", "mult 3 2", 1, "BD-4.2", None),
    ("multiplier-rolling", "stop", 1, "BD-1", None),
    ("last-final-turn-tie", "stop", 0, None, ("tie_break", {"tied": [1, 3], "round": 1})),
    ("tie-break-last", "stop", 0, None, ("game_end", {"winners": [1, 3], "end": "shared_win"})),
    ("rolling-kept", "roll 2 3 b4", 1, "BD-2.3", None),
    ("rolling-kept", "roll 1 1 6", 0, None, ("roll", {"dice": [1, 1, 1, 1, 1, 6], "bonus": 1})),
]


@pytest.mark.parametrize(("name", "move", "code", "rule", "event"), REFEREE_CASES)
def test_referee_cli_verdicts(run_pnpgen: CliRun, name: str, move: str, code: int, rule: str | None,
                              event: tuple[str, dict[str, Any]] | None) -> None:
    state = REFEREE / f"{name}.yaml"
    got, out, err = run_pnpgen("referee", "burning-desire", "--state", str(state), "--move", move,
                               "--json", "--content", str(CONTENT))
    assert got == code, err
    verdict = json.loads(out)
    assert set(verdict) == {"ok", "errors", "game", "legal", "move", "rule", "reason", "events", "state", "judged",
                            "legal_if", "then", "outcome"}
    assert verdict["legal"] is (code == 0) and verdict["rule"] == rule
    if rule:
        assert verdict["reason"] and "\n" not in verdict["reason"] and verdict["state"] is None
    if event:
        kind, data = event
        found = [e["data"] for e in verdict["events"] if e["kind"] == kind]
        assert found and all(found[0][k] == v for k, v in data.items()), verdict["events"]


def test_referee_cli_text_legal_list_and_bad_move(run_pnpgen: CliRun) -> None:
    state = str(REFEREE / "below-threshold.yaml")
    code, out, _ = run_pnpgen("referee", "burning-desire", "--state", state, "--move", "gamble")
    assert code == 1 and "BD-4.1 (When the multiplier dice may be rolled)" in out
    code, out, _ = run_pnpgen("referee", "burning-desire", "--state", state, "--legal")
    assert code == 0 and out.split() == ["stop"]
    code, out, _ = run_pnpgen("referee", "burning-desire", "--state", str(REFEREE / "first-roll.yaml"), "--legal")
    assert len(out.splitlines()) == 98
    code, out, err = run_pnpgen("referee", "burning-desire", "--state", state, "--move", "jump")
    assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("error: cannot read move 'jump'")


# --- solver and bots ----------------------------------------------------------------------


def test_optimal_turn_value_is_exact_and_matches_simulation(rules: BurningDesire) -> None:
    ev = rules.solver.ev
    assert isinstance(ev, Fraction) and 100 < ev < 130
    context = rules.rulebook_context("en")
    assert context["optimal_turn_ev"] == ev and context["optimal_turn_ev_text"] == f"{float(ev):.2f}"
    bot = rules.bots()["optimal"]()
    rng = random.Random(11)
    turns = [play_turn(rules, bot, rng) for _ in range(2500)]
    mean = statistics.mean(turns)
    half = 1.96 * statistics.stdev(turns) / math.sqrt(len(turns))
    assert mean - half <= ev <= mean + half


def play_turn(rules: BurningDesire, bot: Any, rng: random.Random) -> int:
    state = State((0, 0), 0, ROLL)
    while state.phase in (ROLL, CHOOSE):
        move = rules.sample_chance(state, rng) if state.phase == ROLL else bot(state, rng)
        state, _ = rules.apply(state, move)
    return state.points if state.phase == GAMBLE else 0


def small_game(tmp_path: Path, rolls: int) -> BurningDesire:
    """A tiny variant (2 dice of 3 faces) whose optimum brute force can find."""
    folder = tmp_path / "burning-desire"
    shutil.copytree(CONTENT / "burning-desire", folder)
    data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    data["rules"].update({
        "main_dice": {"count": 2, "faces": 3}, "bonus_die": {"faces": 3}, "rolls_per_turn": rolls,
        "combinations": [
            {"id": "1", "name": "1", "faces": [1], "points": [10, 40], "bonus": "double"},
            {"id": "2-3", "name": "2-3", "faces": [2, 3], "points": [5, 20], "bonus": "per_die"},
        ],
    })
    data.pop("examples")
    (folder / "game.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    found = rules_for_content(load_game(folder))[0]
    assert isinstance(found, BurningDesire)
    return found


@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_solver_equals_brute_force_expectimax(tmp_path: Path, rolls: int) -> None:
    small = small_game(tmp_path, rolls)

    def value(state: State) -> Fraction:  # expectimax through the rules API itself
        if state.turns:  # the turn ended with nothing to multiply
            return Fraction(0)
        if state.phase == ROLL:
            return sum((p * value(small.apply(state, m)[0]) for m, p in small.chance_outcomes(state)), Fraction(0))
        if state.phase == CHOOSE:
            return max(value(small.apply(state, m)[0]) for m in small.legal_moves(state))
        return Fraction(state.points if state.phase == GAMBLE else 0)

    assert small.solver.ev == value(State((0, 0), 0, ROLL))


def test_optimal_bot_is_not_worse_than_greedy(rules: BurningDesire) -> None:
    greedy, optimal = rules.bots()["greedy"](), rules.bots()["optimal"]()
    rng_a, rng_b = random.Random(3), random.Random(3)
    a = statistics.mean(play_turn(rules, greedy, rng_a) for _ in range(1500))
    b = statistics.mean(play_turn(rules, optimal, rng_b) for _ in range(1500))
    assert a < rules.solver.ev + 15 and b > a - 15  # greedy is close behind; neither is wild


def test_simulation_is_deterministic_with_stats(rules: BurningDesire) -> None:
    one = simulate(rules, 8, 5, ["optimal", "greedy", "random"], check_invariants=True)
    two = simulate(rules, 8, 5, ["optimal", "greedy", "random"])
    assert one.problems == [] and one.timeouts == 0
    assert one.lengths == two.lengths and one.seat_wins == two.seat_wins
    assert 60 < one.stats["mean turn score"] < 200
    assert set(one.ends) <= {"final_round", "tie_break", "shared_win"}


def test_rulebook_tables(rules: BurningDesire) -> None:
    table = rules.rulebook_table("scores", "en")
    assert table[0] == ["Combination", "1 die", "2 dice", "3 dice", "4 dice", "5 dice", "6 dice"]
    assert table[1:] == [['"1"', "10", "25", "60", "120", "250", "500"],
                         ['"2–3"', "0", "10", "20", "30", "100", "180"],
                         ['"4–6"', "0", "5", "10", "20", "30", "80"]]
    assert rules.rulebook_table("scores", "ja")[0][0] == "役/個数"
    assert rules.rulebook_table("multipliers", "en")[1:] == [["A", "0, 0, 1, 1, 1, 2"], ["B", "0, 0, 0, 2, 2, 3"]]
    context = rules.rulebook_context("ja")
    assert (context["threshold"], context["rolls_per_turn"], context["rerolls"]) == (1000, 3, 2)
    # P(no zero) = 4/6 × 3/6; E[A·B] = E[A]·E[B] = (5/6)·(7/6)
    assert (context["multiplier_survive"], context["multiplier_expected_factor"]) == (Fraction(1, 3), Fraction(35, 36))
    with pytest.raises(KeyError):
        rules.rulebook_table("nothing", "en")


# --- the YAML drives the game --------------------------------------------------------------


def test_yaml_drives_simulation_referee_and_rulebook(tmp_path: Path, run_pnpgen: CliRun) -> None:
    root = tmp_path / "content"
    shutil.copytree(CONTENT / "burning-desire", root / "burning-desire")
    path = root / "burning-desire" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("threshold: 1000 ", "threshold: 300 ").replace(
        "points: [10, 25, 60, 120, 250, 500]", "points: [15, 25, 60, 120, 250, 500]")
    text = text.split("\nexamples:")[0] + "\n"  # the examples speak of 1000
    path.write_text(text, encoding="utf-8")
    changed = find_rules(root, "burning-desire")
    original = find_rules(CONTENT, "burning-desire")
    assert isinstance(changed, BurningDesire) and isinstance(original, BurningDesire)
    # simulation: games to 300 are much shorter
    short = simulate(changed, 6, 2, ["optimal", "optimal"])
    long = simulate(original, 6, 2, ["optimal", "optimal"])
    assert short.stats["turns per player"] * 2 < long.stats["turns per player"]
    # referee: 260 + 50 reaches 300 but not 1000; one 1 now scores 15
    state = tmp_path / "s.yaml"
    state.write_text("scores: [260, 100]\nturn: 1\nphase: gamble\ncombination: '1'\npoints: 50\n", encoding="utf-8")
    args = ("referee", "burning-desire", "--state", str(state), "--move", "gamble", "--content")
    code_new, code_old = run_pnpgen(*args, str(root))[0], run_pnpgen(*args, str(CONTENT))[0]
    assert (code_new, code_old) == (0, 1)
    one = tmp_path / "one.yaml"
    one.write_text("scores: [0, 0]\nturn: 1\nphase: choose\nrolls: 3\ndice: [1, 2, 2, 4, 5, 6]\nbonus: 3\n",
                   encoding="utf-8")
    code, out, _ = run_pnpgen("referee", "burning-desire", "--state", str(one), "--move", "score 1", "--json",
                              "--content", str(root))
    assert code == 0 and json.loads(out)["events"][0]["data"]["points"] == 15
    # rulebook
    assert changed.rulebook_table("scores", "en")[1][1] == "15"
    assert changed.rulebook_context("en")["threshold"] == 300
    assert changed.solver.ev > original.solver.ev


def test_referee_report_without_a_move(run_pnpgen: CliRun) -> None:
    code, out, _ = run_pnpgen("referee", "burning-desire", "--state", str(REFEREE / "final-roll.yaml"))
    assert code == 0
    assert "score 4-6: 40 (base 30, bonus 10)" in out and "score 1: 10 (base 10, bonus 0)" in out
    code, out, _ = run_pnpgen("referee", "burning-desire", "--state", str(REFEREE / "final-round-behind.yaml"))
    assert "100 points at stake on \"4-6\"; multiplier dice allowed" in out
