"""Dungeon War positions drawn (drawing.py): the squares of the placed cards, the pieces on the
board, only public facts, the moves marked, `referee --svg`, and the full-table mock-up preview."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from pnpgen import scene as sc
from pnpgen.cli import app
from pnpgen.content.game import load_games
from pnpgen.games import rules_for_content
from pnpgen.render.kit import mockup_previews

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
SCENARIOS = ROOT / "tests" / "referee" / "dungeon-war"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def game() -> Any:
    (content,) = load_games(CONTENT, ["dungeon-war"])
    (rules,) = rules_for_content(content)
    return rules


def _state(game: Any, name: str) -> Any:
    return game.from_data(yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8")))


def test_every_scenario_draws_its_squares_and_pieces(game: Any) -> None:
    """Cells drawn = squares of the placed cards (6 a card); pieces drawn = pieces on the board."""
    drawn = 0
    for path in sorted(SCENARIOS.glob("*.yaml")):
        if not path.with_suffix(".expected").exists() or path.read_text(encoding="utf-8").startswith("view:"):
            continue  # an impossible state, or a view (below)
        state = _state(game, path.stem)
        scene = game.draw(state)
        assert scene.count("cell") == 6 * len(state.cards) == len(game.dungeon(state).terrain), path.stem
        assert scene.count("piece") == len(state.board), path.stem
        drawn += 1
    assert drawn >= 40


def test_only_the_placed_region_is_drawn_with_its_coordinates(game: Any) -> None:
    state = game.example_state()  # stairs 3.4, hall 2.4, crystal 3.5: columns j-o, rows 3-6
    labels = {s.text for s in game.draw(state).shapes if isinstance(s, sc.Label)}
    assert {"j", "o", "3", "6"} <= labels
    assert not labels & {"i", "p", "2", "7"}
    whole = game.mockup()
    labels = {s.text for s in whole.shapes if isinstance(s, sc.Label)}
    assert {"a", "u", "1", "10"} <= labels


def test_a_move_is_marked_route_highlight_and_fight(game: Any) -> None:
    state = game.example_state()
    plain = game.draw(state)
    scene = game.draw(state, [game.parse_move("k5-m5")])  # the King Dragon attacks the slime on m5
    accent = [s for s in scene.shapes if sc.ACCENT in (getattr(s, "stroke", None), getattr(s, "fill", None))]
    assert not [s for s in plain.shapes if getattr(s, "stroke", None) == sc.ACCENT]
    assert sum(isinstance(s, sc.Line) and s.arrow for s in accent) == 1  # the route's head
    assert sum(isinstance(s, sc.Rect) for s in accent) == 2  # start and end outlined
    assert sum(isinstance(s, sc.Polygon) for s in accent) == 1  # the fight's star
    quiet = game.draw(state, [game.parse_move("k5-k3")])  # no one on k3: no fight
    assert not [s for s in quiet.shapes if isinstance(s, sc.Polygon) and s.fill == sc.ACCENT]


def test_team_colours_and_marks_come_from_the_pieces_file(game: Any) -> None:
    decks = yaml.safe_load((CONTENT / "dungeon-war" / "components" / "pieces.yaml").read_text(encoding="utf-8"))
    cards = next(d for d in decks if d["id"] == "pieces")["cards"]
    colours = list(dict.fromkeys(c["colour"] for c in cards if c["team"]["en"] != "N"))
    assert [t.colour for t in game.look.teams] == colours
    assert [t.mark for t in game.look.teams] == ["circle", "square", "triangle", "diamond"]
    fills = {s.fill for s in game.mockup().shapes if isinstance(s, sc.Rect) and s.role == "piece"}
    assert fills <= set(colours) and len(fills) == 4


def test_referee_svg_counts_cells_and_pieces(game: Any, tmp_path: Path) -> None:
    out = tmp_path / "warp.svg"
    state_file = SCENARIOS / "warp-ok.yaml"
    done = CliRunner().invoke(app, ["referee", "dungeon-war", "--state", str(state_file), "--move", "j3*j6",
                                    "--svg", str(out), "--content", str(CONTENT)])
    assert done.exit_code == 0, done.output
    svg = ET.parse(out).getroot()
    assert svg.tag == f"{SVG}svg"
    classes = Counter(e.get("class", "") for e in svg.iter(f"{SVG}rect"))
    state = _state(game, "warp-ok")
    after, _ = game.apply(state, game.parse_move("j3*j6"))
    assert classes["cell"] == 6 * len(state.cards) + 6 * len(after.cards)
    assert classes["piece"] == len(state.board) + len(after.board)


def test_hidden_cards_never_appear_in_a_drawing(game: Any) -> None:
    """A seat's hand and face-down traps: no card's name (en or ja) or id is in the SVG."""
    state = _state(game, "ambush-window-on-entry")  # seat 2 holds a face-down Pitfall
    hidden = {i for seat in state.equip for _, i in seat} | {i for hand in state.hands for i in hand}
    assert hidden
    text = sc.to_svg(game.draw(state, [game.parse_move("k5-k4")]))
    for index in hidden:
        card = game.cfg.war_cards[index]
        for word in (card.id, card.name_en, card.name_ja):
            assert word not in text, word


def test_the_mockup_preview_is_written_sane_and_byte_identical(game: Any, tmp_path: Path) -> None:
    from PIL import Image

    scene = game.mockup()
    assert scene.count("cell") == 6 * (1 + game.cfg.first_spots)  # the stairs and the first cards
    assert scene.count("piece") == game.max_players * len(game.cfg.first_pieces)
    (first,) = mockup_previews([game], tmp_path / "a", "en")
    (second,) = mockup_previews([game], tmp_path / "b", "en")
    png_a, png_b = first.with_suffix(".png"), second.with_suffix(".png")
    assert png_a.name == "table-en.png"
    with Image.open(png_a) as image:
        assert 1000 <= image.width <= 3000 and 500 <= image.height <= 2000
        assert len(image.convert("RGB").resize((64, 32)).getcolors(4096) or []) > 20  # not blank
    assert png_a.read_bytes() == png_b.read_bytes()
    assert first.read_bytes() == second.read_bytes()


def test_a_view_draws_no_card_at_all(game: Any, tmp_path: Path) -> None:
    """`referee --svg` from one seat's view draws a state drawn from it: its public board only,
    so no war card's name or id appears, whoever holds it."""
    out = tmp_path / "view.svg"
    state_file = SCENARIOS / "view-ambush-spring-cannot-tell.yaml"
    assert state_file.read_text(encoding="utf-8").startswith("view:")
    done = CliRunner().invoke(app, ["referee", "dungeon-war", "--state", str(state_file), "--svg", str(out),
                                    "--content", str(CONTENT)])
    assert done.exit_code == 0, done.output
    root = ET.parse(out).getroot()
    words = {e.text for e in root.iter(f"{SVG}text")}
    assert Counter(e.get("class", "") for e in root.iter(f"{SVG}rect"))["piece"] >= 2
    for card in game.cfg.war_cards:
        assert not words & {card.id, card.name_en, card.name_ja}, card.id
