"""Pipes, devices and link loops where content names a file: one line saying which, exit 2.

A FIFO cannot live in git, so these cases are made here (the symlink cases are files in
tests/bad_input/). A read from a pipe would block for ever; none is ever opened.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnpgen.content.game import refused_file
from tests.conftest import CliRun
from tests.kit_pdf import game_yaml

GAME = game_yaml("g", "", players=(1, 2))
DECK = """\
  - type: deck
    id: cards
    title: Cards
    csv: cards.csv
    front:
      - {text: "{{ name }}"}
"""
IMAGE_DECK = """\
  - type: deck
    id: cards
    title: Cards
    cards: [{name: A}]
    front:
      - {image: art.png, x: 5, y: 5, w: 20, h: 20}
"""
PARTS = "parts.yaml\n"

CASES = {
    # what the special file is named as -> (the end of game.yaml, the error after the game.yaml location)
    "cards.csv": (DECK, "10:10: path 'cards.csv' is {kind}, not a file"),
    "art.png": (IMAGE_DECK, "12:17: game g, component cards, card 1 'A' (1): image 'art.png' is {kind}, not a file"),
    "parts.yaml": (PARTS, "6:13: path 'parts.yaml' is {kind}, not a file"),
}


def _game(tmp_path: Path, tail: str) -> Path:
    folder = tmp_path / "c" / "g"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME.replace("components:\n", "components: " if tail == PARTS else
                                                   "components:\n") + tail, encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", CASES)
def test_a_fifo_is_named_as_a_pipe_and_never_opened(run_pnpgen: CliRun, tmp_path: Path, name: str) -> None:
    tail, expected = CASES[name]
    folder = _game(tmp_path, tail)
    os.mkfifo(folder / name)  # opening it for reading would block: the test would hang
    code, _out, err = run_pnpgen("build", "g", "-q", "--content", str(tmp_path / "c"), "--out", str(tmp_path / "out"),
                                 "--lang", "en")
    message = expected.replace("{kind}", "a named pipe (FIFO)")
    assert err.splitlines() == [f"error: {folder}/game.yaml:{message}"]
    assert code == 2
    assert not [p for p in (tmp_path / "out").rglob("*") if p.is_file()]  # nothing half-written


def test_game_yaml_as_a_fifo(run_pnpgen: CliRun, tmp_path: Path) -> None:
    folder = tmp_path / "c" / "g"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "game.yaml")
    code, _out, err = run_pnpgen("validate", "g", "--content", str(tmp_path / "c"))
    assert err.splitlines() == [f"error: {folder}/game.yaml: is a named pipe (FIFO), not a file"]
    assert code == 2


def test_a_device_is_named_as_a_device() -> None:
    """A real character device, with /dev as the 'game folder' (making one needs root)."""
    assert refused_file(Path("/dev/null"), Path("/dev")) == "is a device, not a file"
    assert refused_file(Path("/dev/null"), Path("/tmp")) == "leaves the game folder"


def test_loops_and_plain_files(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    (tmp_path / "file.csv").write_text("x\n", encoding="utf-8")
    (tmp_path / "dangling").symlink_to("nothing-here")
    assert refused_file(tmp_path / "loop", tmp_path) == "is a symbolic link loop"
    assert refused_file(tmp_path / "a", tmp_path) == "is a symbolic link loop"
    assert refused_file(tmp_path / "file.csv", tmp_path) is None
    assert refused_file(tmp_path, tmp_path) is None  # a folder: its caller says so
    assert refused_file(tmp_path / "missing.csv", tmp_path) is None  # missing: its caller says so
    assert refused_file(tmp_path / "dangling", tmp_path) is None
