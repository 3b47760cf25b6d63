"""Fast Alone, Unification (GAMES.md §3.4, D-FA-8, D-FA-9): both sides, edge effects from YAML."""

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
from pnpgen.games.fast_alone.unification import STUCK, TIME, WON, Move, State, Unification
from pnpgen.games.fast_alone.unification.rules import EDGES
from tests.conftest import ROOT, CliRun
from tests.fast_alone_support import build_sheet, own_copy

CONTENT = ROOT / "content"
KEY = "unification"
SIDES = ("simple", "complex")
REFEREE = ROOT / "tests" / "referee" / "fast-alone"
GRID = [[3, 1, 4], [1, 5, 2], [6, 5, 3]]


def un(side: str, root: Path = CONTENT) -> Unification:
    rules = find_rules(root, f"fast-alone/{KEY}-{side}")
    assert isinstance(rules, Unification)
    return rules


def at(rules: Unification, grid: list[list[int]], red: list[int], push: int, **more: Any) -> State:
    return rules.from_data({"grid": grid, "red": red, "push": push, **more})


def play(rules: Unification, state: State, *moves: str) -> State:
    for text in moves:
        state, _ = rules.apply(state, rules.parse_move(text, state))
    return state


def grid(rules: Unification, state: State) -> list[list[int]]:
    return [list(row) for row in rules.to_data(state)["grid"]]


# --- setup -------------------------------------------------------------------------------
def test_setup_is_a_chain_of_chance_steps() -> None:
    rules = un("simple")
    state = rules.initial_state(1)
    outcomes = rules.chance_outcomes(state)
    assert rules.current_player(state) == CHANCE and len(outcomes) == 9
    assert {m.kind for m, _ in outcomes} == {"red"} and sum(p for _, p in outcomes) == 1
    state = play(rules, state, "red 2,2", *[f"roll {f}" for f in (3, 1, 4, 1, 5, 2, 6, 5, 3)])
    assert rules.current_player(state) == CHANCE and grid(rules, state) == GRID  # the push die is next
    assert [(m.face, p) for m, p in rules.chance_outcomes(state)] == [(f, Fraction(1, 6)) for f in range(1, 7)]
    state = play(rules, state, "roll 5")
    assert rules.current_player(state) == 0 and state.push == 5 and state.red == 4 and state.pushes == 0
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, rules.parse_move("roll 2"))
    assert caught.value.rule == "U-2"


# --- pushes ------------------------------------------------------------------------------
def test_push_shifts_the_line_and_the_exit_edge_changes_the_die() -> None:
    rules = un("simple")
    state = rules.example_state()  # push die 5, red in the centre, banned E2
    new, events = rules.apply(state, rules.parse_move("N1"))
    assert grid(rules, new) == [[5, 1, 4], [3, 5, 2], [1, 5, 3]]
    assert new.push == 1 and new.banned == "S1" and new.pushes == 4  # 6 upside down
    assert [e.kind for e in events] == ["push", "effect"] and state.cells[6] == 6  # input untouched
    new = play(rules, state, "S3")  # the 4 leaves by the north (−1)
    assert grid(rules, new) == [[3, 1, 2], [1, 5, 3], [6, 5, 5]] and new.push == 3


def test_the_red_die_slides_but_never_leaves() -> None:
    rules = un("simple")
    state = rules.example_state()
    new = play(rules, state, "W2")  # row 2: 1 [5] 2 -> 5 1 [5], the 2 leaves by the east (+1)
    assert grid(rules, new)[1] == [5, 1, 5] and rules.to_data(new)["red"] == [2, 3] and new.push == 3
    with pytest.raises(IllegalMove) as caught:
        rules.apply(new, rules.parse_move("E2"))  # banned anyway; W... the red is at the east end
    assert caught.value.rule == "U-5"
    with pytest.raises(IllegalMove) as caught:
        rules.apply(play(rules, new, "N1"), rules.parse_move("W2"))
    assert caught.value.rule == "U-4"


def test_legal_move_counts() -> None:
    simple = un("simple")
    state = simple.example_state()
    # 12 places; E2 is banned, S2 would push a 1 out by the −1 edge
    assert [simple.format_move(m) for m in simple.legal_moves(state)] == [
        "N1", "N2", "N3", "E1", "E3", "S1", "S3", "W1", "W2", "W3"]
    complex_ = un("complex")
    moves = complex_.legal_moves(complex_.example_state())
    # D-FA-11: a ± effect has no choice of direction (1-3 go up, 4-6 go down), so each push
    # place gives one move: N 3, E 2 (E2 banned), S 3, W 3; paradigm none
    assert len(moves) == 11 and len(set(moves)) == 11
    assert {complex_.format_move(m) for m in moves if m.edge == "N"} == {"N1 -1", "N2 -1", "N3 +1"}


def test_rotation_turns_the_grid_counter_clockwise() -> None:
    rules = un("complex")
    new, events = rules.apply(rules.example_state(), rules.parse_move("N1 -1"))
    # before turning: 5 1 4 / 3 5 2 / 1 5 3; a quarter turn to the left
    assert grid(rules, new) == [[4, 2, 3], [1, 5, 5], [5, 3, 1]] and new.push == 5
    assert [e.data.get("effect") for e in events] == [None, "shift", "rotate"]
    corner = at(rules, [[2, 6, 6], [4, 2, 1], [5, 2, 3]], [1, 1], 1, pushes=2, banned="W3")
    turned = play(rules, corner, "N3 +1")  # the red in the north-west corner goes to the south-west
    assert rules.to_data(turned)["red"] == [3, 1] and turned.cells[6] == 2


def test_paradigm_shift_changes_the_red_face() -> None:
    rules = un("complex")
    new = play(rules, rules.example_state(), "E3")
    assert grid(rules, new)[1][1] == 6 and new.push == 6 and new.banned == "W3"
    same = at(rules, [[3, 1, 4], [5, 5, 2], [6, 5, 3]], [2, 2], 2, banned="N1", pushes=6)
    with pytest.raises(IllegalMove) as caught:
        rules.apply(same, rules.parse_move("E2"))
    assert caught.value.rule == "U-9.3"


def test_reroll_is_a_chance_node() -> None:
    rules = un("simple")
    state = rules.example_state()
    new = play(rules, state, "E1")  # row 1: the 3 leaves by the west (reroll)
    assert rules.current_player(new) == CHANCE and new.push == 0 and new.rerolls == 1
    assert [(m.kind, m.face, p) for m, p in rules.chance_outcomes(new)] == [
        ("reroll", f, Fraction(1, 6)) for f in range(1, 7)]
    with pytest.raises(IllegalMove):
        rules.apply(new, rules.parse_move("N1"))
    assert play(rules, new, "reroll 4").push == 4


def test_the_step_has_no_choice() -> None:
    """D-FA-11: 1-3 only go up, 4-6 only down; a step the wrong way is refused."""
    rules = un("complex")
    state = rules.example_state()
    assert play(rules, state, "N2").push == 4  # the 5 leaves by ±1: down only
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, rules.parse_move("N2 +1"))
    assert caught.value.rule == "U-9.2"
    assert play(rules, state, "S1").push == 6  # ±3 on a 3: only +3, the step may be left out
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, rules.parse_move("S1 -3"))
    assert caught.value.rule == "U-9.1"


def test_win_scores_pushes_left_doubled_in_the_centre() -> None:
    rules = un("simple")
    last = [[4, 4, 4], [4, 4, 4], [4, 4, 2]]
    new, events = rules.apply(at(rules, last, [2, 2], 4, banned="N1", pushes=10), rules.parse_move("W3"))
    assert new.end == WON and events[-1].kind == "won"
    assert rules.outcome(new).winners == (0,) and rules.outcome(new).scores == ((60 - 11) * 2,)
    corner = play(rules, at(rules, last, [1, 1], 4, banned="N1", pushes=10), "W3")
    assert corner.end == WON and rules.outcome(corner).scores == (60 - 11,)
    assert rules.game_stats(new)["red in centre"] == 1.0 and rules.game_stats(corner)["red in centre"] == 0.0


def test_push_limit_loses() -> None:
    rules = un("simple")
    state = at(rules, GRID, [2, 2], 5, banned="E2", pushes=59)
    new = play(rules, state, "N1")
    assert new.end == TIME and rules.outcome(new).winners == () and rules.outcome(new).scores == (0.0,)


def test_illegal_moves_cite_rules() -> None:
    rules = un("simple")
    state = rules.example_state()
    for text, rule in {"E2": "U-5", "S2": "U-8.1"}.items():
        with pytest.raises(IllegalMove) as caught:
            rules.apply(state, rules.parse_move(text))
        assert caught.value.rule == rule, text
    sixes = at(rules, [[3, 1, 4], [1, 5, 6], [6, 5, 3]], [2, 2], 5, banned="N1", pushes=1)
    with pytest.raises(IllegalMove) as caught:
        rules.apply(sixes, rules.parse_move("W2"))  # a 6 cannot leave by +1
    assert caught.value.rule == "U-8.2"


def test_notation_round_trips() -> None:
    for side in SIDES:
        rules = un(side)
        state = rules.example_state()
        for move in rules.legal_moves(state):
            assert rules.parse_move(rules.format_move(move), state) == move
        for move in (Move("red", cell=8), Move("roll", face=3), Move("reroll", face=6)):
            assert rules.parse_move(rules.format_move(move)) == move
    rules = un("simple")
    assert rules.parse_move("push n2") == Move("push", "N", 1)
    for bad in ("N4", "X1", "N1 +0", "N1 up", "red 4,1", "roll 7", "jump", ""):
        with pytest.raises(BadMove):
            rules.parse_move(bad)


# --- examples, simulation ----------------------------------------------------------------
@pytest.mark.parametrize("side", SIDES)
def test_solver_beats_random(side: str) -> None:
    rules = un(side)
    solver = simulate(rules, 12, 7, ["solver"])
    rand = simulate(rules, 40, 7, ["random"])
    assert solver.seat_intervals[0][0] > rand.seat_intervals[0][1]  # intervals apart
    assert solver.win_rate(0) >= 0.9 and rand.win_rate(0) <= 0.1
    assert solver.stats["turns"] < 40 and rand.stats["turns"] == 60  # the random player runs out of pushes


def test_simulate_cli_reports_solo_figures(run_pnpgen: CliRun) -> None:
    code, out, _ = run_pnpgen("simulate", f"fast-alone/{KEY}-complex", "--games", "5", "--seed", "3",
                              "--bots", "solver", "--json", "--content", str(CONTENT))
    data = json.loads(out)
    assert code == 0 and data["games"] == 5
    low, high = data["seats"][0]["interval95"]
    assert low <= data["seats"][0]["win_rate"] <= high
    assert set(data["ends"]) <= {WON, TIME, STUCK}
    assert "turns" in data["stats"] and "red in centre" in data["stats"]
    wins = data["seats"][0]["win_rate"] * 5
    if wins:  # the score is the pushes left (doubled with the red in the centre)
        assert 0 < data["score_in_wins"]["min"] <= data["score_in_wins"]["mean"] <= 2 * 60
    code, out, _ = run_pnpgen("simulate", f"fast-alone/{KEY}-complex", "--games", "3", "--seed", "3",
                              "--bots", "solver", "--quiet", "--content", str(CONTENT))
    said = " ".join(out.split())
    assert code == 0 and "solver: weighted A* search" in said and "score in won games" in said


# --- referee -----------------------------------------------------------------------------


def test_referee_describes_the_board(run_pnpgen: CliRun) -> None:
    code, out, _ = run_pnpgen("referee", f"fast-alone/{KEY}-simple", "--state",
                              str(REFEREE / f"{KEY}-simple" / "plus-one.yaml"), "--content", str(CONTENT))
    assert code == 0 and " 1 [5] 2 " in out and "no push from S1" in out
    assert "10 pushes allowed: N1 N2 N3 E1 E2 E3 S3 W1 W2 W3" in out


def test_bad_move_and_bad_state_are_one_line(run_pnpgen: CliRun, tmp_path: Path) -> None:
    state = REFEREE / f"{KEY}-simple" / "plus-one.yaml"
    code, _, err = run_pnpgen("referee", f"fast-alone/{KEY}-simple", "--state", str(state),
                              "--move", "Q2", "--content", str(CONTENT))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "cannot read move 'Q2'" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("grid: [[4, 4, 4], [4, 4, 4], [4, 4, 4]]\nred: [2, 2]\npush: 3\npushes: 5\n", encoding="utf-8")
    code, _, err = run_pnpgen("referee", f"fast-alone/{KEY}-simple", "--state", str(bad), "--content", str(CONTENT))
    assert code == 2 and f"{bad}:1:" in err and "the game is won (end: un_won)" in err
    assert len(err.strip().splitlines()) == 1


# --- data drives behaviour ---------------------------------------------------------------


def test_yaml_drives_the_edges_and_the_limit(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        edges = data["sides"]["simple"]["edges"]
        edges["north"], edges["south"] = edges["south"], edges["north"]  # −1 now on the south edge
        data["sides"]["complex"]["edges"]["west"]["effects"] = [{"effect": "add", "by": 2}, {"effect": "rotate"}]
        data["push_limit"] = 30

    root = own_copy(tmp_path, KEY, edit)
    rules = un("simple", root)
    state = rules.example_state()
    new = play(rules, state, "N1")  # the 6 leaves by the south: now −1
    assert new.push == 5
    assert "S2" in {rules.format_move(m) for m in rules.legal_moves(state)}  # the 1 leaves by the north: flip
    win = play(rules, at(rules, [[4, 4, 4], [4, 4, 4], [4, 4, 2]], [2, 2], 4, banned="N1", pushes=10), "W3")
    assert rules.outcome(win).scores == ((30 - 11) * 2,)
    complex_ = un("complex", root)
    with pytest.raises(IllegalMove) as caught:  # the 6 would leave by the west: +2 cannot apply
        complex_.apply(complex_.example_state(), complex_.parse_move("E3"))
    assert caught.value.rule == "U-9.3"
    new = play(complex_, complex_.example_state(), "E1")  # the 3 leaves by the west: 5, then a turn
    assert new.push == 5 and grid(complex_, new)[0] == [5, 2, 3]


def test_stuck_when_no_push_is_allowed(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        for key in ("north", "east", "south", "west"):
            data["sides"]["simple"]["edges"][key]["effects"] = [{"effect": "add", "by": 1}]

    rules = un("simple", own_copy(tmp_path, KEY, edit))
    state = at(rules, [[6, 6, 6], [6, 5, 6], [6, 6, 2]], [2, 2], 6, banned="E3", pushes=4)
    new = play(rules, state, "W3")  # the 2 leaves: 3; every edge cell now shows 6 (+1 impossible)
    assert grid(rules, new)[2] == [6, 6, 6] and new.end == STUCK
    assert rules.outcome(new).winners == ()


# --- print -------------------------------------------------------------------------------
@pytest.mark.parametrize("side", SIDES)
def test_board_sheet_is_a4_with_the_edge_effects(side: str, tmp_path: Path) -> None:
    from pypdf import PdfReader

    from pnpgen.content.schema import text_for

    path, _ = build_sheet(f"{KEY}-{side}", tmp_path)
    (page,) = PdfReader(path).pages
    assert (round(float(page.mediabox.width) / 72 * 25.4), round(float(page.mediabox.height) / 72 * 25.4)) == (210, 297)
    text = page.extract_text()
    for edge in un(side).edges.values():  # the edge effects come from rules.yaml
        assert text_for(edge.name, "en") in text


def test_report_names_the_solver_method(tmp_path: Path) -> None:
    from pypdf import PdfReader

    from pnpgen.report import ReportOptions, write_report

    rules = un("complex")
    pdf, data_path = write_report(rules, ReportOptions(games=4, seed=5, bots=["solver"], skill_bot=None,
                                                                   out=tmp_path))
    data = json.loads(data_path.read_text())
    assert data["settings"]["bot_methods"] == {"solver": rules.bot_methods()["solver"]}
    assert data["summary"]["score_in_wins"]["max"] <= 2 * rules.push_limit
    text = " ".join(PdfReader(pdf).pages[0].extract_text().split())
    assert "Bot solver: weighted A* search" in text and "positions per plan" in text
    assert "score in won games (the game's own)" in text


def test_difficulty_figures_are_cached_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pnpgen.games.fast_alone import difficulty

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    rules = un("complex")
    first = difficulty.measure(rules, "random", 7, 3)
    (stored,) = (tmp_path / "cache" / "difficulty").glob("*.json")
    assert json.loads(stored.read_text())["games"] == 7 and first.games == 7 and first.turns == 60.0
    difficulty._measured.clear()
    stored.write_text(json.dumps({"games": 7, "wins": 5, "turns": 9.0, "score": 80.0}))
    assert difficulty.measure(rules, "random", 7, 3).wins == 5  # read back, not simulated again
    difficulty._measured.clear()
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    assert difficulty.measure(rules, "random", 7, 3) == first
    difficulty._measured.clear()


def played_positions(rules: Unification, games: int, seed: int) -> list[State]:
    """Every position where the player moves, in a few random games."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = rules.initial_state(1)
        while not state.end:
            if rules.current_player(state) == CHANCE:
                state = rules.advance(state, rules.sample_chance(state, rng))
            else:
                found.append(state)
                state = rules.advance(state, rng.choice(rules.legal_moves(state)))
    return found


@pytest.mark.parametrize("side", ["simple", "complex"])
def test_pushes_from_the_table_are_each_places_options(side: str) -> None:
    """pushes() reads its moves from a table by (exit face, red face); options() works one
    place out from the edge effects: the same pushes in the same order, on played positions."""
    rules = un(side)
    positions = played_positions(rules, 6, 3)
    assert len(positions) > 100
    for state in positions:
        expected = [Move("push", edge, line, d) for edge in EDGES for line in range(rules.n)
                    if rules.place(edge, line) != state.banned for d in rules.options(state, edge, line)]
        assert rules.pushes(state) == expected, state
        assert rules.can_push(state) is bool(expected)


def test_one_pool_for_many_runs_gives_each_runs_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """measure_all simulates the runs a table needs in one pool, a run per task: the same
    figures as each run played in this process."""
    from pnpgen.games.fast_alone import difficulty

    monkeypatch.setenv("PNPGEN_CACHE", "off")
    simple, complex_ = un("simple"), un("complex")
    runs: list[difficulty.Run] = [(complex_, "random", 4, 9), (simple, "random", 2, 9), (simple, "solver", 1, 9)]
    keys = [(rules.id, bot, games, seed) for rules, bot, games, seed in runs]
    difficulty._measured.clear()
    monkeypatch.setattr(difficulty, "cores_here", lambda: 2)
    difficulty.measure_all(runs)
    pooled = [difficulty._measured[key] for key in keys]
    difficulty._measured.clear()
    monkeypatch.setattr(difficulty, "cores_here", lambda: 1)
    difficulty.measure_all(runs)
    assert [difficulty._measured[key] for key in keys] == pooled
    assert [d.games for d in pooled] == [4, 2, 1]
    difficulty._measured.clear()
