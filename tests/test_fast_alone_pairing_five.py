"""Fast Alone, Pairing Five (GAMES.md §3.5, D-FA-10): both sides, areas and effects from YAML."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pnpgen.engine.protocol import CHANCE, IllegalMove
from pnpgen.engine.simulate import simulate
from pnpgen.errors import BadMove
from pnpgen.games import find_rules
from pnpgen.games.fast_alone.pairing_five import STUCK, WON, Move, PairingFive, State
from tests.conftest import ROOT, CliRun
from tests.fast_alone_support import build_sheet, own_copy

CONTENT = ROOT / "content"
KEY = "pairing-five"
SIDES = ("basic", "expert")
REFEREE = ROOT / "tests" / "referee" / "fast-alone"


def p5(side: str, root: Path = CONTENT) -> PairingFive:
    rules = find_rules(root, f"fast-alone/{KEY}-{side}")
    assert isinstance(rules, PairingFive)
    return rules


def at(rules: PairingFive, areas: dict[str, list[int]], red: int | str, unused: list[int], **more: Any) -> State:
    return rules.from_data({"areas": areas, "red": red, "unused": unused, **more})


def play(rules: PairingFive, state: State, *moves: str) -> State:
    for text in moves:
        state, _ = rules.apply(state, rules.parse_move(text, state))
    return state


START = [1, 2, 2, 3, 5, 5, 6, 6, 6]  # white dice after the roll; the red shows 4


# --- moves -------------------------------------------------------------------------------
def test_the_roll_is_one_chance_node_of_red_face_and_white_multiset() -> None:
    rules = p5("basic")
    state = rules.initial_state(1)
    assert rules.current_player(state) == CHANCE and not rules.legal_moves(state)
    outcomes = rules.chance_outcomes(state)
    assert len(outcomes) == 6 * 2002 and sum(p for _, p in outcomes) == 1
    probs = {(m.red, m.dice): p for m, p in outcomes}
    assert probs[(4, (1,) * 9)] == Fraction(1, 6**10)
    state = play(rules, state, "roll red 4 white 6 6 6 5 5 3 2 2 1")
    assert state.red == 4 and state.pool == tuple(START) and rules.current_player(state) == 0


def test_red_goes_first_and_every_effect_option_is_a_move() -> None:
    rules = p5("basic")
    state = at(rules, {}, 4, START)
    moves = rules.legal_moves(state)
    assert {m.face for m in moves} == {4}  # only the red die
    per_area = {rules.label(a): sum(m.area == a for m in moves) for a in range(5)}
    # Down: 2>1, 3>1..2, 5>1..4, 6>1..5 = 12; Up: 1>2..6, 2>3..6, 3>4..6, 5>6 = 13;
    # upside down: one per face = 5; reroll one: 5; same reroll: faces 2, 5, 6 = 3
    assert per_area == {"A": 12, "B": 13, "C": 5, "D": 5, "E": 3}
    assert len(set(moves)) == len(moves)


def test_move_count_mid_game() -> None:
    rules = p5("basic")
    state = rules.example_state()  # A 5 (red), C 2, D 6; unused 1 3 3 4 4 6 6
    moves = rules.legal_moves(state)
    # only B (Up) and E (Same reroll) have empty 1st cells, and 6 is held by D:
    # B: 1 -> 5 ways, 3 -> 10, 4 -> 10; E: 1 -> 3 faces to reroll, 3 -> 2, 4 -> 2
    assert len(moves) == 32
    assert {(m.face, rules.label(m.area)) for m in moves} == {(f, a) for f in (1, 3, 4) for a in "BE"}


def test_expert_shift_fits_the_die_and_almighty_any_other_face() -> None:
    rules = p5("expert")
    state = at(rules, {}, 3, [1, 2, 2, 4, 4, 5, 6, 6, 6])
    by_area = {a: {(m.a, m.b) for m in rules.legal_moves(state) if m.area == a} for a in range(4)}
    assert by_area[0] == {(1, 4), (2, 5), (4, 1), (5, 2), (6, 3)}  # ±3: one way each
    assert by_area[1] == {(1, 3), (2, 4), (4, 2), (5, 3), (6, 4)}  # ±2: one way each (D-FA-11)
    assert by_area[2] == {(1, 2), (2, 3), (4, 3), (5, 4), (6, 5)}  # ±1: 1-3 up, 4-6 down
    assert len(by_area[3]) == 5 * 5  # almighty: five faces, five other faces each
    # area change needs two areas holding dice: not for the red die
    assert not any(m.area == 4 for m in rules.legal_moves(state))


def test_down_effect_changes_one_unused_die() -> None:
    rules = p5("basic")
    state = at(rules, {}, 4, START)
    new, events = rules.apply(state, rules.parse_move("place 4 in A with 6>3"))
    assert new.pool == (1, 2, 2, 3, 3, 5, 5, 6, 6) and new.red == 0 and new.red_area == 0
    assert [e.kind for e in events] == ["place", "effect"] and state.pool == tuple(START)  # input untouched


def test_rerolls_are_chance_nodes() -> None:
    rules = p5("basic")
    state = at(rules, {"A": [4]}, "A", [1, 2, 2, 3, 3, 5, 5, 6, 6], turns=1)
    one = play(rules, state, "place 5 in D with reroll 6")
    assert rules.current_player(one) == CHANCE and one.pending == 1 and one.pool == (1, 2, 2, 3, 3, 5, 6)
    assert [(m.dice, p) for m, p in rules.chance_outcomes(one)] == [((f,), Fraction(1, 6)) for f in range(1, 7)]
    assert play(rules, one, "reroll 2").pool == (1, 2, 2, 2, 3, 3, 5, 6)
    every = play(rules, state, "place 5 in E with reroll all 2")
    assert every.pending == 2 and every.pool == (1, 3, 3, 5, 6, 6)
    assert len(rules.chance_outcomes(every)) == 21 and every.rerolls == 1
    with pytest.raises(IllegalMove) as caught:
        rules.apply(every, rules.parse_move("place 3 in B with 1>2"))
    assert caught.value.rule == "P5-5"


def test_area_change_swaps_areas_and_the_red_moves() -> None:
    rules = p5("expert")
    state = at(rules, {"A": [3, 3], "B": [5, 5], "C": [1], "D": [6], "E": [2]}, "C", [2, 4, 6], turns=7)
    new = play(rules, state, "place 2 in E with swap A C")
    assert rules.to_data(new)["areas"] == {"A": [1], "B": [5, 5], "C": [3, 3], "D": [6], "E": [2, 2]}
    assert rules.to_data(new)["red"] == "A"
    # A (±3) holds one die again, so it may fire again: 6 to D turns the 4 into 1 for A
    moves = {rules.format_move(m) for m in rules.legal_moves(new)}
    assert moves == {"place 6 in D with 4>1", "place 6 in D with 4>2", "place 6 in D with 4>3",
                     "place 6 in D with 4>5", "place 6 in D with 4>6"}


def test_last_die_wins_without_an_effect() -> None:
    rules = p5("basic")
    state = at(rules, {"A": [1, 1], "B": [2, 2], "C": [3, 3], "D": [4, 4], "E": [5]}, "A", [5], turns=9)
    new, events = rules.apply(state, rules.parse_move("place 5 in E"))
    assert new.end == WON and events[-1].kind == "won"
    outcome = rules.outcome(new)
    assert outcome.winners == (0,) and outcome.scores == (10.0,) and outcome.end == WON
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, rules.parse_move("place 5 in E with reroll all 5"))
    assert caught.value.rule == "P5-5.2"


def test_no_placement_left_is_lost() -> None:
    rules = p5("basic")
    # 1st cells full with 1 2 3 4 5; unused 6 6 ... nothing matches: stuck at once
    state = at(rules, {"A": [1, 1], "B": [2], "C": [3], "D": [4], "E": [5]}, "A", [2, 3, 6, 6], turns=6)
    # 2 to B (Up) must raise an unused die: 3>4..6 or 6>nothing
    new = play(rules, state, "place 2 in B with 3>6")
    assert new.end == STUCK and rules.outcome(new).winners == () and rules.outcome(new).scores == (7.0,)
    # the same reroll cannot take the 5: only one 4 would be left to reroll
    state = at(rules, {"A": [1, 1], "B": [2, 2], "C": [3, 3], "D": [4], "E": [5]}, "A", [4, 5], turns=8)
    assert [rules.format_move(m) for m in rules.legal_moves(state)] == ["place 4 in D with reroll 5"]


def test_illegal_moves_cite_rules() -> None:
    basic = p5("basic")
    state = at(basic, {"A": [4], "B": [1], "C": [5], "D": [2]}, "A", [3, 3, 4, 6, 6, 6], turns=4)
    cases = {
        "place 4 in A with 6>5": "P5-4.1",  # E's 1st cell is still empty
        "place 3 in B with 6>5": "P5-4.1",
        "place 2 in E with 6>5": "P5-4",  # no unused 2
        "place 6 in E with reroll 3": "P5-6.5",  # same reroll is 'reroll all'
        "place 6 in E with reroll all 4": "P5-6.5",  # one 4 only
        "place 6 in E": "P5-5",  # the effect must be given
    }
    for text, rule in cases.items():
        with pytest.raises(IllegalMove) as caught:
            basic.apply(state, basic.parse_move(text, state))
        assert caught.value.rule == rule, (text, caught.value.reason)
    full = at(basic, {"A": [4], "B": [1], "C": [5], "D": [2], "E": [6]}, "A", [1, 3, 3, 4, 6], turns=5)
    for text, rule in {"place 3 in A with 1>2": "P5-4.3", "place 1 in B with 6>1": "P5-6.2",
                       "place 5 in C with 3>4": "P5-4"}.items():
        with pytest.raises(IllegalMove) as caught:
            basic.apply(full, basic.parse_move(text, full))
        assert caught.value.rule == rule, text
    first = at(basic, {}, 4, START)
    with pytest.raises(IllegalMove) as caught:
        basic.apply(first, basic.parse_move("place 5 in A with 6>3"))
    assert caught.value.rule == "P5-3"
    expert = p5("expert")
    first = at(expert, {}, 3, [1, 2, 2, 4, 4, 5, 6, 6, 6])
    for text, rule in {"place 3 in A with 2>6": "P5-7.1", "place 3 in D with 2>2": "P5-7.2",
                       "place 3 in E with swap A B": "P5-5.1"}.items():
        with pytest.raises(IllegalMove) as caught:
            expert.apply(first, expert.parse_move(text))
        assert caught.value.rule == rule, text


def test_notation_round_trips() -> None:
    for side in SIDES:
        rules = p5(side)
        state = at(rules, {"A": [3, 3], "B": [5, 5], "C": [1], "D": [6], "E": [2]}, "C", [1, 2, 6], turns=7) \
            if side == "expert" else rules.example_state()
        for move in rules.legal_moves(state):
            assert rules.parse_move(rules.format_move(move), state) == move
    rules = p5("basic")
    assert rules.parse_move("roll red 2 white 6 5 4 3 2 1 1 1 1") == Move("roll", dice=(1, 1, 1, 1, 2, 3, 4, 5, 6),
                                                                         red=2)
    assert rules.parse_move("place 5 in a, 6>2") == Move("place", 5, 0, "change", 6, 2)
    for bad in ("place 7 in A", "place 5 in F", "place 5 in A with 6<2", "roll 1 2 3", "jump", ""):
        with pytest.raises(BadMove):
            rules.parse_move(bad)


# --- examples, simulation ----------------------------------------------------------------
@pytest.mark.parametrize("side", SIDES)
def test_solver_beats_random(side: str) -> None:
    rules = p5(side)
    solver = simulate(rules, 30, 7, ["solver"])
    rand = simulate(rules, 80, 7, ["random"])
    assert solver.seat_intervals[0][0] > rand.seat_intervals[0][1]  # intervals apart
    assert solver.win_rate(0) >= 0.8 and rand.win_rate(0) <= 0.15
    assert solver.stats["turns"] > 9 and rand.stats["turns"] < solver.stats["turns"]


def test_simulate_cli_reports_solo_figures(run_pnpgen: CliRun) -> None:
    code, out, _ = run_pnpgen("simulate", f"fast-alone/{KEY}-expert", "--games", "6", "--seed", "3",
                              "--bots", "solver", "--json", "--content", str(CONTENT))
    data = json.loads(out)
    assert code == 0 and data["games"] == 6
    low, high = data["seats"][0]["interval95"]
    assert low <= data["seats"][0]["win_rate"] <= high
    assert set(data["ends"]) <= {WON, STUCK}
    assert "turns" in data["stats"] and "dice placed" in data["stats"]


# --- referee -----------------------------------------------------------------------------


def test_referee_describes_the_board(run_pnpgen: CliRun) -> None:
    code, out, _ = run_pnpgen("referee", f"fast-alone/{KEY}-basic", "--example-state", "--content", str(CONTENT))
    assert code == 0
    code, out, _ = run_pnpgen("referee", f"fast-alone/{KEY}-basic", "--state",
                              str(REFEREE / f"{KEY}-basic" / "second-too-soon.yaml"), "--content", str(CONTENT))
    assert code == 0 and "area A [Down]: 4 (red)" in out and "placements" in out


# --- bad input ---------------------------------------------------------------------------
def test_bad_move_and_bad_state_are_one_line(run_pnpgen: CliRun, tmp_path: Path) -> None:
    state = REFEREE / f"{KEY}-basic" / "second-too-soon.yaml"
    code, _, err = run_pnpgen("referee", f"fast-alone/{KEY}-basic", "--state", str(state),
                              "--move", "place 5 in Q", "--content", str(CONTENT))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "'Q' is not an area" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("areas: {A: [4, 3]}\nred: A\nunused: [1, 1, 2, 2, 3, 3, 5, 6]\n", encoding="utf-8")
    code, _, err = run_pnpgen("referee", f"fast-alone/{KEY}-basic", "--state", str(bad), "--content", str(CONTENT))
    assert code == 2 and f"{bad}:1:" in err and "the two dice of an area match" in err
    assert len(err.strip().splitlines()) == 1


# --- data drives behaviour ---------------------------------------------------------------


def test_yaml_drives_the_areas_and_their_effects(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        areas = data["sides"]["basic"]["areas"]
        areas[0], areas[1] = areas[1], areas[0]  # Up first, then Down
        areas[0]["label"], areas[1]["label"] = "A", "B"
        areas[4]["least"] = 3  # same reroll needs three of a face
        data["sides"]["expert"]["areas"][2]["by"] = 4  # a ±4 instead of ±1

    root = own_copy(tmp_path, KEY, edit)
    rules = p5("basic", root)
    state = at(rules, {}, 4, START)
    per_area = [sum(m.area == a for m in rules.legal_moves(state)) for a in range(5)]
    assert per_area == [13, 12, 5, 5, 1]  # only the 6s come three times
    expert = p5("expert", root)
    state = at(expert, {}, 3, [1, 2, 2, 4, 4, 5, 6, 6, 6])
    assert {(m.a, m.b) for m in expert.legal_moves(state) if m.area == 2} == {(1, 5), (2, 6), (5, 1), (6, 2)}


def test_area_count_must_match_the_dice(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["sides"]["basic"]["areas"].pop()

    with pytest.raises(Exception, match=r"rules.yaml:\d+:\d+: dice.white: 9 white dice and the red fill 10 cells"):
        find_rules(own_copy(tmp_path, KEY, edit), f"fast-alone/{KEY}-basic")


# --- print -------------------------------------------------------------------------------
@pytest.mark.parametrize("side", SIDES)
def test_board_sheet_is_a4_with_the_areas_effects(side: str, tmp_path: Path) -> None:
    from pypdf import PdfReader

    from pnpgen.content.schema import text_for

    path, _ = build_sheet(f"{KEY}-{side}", tmp_path)
    (page,) = PdfReader(path).pages
    assert (round(float(page.mediabox.width) / 72 * 25.4), round(float(page.mediabox.height) / 72 * 25.4)) == (210, 297)
    text = page.extract_text()
    for area in p5(side).areas:  # the effect names come from rules.yaml
        assert text_for(area.name, "en") in text
    assert "1st" in text and "2nd" in text and ("Area change" in text) == (side == "expert")


def test_search_settles_only_positions_it_does_not_know() -> None:
    """The solver's search looks a child up in its memo before settling the child's end (the
    end depends on the memo's key alone): the same values as settling every child."""
    from pnpgen.games.fast_alone.pairing_five.solver import _Search

    rules = p5("basic")  # random games reach its exact endgame (expert's mostly end before)
    rng = random.Random(11)
    search, plain = _Search(rules), _Search(rules)
    depth, checked = rules.depth - 1, 0  # the solver's
    for _ in range(2):
        state = rules.initial_state(1)
        while not state.end:
            if rules.current_player(state) == CHANCE:
                state = rules.advance(state, rules.sample_chance(state, rng))
                continue
            for move in rules.legal_moves(state)[:6]:
                assert search.after(state, move, depth) == plain.value(rules.advance(state, move), depth)
                checked += 1
            state = rules.advance(state, rng.choice(rules.legal_moves(state)))
    assert checked > 20 and search.memo
