"""Fast Alone, Growing Nine (GAMES.md §3.2): both sides, the cube, the exact solver."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from pnpgen.engine.protocol import CHANCE
from pnpgen.engine.simulate import simulate
from pnpgen.errors import BadMove
from pnpgen.games import find_rules
from pnpgen.games.fast_alone.growing_nine import (
    ORIENTATIONS,
    REPEAT,
    STUCK,
    TOP,
    TUMBLE,
    WON,
    GrowingNine,
    Move,
    State,
    solve_setup,
)
from tests.conftest import ROOT, CliRun
from tests.fast_alone_support import own_copy

CONTENT = ROOT / "content"
KEY = "growing-nine"
SIDES = ("a", "b")
QUEUE5 = ["2/1", "5/3", "6/4", "1/3", "2/4"]


def g9(side: str, root: Path = CONTENT) -> GrowingNine:
    rules = find_rules(root, f"fast-alone/{KEY}-{side}")
    assert isinstance(rules, GrowingNine)
    return rules


def board(rules: GrowingNine, rows: list[str], queue: list[str], turns: int = 0) -> State:
    return rules.from_data({"grid": rows, "queue": queue, "turns": turns})


def rolled(rules: GrowingNine, seed: int) -> State:
    rng = random.Random(seed)
    state = rules.initial_state(1)
    while rules.current_player(state) == CHANCE:
        state, _ = rules.apply(state, rules.sample_chance(state, rng))
    return state


def moves(rules: GrowingNine, state: State) -> list[str]:
    return sorted(rules.format_move(m) for m in rules.legal_moves(state))


# --- the cube ----------------------------------------------------------------------------
def test_24_right_handed_orientations() -> None:
    assert len(ORIENTATIONS) == 24 == len(set(ORIENTATIONS))
    for top, north, east in ORIENTATIONS:
        assert {top, north, east, 7 - top, 7 - north, 7 - east} == set(range(1, 7))
    assert (1, 2, 4) in ORIENTATIONS and (1, 2, 3) not in ORIENTATIONS  # 1-2-3 counter-clockwise
    for d, back in (("n", "s"), ("e", "w")):
        for o in range(24):
            assert TUMBLE[back][TUMBLE[d][o]] == o  # a tumble and its reverse
            x = o
            for _ in range(4):
                x = TUMBLE[d][x]
                assert TOP[x] != TOP[o] or x == o  # the top always changes
            assert x == o  # four tumbles one way: back as it was


def test_setup_chance_is_24_orientations_then_a_placement() -> None:
    rules = g9("a")
    state = rules.initial_state(1)
    outcomes = rules.chance_outcomes(state)
    assert len(outcomes) == 24 and sum(p for _, p in outcomes) == 1
    state = rolled(rules, 3)
    assert len(state.rolled) == 10 and rules.current_player(state) == 0
    assert len(rules.legal_moves(state)) == 4 * 9 * 8 * 7  # the red's corner, three ordered whites
    new, _ = rules.apply(state, rules.parse_move("place a1=3 d1=R a4=1 d4=9"))
    assert new.cells[0] == 1 + state.rolled[3] and new.cells[3] == 25 + state.rolled[0]
    assert new.queue == tuple(state.rolled[i] for i in (2, 4, 5, 6, 7, 8))  # roll order


# --- moves -------------------------------------------------------------------------------
def test_forced_white_and_waiting_red() -> None:
    rules = g9("a")
    state = rules.example_state()
    assert moves(rules, state) == ["b1-b2", "b1-c1"]  # a1 is taken
    new, events = rules.apply(state, rules.parse_move("b1 n"))
    assert rules.to_data(new)["grid"][2] == ". 5/3 . ." and events[0].data["top"] == 5
    assert moves(rules, new) == ["d4-c4", "d4-d3"]  # no white shows 3 now: the red moves
    with pytest.raises(Exception) as caught:
        rules.apply(state, rules.parse_move("d4-c4"))
    assert getattr(caught.value, "rule", None) == "G9-4"
    # two whites matching: either may go first
    two = board(rules, ["1/2 . . R3/2", ". . . .", ". . 3/1 .", "4/1 3/2 . 6/2"], QUEUE5[:4])
    assert moves(rules, two) == ["b1-b2", "b1-c1", "c2-b2", "c2-c1", "c2-c3", "c2-d2"]


def test_spawn_partner_and_win() -> None:
    rules = g9("a")
    rows = [". . . R5/1", ". 4/1 . .", ". . . .", "2/1 . 5/1 ."]
    new, events = rules.apply(board(rules, rows, QUEUE5 + ["4/5"], 7), rules.parse_move("c1-d1"))
    assert [e.kind for e in events] == ["tumble", "spawn"] and len(new.queue) == 5
    assert rules.to_data(new)["queue"] == QUEUE5[1:] + ["4/5"]
    assert rules.to_data(new)["grid"][0].startswith("2/1") and new.seen == frozenset([new.cells])
    blocked = board(rules, ["3/1 . . R5/1"] + rows[1:], QUEUE5)  # a white on a4
    assert "c1-d1" not in moves(rules, blocked)
    # the red may enter a spawn cell with its partner taken: it spawns nothing
    red = board(rules, [". 1/2 2/3 .", ". . . R4/1", ". 3/1 . .", "6/2 . . ."], QUEUE5[:4] + ["3/2"])
    new, events = rules.apply(red, rules.parse_move("d3-d4"))
    assert [e.kind for e in events] == ["tumble"] and len(new.queue) == 5
    last = board(rules, [". 1/2 2/3 R6/2", "1/3 2/1 . 4/1", "3/1 . 5/1 .", ". . 6/2 ."], ["3/2"], 60)
    new, _ = rules.apply(last, rules.parse_move("c1-d1"))
    outcome = rules.outcome(new)
    assert new.end == WON and outcome.winners == (0,) and outcome.scores == (61.0,) and outcome.end == WON


def test_repeat_and_stuck_lose() -> None:
    rules = g9("a")
    state = board(rules, [". . . R5/1", ". 6/2 . .", ". . . .", "2/1 . 2/3 ."], QUEUE5 + ["4/5"], 7)
    mid, _ = rules.apply(state, rules.parse_move("d4-c4"))
    assert mid.end == ""
    new, events = rules.apply(mid, rules.parse_move("c4-d4"))
    assert new.end == REPEAT and events[-1].kind == "repeat"
    assert rules.outcome(new).winners == () and rules.outcome(new).scores == (-6.0,)
    b = g9("b")
    boxed = board(b, [". . . 1/2 R4/1", ". . . . 2/1", "4/2 . . . .", ". . . . .", "5/1 . . . ."], QUEUE5)
    new, events = b.apply(boxed, b.parse_move("a3-b3"))
    assert new.end == STUCK and events[-1].data["dice"] == ["e5"] and b.legal_moves(new) == []


def test_notation_round_trips_and_bad_moves() -> None:
    rules = g9("a")
    state = rolled(rules, 5)
    for move in rules.legal_moves(state)[::101]:
        assert rules.parse_move(rules.format_move(move)) == move
    assert rules.parse_move("roll 3/1") == Move("roll", orient=ORIENTATIONS.index((3, 1, 5)))
    for bad in ("roll 3/4", "place a1=R", "e1-e2", "a1 n n", "d4 n", "jump"):
        with pytest.raises(BadMove):
            rules.parse_move(bad)


# --- the solver --------------------------------------------------------------------------
def test_solver_decides_setups_and_its_line_wins() -> None:
    rules = g9("a")
    state = rolled(rules, 11)
    won, nodes, seconds = solve_setup(rules, state)
    assert won is True and nodes > 0 and seconds >= 0
    found, place = rules.solve_placement(state)
    assert place is not None
    state, _ = rules.apply(state, place)
    for move in found.moves:  # replayed through the rules: no repeat, ends won
        assert state.end == ""
        state, _ = rules.apply(state, move)
    assert state.end == WON


def test_solver_proves_a_loss_and_respects_history() -> None:
    rules = g9("b")
    boxed = board(rules, [". . . 1/2 R4/1", ". . . . 2/1", "4/2 . . . .", ". . . . .", "5/1 . . . ."], QUEUE5)
    # every tumble of the white 4 leaves the red boxed in
    assert rules.solve(boxed).won is False
    a = g9("a")
    state = board(a, [". . . R5/1", ". 6/2 . .", ". . . .", "2/1 . 2/3 ."], QUEUE5 + ["4/5"], 7)
    assert a.solve(state).won is True
    # forbidding every position the red could reach first: lost
    blocked = {a.apply(state, m)[0].cells for m in a.legal_moves(state)}
    assert a.search(state.cells, state.queue, frozenset(blocked)).won is False


@pytest.mark.parametrize("side", SIDES)
def test_solver_beats_random(side: str) -> None:
    rules = g9(side)
    solver = simulate(rules, 4, 7, ["solver"])
    rand = simulate(rules, 40, 7, ["random"])
    assert solver.win_rate(0) == 1.0 and rand.win_rate(0) <= 0.05
    assert solver.stats["turns"] > 20 and solver.stats["whites on the board"] == 9


def test_simulate_cli_reports_solo_figures(run_pnpgen: CliRun) -> None:
    code, out, _ = run_pnpgen("simulate", f"fast-alone/{KEY}-a", "--games", "3", "--seed", "3",
                              "--bots", "solver", "--json", "--content", str(CONTENT))
    data = json.loads(out)
    assert code == 0 and data["games"] == 3 and data["seats"][0]["win_rate"] == 1.0
    assert set(data["ends"]) == {WON} and "score (turns when won)" in data["stats"]


# --- examples and referee ----------------------------------------------------------------
def test_bad_state_is_one_line(run_pnpgen: CliRun, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text('grid: ["1/2 . . R3/2", ". . . .", ". 3/4 . .", "4/1 3/2 . 6/2"]\nqueue: [2/1]\n',
                   encoding="utf-8")
    code, _, err = run_pnpgen("referee", f"fast-alone/{KEY}-a", "--state", str(bad), "--content", str(CONTENT))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"{bad}:1:" in err and "'3/4' is not a die" in err


# --- data drives behaviour ---------------------------------------------------------------


def test_yaml_drives_board_and_dice(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["dice"]["whites"] = 7
        data["sides"]["a"]["size"] = 6
        data["sides"]["a"]["spawns"] = [{"symbol": "sun", "mark": "S", "cells": ["b2", "e5"]},
                                        {"symbol": "moon", "mark": "M", "cells": ["b5", "e2"]}]

    rules = g9("a", own_copy(tmp_path, KEY, edit))
    assert rules.n == 6 and [rules.cell_name(c) for c in rules.spawn_cells] == ["b2", "e2", "b5", "e5"]
    state = rolled(rules, 2)
    assert len(state.rolled) == 8 and len(rules.legal_moves(state)) == 4 * 7 * 6 * 5
    placed, _ = rules.apply(state, rules.legal_moves(state)[0])
    assert len(placed.queue) == 4 and placed.cells[rules.parse_cell("", "b2")]


def test_bad_board_data_names_the_line(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["sides"]["b"]["spawns"][0]["cells"] = ["a1", "z9"]

    with pytest.raises(Exception, match=r"rules.yaml:\d+:\d+: spawns: .*'z9' is not a cell"):
        find_rules(own_copy(tmp_path, KEY, edit), f"fast-alone/{KEY}-b")


# --- print -------------------------------------------------------------------------------
@pytest.mark.parametrize("side", SIDES)
def test_board_sheet_marks_the_spawn_cells_of_rules_yaml(side: str) -> None:
    rules = g9(side)
    sheets = yaml.safe_load((CONTENT / "fast-alone" / KEY / "components.yaml").read_text(encoding="utf-8"))
    sheet = next(s for s in sheets if s["id"] == f"{KEY}-{side}")
    assert sheet["paper"] == "A4" and sheet["grid"]["cell"] >= 18  # room for 16 mm dice
    assert sheet["grid"]["columns"] == sheet["grid"]["rows"] == rules.n
    marked = {}
    for mark in sheet["cells"]:
        for column, row in mark["at"]:  # from the top-left
            marked[rules.cell_name((rules.n - row) * rules.n + column - 1)] = mark["symbol"]
    expected = {rules.cell_name(c): rules.mark[c] for c in rules.spawn_cells}
    assert marked == expected
