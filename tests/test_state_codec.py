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


class Turn(NamedTuple):
    scores: tuple[int, ...]
    turn: int  # 0-based here, 1-based in files
    next_up: tuple[int, ...] = ()


class SeatCodec(StateCodec[Turn]):  # no State attribute: the type comes from StateCodec[Turn]
    SEATS = ("turn", "next_up")
    STATE_SCHEMA: dict[str, Any] = {"scores": [int], "turn": int, "next_up?": [int]}

    def example_state(self) -> Turn:
        return Turn((4, 9, 0), 0, (1, 2))

    def check(self, state: Turn) -> list[str]:
        n = len(state.scores)
        return [f"turn: seat {state.turn + 1} is not a seat of 1–{n}"] if not 0 <= state.turn < n else []


def test_seats_are_one_based_in_files_and_the_state_type_comes_from_the_codec(tmp_path: Path) -> None:
    codec = SeatCodec()
    data = codec.to_data(codec.example_state())
    assert data == {"scores": [4, 9, 0], "turn": 1, "next_up": [2, 3]}
    assert codec.from_data(data) == codec.example_state()
    with pytest.raises(ImpossibleState) as err:
        codec.from_data(_file(tmp_path, "scores: [1, 2]\nturn: 3\n"))
    assert (err.value.line, str(err.value).split(": ", 1)[1]) == (2, "turn: seat 3 is not a seat of 1–2")


class FallbackCodec(Codec):
    STATE_KEY = "scores"

    def check(self, state: State) -> list[str]:
        if state.pending and state.phase != "move":
            return [f"pending is {state.pending}, but the phase is {state.phase}"]
        return ["the scores sum to 1; a game starts at 0"] if sum(state.scores) == 1 else []


@pytest.mark.parametrize(("text", "line", "said"), [
    ("scores: [0]\npawns: []\ncrossed: []\nphase: roll\npending: 4\n", 5, "pending is 4"),  # 'pending is …'
    ("scores: [1]\npawns: []\ncrossed: []\nphase: move\n", 1, "sum to 1"),  # no key named: STATE_KEY
])
def test_an_invariant_is_shown_at_the_key_it_starts_with_else_at_the_codecs_key(
        tmp_path: Path, text: str, line: int, said: str) -> None:
    with pytest.raises(ImpossibleState) as err:
        FallbackCodec().from_data(_file(tmp_path, text))
    assert err.value.line == line and said in str(err.value)


def test_a_word_from_a_fixed_set_is_read_or_refused_at_its_key(tmp_path: Path) -> None:
    from pnpgen.engine.state_data import read_word

    data = _file(tmp_path, "note: hi\nend: lost\n")
    assert read_word(data, "note", ("hi", "ho")) == "hi" and read_word(data, "missing", ("x",)) == ""
    with pytest.raises(ImpossibleState) as err:
        read_word(data, "end", ("won", "stuck"))
    assert err.value.line == 2 and str(err.value).endswith("end: 'lost' is not one of won, stuck")
