"""Dungeon War engine: referee scenarios through the real CLI (tests/referee/dungeon-war),
checked playthroughs at 2, 3 and 4 players with every invariant, hidden hands, notation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pnpgen.cli import app
from pnpgen.content.game import load_games
from pnpgen.engine.protocol import CHANCE
from pnpgen.errors import ImpossibleState
from pnpgen.games import rules_for_content
from pnpgen.verify import Verification, playthrough, protocol_checks

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
SCENARIOS = sorted((ROOT / "tests" / "referee" / "dungeon-war").glob("*.yaml"))


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    (content,) = load_games(CONTENT, ["dungeon-war"])
    (rules,) = rules_for_content(content)
    return rules


def test_there_are_at_least_40_scenarios() -> None:
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_verdict(path: Path) -> None:
    expected_path = path.with_suffix(".expected")
    args = ["referee", "dungeon-war", "--state", str(path), "--content", str(CONTENT)]
    if not expected_path.exists():  # an impossible state: exit 2 naming the file and line
        result = CliRunner().invoke(app, args)
        assert isinstance(result.exception, ImpossibleState), result.output
        assert str(result.exception).startswith(f"{path}:")
        return
    expected = yaml.safe_load(expected_path.read_text(encoding="utf-8"))
    args += ["--move", str(expected["move"])]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == expected["exit"], result.output
    said = " ".join(result.output.split())
    for text in expected["says"]:
        assert " ".join(text.split()) in said, said
    if "rule" in expected:
        assert f"rule {expected['rule']} (" in said
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert data["legal"] is {0: True, 1: False, 4: None}[expected["exit"]]
    assert data["judged"] == ("full state" if "view:" not in path.read_text(encoding="utf-8") else
                              f"view of seat {yaml.safe_load(path.read_text(encoding='utf-8'))['view']}")
    assert data["rule"] == expected.get("rule")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_checked_playthroughs(game, players: int) -> None:  # type: ignore[no-untyped-def]
    """Seeded random games, every step checked by pnpgen.verify (pieces and cards conserved,
    caps, one piece per square, exact chance, notation and state files round-trip); the round
    cap is lowered so the games stay short."""
    game.cfg.round_cap, saved = 3, game.cfg.round_cap
    try:
        result = Verification(game.id, 1)
        for seed in range(2):
            playthrough(game, players, 1000 * players + seed, result)
        assert result.problems == []
        assert sum(result.ends.values()) == 2
    finally:
        game.cfg.round_cap = saved


def test_protocol_checks(game) -> None:  # type: ignore[no-untyped-def]
    assert protocol_checks(game) == []


def test_setup_deals_under_the_crystal_and_box_caps(game) -> None:  # type: ignore[no-untyped-def]
    state = game.initial_state(3)
    assert game.current_player(state) == CHANCE
    outcomes = game.chance_outcomes(state)
    assert sum(p for _, p in outcomes) == 1
    names = {game.cfg.layouts[m[1]].id for m, _ in outcomes}
    assert "vault" not in names and "treasure" not in names and "crystal" in names
    crystal = next(m for m, _ in outcomes if game.cfg.layouts[m[1]].id == "crystal")
    state, _ = game.apply(state, crystal)
    assert "crystal" not in {game.cfg.layouts[m[1]].id for m, _ in game.chance_outcomes(state)}


def test_every_card_says_where_it_comes_from(game) -> None:  # type: ignore[no-untyped-def]
    assert sum(card.count for card in game.cfg.war_cards) == 120
    assert sum(layout.count for layout in game.cfg.layouts if not layout.event) == 42
    assert sum(layout.count for layout in game.cfg.layouts if layout.event) == 6
    assert {card.source for card in game.cfg.war_cards} <= {"source", "stand-in", "mixed"}
    assert all(layout.source == "stand-in" for layout in game.cfg.layouts)
