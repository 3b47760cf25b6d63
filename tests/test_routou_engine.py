"""ROUTOU DICE engine: move counts, slashes, wins, zero currency, placement dedup,
invariants, chance, notation, examples and simulation."""

from __future__ import annotations

import random
import shutil
from dataclasses import replace
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from pnpgen.cli import app
from pnpgen.content.game import load_game
from pnpgen.content.yamlpos import load_yaml
from pnpgen.engine.bots import make_bot
from pnpgen.engine.protocol import CHANCE, TERMINAL, IllegalMove
from pnpgen.engine.simulate import play_game, simulate
from pnpgen.errors import BadMove, ImpossibleState
from pnpgen.examples import check_examples, load_examples
from pnpgen.games import find_rules, rules_for_content
from pnpgen.games.routou_dice import RoutouDice
from pnpgen.games.routou_dice.state import Move, State

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"


@pytest.fixture(scope="module")
def rules() -> RoutouDice:
    found = find_rules(CONTENT, "routou-dice")
    assert isinstance(found, RoutouDice)
    return found


def state(rules: RoutouDice, board: dict[str, str], **extra: Any) -> State:
    data: dict[str, Any] = {"turn": "A", "phase": 1, "board": board, "kills": {"A": 0, "B": 0},
                            "stock": {"A": 0, "B": 0}}
    data.update(extra)
    return rules.from_data(data)


def play(rules: RoutouDice, s: State, *moves: str) -> State:
    for text in moves:
        s = rules.apply(s, rules.parse_move(text, s))[0]
    return s


def texts(rules: RoutouDice, s: State) -> list[str]:
    return [rules.format_move(m) for m in rules.legal_moves(s)]


def board_of(rules: RoutouDice, s: State) -> dict[str, str]:
    return dict(rules.to_data(s)["board"])


# --- legal moves in known positions ---------------------------------------------------

def test_lone_three_in_the_corner(rules: RoutouDice) -> None:
    s = state(rules, {"10": "A3"})
    moves = texts(rules, s)
    # steps: 20, 11 (one), 30, 21, 12 (two); clones: 1 stays + 1 on 20 or 11; L; pass
    assert sorted(m for m in moves if m[0] == "m") == ["m10-11", "m10-12", "m10-20", "m10-21", "m10-30"]
    assert sorted(m for m in moves if m[0] == "c") == ["c10:1@10,2@11", "c10:1@10,2@20"]
    assert len(moves) == 9 and "L" in moves and "pass" in moves
    second = replace(s, phase=1)
    assert len(rules.legal_moves(second)) == 8 and "S" in texts(rules, second)
    assert "L" not in texts(rules, second) and "pass" not in texts(rules, second)


def test_move_count_on_an_open_board(rules: RoutouDice) -> None:
    s = state(rules, {"55": "A7"})
    steps = [m for m in texts(rules, s) if m.startswith("m")]
    # every cell within 6 orthogonal steps of (5,5) on the 9 x 10 board
    expected = sum(1 for x in range(1, 10) for y in range(10) if 0 < abs(x - 5) + abs(y - 5) <= 6)
    assert len(steps) == expected == 71


def test_slash_listing_and_blocking(rules: RoutouDice) -> None:
    s = state(rules, {"53": "A9", "56": "B3", "57": "B7", "13": "B9"})
    slashes = sorted(m for m in texts(rules, s) if m.startswith("x"))
    # 56 is reached as a 6 (beats 3); 57 is blocked behind 56 and reached round it as a 4 (< 7);
    # 13 is four steps away: arrives as a 5 (< 9)
    assert slashes == ["x53-56"]


def test_contract_cells(rules: RoutouDice) -> None:
    s = state(rules, {"55": "B4", "77": "A2"}, stock={"A": 1, "B": 0})
    cells = sorted(m for m in texts(rules, s) if m.startswith("b"))
    # the ring of 55 minus cells touching 77 (66 touches it)
    assert cells == ["b44", "b45", "b46", "b54", "b56", "b64", "b65"]


# --- slashes --------------------------------------------------------------------------

@pytest.mark.parametrize(("attacker", "defender", "expect"), [
    ("A9", "B3", {"56": "A3"}),   # arrives 6 > 3: kill, 3 left
    ("A6", "B3", {}),             # arrives 3 = 3: trade
])
def test_slash_results(rules: RoutouDice, attacker: str, defender: str, expect: dict[str, str]) -> None:
    s = play(rules, state(rules, {"53": attacker, "56": defender}), "x53-56")
    assert board_of(rules, s) == expect
    assert s.kills == (1, 0) and s.turn == 1 and s.phase == 0
    assert s.supply[0] == (54 if not expect else 53)  # a traded attacker returns to supply


def test_slash_refusals(rules: RoutouDice) -> None:
    s = state(rules, {"53": "A5", "56": "B3"})
    with pytest.raises(IllegalMove) as info:
        play(rules, s, "x53-56")  # arrives as a 2
    assert info.value.rule == "RD-SLASH" and "below the enemy's 3" in info.value.reason
    with pytest.raises(IllegalMove) as info:
        play(rules, replace(s, phase=1), "x53-56")
    assert info.value.rule == "RD-SLASH"
    with pytest.raises(IllegalMove) as info:
        play(rules, s, "m53-56")
    assert "slash" in info.value.reason


# --- wins -----------------------------------------------------------------------------

@pytest.mark.parametrize(("cells", "triple"), [
    (["15", "25", "35", "45", "55"], "659"),   # row
    (["30", "31", "32", "33", "34"], "359"),   # column
    (["11", "22", "33", "44", "55"], "669"),   # diagonal
    (["19", "28", "37", "46", "55"], "649"),   # other diagonal
])
def test_six_in_a_row_in_every_direction(rules: RoutouDice, cells: list[str], triple: str) -> None:
    s = state(rules, {c: "A2" for c in cells})
    dice = "".join(sorted(triple + "089"))
    done = play(rules, s, "L", f"r{dice}", f"p{triple}/089")
    assert rules.current_player(done) == TERMINAL
    assert rules.outcome(done).winners == (0,) and rules.outcome(done).end == "six_in_a_row"
    assert rules.current_player(s) == 0  # five in a row: the game goes on


def test_five_is_not_enough_and_seven_wins(rules: RoutouDice) -> None:
    s = state(rules, {"15": "A2", "25": "A2", "35": "A2", "55": "A2", "65": "A2", "75": "A2"})
    assert rules.current_player(play(rules, s, "L", "r000258", "p852/000")) == 1  # 55-85: four only
    done = play(rules, s, "L", "r002445", "p452/400")  # fills 45: seven in a row
    assert rules.outcome(done).end == "six_in_a_row"


def test_failed_contract_can_hand_the_opponent_ten_kills(rules: RoutouDice) -> None:
    s = state(rules, {"55": "B4"}, stock={"A": 1, "B": 0}, kills={"A": 0, "B": 9})
    done = play(rules, s, "b56", "r0")
    assert rules.outcome(done).winners == (1,) and rules.outcome(done).end == "ten_kills"


def test_supply_end_and_tie_break(rules: RoutouDice) -> None:
    # 45 of A's dice on the board with no six in a row ((x + 2y) mod 4 in {0, 1}), 9 held by B
    board = {f"{x}{y}": "A1" for x in range(1, 10) for y in range(10) if (x + 2 * y) % 4 in (0, 1)}
    assert len(board) == 45
    s = state(rules, board, kills={"A": 0, "B": 9})
    assert s.supply == (0, 54)
    done = play(rules, s, "L", "r123789", "p789/123")
    assert rules.outcome(done).end == "supply"
    assert rules.outcome(done).winners == (1,)  # B has more kills


def test_passes_end_and_last_tie_break(rules: RoutouDice) -> None:
    s = state(rules, {"11": "A3", "99": "B3"})
    s = play(rules, s, "pass")
    assert rules.current_player(s) == 1 and s.passes == 1
    done = play(rules, s, "pass")
    assert rules.outcome(done).end == "passes"
    assert rules.outcome(done).winners == (1,)  # all level: the second player wins
    assert rules.from_data(rules.to_data(done)) == done  # a finished game's state file reads back
    with pytest.raises(IllegalMove) as info:
        play(rules, state(rules, {"11": "A3"}), "m11-12", "pass")
    assert info.value.rule == "RD-PASS"


# --- placement ------------------------------------------------------------------------

def distinct_results(rules: RoutouDice, s: State) -> set[State]:
    """Brute force: apply every ordering of the dice and keep the distinct states."""
    assert s.roll is not None and s.roll.dice is not None
    results = set()
    for order in set(permutations(s.roll.dice)):
        triples = tuple(tuple(order[k:k + 3]) for k in range(0, len(order), 3))
        move = Move("place", triples=triples, declined=(False,) * len(triples))  # type: ignore[arg-type]
        results.add(rules.apply(s, move)[0])
    return results


@pytest.mark.parametrize(("board", "dice", "count"), [
    ({}, "123456", None),
    ({"11": "A4", "23": "B2"}, "112233", None),
    ({}, "111111", 1),       # one grouping: (1,1) gets a 1, the second 111 finds it taken
    ({}, "999999", 1),
])
def test_placements_are_listed_once_per_distinct_board(rules: RoutouDice, board: dict[str, str], dice: str,
                                                       count: int | None) -> None:
    s = play(rules, state(rules, board), "L", f"r{dice}")
    listed = rules.legal_moves(s)
    results = [rules.apply(s, m)[0] for m in listed]
    assert len(set(results)) == len(results)  # no duplicates
    assert set(results) == distinct_results(rules, s)  # and nothing missing
    if count is not None:
        assert len(listed) == count


def test_placement_count_of_a_plain_roll(rules: RoutouDice) -> None:
    s = play(rules, state(rules, {}), "L", "r123456")
    # all 720 orderings name valid empty cells; the board only depends on the unordered
    # pair of triples: 720 / 2 = 360
    assert len(rules.legal_moves(s)) == 360


def test_triples_fill_in_order(rules: RoutouDice) -> None:
    s = play(rules, state(rules, {}), "L", "r111112")
    first = play(rules, s, "p111/112")
    assert board_of(rules, first) == {"11": "A1"}
    second = play(rules, s, "p112/111")
    assert board_of(rules, second) == {"11": "A2"}


def test_declining_an_empty_cell_is_refused(rules: RoutouDice) -> None:
    s = play(rules, state(rules, {"34": "B1"}), "L", "r012345")
    assert board_of(rules, play(rules, s, "p345~/102")) == {"34": "B1", "10": "A2"}  # occupied: fine
    with pytest.raises(IllegalMove) as info:
        play(rules, s, "p102~/345")
    assert info.value.rule == "RD-PLACE" and "must be placed" in info.value.reason


# --- zero currency --------------------------------------------------------------------

def test_six_zeros_currency_choices(rules: RoutouDice) -> None:
    s = play(rules, state(rules, {"55": "B4", "11": "A2"}), "L", "r000000")
    listed = texts(rules, s)
    # stocks 0..3 (4), one destroy of 2 dice (2), a destroy and a stock (2), two destroys (1)
    assert len(listed) == 9
    assert "p000/000+s+s+s" in listed and "p000/000+d11+d55" in listed and "p000/000+s+d55" in listed
    capped = replace(s, stock=(4, 0))
    assert len(rules.legal_moves(capped)) == 7  # 2, 3 stocks are the same board as 1
    done = play(rules, s, "p000/000+d11+d55")
    assert board_of(rules, done) == {} and done.kills == (1, 0) and done.supply == (54, 53)


def test_zero_currency_limits(rules: RoutouDice) -> None:
    s = play(rules, state(rules, {"55": "B4"}), "L", "r000123")
    with pytest.raises(IllegalMove) as info:
        play(rules, s, "p123/000+s+s")
    assert info.value.rule == "RD-ZERO"
    after = play(rules, s, "p123/000+d55")  # three zeros: one destroy
    assert after.kills == (1, 0) and board_of(rules, after) == {"12": "A3"}
    assert play(rules, s, "p102/300+s").stock == (1, 0)  # the 0 used as Y still pays


# --- invariants, chance, notation -----------------------------------------------------

def test_invariants_catch_broken_states(rules: RoutouDice) -> None:
    s = state(rules, {"55": "A4"})
    assert rules.check(s) == []
    assert rules.check(replace(s, supply=(54, 54)))[0].startswith("A: supply 54 + board 1")
    assert "outside 0–5" in rules.check(replace(s, stock=(6, 0)))[0]
    bad = list(s.board)
    bad[0] = 12
    assert any("value 12" in p for p in rules.check(replace(s, board=tuple(bad), supply=(52, 54))))


def test_random_games_keep_invariants_and_never_time_out(rules: RoutouDice) -> None:
    summary = simulate(rules, 6, 7, ["random", "random"], check_invariants=True)
    assert summary.problems == [] and summary.timeouts == 0
    assert set(summary.ends) <= set(rules.end_conditions())
    shares = [v for k, v in summary.stats.items() if k.startswith("share_")]
    assert abs(sum(shares) - 1) < 1e-9


def test_a_capped_game_is_reported_as_timeout(rules: RoutouDice) -> None:
    record = play_game(rules, ["random", "random"], 3, max_steps=5)
    assert record.timeout and record.outcome.end == "timeout"


def test_greedy_beats_random(rules: RoutouDice) -> None:
    summary = simulate(rules, 6, 11, ["greedy", "random"])  # seats rotate game by game
    assert summary.timeouts == 0
    assert summary.bot_wins["greedy"] >= 5, summary.bot_wins


@pytest.mark.parametrize(("n", "count"), [(6, 5005), (3, 220), (1, 10)])
def test_chance_outcomes_are_exact(rules: RoutouDice, n: int, count: int) -> None:
    action = {6: "L", 3: "S", 1: "b56"}[n]
    s = state(rules, {"55": "B4", "11": "A5"}, stock={"A": 1, "B": 0})
    if n == 3:
        s = play(rules, s, "m11-12")
    s = play(rules, s, action)
    assert rules.current_player(s) == CHANCE
    outcomes = rules.chance_outcomes(s)
    assert len(outcomes) == count and sum(p for _, p in outcomes) == 1
    probability = dict((rules.format_move(m), p) for m, p in outcomes)
    if n == 6:
        assert probability["r012345"] == Fraction(720, 10**6)
        assert probability["r000000"] == Fraction(1, 10**6)
    drawn = rules.sample_chance(s, random.Random(5))
    assert rules.format_move(drawn) in probability


@pytest.mark.parametrize("text", ["L", "S", "pass", "r012345", "p012/345~+s+d55", "m34-37", "m34-35-45",
                                  "x34-37", "c34:2@34,3@36", "b56"])
def test_notation_round_trips(rules: RoutouDice, text: str) -> None:
    move = rules.parse_move(text)
    assert rules.format_move(move) == text and rules.parse_move(rules.format_move(move)) == move


@pytest.mark.parametrize("text", ["", "q12", "m3", "m34-0", "p12/345", "p123+z", "c34:2@34", "b5"])
def test_bad_notation(rules: RoutouDice, text: str) -> None:
    with pytest.raises(BadMove):
        rules.parse_move(text)


def test_impossible_state_names_the_line(rules: RoutouDice, tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("turn: A\nphase: 1\nboard:\n  55: A4\n  56: C3\nkills: {A: 0, B: 0}\n"
                    "stock: {A: 0, B: 0}\n", encoding="utf-8")
    with pytest.raises(ImpossibleState) as info:
        rules.from_data(load_yaml(path))
    assert str(info.value).startswith(f"{path}:5:") and "'C3' is not a die" in str(info.value)
    path.write_text("turn: A\nphase: 1\nboard: {11: A1, 12: A1, 13: A1, 14: A1, 15: A1, 16: A1}\n"
                    "kills: {A: 0, B: 0}\nstock: {A: 0, B: 0}\n", encoding="utf-8")
    with pytest.raises(ImpossibleState) as info:
        rules.from_data(load_yaml(path))
    assert str(info.value).startswith(f"{path}:3:") and "A already has 6 in a row (11-12-13-14-15-16)" in str(
        info.value)


# --- worked examples ------------------------------------------------------------------

def test_shipped_examples_replay(rules: RoutouDice) -> None:
    content = load_game(CONTENT / "routou-dice")
    results = check_examples(content, rules_for_content(content))
    assert len(results) >= 20 and all(r.ok for r in results), [r.problems for r in results if not r.ok]
    used = {rules.parse_move(m).kind for e in load_examples(content) for m in e.get("moves") or []}
    assert used == {"large", "small", "roll", "place", "move", "slash", "clone", "contract", "pass"}


SOURCE_EXAMPLE = """
- id: source-placement-as-written
  title: {ja: 原典の配置例（X=0）, en: The source's placement example (X = 0)}
  state: {turn: A, phase: 1, board: {}, kills: {A: 0, B: 0}, stock: {A: 0, B: 0}}
  moves: [L, r012345, p012/345]
  expect:
    state: {board: {"01": A2, "34": A5}}
"""


def test_the_checker_rejects_the_source_example(tmp_path: Path) -> None:
    folder = tmp_path / "routou-dice"
    folder.mkdir()
    for name in ("game.yaml", "rulebook.yaml"):
        shutil.copy(CONTENT / "routou-dice" / name, folder / name)
    data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    data["examples"] = "source-example.yaml"
    data.pop("components")
    data.pop("rulebook")
    data["simulation"]["end_search_games"] = 0
    (folder / "game.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    (folder / "source-example.yaml").write_text(SOURCE_EXAMPLE, encoding="utf-8")
    content = load_game(folder)
    (result,) = check_examples(content, rules_for_content(content))
    assert not result.ok
    assert result.problems == ["state.board.01: missing in the engine's result"]

    # and through `pnpgen validate`: exit 1, the example named with what differed
    args = ["validate", "routou-dice", "--content", str(tmp_path), "--games", "0", "--verify-games", "0"]
    run = CliRunner().invoke(app, args)
    said = " ".join(run.output.split())
    assert run.exit_code == 1, run.output
    assert ("FAIL routou-dice: example source-placement-as-written "
            "state.board.01: missing in the engine's result") in said


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_only_choose_listed_moves(rules: RoutouDice, bot: str) -> None:
    """A bot's move is listed, or (the random bot samples placements and clones lazily, see
    sample_move) has the same result as a listed one: legal_moves lists one move per result."""
    choose = make_bot(rules, bot)  # "random" is the engine's, on sample_move
    rng = random.Random(4)
    s = rules.initial_state(2)
    for _ in range(150):
        player = rules.current_player(s)
        if player == TERMINAL:
            break
        if player == CHANCE:
            move = rules.sample_chance(s, rng)
        else:
            move = choose(s, rng)
            legal = rules.legal_moves(s)
            if move.kind in ("place", "clone") and move not in legal:
                after = rules.apply(s, move)[0]
                assert any(rules.apply(s, m)[0] == after for m in legal), rules.format_move(move)
            else:
                assert move in legal, rules.format_move(move)
        s = rules.apply(s, move)[0]


@pytest.mark.parametrize(("board", "dice", "supply"), [
    ({}, "123456", 54),
    ({"11": "A4", "23": "B2", "45": "A3"}, "123345", 54),
    ({"11": "A4"}, "011234", 54),   # one zero: an X or a value of 0 names no cell
    ({"12": "B5"}, "112122", 54),   # a cell named twice: the first triple fills it
    ({}, "123456", 1),              # the supply holds one die: the order of the triples counts
    ({"11": "A4"}, "112345", 0),
    ({}, "345", 54),
])
def test_each_placement_is_the_first_grouping_of_its_result(rules: RoutouDice, board: dict[str, str], dice: str,
                                                            supply: int) -> None:
    """Brute force: the groupings in sorted order, each kept when its board is new; the
    listed placements are those groupings, in that order (no zero currency here)."""
    large = len(dice) == 6
    s = play(rules, state(rules, board, phase=1 if large else 2), "L" if large else "S", f"r{dice}")
    s = replace(s, supply=(supply, supply))
    assert s.roll is not None and s.roll.dice is not None
    first: list[Any] = []
    seen = set()
    for order in sorted(set(permutations(s.roll.dice))):
        triples = tuple(tuple(order[k:k + 3]) for k in range(0, len(order), 3))
        after = rules.apply(s, Move("place", triples=triples, declined=(False,) * len(triples)))[0]  # type: ignore[arg-type]
        if after not in seen:
            seen.add(after)
            first.append(triples)
    assert [m.triples for m in rules.legal_moves(s)] == first
