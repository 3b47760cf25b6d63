"""The worked examples' pictures of Burning Desire and Dungeon War show their point (issue 27):
a refused move is crossed out in red where it fails, with its reason in words; a score's
bonus is written over the dice that earn it; each roll of the multiplier dice says what it
leaves; Dungeon War's seat lines show the public play sheet (never a face-down trap); the
key explains every mark the pictures use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnpgen import scene as sc
from pnpgen.content.game import load_games
from pnpgen.examples import load_examples, positions
from pnpgen.games import rules_for_content
from pnpgen.games.burning_desire.presentation import REFUSED as BD_RED
from pnpgen.games.burning_desire.presentation import components_figure
from pnpgen.games.dungeon_war import drawing
from pnpgen.games.dungeon_war.drawing import REFUSED as DW_RED

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def games() -> dict[str, tuple[Any, dict[str, dict[str, Any]]]]:
    out = {}
    for content in load_games(ROOT / "content", ["burning-desire", "dungeon-war"]):
        (rules,) = rules_for_content(content)
        out[content.id] = (rules, {e["id"]: e for e in load_examples(content)})
    return out


def _scene(games: dict[str, Any], game: str, name: str, lang: str = "en") -> tuple[Any, sc.Scene, Any]:
    rules, examples = games[game]
    before, moves, after = positions(rules, examples[name])
    return rules, rules.draw(before, moves, lang), after


def _labels(scene: sc.Scene, colour: str | None = None) -> list[str]:
    return [s.text for s in scene.shapes if isinstance(s, sc.Label) and (colour is None or s.colour == colour)]


def _red_lines(scene: sc.Scene, red: str) -> list[sc.Line]:
    return [s for s in scene.shapes if isinstance(s, sc.Line) and s.stroke == red]


def test_a_fourth_roll_crosses_out_the_dice_it_would_reroll(games: dict[str, Any]) -> None:
    rules, scene, after = _scene(games, "burning-desire", "ex10-no-rerolls-left")
    assert after is None  # the example is refused
    dice = [s for s in scene.shapes if isinstance(s, sc.Rect) and s.role == "die"]
    assert len(dice) == 7
    # 1 1 and the bonus die are kept: the four other main dice carry a red cross (two strokes each)
    assert len(_red_lines(scene, BD_RED)) == 2 * 4
    assert [t for t in _labels(scene, BD_RED) if "no roll 4" in t]
    assert [t for t in _labels(_scene(games, "burning-desire", "ex10-no-rerolls-left", "ja")[1], BD_RED)
            if "4回目" in t]


def test_a_refused_gamble_crosses_out_the_multiplier_dice_and_says_why(games: dict[str, Any]) -> None:
    rules, scene, after = _scene(games, "burning-desire", "ex7-no-gamble-below-threshold")
    assert after is None
    assert len(_red_lines(scene, BD_RED)) == 2 * len(rules.cfg.multipliers)
    (why,) = _labels(scene, BD_RED)
    assert "540" in why and "1000" in why and "final round" in why


@pytest.mark.parametrize(("name", "marks", "total"), [
    ("ex1-five-of-four-to-six", [], "“4–6” counts 5: 30"),
    ("ex2-bonus-die-matches", ["+10"], "“4–6” counts 5: 30 + bonus 10 = 40"),
    ("ex3-all-six-counted", ["+20"] * 4, "“2–3” counts 6: 180 + bonus 80 = 260"),
    ("ex4-ones-doubled", ["×2"], "“1” counts 4: 120 × 2 = 240"),
])
def test_a_score_writes_its_bonus_over_the_dice_and_its_sum_under_them(
        games: dict[str, Any], name: str, marks: list[str], total: str) -> None:
    _, scene, _ = _scene(games, "burning-desire", name)
    accent = _labels(scene, sc.ACCENT)
    assert sorted(t for t in accent if t.startswith(("+", "×"))) == marks
    assert total.replace("“", '"').replace("”", '"') in accent


def test_each_multiplier_roll_says_what_it_leaves(games: dict[str, Any]) -> None:
    _, scene, _ = _scene(games, "burning-desire", "ex5-gamble-in-the-final-round")
    assert "×1×2 = 200" in _labels(scene, sc.ACCENT)
    assert [t for t in _labels(scene, BD_RED) if "a 0" in t]
    assert not [t for t in _labels(scene) if "rolls the multiplier dice" in t]  # no repeated move lines


def test_the_components_picture_shows_every_face_of_the_multiplier_dice(games: dict[str, Any]) -> None:
    rules, _ = games["burning-desire"]
    scene = components_figure(rules, "en")
    notes = [s.note for s in scene.shapes if isinstance(s, sc.Rect) and s.role == "die"]
    faces = [str(f) for d in rules.cfg.multipliers for f in d.faces]
    assert len(notes) == rules.cfg.dice + 1 + len(faces)
    assert notes[rules.cfg.dice + 1:] == faces


def test_a_refused_dungeon_war_move_is_crossed_out_where_it_would_end(games: dict[str, Any]) -> None:
    rules, scene, after = _scene(games, "dungeon-war", "king-stops-on-water")
    assert after is None
    red = _red_lines(scene, DW_RED)
    assert len(red) == 2
    # the cross lies in the waterway square i6, left of the King Dragon on j6
    king = next(s for s in scene.shapes if isinstance(s, sc.Label) and s.text == "K")
    xs = [x for line in red for x in (line.x1, line.x2)]
    assert max(xs) <= king.x and king.x - min(xs) < 2 * drawing.CELL
    _, allowed, _ = _scene(games, "dungeon-war", "move-across-water")
    assert not _red_lines(allowed, DW_RED)


def test_the_seat_lines_show_the_open_sheet_and_never_a_face_down_trap(games: dict[str, Any]) -> None:
    rules, examples = games["dungeon-war"]
    text = " ".join(_labels(_scene(games, "dungeon-war", "melee-by-flags")[1]))
    assert "fire slimes" in text and "Flame Tongue" in text
    before, moves, after = positions(rules, examples["melee-by-bp"])
    assert "fatigue 0" in " ".join(_labels(rules.draw(before, moves, "en")))
    assert "8G, fatigue 1" in " ".join(_labels(rules.draw(after, [], "en")))
    pitfall = " ".join(_labels(_scene(games, "dungeon-war", "pitfall")[1]) + _labels(
        _scene(games, "dungeon-war", "pitfall", "ja")[1]))
    assert "Pitfall" not in pitfall and "落とし穴" not in pitfall
    shot = " ".join(_labels(_scene(games, "dungeon-war", "ranged-shot")[1]))
    assert "Thunderbolt" in shot and "Helm" in shot and "Shield" in shot


def test_the_end_example_shows_the_crystals_that_decide(games: dict[str, Any]) -> None:
    rules, examples = games["dungeon-war"]
    before, moves, after = positions(rules, examples["king-falls"])
    assert after.phase == "over"
    words = " ".join(_labels(rules.draw(after, [], "en")))
    assert "King Dragons defeated 1" in words and "King Dragon fallen" in words and "crystals 1" in words
    # the crystal under Green's King Dragon is still seen: a small diamond beside the token
    diamonds = [s for s in rules.draw(after, [], "en").shapes if isinstance(s, sc.Polygon) and len(s.points) == 4]
    assert diamonds


def test_the_key_explains_every_mark(games: dict[str, Any]) -> None:
    rules, _ = games["dungeon-war"]
    for lang in ("en", "ja"):
        rows = rules.rulebook_figure("key", lang)
        words = [t for row in rows for t in _labels(row)]
        for key in ("mark_seat", "mark_move", "mark_fight", "mark_refused", "mark_turned", "wall", "cracked_wall"):
            assert drawing.WORDS(key, lang) in words, (lang, key)
        marks = rows[-1]
        assert _red_lines(marks, DW_RED)  # the refused cross, as drawn on the boards
        assert any(isinstance(s, sc.Polygon) and s.fill == sc.ACCENT for s in marks.shapes)  # the fight star


def test_the_war_card_list_reads_the_cards_file(games: dict[str, Any]) -> None:
    """Every war card once, its copies and coins from war-cards.csv; a worn card's BP as a bonus
    (+), a shot's, a trap's or a dragon's as its own."""
    rules, _ = games["dungeon-war"]
    for lang in ("en", "ja"):
        rows = rules.rulebook_table("war_cards", lang)[1:]
        cards = rules.cfg.war_cards
        assert len(rows) == len(cards)
        by_name = {r[0]: r for r in rows}
        for card in cards:
            row = by_name[card.name_ja if lang == "ja" else card.name_en]
            assert row[1] == str(card.count) and row[3] == (str(card.coins) if card.coins else "—")
    en = {r[0]: r for r in rules.rulebook_table("war_cards", "en")}
    assert en["Long Sword"][4] == "+3" and en["Thunderbolt"][4] == "2D+4" and en["Pitfall"][4] == "2D+5"
