"""The default state codec: a State NamedTuple to plain data and back, with positioned errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pytest

from pnpgen.content.schema import Choice, Range
from pnpgen.content.yamlpos import load_yaml
from pnpgen.engine.protocol import StateCodec
from pnpgen.errors import ContentError, ImpossibleState


class Pawn(NamedTuple):
    square: int
    colour: str


class State(NamedTuple):
    scores: tuple[int, ...]
    pawns: tuple[Pawn, ...]
    crossed: frozenset[int]
    phase: str
    pending: int | None = None


class Codec(StateCodec[State]):
    State = State
    STATE_SCHEMA: dict[str, Any] = {"scores": [Range(int, 0, 100)], "pawns": [{"square": int, "colour": str}],
                                    "crossed": [int], "phase": Choice("roll", "move"), "pending?": int}

    def example_state(self) -> State:
        return State((3, 0), (Pawn(4, "red"),), frozenset({5, 2}), "move", 6)

    def check(self, state: State) -> list[str]:
        return [f"phase: a pending roll of {state.pending} needs phase move"] if state.pending and \
            state.phase != "move" else []


def test_a_state_goes_to_plain_data_and_back_unchanged() -> None:
    codec, state = Codec(), Codec().example_state()
    data = codec.to_data(state)
    assert data == {"scores": [3, 0], "pawns": [{"square": 4, "colour": "red"}], "crossed": [2, 5],
                    "phase": "move", "pending": 6}
    assert codec.from_data(data) == state


def test_missing_optional_keys_take_the_field_default() -> None:
    data = {"scores": [1], "pawns": [], "crossed": [], "phase": "roll"}
    assert Codec().from_data(data) == State((1,), (), frozenset(), "roll", None)


def _file(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "state.yaml"
    path.write_text(text, encoding="utf-8")
    return load_yaml(path)


def test_schema_problems_name_the_line_of_the_key(tmp_path: Path) -> None:
    data = _file(tmp_path, "scores: [1, 2]\npawns: []\ncrossed: []\nphase: jump\n")
    with pytest.raises(ContentError) as err:
        Codec().from_data(data)
    assert err.value.line == 4 and "jump" in str(err.value)


def test_a_broken_invariant_is_an_impossible_state_at_its_key(tmp_path: Path) -> None:
    data = _file(tmp_path, "scores: [1]\npawns: []\ncrossed: []\nphase: roll\npending: 4\n")
    with pytest.raises(ImpossibleState) as err:
        Codec().from_data(data)
    assert err.value.line == 4 and "pending roll of 4" in str(err.value)
