"""Bad input through the real CLI: the exact one-line error and exit code of every corpus case.

The corpus is files only (tests/bad_input/README.md), so a case is added without Python.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from pnpgen.games import engines
from tests.conftest import ROOT, CliRun

CORPUS = Path("tests") / "bad_input"  # relative: the messages name files as given
REF = CORPUS / "referee"
DEFAULT_COMMAND = "validate burning-desire --content {content} --games 0 --verify-games 0"

CONTENT_CASES = sorted(p.name for p in (ROOT / CORPUS / "content").iterdir() if (p / "expected.txt").is_file())


def _referee_cases() -> list[dict[str, Any]]:
    cases = []
    for table in sorted((ROOT / REF).glob("*.cases.yaml")):
        for index, case in enumerate(yaml.safe_load(table.read_text(encoding="utf-8"))):
            cases.append({**case, "id": f"{table.name.removesuffix('.cases.yaml')}-{index}"})
    return cases


REFEREE_CASES = _referee_cases()


@pytest.fixture(autouse=True)
def _in_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def assert_one_line(code: int, err: str, expected: str, exit_code: int = 2) -> None:
    assert err.splitlines() == [f"error: {expected}"]
    assert code == exit_code
    assert "Traceback" not in err


def test_corpus_is_big_enough() -> None:
    assert len(CONTENT_CASES) >= 60 and len(REFEREE_CASES) >= 60


def test_base_game_is_valid(run_pnpgen: CliRun) -> None:
    code, out, err = run_pnpgen("referee", "burning-desire", "--content", str(CORPUS / "content" / "ok"),
                                "--state", str(REF / "valid.yaml"), "--move", "score 1")
    assert code == 0 and err == "" and "LEGAL score 1" in out


@pytest.mark.parametrize("case", CONTENT_CASES)
def test_broken_content(run_pnpgen: CliRun, case: str, tmp_path: Path) -> None:
    """`expected.txt` is the exact stderr line; `command.txt` (default: validate) the arguments,
    with {content} the case folder and {out} a fresh output folder."""
    folder = ROOT / CORPUS / "content" / case
    values = {"content": str(CORPUS / "content" / case), "out": str(tmp_path / "out"),
              "engines": ", ".join(engines())}  # installed game packages add theirs
    expected = _fill((folder / "expected.txt").read_text(encoding="utf-8").strip(), values)
    command_file = folder / "command.txt"
    command = command_file.read_text(encoding="utf-8").strip() if command_file.is_file() else DEFAULT_COMMAND
    before = _snapshot(folder)
    code, _, err = run_pnpgen(*[_fill(arg, values) for arg in shlex.split(command)])
    assert err.splitlines() == [expected]
    assert code == 2
    assert _snapshot(folder) == before  # nothing in the content folder was written


@pytest.mark.parametrize("case", REFEREE_CASES, ids=[c["id"] for c in REFEREE_CASES])
def test_malformed_referee_input(run_pnpgen: CliRun, case: dict[str, Any]) -> None:
    args = ["referee", case["game"]]
    if "state" in case:
        args += ["--state", str(REF / case["state"])]
    if "move" in case:
        args += ["--move", case["move"]]
    if "content" in case:
        args += ["--content", case["content"]]
    args += [str(a) for a in case.get("args", [])]
    code, out, err = run_pnpgen(*args)
    assert out == ""
    assert_one_line(code, err, case["expected"], case.get("exit", 2))


def test_a_real_process_prints_one_line() -> None:
    """The installed entry point, not only in-process: exit 2, one stderr line."""
    first = REFEREE_CASES[0]
    done = subprocess.run(
        [sys.executable, "-m", "pnpgen", "referee", first["game"], "--state", str(REF / first["state"]),
         "--move", first["move"]], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert_one_line(done.returncode, done.stderr, first["expected"])


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _fill(text: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text
