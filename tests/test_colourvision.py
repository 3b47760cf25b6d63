"""The colour-vision check (validate and preflight): red and green teams with nothing else
to tell them apart fail, naming the component and both colours; a printed team mark, or a
legend's pattern, is a cue that lets them pass; the shipped games pass."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pnpgen.content.game import load_game
from pnpgen.games import rules_for_content
from pnpgen.render.colourvision import THRESHOLD, difference
from pnpgen.validate import colour_vision_check
from tests.conftest import CliRun
from tests.kit_pdf import game_yaml

GAME = game_yaml("teams", "[pieces.yaml]", "{ja: チーム, en: Teams}", (2, 2))
PIECES = """\
- type: deck
  id: pieces
  title: Pieces
  size: {width: 20, height: 20}
  cards:
    - {colour: "#e53e3e", mark: "■", quantity: 4}
    - {colour: "#38a169", mark: "▲", quantity: 4}
  front:
    - {shape: rect, fill: "{{ colour }}", bleed: true}
- type: deck
  id: tiles
  title: Tiles
  size: {width: 40, height: 20}
  cards: [{rows: FG}]
  front:
    - squares: rows
      x: 0
      y: 0
      w: 40
      h: 20
      codes:
        F: {fill: "#e53e3e", label: {ja: 森, en: Forest}}
        G: {fill: "#38a169", label: {ja: 草, en: Grass}}
"""


def game(tmp_path: Path, pieces: str) -> Path:
    folder = tmp_path / "content" / "teams"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "pieces.yaml").write_text(textwrap.dedent(pieces), encoding="utf-8")
    return folder


def check(folder: Path) -> list[str]:
    content = load_game(folder)
    return colour_vision_check(content, rules_for_content(content)).problems


def test_red_and_green_teams_without_shapes_fail(tmp_path: Path) -> None:
    no_marks = PIECES.replace(' mark: "■",', "").replace(' mark: "▲",', "")
    problems = [p for p in check(game(tmp_path, no_marks)) if "'pieces'" in p]
    assert len(problems) == 1, problems
    (problem,) = problems
    assert problem.startswith(f"{tmp_path}/content/teams/pieces.yaml:")
    assert "component 'pieces', colour: #e53e3e" in problem and "#38a169" in problem
    assert "look alike with deuteranopia (ΔE 11.9 < 15)" in problem


def test_a_mark_that_is_not_printed_is_no_cue_and_a_printed_one_is(tmp_path: Path) -> None:
    assert len(check(game(tmp_path / "a", PIECES))) == 1  # the mark is data, never drawn
    printed = PIECES.replace('    - {shape: rect, fill: "{{ colour }}", bleed: true}\n',
                             '    - {shape: rect, fill: "{{ colour }}", bleed: true}\n'
                             '    - {text: "{{ mark }}", size: 12}\n')
    assert check(game(tmp_path / "b", printed)) == []


def test_a_legend_without_patterns_fails_and_with_them_passes(tmp_path: Path) -> None:
    plain = PIECES.replace('label: {ja: 森, en: Forest}', 'pattern: dots').replace(
        'label: {ja: 草, en: Grass}', 'pattern: dots')
    (problem,) = [p for p in check(game(tmp_path / "a", plain)) if "tiles" in p]
    assert "component 'tiles', legend: F and G look alike with deuteranopia" in problem
    assert "pieces.yaml:22:" in problem  # the line of code F
    assert not any("tiles" in p for p in check(game(tmp_path / "b", PIECES)))  # labels differ: a cue


@pytest.mark.parametrize("name", ["burning-desire", "dice-road-race", "dungeon-war", "fast-alone", "routou-dice"])
def test_the_shipped_games_pass(content_dir: Path, name: str) -> None:
    assert check(content_dir / name) == []


def test_the_threshold_separates_the_measured_pairs() -> None:
    assert difference("#e53e3e", "#38a169", "deuteranopia") < THRESHOLD < difference("#e53e3e", "#38a169", "normal")
    assert difference("#2b6cb0", "#c53030", "deuteranopia") > THRESHOLD  # Dungeon War's blue and red


def test_validate_reports_it(run_pnpgen: CliRun, tmp_path: Path) -> None:
    folder = game(tmp_path, PIECES)
    code, out, _ = run_pnpgen("validate", "teams", "--content", str(folder.parent))
    assert code == 1 and "FAIL teams: colour vision" in out and "#e53e3e" in out
