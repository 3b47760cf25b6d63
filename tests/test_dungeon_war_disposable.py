"""Dungeon War's 【使い捨て】 choice in a melee (digest §6, D-DW-32): scenarios derived by hand
from the source (tests/referee/dungeon-war-designer), judged by the real CLI against the shipped
content plus one designer's card, a passive disposable Potion of Strength (BP +8), which no
stand-in card is."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pnpgen.cli import app

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "tests" / "referee" / "dungeon-war-designer").glob("*.yaml"))
POTION = 'potion,力の薬,Potion of Strength,2,tool disposable,0,0,8,,,戦闘でBP＋8,BP +8 in a fight,stand-in\n'


@pytest.fixture(scope="module")
def content(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("designer")
    shutil.copytree(ROOT / "content" / "dungeon-war", root / "dungeon-war")
    cards = root / "dungeon-war" / "war-cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8") + POTION, encoding="utf-8")
    return root


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 6


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_disposable_scenario(content: Path, path: Path) -> None:
    expected = yaml.safe_load(path.with_suffix(".expected").read_text(encoding="utf-8"))
    args = ["referee", "dungeon-war", "--state", str(path), "--content", str(content), "--move", str(expected["move"])]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == expected["exit"], result.output
    said = " ".join(result.output.split())
    for text in expected["says"]:
        assert " ".join(text.split()) in said, said
    if "rule" in expected:
        assert f"rule {expected['rule']} (" in said
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert data["legal"] is {0: True, 1: False}[expected["exit"]]


def test_every_choice_is_offered_and_round_trips(content: Path) -> None:
    """In the 'dispose' phase the legal moves are every subset of the worn disposables, and
    each one's notation parses back."""
    from pnpgen.content.game import load_games
    from pnpgen.games import rules_for_content

    (game_content,) = load_games(content, ["dungeon-war"])
    (rules,) = rules_for_content(game_content)
    data = yaml.safe_load((SCENARIOS[0].parent / "dispose-defender-second.yaml").read_text(encoding="utf-8"))
    state = rules.from_data(data)
    moves = rules.legal_moves(state)
    potion = next(i for i, c in enumerate(rules.cfg.war_cards) if c.id == "potion")
    assert moves == [("dispose",), ("dispose", potion)]
    assert all(rules.parse_move(rules.format_move(m)) == m for m in moves)
