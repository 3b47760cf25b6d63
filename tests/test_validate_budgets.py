"""validate's time budgets: the YAML's seconds, or none at all under PNPGEN_TIME_BUDGETS=off
(what this suite sets, so a verdict never depends on the machine's load)."""

from __future__ import annotations

import itertools
import os

import pytest

from pnpgen.games import find_rules
from pnpgen.validate import time_budget
from pnpgen.verify import verify
from tests.conftest import ROOT


def test_the_suite_runs_with_time_budgets_off() -> None:
    assert os.environ["PNPGEN_TIME_BUDGETS"] == "off"
    assert time_budget({"verify_seconds": 3}, "verify_seconds", 8.0) is None


def test_seconds_come_from_the_yaml_or_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PNPGEN_TIME_BUDGETS")
    assert time_budget({"verify_seconds": 3}, "verify_seconds", 8.0) == 3.0
    assert time_budget({}, "verify_seconds", 8.0) == 8.0


def test_no_budget_plays_every_game_however_slow_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that jumps 100 s a reading: a budget stops early, no budget plays them all.
    ROUTOU has one player count, so a budget may stop it after one game; its checked games are
    cheap (Burning Desire's took 3 s of CPU each)."""
    import pnpgen.verify

    rules = find_rules(ROOT / "content", "routou-dice")
    ticks = itertools.count(step=100.0)
    monkeypatch.setattr(pnpgen.verify.time, "perf_counter", lambda: next(ticks))
    budgeted = verify(rules, 6, 1, 4.0)
    assert budgeted.stopped_by_budget and budgeted.games < 6
    whole = verify(rules, 6, 1, None)
    assert not whole.stopped_by_budget and whole.games == 6
