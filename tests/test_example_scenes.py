"""Every worked example's picture shows its point: drawn with its moves, the scene holds
marks that the position alone lacks (the piece, path or cell the move touches); a refused
ROUTOU DICE move is drawn in red on the cell where it fails, and every board says who plays
and in which phase."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnpgen import scene as sc
from pnpgen.content.game import load_games
from pnpgen.engine.collection import pick_game
from pnpgen.engine.protocol import Presentation
from pnpgen.examples import load_examples, positions
from pnpgen.games import rules_for_content
from pnpgen.games.routou_dice.presentation import DESTROY
from pnpgen.games.routou_dice.presentation import window as routou_window

ROOT = Path(__file__).resolve().parents[1]
CASES: list[tuple[str, str]] = []
LOADED: dict[str, tuple[Any, list[Any], dict[str, dict[str, Any]]]] = {}
for _content in load_games(ROOT / "content"):
    _rules = rules_for_content(_content)
    _examples = {e["id"]: e for e in load_examples(_content) if e.get("moves")}
    LOADED[_content.id] = (_content, _rules, _examples)
    CASES += [(_content.id, name) for name in _examples]


def _replay(game: str, name: str) -> tuple[Any, Any, list[Any], Any]:
    content, rules_list, examples = LOADED[game]
    example = examples[name]
    rules = pick_game(rules_list, example["game"], content.id) if "game" in example else rules_list[0]
    assert isinstance(rules, Presentation)
    replayed = positions(rules, example)
    assert replayed is not None, f"{name} does not replay"
    return rules, *replayed


def test_there_are_examples_with_moves_in_every_played_game() -> None:
    assert {game for game, _ in CASES} >= {"burning-desire", "dungeon-war", "fast-alone", "routou-dice"}


@pytest.mark.parametrize(("game", "name"), CASES, ids=[f"{g}:{n}" for g, n in CASES])
def test_the_scene_holds_the_marks_of_its_moves(game: str, name: str) -> None:
    rules, before, moves, _ = _replay(game, name)
    marked, plain = rules.draw(before, moves, "en"), rules.draw(before, [], "en")
    assert set(marked.shapes) - set(plain.shapes), f"{name}: its moves leave no mark on the picture"


REFUSED = [(g, n) for g, n in CASES if g == "routou-dice" and _replay(g, n)[3] is None]


@pytest.mark.parametrize(("game", "name"), REFUSED, ids=[n for _, n in REFUSED])
def test_a_refused_routou_move_is_drawn_in_red(game: str, name: str) -> None:
    rules, before, moves, _ = _replay(game, name)
    scene = rules.draw(before, moves, "en")
    red = [s for s in scene.shapes if getattr(s, "stroke", None) == DESTROY or getattr(s, "colour", None) == DESTROY
           or getattr(s, "fill", None) == DESTROY]
    assert red, f"{name}: nothing drawn in red"
    labels = [s.text for s in scene.shapes if isinstance(s, sc.Label)]
    assert any(t.startswith("A to play, phase") or t.startswith("B to play, phase") for t in labels)


def _cells(scene: sc.Scene) -> list[sc.Rect]:
    return [s for s in scene.shapes if isinstance(s, sc.Rect) and s.role == "cell"]


def test_routou_boards_are_large_enough() -> None:
    """The whole board at 17 pt cells; a cropped board's cells are larger (8 mm)."""
    rules, before, moves, _ = _replay("routou-dice", "must-place")
    scene = rules.draw(before, moves, "en")
    cells = _cells(scene)
    side = cells[0].w * 25.4 / 72
    assert side >= 6 - 1e-9 and len(cells) * cells[0].w ** 2 >= (10 * 17) ** 2 * 0.2


@pytest.mark.parametrize(("game", "name"), [c for c in CASES if c[0] == "routou-dice"],
                         ids=[n for g, n in CASES if g == "routou-dice"])
def test_routou_pictures_are_cropped_to_their_point(game: str, name: str) -> None:
    """A picture shows the part of the board its move touches (every die and marked cell inside),
    the same part before and after, and is cropped unless the dice span the board."""
    rules, before, moves, after = _replay(game, name)
    geo = rules.geo
    window = routou_window(rules, [before] + ([after] if after is not None else []), moves)
    c0, r0, cols, rows = window
    if cols == 0:  # an action with no cell on an empty board: its words, no board
        assert not any(before.board) and not _cells(rules.draw(before, moves, "en"))
        return
    touched = {i for i, v in enumerate(before.board) if v}
    for m in moves:
        touched |= set(m.path) | {end for _, end in m.parts} | set(m.destroys)
        touched |= {m.cell} if m.cell is not None else set()
    for i in touched:
        x, y = geo.xy(i)
        assert c0 <= x - geo.x0 < c0 + cols and r0 <= y - geo.y0 < r0 + rows, (name, i)
    if after is not None:
        pair = rules.draw_pair(before, moves, after, "en")
        assert len(_cells(pair[0])) == len(_cells(pair[1])) == cols * rows
        assert _cells(pair[0])[0].w == _cells(pair[1])[0].w
    if cols < geo.width and rows < geo.height:
        assert _cells(rules.draw(before, moves, "en"))[0].w > 17
