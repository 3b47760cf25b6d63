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
