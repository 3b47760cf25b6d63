"""A game with the core contract only (tests/test_harness_toys.py's coin race: Rules and
nothing else) plays, simulates and verifies; the referee, which needs move notation and
state files, says so in one line and exits 2."""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import pnpgen.games
from pnpgen.content.game import load_games
from pnpgen.engine.protocol import Analysis, Notation, Presentation, StateCodec
from pnpgen.verify import golden_diff, record_golden, verify
from tests.conftest import CliRun

GAME = """id: coin-race
engine: coin_race
title: Coin race
players: {min: 2, max: 3}
time_minutes: 5
version: 1
end_conditions:
  target: {ja: 目標に届いた, en: a seat reached the target}
rules:
  target: 12
simulation:
  seed: 3
  smoke_games: 10
  verify_games: 5
  verify_seconds: 5
"""


@pytest.fixture
def content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "coin-race").mkdir()
    (tmp_path / "coin-race" / "game.yaml").write_text(GAME, encoding="utf-8")
    installed = pnpgen.games.engines()
    point = EntryPoint("coin_race", "tests.test_harness_toys", pnpgen.games.GROUP)
    monkeypatch.setattr(pnpgen.games, "engines", lambda: {**installed, "coin_race": point})
    return tmp_path


def test_the_toy_has_no_capability(content: Path) -> None:
    (game,) = load_games(content, ["coin-race"])
    (rules,) = pnpgen.games.rules_for_content(game)
    assert not isinstance(rules, Notation | StateCodec | Analysis | Presentation)
    assert (rules.id, rules.min_players, rules.max_players) == ("coin-race", 2, 3)


def test_simulate_and_verify(content: Path, run_pnpgen: CliRun) -> None:
    code, out, err = run_pnpgen("simulate", "coin-race", "--games", "40", "--seed", "7", "--json", "-q",
                                "--content", str(content))
    assert code == 0, err
    data = json.loads(out)
    assert sum(seat["win_rate"] for seat in data["seats"]) == pytest.approx(1.0)
    (game,) = load_games(content, ["coin-race"])
    (rules,) = pnpgen.games.rules_for_content(game)
    result = verify(rules, games=6, seed=3)
    assert (result.problems, result.games, set(result.ends)) == ([], 6, {"target"})
    golden = record_golden(rules, seed=3)
    assert golden_diff(rules, golden) == []


def test_validate(content: Path, run_pnpgen: CliRun) -> None:
    """Every check passes but determinism, which replays the game in a fresh process
    where an engine registered only inside this test is unknown."""
    code, out, err = run_pnpgen("validate", "--content", str(content))
    failed = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert code == 1 and failed == ["FAIL coin-race: determinism coin-race"], err + out
    assert "ok   coin-race: verification coin-race — 5 checked playthroughs" in out


@pytest.mark.parametrize("args", [["--example-state"], ["--state", "state.yaml", "--legal"]])
def test_referee_names_the_missing_capability(content: Path, run_pnpgen: CliRun, args: list[str]) -> None:
    (content / "state.yaml").write_text("places: [0, 0]\nturn: 1\n", encoding="utf-8")
    args = [str(content / a) if a == "state.yaml" else a for a in args]
    code, out, err = run_pnpgen("referee", "coin-race", *args, "--content", str(content))
    assert (code, out) == (2, "")
    assert err.splitlines() == ["error: coin-race offers no state files (StateCodec), which the referee needs"]
