"""The verification harness reads every state back through a real state file, as the
referee does, and the determinism check fails loudly when its child process fails."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_harness_toys import Nim, NimState, nim

import pnpgen.verify as verify_module
from pnpgen.content.game import load_games
from pnpgen.games import rules_for_content
from pnpgen.referee import load_state
from pnpgen.verify import determinism, protocol_checks, verify
from tests.conftest import ROOT


def test_every_step_goes_through_a_real_file(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []

    def spy(rules: Any, path: Path, text: str | None = None) -> Any:
        on_disk = path.read_text(encoding="utf-8")
        assert text is None or text == on_disk  # what is parsed is the file's text
        read.append(on_disk)
        return load_state(rules, path, text)

    monkeypatch.setattr(verify_module, "load_state", spy)
    result = verify(nim(), 3, seed=1)
    assert result.problems == []
    # the example, the states one move after it, and every step of every playthrough
    assert len(read) >= result.steps + result.games + 1
    assert all(text.startswith("pile: ") for text in read)


class ShiftyNim(Nim):
    """Reads `last` back one off from what it writes, but only from a state file."""

    def from_data(self, data: Any) -> NimState:
        state = super().from_data(data)
        return replace(state, last=1 - state.last) if hasattr(data, "key_positions") else state


class StrictExampleNim(Nim):
    """Its example is fine, but a state file one move later is refused."""

    def from_data(self, data: Any) -> NimState:
        state = super().from_data(data)
        if hasattr(data, "key_positions") and state.pile == 4 and state.to_move != 0:
            from pnpgen.errors import ImpossibleState

            raise ImpossibleState("pile 4 cannot be", data.file, 1, 1)
        return state


def test_a_state_file_that_reads_back_otherwise_names_game_seed_step_and_difference() -> None:
    problems = verify(nim(cls=ShiftyNim), 1, seed=1).problems
    assert problems[0].startswith("toy-nim, example state: the state file reads back different data: last: ")
    assert problems[1] == ("toy-nim, 2 players, seed 1012348, the initial state: the state file reads back "
                           "different data: last: 1 written, 0 read back")


def test_states_one_move_after_the_example_are_read_back(tmp_path: Path) -> None:
    problems = protocol_checks(nim(cls=StrictExampleNim), tmp_path)
    assert len(problems) == 1
    assert problems[0].startswith("example state, after t1: the referee refuses the state file it printed: ")
    assert problems[0].endswith("state.yaml:1:1: pile 4 cannot be")


def test_a_failed_child_process_fails_the_determinism_check(monkeypatch: pytest.MonkeyPatch) -> None:
    (content,) = load_games(ROOT / "content", ["dice-road-race"])
    rules = rules_for_content(content)[0]
    monkeypatch.setattr(verify_module, "_RECORD_IN_CHILD", "import sys\nsys.exit('error: the child broke')\n")
    problems, note = determinism(rules, 3)
    assert note == ""
    assert problems == ["the child process replaying the game failed (exit 1): error: the child broke"]
    monkeypatch.setattr(verify_module, "_RECORD_IN_CHILD", "print('not json')\n")
    problems, _ = determinism(rules, 3)
    assert problems == ["the child process replaying the game failed (exit 0): no result on stdout ('not json')"]
