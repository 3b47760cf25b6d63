"""Fast Alone, Horizontal & Vertical (GAMES.md §3.1): both sides, rules from YAML."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pnpgen.engine.simulate import simulate
from pnpgen.errors import BadMove
from pnpgen.games import find_rules
from pnpgen.games.fast_alone.horizontal_vertical import FULL, STUCK, WON, HorizontalVertical, Move, State
from tests.conftest import ROOT, CliRun
from tests.fast_alone_support import build_sheet, own_copy

CONTENT = ROOT / "content"
KEY = "horizontal-vertical"
SIDES = ("total", "number")
REFEREE = ROOT / "tests" / "referee" / "fast-alone"


def hv(side: str, root: Path = CONTENT) -> HorizontalVertical:
    rules = find_rules(root, f"fast-alone/{KEY}-{side}")
    assert isinstance(rules, HorizontalVertical)
    return rules


def grid(rules: HorizontalVertical, rows: list[str], dice: list[int], passes: int = 0, turns: int = 0) -> State:
    return rules.from_data({"grid": rows, "dice": dice, "passes_used": passes, "turns": turns})


EMPTY = [". . . . ."] * 5


# --- moves -------------------------------------------------------------------------------
def test_legal_move_counts_on_an_empty_grid() -> None:
    rules = hv("total")
    # 2 3 5: each die written, the other two name a cell either way round: 6 writes, 25 passes
    state = grid(rules, EMPTY, [2, 3, 5], turns=1)
    moves = rules.legal_moves(state)
    writes = sorted(rules.format_move(m) for m in moves if m.kind == "write")
    assert writes == ["write 2 at 3-5", "write 2 at 5-3", "write 3 at 2-5", "write 3 at 5-2",
                      "write 5 at 2-3", "write 5 at 3-2"]
    assert sum(m.kind == "pass" for m in moves) == 25
    # 1 1 5: the 5 goes anywhere for two x (25 cells x C(24, 2)); a 1 goes in row 5 or
    # column 5 (9 cells) for one x (24 places)
    state = grid(rules, EMPTY, [1, 1, 5], turns=1)
    assert len(rules.legal_moves(state)) == 25 * 276 + 9 * 24 + 25
    assert len(set(rules.legal_moves(state))) == len(rules.legal_moves(state))


def test_no_pass_when_the_boxes_are_ticked() -> None:
    rules = hv("number")
    state = grid(rules, ["x x x . ."] + EMPTY[1:], [2, 3, 5], passes=3, turns=4)
    assert not any(m.kind == "pass" for m in rules.legal_moves(state))
    assert len(rules.legal_moves(state)) == 5  # 6 writes, but 2-3 is crossed


def test_chance_is_56_multisets_summing_to_one() -> None:
    rules = hv("total")
    outcomes = rules.chance_outcomes(rules.initial_state(1))
    assert len(outcomes) == 56
    assert sum(p for _, p in outcomes) == 1
    probs = {m.dice: p for m, p in outcomes}
    assert probs[(1, 1, 1)] == Fraction(1, 216) and probs[(1, 2, 3)] == Fraction(6, 216)


def test_write_and_wild_effects() -> None:
    rules = hv("total")
    state = grid(rules, EMPTY, [1, 4, 5], turns=1)
    new, events = rules.apply(state, rules.parse_move("write 4 at 5-2 x 6-6"))
    assert rules.to_data(new)["grid"] == EMPTY[:3] + ["4 . . . .", ". . . . x"]
    assert [e.kind for e in events] == ["write", "wild"]
    assert rules.current_player(new) < 0 and not new.dice  # the next roll is due
    assert state.cells == (0,) * 25  # the input state is untouched


def test_pass_ticks_a_box_and_writes_an_x() -> None:
    rules = hv("number")
    state = grid(rules, ["x . . . ."] + EMPTY[1:], [2, 3, 6], passes=1, turns=2)
    new, events = rules.apply(state, rules.parse_move("pass x 6-6"))
    assert new.passes == 2 and new.cells[24] == -1 and events[0].kind == "pass"


def test_full_grid_without_a_win_is_lost() -> None:
    rules = hv("total")
    rows = ["3 3 3 3 3"] * 4 + ["3 3 3 3 ."]  # only column 4 (ODD) counts
    state = grid(rules, rows, [4, 6, 6], turns=25)
    new, _ = rules.apply(state, rules.parse_move("write 4 at 6-6"))  # row 6 totals 16, not ≦14
    assert new.end == FULL and rules.outcome(new).winners == () and rules.outcome(new).scores == (0.0,)


def test_stuck_after_the_roll_is_lost() -> None:
    rules = hv("number")
    rows = [". . . . x", ". 2 . . .", "4 . 4 . x", ". . . 4 x", ". 6 . . 5"]
    state = rules.from_data({"grid": rows, "passes_used": 3, "turns": 9})
    new, events = rules.apply(state, rules.parse_move("roll 6 6 6"))
    assert new.end == STUCK and events[-1].kind == "stuck"
    alive, _ = rules.apply(state, rules.parse_move("roll 5 6 6"))  # a 6 fits in 6-5
    assert alive.end == "" and rules.legal_moves(alive)


def test_win_scores_the_passes_left() -> None:
    rules = hv("total")
    rows = [". . 2 . .", "5 4 . 3 2", ". . 6 . x", ". . 1 . .", ". . 5 . ."]
    state = grid(rules, rows, [3, 3, 4], passes=1, turns=10)
    new, _ = rules.apply(state, rules.parse_move("write 3 at 3-4"))
    assert new.end == WON
    outcome = rules.outcome(new)
    assert outcome.winners == (0,) and outcome.scores == (2.0,) and outcome.end == WON
    # a 4 instead makes row 3 total 18: no win
    state = grid(rules, rows, [3, 4, 4], passes=1, turns=10)
    new, _ = rules.apply(state, rules.parse_move("write 4 at 3-4"))
    assert new.end == ""


def test_number_side_line_need_not_be_full_but_no_x() -> None:
    rules = hv("number")
    rows = [". . . 4 .", ". 2 . . .", "4 . 4 . .", ". . . 4 x", ". 6 . . ."]
    new, _ = rules.apply(grid(rules, rows, [4, 4, 5], 1, 8), rules.parse_move("write 4 at 4-5"))
    assert new.end == WON
    # the same three 4s with an x in the row do not count
    rows[2] = "4 x 4 . ."
    new, _ = rules.apply(grid(rules, rows, [4, 4, 5], 2, 9), rules.parse_move("write 4 at 4-5"))
    assert new.end == ""


def test_illegal_moves_cite_rules() -> None:
    rules = hv("total")
    state = grid(rules, [". 3 . . ."] + EMPTY[1:], [1, 4, 5], turns=2)
    cases = {
        "write 6 at 2-2": "HV-3",  # no die shows 6
        "write 4 at 2-3 x 6-6": "HV-3.1",  # taken
        "write 4 at 5-2": "HV-3.2",  # the wild's x is missing
        "write 4 at 5-2 x 2-3": "HV-3.2",  # x on a written cell
        "write 5 at 2-2": "HV-3",  # the 4 names neither row 2 nor column 2
    }
    for text, rule in cases.items():
        with pytest.raises(Exception) as caught:
            rules.apply(state, rules.parse_move(text))
        assert getattr(caught.value, "rule", None) == rule, text


def test_notation_round_trips() -> None:
    rules = hv("total")
    state = grid(rules, EMPTY, [1, 1, 5], turns=1)
    for move in rules.legal_moves(state)[::97]:
        assert rules.parse_move(rules.format_move(move), state) == move
    assert rules.parse_move("roll 5 1 3") == Move("roll", dice=(1, 3, 5))
    for bad in ("write 7 at 2-2", "write 3 at 1-2", "write 3 2-2", "pass x", "jump"):
        with pytest.raises(BadMove):
            rules.parse_move(bad, state)


# --- examples, simulation ----------------------------------------------------------------
@pytest.mark.parametrize("side", SIDES)
def test_solver_beats_random(side: str) -> None:
    rules = hv(side)
    solver = simulate(rules, 24, 7, ["solver"])
    rand = simulate(rules, 60, 7, ["random"])
    assert solver.seat_intervals[0][0] > rand.seat_intervals[0][1]  # intervals apart
    assert solver.win_rate(0) >= 0.5 and rand.win_rate(0) <= 0.1
    assert solver.stats["turns"] > 5 and 0 < solver.stats["score (passes left)"] <= 3


def test_simulate_cli_reports_solo_figures(run_pnpgen: CliRun) -> None:
    code, out, _ = run_pnpgen("simulate", f"fast-alone/{KEY}-total", "--games", "6", "--seed", "3",
                              "--bots", "solver", "--json", "--content", str(CONTENT))
    data = json.loads(out)
    assert code == 0 and data["games"] == 6
    low, high = data["seats"][0]["interval95"]
    assert low <= data["seats"][0]["win_rate"] <= high
    assert set(data["ends"]) <= {WON, STUCK, FULL}
    assert "turns" in data["stats"] and "score (passes left)" in data["stats"]


# --- referee -----------------------------------------------------------------------------


def test_referee_lists_and_describes(run_pnpgen: CliRun) -> None:
    state = REFEREE / f"{KEY}-total" / "cannot-name.yaml"
    code, out, _ = run_pnpgen("referee", f"fast-alone/{KEY}-total", "--state", str(state), "--legal",
                              "--content", str(CONTENT))
    assert code == 0 and "write 5 at 2-3" in out.splitlines() and len(out.splitlines()) == 31
    code, out, _ = run_pnpgen("referee", f"fast-alone/{KEY}-total", "--state", str(state),
                              "--content", str(CONTENT))
    assert code == 0 and "Dice 2 3 5: 6 possible writes" in out and "≦14" in out


# --- bad input ---------------------------------------------------------------------------
def test_bad_move_and_bad_state_are_one_line(run_pnpgen: CliRun, tmp_path: Path) -> None:
    state = REFEREE / f"{KEY}-total" / "cannot-name.yaml"
    code, _, err = run_pnpgen("referee", f"fast-alone/{KEY}-total", "--state", str(state),
                              "--move", "write 5 at 9-9", "--content", str(CONTENT))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "'9-9' is not a cell" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("grid:\n  - . . . . .\n  - . 7 . . .\n  - . . . . .\n  - . . . . .\n  - . . . . .\n"
                   "passes_used: 0\n", encoding="utf-8")
    code, _, err = run_pnpgen("referee", f"fast-alone/{KEY}-total", "--state", str(bad),
                              "--content", str(CONTENT))
    assert code == 2 and f"{bad}:3:" in err and "'7' is not '.', 'x' or a number 1–6" in err
    assert len(err.strip().splitlines()) == 1


# --- data drives behaviour ---------------------------------------------------------------


def test_yaml_drives_passes_wilds_and_conditions(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["passes"] = 5
        data["wild_faces"] = []  # no wild: a 1 names nothing
        data["sides"]["total"]["rows"][1] = {"label": "=18", "measure": "sum", "equals": 18}

    rules = hv("total", own_copy(tmp_path, KEY, edit))
    state = grid(rules, EMPTY, [1, 1, 5], turns=1)
    assert len(rules.legal_moves(state)) == 25  # passes only: nothing can be named
    state = rules.from_data({"grid": ["x x x x ."] + EMPTY[1:], "passes_used": 4, "turns": 5, "dice": [2, 3, 5]})
    assert any(m.kind == "pass" for m in rules.legal_moves(state))  # 5 boxes now
    rows = [". . 2 . .", "5 4 . 3 2", ". . 6 . x", ". . 1 . .", ". . 5 . ."]
    won_before = grid(hv("total"), rows, [3, 3, 4], 1, 10)
    assert hv("total").apply(won_before, hv("total").parse_move("write 3 at 3-4"))[0].end == WON
    new, _ = rules.apply(grid(rules, rows, [3, 3, 4], 1, 10), rules.parse_move("write 3 at 3-4"))
    assert new.end == ""  # row 3 now needs 18
    new, _ = rules.apply(grid(rules, rows, [3, 4, 4], 1, 10), rules.parse_move("write 4 at 3-4"))
    assert new.end == ""  # 18 in row 3, but column 4 totals 18: even


def test_a_condition_needs_exactly_one_test(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["sides"]["number"]["columns"] = [{"label": "?", "measure": "sum"}] * 5

    with pytest.raises(Exception, match=r"rules.yaml:\d+:\d+: condition '\?': give exactly one of"):
        find_rules(own_copy(tmp_path, KEY, edit), f"fast-alone/{KEY}-number")


# --- print -------------------------------------------------------------------------------


@pytest.mark.parametrize("side", SIDES)
def test_board_sheet_is_a4_with_the_sides_conditions(side: str, tmp_path: Path) -> None:
    from pypdf import PdfReader

    path, text = build_sheet(f"{KEY}-{side}", tmp_path)
    (page,) = PdfReader(path).pages
    assert (round(float(page.mediabox.width) / 72 * 25.4), round(float(page.mediabox.height) / 72 * 25.4)) == (210, 297)
    labels = [c.label for c in hv(side).board.lines]  # printed from rules.yaml
    for label in set(labels):
        assert label in text
    assert "Passes" in text and ("EVEN" in text) == (side == "total")
