"""The pictures issue 27 asked of ROUTOU DICE and Dice Road Race: a phase refusal drawn with
the turn's phases, pictures cropped to their point, a finished game's board saying who won;
the course of every stage drawn from the course table (boards, sides, type, rules at the
finish, a key); the time trial's rounds and results drawn in examples 5 and 6."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from pnpgen import scene as sc
from pnpgen.content.game import load_games
from pnpgen.examples import load_examples, positions
from pnpgen.games import rules_for_content
from pnpgen.games.dice_road_race.presentation import TYPE_TINTS
from pnpgen.games.routou_dice.presentation import DESTROY
from pnpgen.games.routou_dice.presentation import window as routou_window

ROOT = Path(__file__).resolve().parents[1]
GAMES = {c.id: c for c in load_games(ROOT / "content", ["routou-dice", "dice-road-race"])}


@pytest.fixture(scope="module")
def routou() -> Any:
    return rules_for_content(GAMES["routou-dice"])[0]


@pytest.fixture(scope="module")
def race() -> Any:
    return rules_for_content(GAMES["dice-road-race"])[0]


def _example(game: str, name: str) -> dict[str, Any]:
    return next(e for e in load_examples(GAMES[game]) if e["id"] == name)


def _replay(rules: Any, name: str) -> tuple[Any, list[Any], Any]:
    replayed = positions(rules, _example("routou-dice", name))
    assert replayed is not None
    return replayed


def _labels(scene: sc.Scene) -> list[str]:
    return [s.text for s in scene.shapes if isinstance(s, sc.Label)]


def _cells(scene: sc.Scene) -> list[sc.Rect]:
    return [s for s in scene.shapes if isinstance(s, sc.Rect) and s.role == "cell"]


# --- ROUTOU DICE ----------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "now", "other"), [("small-placement-first-phase", 1, 2),
                                                     ("slash-second-phase", 2, 1)])
def test_an_action_in_the_wrong_phase_is_drawn_with_the_turns_phases(routou: Any, name: str, now: int,
                                                                     other: int) -> None:
    before, moves, after = _replay(routou, name)
    assert after is None  # refused
    scene = routou.draw(before, moves, "en")
    labels = _labels(scene)
    assert _cells(scene), f"{name}: no board"
    assert any(isinstance(s, sc.Circle) and s.fill == DESTROY for s in scene.shapes)  # the refusal badge
    action = "Small placement" if name.startswith("small") else "Slash"
    assert f"phase {now} (now)" in labels and f"{action}: not allowed" in labels
    assert f"phase {other}" in labels and f"{action}: allowed here" in labels
    current = [s for s in scene.shapes if isinstance(s, sc.Rect) and s.stroke == DESTROY and s.fill == sc.HIGHLIGHT]
    assert len(current) == 1  # one phase box, the one the action was chosen in, outlined in red
    box = current[0]
    assert box.x >= max(c.x + c.w for c in _cells(scene))  # beside the board, not under it
    assert box.x + box.w <= scene.width  # and inside the picture
    ja = _labels(routou.draw(before, moves, "ja"))
    assert f"第{now}フェーズ（いま）" in ja and any(t.endswith("：選べない") for t in ja)


@pytest.mark.parametrize("name", ["slash-too-weak", "must-place", "bodyguard-touching-own", "small-placement"])
def test_no_phase_strip_when_the_phase_is_not_the_reason(routou: Any, name: str) -> None:
    before, moves, _ = _replay(routou, name)
    labels = _labels(routou.draw(before, moves, "en"))
    assert not any("(now)" in t or "allowed here" in t for t in labels)


def test_declining_a_value_is_drawn_on_a_cropped_board(routou: Any) -> None:
    before, moves, after = _replay(routou, "decline-by-occupied-cell")
    c0, r0, cols, rows = routou_window(routou, [before, after], moves)
    assert cols <= 5 and rows <= 5  # was 8 x 9: the aimed-at die and the placed cell, close together
    geo = routou.geo
    placed = [i for i, v in enumerate(after.board) if v and not before.board[i]]
    occupied = [i for i, v in enumerate(before.board) if v]
    for i in placed + occupied:
        x, y = geo.xy(i)
        assert c0 <= x - geo.x0 < c0 + cols and r0 <= y - geo.y0 < r0 + rows
    scene = routou.draw(before, moves, "en")
    def outlined(colour: str) -> list[tuple[float, float]]:
        return [(s.x, s.y) for s in scene.shapes if isinstance(s, sc.Rect) and s.stroke == colour and s.fill is None]

    dice = {(s.x, s.y) for s in scene.shapes if isinstance(s, sc.Rect) and s.role == "die"}
    placed_at, aimed_at = outlined(sc.ACCENT), outlined(sc.GREY)
    assert len(placed_at) == 1 and len(aimed_at) == 1  # the cell filled; the occupied cell, not placed
    assert not any(abs(x - dx) < 3 and abs(y - dy) < 3 for x, y in placed_at for dx, dy in dice)
    assert any(abs(x - dx) < 3 and abs(y - dy) < 3 for x, y in aimed_at for dx, dy in dice)


def test_bodyguard_pictures_are_cropped(routou: Any) -> None:
    for name in ("bodyguard", "bodyguard-waits"):
        before, moves, after = _replay(routou, name)
        _, _, cols, rows = routou_window(routou, [before] + ([after] if after is not None else []), moves)
        assert cols * rows <= 30, (name, cols, rows)


@pytest.mark.parametrize(("name", "words"), [("both-pass", "Game over, A wins: both players passed"),
                                              ("six-in-a-row", "Game over, A wins: six or more in a row"),
                                              ("ten-kills", "Game over, A wins: ten kills")])
def test_a_finished_game_says_who_won_not_whose_turn(routou: Any, name: str, words: str) -> None:
    _, _, after = _replay(routou, name)
    labels = _labels(routou.draw(after, [], "en"))
    assert words in labels and not any(t.startswith("A to play") for t in labels)
    assert any(t.startswith("ゲーム終了・A の勝ち") for t in _labels(routou.draw(after, [], "ja")))


# --- Dice Road Race: the course ---------------------------------------------------------
def _boards(scene: sc.Scene) -> list[sc.Rect]:
    return [s for s in scene.shapes if isinstance(s, sc.Rect) and s.w > 50]


def _badges(scene: sc.Scene) -> list[tuple[str, str]]:
    """(number, fill) of each board-number badge: a small rect with its number on it."""
    rects = [s for s in scene.shapes if isinstance(s, sc.Rect) and s.w == 11 and s.h == 10]
    labels = [s for s in scene.shapes if isinstance(s, sc.Label)]
    out = []
    for r in rects:
        on = [t.text for t in labels if abs(t.x - (r.x + 5.5)) < 0.01 and abs(t.y - (r.y + 5)) < 0.01]
        out.append((on[0], str(r.fill)))
    return out


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_stage_is_drawn_from_the_course_table(race: Any, lang: str) -> None:
    cfg = race.cfg
    scenes = race.rulebook_figure("course", lang)
    assert len(scenes) == len(cfg.course) + 1  # a row per stage, then the key
    assert len({s.width for s in scenes[:-1]}) == 1  # every row as wide: the boards line up
    types = list(cfg.stage_types)
    for stage, scene in zip(cfg.course, scenes, strict=False):
        boards = _boards(scene)
        assert len(boards) == len(stage.boards)
        assert {b.fill for b in boards} == {TYPE_TINTS[types.index(stage.type)]}
        assert sorted(b.x for b in boards) == [b.x for b in boards]  # laid out left to right
        dark = sc.INK
        assert _badges(scene) == [(str(n), dark if side == "black" else sc.PAPER) for n, side in stage.boards]
        labels = _labels(scene)
        assert cfg.type_name(stage.type, lang) in labels
        assert any(str(stage.total_cost) in t for t in labels)
        assert any(isinstance(s, sc.Line) and s.arrow for s in scene.shapes)  # the start arrow
        if stage.note:
            assert any(t == (stage.note[lang]) for t in labels)
        bonus = " / ".join(f"−{b}" for b in cfg.bonus)
        assert any(bonus in t for t in labels) != stage.time_trial  # a time trial has no bonus
        if stage.time_trial:
            assert any(str(cfg.tt_start_every) in t for t in labels)
    key = _labels(scenes[-1])
    for stage_type in {s.type for s in cfg.course}:
        assert cfg.type_name(stage_type, lang) in key


def test_the_course_picture_follows_the_yaml(tmp_path: Path) -> None:
    """Change the course in game.yaml and the picture changes with it: nothing is drawn
    from numbers the code holds."""
    folder = tmp_path / "dice-road-race"
    shutil.copytree(ROOT / "content" / "dice-road-race", folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    old = "- {stage: 1, type: flat, boards: [[2, black], [1, white], [3, white]], total_cost: 45}"
    assert old in text
    game.write_text(text.replace(old, "- {stage: 1, type: hilly, boards: [[3, black], [1, black]], total_cost: 33}")
                    .replace("bonus_seconds: [10, 5, 2]", "bonus_seconds: [12, 6]"), encoding="utf-8")
    rules = rules_for_content(load_games(tmp_path, ["dice-road-race"])[0])[0]
    first = rules.rulebook_figure("course", "en")[0]
    assert _badges(first) == [("3", sc.INK), ("1", sc.INK)]
    assert {b.fill for b in _boards(first)} == {TYPE_TINTS[list(rules.cfg.stage_types).index("hilly")]}
    labels = _labels(first)
    assert "total cost 33" in labels and any("−12 / −6 s for places 1–2" in t for t in labels)


# --- Dice Road Race: the time trial in examples 5 and 6 ----------------------------------
def _picture(race: Any, name: str, lang: str = "en") -> sc.Scene:
    return race.draw(race.from_data(_example("dice-road-race", name)["state"]), (), lang)


def test_example_5_charts_who_rides_in_each_round(race: Any) -> None:
    state = race.from_data(_example("dice-road-race", "ex5-time-trial-start-order")["state"])
    live = state.live
    scene = race.draw(state, (), "en")
    every = race.cfg.tt_start_every
    starts = [s for s in scene.shapes if isinstance(s, sc.Rect) and s.fill == sc.ACCENT and s.h == 13]
    assert len(starts) == len(live.tt_order)
    # one start every `every` rounds, in the start order (lowest in the standings first)
    columns = sorted(round((s.x - starts[0].x) / starts[0].w) for s in starts)
    assert columns == [i * every for i in range(len(live.tt_order))]
    names = [t for t in _labels(scene) if t in state.race.players]
    assert names == [state.race.players[s] for s in live.tt_order] == ["P4", "P3", "P1", "P2"]
    assert "4 rolls so far" in _labels(scene) and "this round" in _labels(scene)
    assert _labels(scene) != _labels(_picture(race, "ex4-solo-winner-stage-2"))


def test_example_6_prints_the_time_trial_results_then_the_standings(race: Any) -> None:
    labels = _labels(_picture(race, "ex6-time-trial-stage-time"))
    assert "Stage 3 (time trial): results" in labels and "Standings after stage 3" in labels
    assert labels.index("47 s") < labels.index("53 s")  # P4's 47 s first; P2 leads on 53 s
    ja = _labels(_picture(race, "ex6-time-trial-stage-time", "ja"))
    assert "47秒" in ja and "第3ステージ後の総合順位" in ja


def test_example_7_shows_the_retired_rider_and_the_dice_after_recovery(race: Any) -> None:
    example = _example("dice-road-race", "ex7-retire-and-recovery")
    state = race.from_data(example["state"])
    scene = race.draw(state, (), "en")
    rows = [s for s in scene.shapes if isinstance(s, sc.Rect) and s.role == "row"]
    last = race.report(state).stages[-1]
    assert len(rows) == len(last.standings) + len(last.out)  # the retired rider keeps a row, without a time
    labels = _labels(scene)
    assert "retired" in labels and "Dice next stage" in labels
    dice = example["expect"]["state"]["report"]["stages"][2]["dice_after_recovery"]
    by_row: dict[float, list[sc.Label]] = {}
    for s in scene.shapes:
        if isinstance(s, sc.Label):
            by_row.setdefault(s.y, []).append(s)
    shown = {}
    for row in by_row.values():  # each table row: its rider's name, and the last column, the dice
        cells = [s.text for s in sorted(row, key=lambda s: s.x)]
        shown.update({name: cells[-1] for name in cells if name in dice})
    assert shown == {k: str(v) for k, v in dice.items()}
    assert "47 s" not in labels  # a retired rider's time trial is not kept


@pytest.mark.parametrize("name", ["move-blocked", "slash-too-weak", "slash-second-phase", "bodyguard-waits"])
def test_a_refused_path_is_dashed_and_a_legal_one_is_not(routou: Any, name: str) -> None:
    before, moves, _ = _replay(routou, name)
    red = [s for s in routou.draw(before, moves, "en").shapes if isinstance(s, sc.Line) and s.stroke == DESTROY]
    assert red and all(line.dash for line in red)  # the path tried; the badge is drawn in white
    before, moves, _ = _replay(routou, "slash-wins")
    assert not any(isinstance(s, sc.Line) and s.dash for s in routou.draw(before, moves, "en").shapes)


@pytest.mark.parametrize(("name", "seat"), [("zeros-buy-stock", "A"), ("slash-wins", "A"), ("bodyguard-fails", None)])
def test_the_after_board_marks_the_counters_the_move_changed(routou: Any, name: str, seat: str | None) -> None:
    """Stock bought, a kill made: that player's line under the after board in the accent
    colour; a line that did not change stays grey."""
    before, moves, after = _replay(routou, name)
    _, later = routou.draw_pair(before, moves, after, "en")
    lines = {s.text.split(":")[0]: s.colour for s in later.shapes
             if isinstance(s, sc.Label) and "stock" in s.text and "kills" in s.text}
    for who in ("A", "B"):
        changed = (before.stock, before.kills) != (after.stock, after.kills) and (
            before.stock["AB".index(who)], before.kills["AB".index(who)]) != (
            after.stock["AB".index(who)], after.kills["AB".index(who)])
        assert lines[who] == (sc.ACCENT if changed else sc.GREY), (name, who)
    if seat is not None:
        assert lines[seat] == sc.ACCENT
