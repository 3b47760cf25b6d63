"""Shared fixtures: the project folders and the real CLI run in-process."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CliRun = Callable[..., tuple[int, str, str]]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def content_dir() -> Path:
    return ROOT / "content"


RULEBOOK_GAMES = ["burning-desire", "dice-road-race", "dungeon-war", "fast-alone", "routou-dice"]


@pytest.fixture(scope="session")
def rulebook_pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    """The shipped games' books, built once per run: {game: {lang: players' rulebook,
    "companion-<lang>": companion}}."""
    from pnpgen.content.game import load_game
    from pnpgen.games import rules_for_content
    from pnpgen.output import BuildOptions
    from pnpgen.render.rulebook import render_rulebooks

    out: dict[str, dict[str, Path]] = {}
    for game in RULEBOOK_GAMES:
        content = load_game(ROOT / "content" / game)
        built = render_rulebooks(content, rules_for_content(content), BuildOptions(out=tmp_path_factory.mktemp(game)))
        out[game] = {(f.path.stem.split("-")[-1] if f.path.stem.startswith("rulebook-") else f.path.stem): f.path
                     for f in built}
    return out


@pytest.fixture
def run_pnpgen(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> CliRun:
    """Run `pnpgen ARGS…` through its real entry point; returns (exit code, stdout, stderr)."""
    from pnpgen.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["pnpgen", *args])
        code = 0
        try:
            main()
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run
