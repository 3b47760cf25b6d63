"""Fast Alone, No Gaps (GAMES.md §3.3, D-FA-7): both sides, tiles and transforms from YAML."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml

from pnpgen.content.game import load_game
from pnpgen.engine.simulate import simulate
from pnpgen.errors import BadMove, ContentError
from pnpgen.games import find_rules, rules_for_content
from pnpgen.games.fast_alone.no_gaps import NO_DICE, NO_REROLLS, WON, NoGaps, State
from tests.conftest import ROOT, CliRun
from tests.fast_alone_support import build_sheet, own_copy

CONTENT = ROOT / "content"
KEY = "no-gaps"
SIDES = ("a", "b")
REFEREE = ROOT / "tests" / "referee" / "fast-alone"
BOTTOM_ROW_OPEN = ["F5 a1 a2 b2 c2 b3", "L5 b1 c1 d1 e1 e2", "V5 f1 f2 d3 e3 f3", "M d2",
                   "P5 a3 a4 b4 a5 b5", "T5 c3 c4 d4 e4 c5", "L4 f4 d5 e5 f5"]


def ng(side: str, root: Path = CONTENT) -> NoGaps:
    rules = find_rules(root, f"fast-alone/{KEY}-{side}")
    assert isinstance(rules, NoGaps)
    return rules


def state(rules: NoGaps, drawn: list[str], dice: list[int], aside: int, removed: int = 0, rerolls: int = 0,
          phase: str = "play") -> State:
    return rules.from_data({"drawn": drawn, "dice": dice, "set_aside": aside, "removed": removed,
                            "rerolls_used": rerolls, "phase": phase})


# --- tiles and moves ---------------------------------------------------------------------
@pytest.mark.parametrize(("side", "face", "count"), [
    ("a", 1, 36),  # a monomino anywhere
    ("a", 2, 60),  # 30 across, 30 down
    ("a", 3, 148),  # I: 48, L: 4 turns x 25
    ("a", 4, 381),  # I 36, O 25, T 80, S 80, L 160
    ("b", 4, 345),  # no I
    ("a", 5, 904),  # the eleven pentominoes, every orientation and place
    ("b", 5, 880),  # no I
])
def test_placements_on_an_empty_grid(side: str, face: int, count: int) -> None:
    rules = ng(side)
    moves = rules.legal_moves(state(rules, [], [face], 5))
    assert len(moves) == count == len(set(moves))
    assert {m.face for m in moves} == {face}


def test_chart_and_chance() -> None:
    rules = ng("a")
    assert [(t.id, t.count) for t in rules.tiles][:4] == [("M", 2), ("D", 2), ("I3", 1), ("L3", 1)]
    assert sum(t.count * t.size for t in rules.tiles) == 87
    assert sum(t.count * t.size for t in ng("b").tiles) == 78
    start = rules.initial_state(1)
    outcomes = rules.chance_outcomes(start)
    assert len(outcomes) == 462 and sum(p for _, p in outcomes) == 1
    after, _ = rules.apply(start, rules.parse_move("roll 1 2 3 4 6 6"))
    assert after.hand == (1, 2, 3, 4) and after.aside == 2  # the 6s are set aside at once


def test_all_blanks_go_straight_to_the_reroll() -> None:
    rules = ng("b")
    start = rules.initial_state(1)
    after, events = rules.apply(start, rules.parse_move("roll 6 6 6 6 6 6"))
    assert after.phase == "reroll" and after.aside == 6 and events[-1].kind == "set_aside"
    assert rules.legal_moves(after) == [rules.parse_move("reroll")]
    rolled, _ = rules.apply(rules.apply(after, rules.parse_move("reroll"))[0], rules.parse_move("roll 1 1 1 1 1 6"))
    assert rolled.rerolls == 1 and rolled.hand == (1, 1, 1, 1, 1)


def test_place_crosses_off_and_sets_the_die_aside() -> None:
    rules = ng("a")
    before = state(rules, ["O4 a1 b1 a2 b2", "D c1 d1"], [1, 3, 5], 3)
    after, events = rules.apply(before, rules.parse_move("5 L5 at e1 f1 f2 f3 f4"))
    assert after.hand == (1, 3) and after.aside == 4 and after.filled.bit_count() == 11
    assert after.left[rules.by_id["L5"]] == 0 and before.left[rules.by_id["L5"]] == 1
    assert [e.kind for e in events] == ["place"]
    with pytest.raises(Exception) as caught:
        rules.apply(after, rules.parse_move("5 L5 at a6 b6 c6 d6 d5"))
    assert getattr(caught.value, "rule", "") == "NG-3"  # the 5 is used


def test_a_die_with_no_room_leaves_for_good() -> None:
    rules = ng("a")
    before = state(rules, BOTTOM_ROW_OPEN, [3, 5], 4, rerolls=1)
    after, events = rules.apply(before, rules.parse_move("3 I3 at a6 b6 c6"))
    assert after.removed == 1 and after.hand == () and after.phase == "reroll"
    assert events[-1].kind == "removed" and events[-1].data == {"dice": [5]}


def test_losing_ends() -> None:
    rules = ng("a")
    # every die but one has left; the last one rolls a 5 with three cells open
    drawn = BOTTOM_ROW_OPEN + ["I3 a6 b6 c6"]
    last = rules.from_data({"drawn": drawn, "set_aside": 1, "removed": 5, "rerolls_used": 2, "phase": "roll"})
    over, _ = rules.apply(last, rules.parse_move("roll 5"))
    assert over.end == NO_DICE and rules.outcome(over).winners == ()
    # the fourth reroll is used: the hand runs out with cells still open
    spent = state(rules, ["O4 a1 b1 a2 b2"], [5], 4, 1, rerolls=4)
    over, events = rules.apply(spent, rules.parse_move("5 P5 at c1 d1 c2 d2 c3"))
    assert over.end == NO_REROLLS and events[-1].kind == "lost"


def test_win_scores_the_last_tile() -> None:
    rules = ng("a")
    drawn = ["F5 a1 a2 b2 c2 b3", "I5 b1 c1 d1 e1 f1", "L5 d2 d3 d4 d5 e5", "P5 e2 f2 e3 f3 e4",
             "U5 a3 c3 a4 b4 c4", "D f4 f5", "O4 a5 b5 a6 b6"]
    before = state(rules, drawn, [3, 4], 4, rerolls=2)
    # the L4 leaves f6 alone: no tromino fits, so the 3 leaves; a 1 rolled later fills f6
    after, _ = rules.apply(before, rules.parse_move("4 L4 at c5 c6 d6 e6"))
    assert after.removed == 1 and after.phase == "reroll"  # the 3 found no room for I3 or L3
    rolled, _ = rules.apply(rules.apply(after, rules.parse_move("reroll"))[0], rules.parse_move("roll 1 6 6 6 6"))
    won, _ = rules.apply(rolled, rules.parse_move("1 M at f6"))
    assert won.end == WON and rules.outcome(won).scores == (3.0,) and rules.outcome(won).winners == (0,)
    assert rules.game_stats(won)["score (last tile points)"] == 3.0 and rules.game_stats(won)["turns"] == 4.0


def test_illegal_moves_cite_rules() -> None:
    rules = ng("b")
    before = state(rules, ["L3 a1 a2 b2", "O4 c1 d1 c2 d2"], [3, 4, 5], 3)
    cases = {
        "3 L3 at e1 f1 f2": "NG-3.2",  # the only L3 is drawn
        "4 T4 at a3 b3 c3 d3": "NG-3.1",  # a straight line is not a T
        "4 T4 at b2 b3 c3 b4": "NG-3.1",  # b2 is filled
        "5 O4 at e1 f1 e2 f2": "NG-3",  # O4 belongs to the 4
        "2 D at e1 f1": "NG-3",  # no 2 in hand
        "reroll": "NG-4",
        "roll 1 2 3": "NG-2",
    }
    for text, rule in cases.items():
        with pytest.raises(Exception) as caught:
            rules.apply(before, rules.parse_move(text))
        assert getattr(caught.value, "rule", None) == rule, text


def test_notation_round_trips() -> None:
    rules = ng("a")
    before = state(rules, ["O4 a1 b1 a2 b2"], [1, 3, 5], 3)
    for move in rules.legal_moves(before)[::41]:
        assert rules.parse_move(rules.format_move(move), before) == move
    for bad in ("5 Q5 at a1", "5 F5 at a1 a1", "5 F5 at g1", "5 F5 a1 b1", "roll 7", "place"):
        with pytest.raises(BadMove):
            rules.parse_move(bad, before)


def test_tile_chart_tables() -> None:
    rules = ng("a")
    table = rules.rulebook_table("tiles", "en")
    assert table[0] == ["Die", "Tile", "Shape", "Points"] and len(table) == 1 + 20 + 1
    assert ["1", "M ×2 monomino", "■", "3"] in table
    x5 = next(r for r in table if r[1].startswith("X5"))
    assert x5[2] == "□■□\n■■■\n□■□" and x5[3] == "0"
    chart = rules.rulebook_table("chart", "ja")
    fives = "、".join(f"5マス{s}" for s in "F直LPTUVWXYZ").replace("5マス直", "5マス直線")
    assert chart[5] == ["5", fives] and chart[6] == ["6", "なし"]
    assert ng("b").rulebook_table("chart", "en")[4] == ["4", "O tetromino, T tetromino, S tetromino, L tetromino"]


# --- examples, simulation ----------------------------------------------------------------
def test_solver_beats_random() -> None:
    rules = ng("a")
    solver = simulate(rules, 30, 2, ["solver"])
    rand = simulate(rules, 150, 2, ["random"])
    assert solver.seat_intervals[0][0] > rand.seat_intervals[0][1]
    assert solver.stats["cells filled"] > rand.stats["cells filled"] + 3
    assert 0 <= solver.stats["score (last tile points)"] <= 3 and solver.stats["turns"] >= 1


def test_simulate_cli_json(run_pnpgen: CliRun) -> None:
    code, out, _ = run_pnpgen("simulate", f"fast-alone/{KEY}-b", "--games", "20", "--seed", "4", "--bots",
                              "random", "--json", "--content", str(CONTENT))
    data = json.loads(out)
    assert code == 0 and data["games"] == 20 and set(data["ends"]) <= {WON, NO_DICE, NO_REROLLS}
    assert {"turns", "score (last tile points)", "cells filled"} <= set(data["stats"])


# --- referee -----------------------------------------------------------------------------


def test_referee_describes_the_grid(run_pnpgen: CliRun) -> None:
    path = REFEREE / f"{KEY}-a" / "early.yaml"
    code, out, _ = run_pnpgen("referee", f"fast-alone/{KEY}-a", "--state", str(path), "--content", str(CONTENT))
    assert code == 0 and "  1 1 1 2 2 . ." in out and "die 1: M (30 places)" in out
    code, out, _ = run_pnpgen("referee", f"fast-alone/{KEY}-a", "--state", str(path), "--legal",
                              "--content", str(CONTENT))
    assert code == 0 and "1 M at f6" in out.splitlines()


# --- data drives behaviour, bad content --------------------------------------------------


def test_yaml_drives_transforms_tiles_and_rerolls(tmp_path: Path) -> None:
    def edit(text: str) -> str:
        data = yaml.safe_load(text)
        data["transforms"] = data["transforms"][:4]  # turns only, no mirror images
        data["sides"]["a"]["tiles"][4] = ["L4", "L4"]  # two L tetrominoes and nothing else
        data["rerolls"] = 1
        return yaml.safe_dump(data, allow_unicode=True)

    rules = ng("a", own_copy(tmp_path, KEY, edit, text=True))
    moves = rules.legal_moves(state(rules, [], [4], 5))
    assert len(moves) == 80  # 4 turns x 20 places, one L4 line with two tiles
    assert rules.tiles[rules.by_id["L4"]].count == 2
    assert len(rules.legal_moves(state(rules, [], [5], 5))) < 904
    spent = state(rules, ["L4 a1 a2 a3 b3"], [5], 4, 1, rerolls=1)
    over, _ = rules.apply(spent, rules.parse_move("5 P5 at c1 d1 c2 d2 c3"))
    assert over.end == NO_REROLLS  # one reroll box now


def test_bad_shapes_name_the_line(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match=r"rules.yaml:\d+:\d+: shape: '\*' is not '#'"):
        star = own_copy(tmp_path / "1", KEY, lambda t: t.replace('shape: "###"', 'shape: "#*#"'), text=True)
        find_rules(star, f"fast-alone/{KEY}-a")
    disconnected = lambda t: t.replace('shape: "##"}', 'shape: "#.#"}')  # noqa: E731
    with pytest.raises(ContentError, match=r"rules.yaml:\d+:\d+: shapes.D: the cells must touch"):
        find_rules(own_copy(tmp_path / "2", KEY, disconnected, text=True), f"fast-alone/{KEY}-a")
    unknown = lambda t: t.replace("3: [I3, L3]", "3: [I3, J3]")  # noqa: E731
    with pytest.raises(ContentError, match=r"rules.yaml:\d+:\d+: sides.a.tiles.3: unknown shape 'J3'"):
        find_rules(own_copy(tmp_path / "3", KEY, unknown, text=True), f"fast-alone/{KEY}-a")


def test_bad_state_is_one_line(run_pnpgen: CliRun, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("drawn: [O4 a1 b1 a2 b2, T4 a2 b2 c2 b3]\ndice: [1]\nset_aside: 4\nremoved: 1\n"
                   "rerolls_used: 0\nphase: play\n", encoding="utf-8")
    code, _, err = run_pnpgen("referee", f"fast-alone/{KEY}-a", "--state", str(bad), "--content", str(CONTENT))
    assert code == 2 and f"{bad}:1:" in err and "a2 b2 already drawn by an earlier tile" in err
    assert len(err.strip().splitlines()) == 1


# --- print -------------------------------------------------------------------------------


def test_board_sheets_print_each_sides_chart(tmp_path: Path) -> None:
    from pypdf import PdfReader

    path, text_a = build_sheet(f"{KEY}-a", tmp_path / "a")
    (page,) = PdfReader(path).pages
    assert (round(float(page.mediabox.width) / 72 * 25.4), round(float(page.mediabox.height) / 72 * 25.4)) == (210, 297)
    _, text_b = build_sheet(f"{KEY}-b", tmp_path / "b")
    assert "Rerolls" in text_a and "36 cells" in text_a
    assert "■■■■■" in text_a and "■■■■■" not in text_b  # the straight pentomino: side A only
    assert text_a.count("■") - text_b.count("■") == 4 + 5  # exactly I4 and I5 more on side A


def test_a_component_names_its_game(tmp_path: Path) -> None:
    from pnpgen.content.yamlpos import load_yaml
    from pnpgen.render.kit import component_rules

    content = load_game(CONTENT / "fast-alone")
    rules = rules_for_content(content)
    spec = tmp_path / "c.yaml"
    spec.write_text("- {type: board, id: x, game: no-gaps-b}\n- {type: board, id: y, game: no-gaps-c}\n",
                    encoding="utf-8")
    good, bad = load_yaml(spec)
    assert component_rules(rules, good)[0].id == f"fast-alone/{KEY}-b"
    assert component_rules(rules, {"type": "board"}) == rules  # no game: the first, as before
    with pytest.raises(ContentError, match=rf"{spec}:2:\d+: game: 'no-gaps-c' is not a game of this folder"):
        component_rules(rules, bad)


def test_solver_shortcuts_agree_with_plain_definitions() -> None:
    """The solver's regions (bit shifts) are the edge-connected flood fill of the empty cells,
    and its position value with the placements still open per tile is the value with all of
    them, on positions of random games."""
    from pnpgen.engine.protocol import CHANCE, TERMINAL

    rules = ng("a")
    rng = random.Random(5)
    checked = 0
    for _ in range(8):
        state = rules.initial_state(1)
        while (player := rules.current_player(state)) != TERMINAL:
            if player == CHANCE:
                state = rules.apply(state, rules.sample_chance(state, rng))[0]
                continue
            empty, flooded = rules.full & ~state.filled, []
            while empty:
                region, todo = 0, [(empty & -empty).bit_length() - 1]
                while todo:
                    cell = todo.pop()
                    if not region >> cell & 1:
                        region |= 1 << cell
                        todo += [n for n in range(rules.size) if rules.neighbours[cell] >> n & 1 and empty >> n & 1]
                flooded.append(region)
                empty &= ~region
            assert rules.regions(state.filled) == flooded
            free = tuple(tuple(m for m in t.masks if not m & state.filled) for t in rules.tiles)
            for move in rules.legal_moves(state)[:5]:
                after = rules.apply(state, move)[0]
                assert rules.position_value(after.filled, after.left, after.hand, free) == \
                    rules.position_value(after.filled, after.left, after.hand)
            checked += 1
            state = rules.apply(state, rng.choice(rules.legal_moves(state)))[0]
    assert checked > 40
