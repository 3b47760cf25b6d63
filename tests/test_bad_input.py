"""Bad input through the real CLI: exit 2, one line naming file:line and the problem."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, CliRun

CORPUS = Path("tests") / "bad_input"  # relative: the messages name files as given
CONTENT_CASES = sorted(p.name for p in (ROOT / CORPUS / "content").iterdir() if (p / "expected.txt").is_file())
REF = CORPUS / "referee"

# (game, state file, move, expected stderr line)
REFEREE_CASES = [
    ("burning-desire", "die-seven", "stop",
     f"{REF}/die-seven.yaml:6:11: dice[1]: 7 is not a face of a d6 (1–6)"),
    ("burning-desire", "eight-dice", "stop", f"{REF}/eight-dice.yaml:5:7: dice: 8 main dice, the game has 6"),
    ("burning-desire", "negative-score", "stop",
     f"{REF}/negative-score.yaml:1:15: scores[1]: a total cannot be negative (-5)"),
    ("burning-desire", "seat-out-of-range", "stop",
     f"{REF}/seat-out-of-range.yaml:2:7: turn: seat 4 is out of range, seats are 1–3"),
    ("burning-desire", "bad-yaml", "stop",
     f"{REF}/bad-yaml.yaml:2:5: expected ',' or ']', but got ':' "
     "(while parsing a flow sequence that starts on line 1)"),
    ("burning-desire", "unknown-key", "stop",
     f"{REF}/unknown-key.yaml:1:1: unknown key 'scroes' (did you mean 'scores'?)"),
    ("burning-desire", "bad-phase", "stop",
     f"{REF}/bad-phase.yaml:3:8: phase: expected one of roll, choose, gamble, multiply, over, found 'rolling' "
     "(did you mean 'roll'?)"),
    ("burning-desire", "no-final-round", "stop",
     f"{REF}/no-final-round.yaml:2:1: seat 1 has 1000 or more but no final round is recorded"),
    ("burning-desire", "trigger-on-turn", "stop",
     f"{REF}/trigger-on-turn.yaml:1:1: seat 1 started the final round and takes no more turns"),
    ("burning-desire", "gamble-nothing", "stop",
     f"{REF}/gamble-nothing.yaml:5:9: points: 0; a turn with nothing to multiply has already ended"),
    ("burning-desire", "unknown-combination", "stop",
     f"{REF}/unknown-combination.yaml:4:14: combination: '7-9' is not a combination (1, 2-3, 4-6)"),
    ("burning-desire", "not-a-mapping", "stop", f"{REF}/not-a-mapping.yaml:1:1: a state file must be a mapping"),
    ("burning-desire", "missing", "stop", f"{REF}/missing.yaml: file not found"),
    ("burning-desire", "valid", "keep 1 x", "cannot read move 'keep 1 x': 'x' is not a die face 1–6"),
    ("burning-desire", "valid", "score", "cannot read move 'score': score needs a combination: 'score 1'"),
    ("burning-desire", "valid", "roll 1 2 3 4 5 6 1",
     "cannot read move 'roll 1 2 3 4 5 6 1': 7 main dice, there are 6"),
    ("burning-desire", "valid", "mult 1 x", "cannot read move 'mult 1 x': multiplier faces are numbers"),
    ("burning-desire", "valid", "reroll 6 6",
     "cannot read move 'reroll 6 6': no main die shows 6 to reroll"),
    ("burning-desir", "valid", "stop",
     f"{CORPUS}/content/ok: unknown game 'burning-desir' (did you mean 'burning-desire'?); games: burning-desire"),
]


@pytest.fixture(autouse=True)
def _in_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def assert_one_line(code: int, err: str, expected: str) -> None:
    assert code == 2
    lines = err.splitlines()
    assert lines == [f"error: {expected}"]
    assert "Traceback" not in err


def test_corpus_is_big_enough() -> None:
    assert len(CONTENT_CASES) >= 10 and len(REFEREE_CASES) >= 10


def test_base_game_is_valid(run_pnpgen: CliRun) -> None:
    code, out, err = run_pnpgen("referee", "burning-desire", "--content", str(CORPUS / "content" / "ok"),
                                "--state", str(REF / "valid.yaml"), "--move", "score 1")
    assert code == 0 and err == "" and "LEGAL score 1" in out


@pytest.mark.parametrize("case", CONTENT_CASES)
def test_broken_content(run_pnpgen: CliRun, case: str) -> None:
    folder = CORPUS / "content" / case
    expected = (ROOT / folder / "expected.txt").read_text(encoding="utf-8").strip()
    code, _, err = run_pnpgen("validate", "burning-desire", "--content", str(folder), "--games", "0",
                              "--verify-games", "0")
    assert code == 2
    assert err.splitlines() == [expected]
    assert f"{folder}/burning-desire/game.yaml:" in expected  # names the file and line


@pytest.mark.parametrize(("game", "name", "move", "expected"), REFEREE_CASES)
def test_malformed_referee_input(run_pnpgen: CliRun, game: str, name: str, move: str, expected: str) -> None:
    args = ["referee", game, "--state", str(REF / f"{name}.yaml"), "--move", move]
    if game != "burning-desire":
        args += ["--content", str(CORPUS / "content" / "ok")]
    code, out, err = run_pnpgen(*args)
    assert out == ""
    assert_one_line(code, err, expected)


def test_a_real_process_prints_one_line() -> None:
    """The installed entry point, not only in-process: exit 2, one stderr line."""
    done = subprocess.run(
        [sys.executable, "-m", "pnpgen", "referee", "burning-desire", "--state", str(REF / "die-seven.yaml"),
         "--move", "stop"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert_one_line(done.returncode, done.stderr, REFEREE_CASES[0][3])
