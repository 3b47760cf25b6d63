"""Setup pictures (issue 27): each book's 'setup' figure is drawn from the game's own setup
state and holds the marks of what the setup text puts on the table; Dice Road Race's worked
examples 1-3 show standings that change from one example to the next."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnpgen import scene as sc
from pnpgen.content.game import load_games
from pnpgen.engine.collection import pick_game
from pnpgen.examples import load_examples
from pnpgen.games import rules_for_content
from pnpgen.games.burning_desire.presentation import BONUS_FILL, MULT_FILL
from pnpgen.games.fast_alone.growing_nine.presentation import RED_FILL, setup_state
from pnpgen.games.routou_dice.presentation import SEAT_FILL

ROOT = Path(__file__).resolve().parents[1]
GAMES = {c.id: c for c in load_games(ROOT / "content", ["burning-desire", "routou-dice", "dice-road-race",
                                                          "fast-alone"])}


@pytest.fixture(scope="module")
def rules() -> dict[str, Any]:
    out = {gid: rules_for_content(c)[0] for gid, c in GAMES.items()}
    out["fast-alone"] = pick_game(rules_for_content(GAMES["fast-alone"]), "growing-nine-a", "fast-alone")
    return out


def _labels(scenes: list[sc.Scene]) -> list[str]:
    return [s.text for scene in scenes for s in scene.shapes if isinstance(s, sc.Label)]


def _dice(scenes: list[sc.Scene], fill: str | None = None) -> int:
    return sum(1 for scene in scenes for s in scene.shapes
               if isinstance(s, sc.Rect) and s.role == "die" and (fill is None or s.fill == fill))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_book_prints_a_setup_picture_in_its_setup(game: str) -> None:
    """The players' book holds a 'setup' figure with a caption in both languages."""
    books = [GAMES[game].folder / "rulebook.yaml", *sorted(GAMES[game].folder.glob("*/rulebook.yaml"))]
    text = "\n".join(p.read_text(encoding="utf-8") for p in books if p.is_file())
    block = text[text.index("- figure: setup"):][:900]
    assert "caption:" in block and "ja:" in block and "en:" in block


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_burning_desire_setup(rules: dict[str, Any], lang: str) -> None:
    game = rules["burning-desire"]
    scenes = game.rulebook_figure("setup", lang)
    cfg = game.cfg
    assert _dice(scenes, sc.PAPER) == cfg.dice and _dice(scenes, BONUS_FILL) == 1
    assert _dice(scenes, MULT_FILL) == len(cfg.multipliers)
    labels = _labels(scenes)
    assert {d.name for d in cfg.multipliers} <= set(labels)  # each multiplier die carries its name
    totals = [t for t in labels if t == "0"]
    assert len(totals) == len(game.initial_state(3).scores)  # everyone at 0 on the score pad
    shaded = [s for s in scenes[0].shapes if isinstance(s, sc.Rect) and s.fill == sc.HIGHLIGHT]
    assert len(shaded) == 1  # the first seat's row
    assert any(str(cfg.dice) in t for t in labels)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_routou_setup_shows_the_empty_board_and_both_supplies(rules: dict[str, Any], lang: str) -> None:
    game = rules["routou-dice"]
    scenes = game.rulebook_figure("setup", lang)
    state = game.initial_state(2)
    assert not any(state.board)  # the empty board is the subject: nothing is on it yet
    assert _dice(scenes, SEAT_FILL[0]) >= 1 and _dice(scenes, SEAT_FILL[1]) >= 1  # the piles, no die on the board
    labels = _labels(scenes)
    for count in state.supply:
        assert f"× {count}" in labels
    assert sum(str(game.cfg.dice) in t for t in labels) >= 2 + 2  # both piles and both labels
    turn = "A to play, phase 1" if lang == "en" else "A の番・第1フェーズ"
    assert any(t.startswith(turn) for t in labels)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_dice_road_race_setup(rules: dict[str, Any], lang: str) -> None:
    game = rules["dice-road-race"]
    scenes = game.rulebook_figure("setup", lang)
    live = game.initial_state(4).live
    labels = _labels(scenes)
    first = game.cfg.course[0]
    assert labels[0] == ("Stage 1" if lang == "en" else "第1ステージ")  # stage 1's boards come first
    assert sum(1 for s in scenes[0].shapes if isinstance(s, sc.Rect) and s.w > 50) == len(first.boards)
    assert sum(isinstance(s, sc.Circle) for s in scenes[0].shapes) == len(live.dice)  # the pieces on the start
    assert _dice(scenes[1:]) == sum(live.dice)  # each rider's dice, as the initial state gives them
    for name in ("P1", "P2", "P3", "P4"):
        assert labels.count(name) >= 2  # a piece and a line of the standings sheet
    assert any(isinstance(s, sc.Circle) and s.fill == game.cfg.leader_swatch for s in scenes[1].shapes)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_fast_alone_setup_is_a_placed_board(rules: dict[str, Any], lang: str) -> None:
    game = rules["fast-alone"]
    state = setup_state(game)
    assert game.placed(state) and not state.end
    scenes = game.rulebook_figure("setup", lang)
    assert _dice(scenes, RED_FILL) == 1  # the red die, placed
    assert _dice(scenes) == game.whites + 1  # every white: placed or waiting below the board
    minutes = str(GAMES["fast-alone"].data["time_minutes"])
    assert any(t == f"{minutes}:00" for t in _labels(scenes))


def _example_picture(rules: dict[str, Any], example_id: str, lang: str) -> list[str]:
    game = rules["dice-road-race"]
    example = next(e for e in load_examples(GAMES["dice-road-race"]) if e["id"] == example_id)
    scene = game.draw(game.from_data(example["state"]), (), lang)
    return [s.text for s in scene.shapes if isinstance(s, sc.Label)]


def test_dice_road_race_examples_1_to_3_show_the_stage_as_it_goes(rules: dict[str, Any]) -> None:
    one, two, three = (_example_picture(rules, i, "en") for i in (
        "ex1-simultaneous-finish", "ex2-extra-round-finish", "ex3-not-finished-and-standings"))
    assert len({tuple(one), tuple(two), tuple(three)}) == 3
    assert one.count("still riding") == 2 and "−10 s" in one and "−5 s" in one and "8 s" not in one
    assert two.count("still riding") == 1 and "8 s" in two  # P2 finished in the extra round: +10 − 2
    assert "still riding" not in three and "20 s" in three and "+30 s" in three  # P4's +20, the gap
    ja = _example_picture(rules, "ex1-simultaneous-finish", "ja")
    assert ja.count("走行中") == 2 and "−10秒" in ja
