"""ROUTOU DICE referee: every scenario under tests/referee/routou-dice through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pnpgen.cli import app
from pnpgen.errors import ImpossibleState

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
SCENARIOS = sorted((ROOT / "tests" / "referee" / "routou-dice").glob("*.yaml"))


def test_there_are_at_least_15_scenarios() -> None:
    assert len(SCENARIOS) >= 15


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_verdict(path: Path) -> None:
    expected = yaml.safe_load(path.with_suffix(".expected").read_text(encoding="utf-8"))
    args = ["referee", "routou-dice", "--state", str(path), "--content", str(CONTENT)]
    if "move" in expected:
        args += ["--move", str(expected["move"])]
    result = CliRunner().invoke(app, args)
    if expected["exit"] == 2:
        assert isinstance(result.exception, ImpossibleState), result.output
        message = str(result.exception)
        assert message.startswith(f"{path}:"), message  # names the file and line
        assert message.split(":")[1].isdigit(), message
        for text in expected["says"]:
            assert text in message
        return
    assert result.exit_code == expected["exit"], result.output
    said = " ".join(result.output.split())  # the console may wrap long lines
    for text in expected["says"]:
        assert text in said, said
    if "rule" in expected:
        assert f"rule {expected['rule']} (" in said
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert data["legal"] is (expected["exit"] == 0)
    assert data["rule"] == expected.get("rule")


def test_legal_lists_placements_and_moves() -> None:
    path = ROOT / "tests" / "referee" / "routou-dice" / "place-grouping.yaml"
    args = ["referee", "routou-dice", "--state", str(path), "--content", str(CONTENT), "--legal", "--json"]
    moves = json.loads(CliRunner().invoke(app, args).output)["legal_moves"]
    # 0 1 2 3 4 5 on an empty board: every distinct pair of placed dice, listed once
    assert len(moves) == len(set(moves)) > 0
    # 012/345 and 345/012 both place only a 5 on 34: one move, listed in its first order
    assert "p102/345" in moves and "p012/345" in moves and "p345/012" not in moves
    path = ROOT / "tests" / "referee" / "routou-dice" / "reach-ok.yaml"
    args = ["referee", "routou-dice", "--state", str(path), "--content", str(CONTENT), "--legal"]
    listed = CliRunner().invoke(app, args).output.split()
    assert "m55-58" in listed and "L" in listed and "pass" in listed and "S" not in listed
