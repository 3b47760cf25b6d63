"""A view file whose `pending` list has the wrong shape is one ImpossibleState line (exit 2),
never an IndexError or KeyError from the code that reads the seat asked or the square
entered. Every Dungeon War view file of tests/referee is cut short and given out-of-range
numbers, one at a time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pnpgen.content.game import load_game
from pnpgen.errors import PnpgenError
from pnpgen.games import rules_for_content
from pnpgen.referee import judge_position, legal_move_texts, load_position
from tests.conftest import ROOT, CliRun

RULES = rules_for_content(load_game(ROOT / "content" / "dungeon-war"))[0]
VIEWS = sorted(p for p in (ROOT / "tests" / "referee" / "dungeon-war").glob("view-*.yaml"))


def variants(pending: list[int]) -> list[list[int]]:
    cut = [pending[:n] for n in range(len(pending))]
    odd = [pending[:i] + [v] + pending[i + 1:] for i in range(len(pending)) for v in (-1, 99)]
    return cut + odd


@pytest.mark.parametrize("path", VIEWS, ids=[p.stem for p in VIEWS])
def test_a_view_with_a_misshapen_pending_is_one_line(path: Path, tmp_path: Path) -> None:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data.get("view")
    for pending in variants(list(data.get("pending") or [])):
        broken = tmp_path / "view.yaml"
        broken.write_text(yaml.safe_dump({**data, "pending": pending}), encoding="utf-8")
        try:
            position = load_position(RULES, broken)
            for line in legal_move_texts(RULES, position.state, position)[:5]:
                if not line.startswith("("):
                    judge_position(RULES, position, line)
        except PnpgenError as error:
            assert str(error).startswith(str(broken)), error


def test_the_short_pending_of_the_issue(tmp_path: Path, run_pnpgen: CliRun) -> None:
    """An ambush view whose pending lost its asked seat: `s.pending[5]` was an IndexError."""
    source = ROOT / "tests" / "referee" / "dungeon-war" / "view-ambush-spring-cannot-tell.yaml"
    text = source.read_text(encoding="utf-8")
    assert "pending: [4, 10, 3, 10, 0, 1]" in text
    broken = tmp_path / "view.yaml"
    broken.write_text(text.replace("pending: [4, 10, 3, 10, 0, 1]", "pending: [4, 10, 3]"), encoding="utf-8")
    line = text[:text.index("pending:")].count("\n") + 1
    code, out, err = run_pnpgen("referee", "dungeon-war", "--state", str(broken), "--move", "ambush pitfall")
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"error: {broken}:{line}:10: pending: the ambush phase keeps 6 numbers"]
