"""`--json` on every command: one envelope {ok, errors[{file, line, column, message}], ...}
on stdout, on success and on bad input, with the exit codes unchanged (docs/json.md).
Also strict game ids (did-you-mean for a collection's games) and shell completion."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, CliRun

FIXTURES = ROOT / "tests" / "fixtures"
BAD = ROOT / "tests" / "bad_input" / "content"
REF = ROOT / "tests" / "bad_input" / "referee"
QUICK = ["--games", "0", "--verify-games", "0"]


@pytest.fixture(autouse=True)
def _in_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def envelope(run: CliRun, *args: str, code: int = 0) -> dict[str, Any]:
    exit_code, out, err = run(*args, "--json")
    assert exit_code == code, (out, err)
    assert err == ""  # everything is in the envelope
    data = json.loads(out)
    assert isinstance(data["ok"], bool) and data["ok"] is (code == 0)
    for error in data["errors"]:
        assert set(error) == {"file", "line", "column", "message"}
    return data


def test_list(run_pnpgen: CliRun) -> None:
    data = envelope(run_pnpgen, "list")
    games = {g["id"]: g for g in data["games"]}
    assert "fast-alone/no-gaps-a" in games["fast-alone"]["games"] and games["burning-desire"]["problems"] == []
    bad = envelope(run_pnpgen, "list", "--content", str(BAD / "bad-players-range"), code=2)
    assert bad["errors"][0]["file"].endswith("game.yaml") and bad["errors"][0]["line"]


def test_build(run_pnpgen: CliRun, tmp_path: Path) -> None:
    data = envelope(run_pnpgen, "build", "kit-demo", "--content", str(FIXTURES), "--out", str(tmp_path), "--lang", "en")
    assert any(f["path"].endswith("README.txt") for f in data["files"])
    bad = envelope(run_pnpgen, "build", "kit-demo", "--content", str(FIXTURES), "--paper", "A9", code=2)
    assert "unknown paper 'A9'" in bad["errors"][0]["message"]


def test_validate(run_pnpgen: CliRun) -> None:
    data = envelope(run_pnpgen, "validate", "burning-desire", *QUICK, "--content", str(BAD / "ok"))
    assert data["games"][0]["checks"] and all(c["ok"] for c in data["games"][0]["checks"])
    bad = envelope(run_pnpgen, "validate", "burning-desire", *QUICK, "--content", str(BAD / "unknown-rules-key"),
                   code=2)
    (error,) = bad["errors"]
    assert error["line"] == 23 and error["column"] == 3 and "did you mean 'threshold'" in error["message"]


def test_validate_failing_check_is_exit_1_with_errors(run_pnpgen: CliRun, tmp_path: Path) -> None:
    root = tmp_path / "content"
    (root / "kit-demo").mkdir(parents=True)
    for path in (FIXTURES / "kit-demo").rglob("*"):
        target = root / "kit-demo" / path.relative_to(FIXTURES / "kit-demo")
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.is_file():
            target.write_bytes(path.read_bytes())
    deck = root / "kit-demo" / "deck.yaml"
    broken = deck.read_text(encoding="utf-8").replace("image: art/mana.svg", "image: art/missing.svg", 1)
    deck.write_text(broken, encoding="utf-8")
    data = envelope(run_pnpgen, "validate", "kit-demo", *QUICK, "--content", str(root), code=1)
    assert data["failed_checks"] >= 1 and data["errors"] and data["errors"][0]["file"]


def test_simulate(run_pnpgen: CliRun) -> None:
    data = envelope(run_pnpgen, "simulate", "burning-desire", "-n", "5", "--seed", "1")
    assert data["games"] == 5 and data["seed"] == 1
    bad = envelope(run_pnpgen, "simulate", "burning-desire", "-n", "5", "--bots", "clever", code=2)
    assert "unknown bot 'clever'" in bad["errors"][0]["message"]


def test_sweep(run_pnpgen: CliRun, tmp_path: Path) -> None:
    data = envelope(run_pnpgen, "sweep", "burning-desire", "--set", "rules.threshold=800,1000", "-n", "4",
                    "--seed", "3", "--out", str(tmp_path), "--workers", "1")
    assert [p["settings"] for p in data["points"]] == ["rules.threshold=800", "rules.threshold=1000"]
    assert Path(data["pdf"]).is_file() and Path(data["data"]).is_file()
    bad = envelope(run_pnpgen, "sweep", "burning-desire", "--set", "rules.treshold=1", "--out", str(tmp_path), code=2)
    assert "treshold" in bad["errors"][0]["message"]


def test_schema_command(run_pnpgen: CliRun, tmp_path: Path) -> None:
    data = envelope(run_pnpgen, "schema", "--out", str(tmp_path / "schema"))
    assert any(Path(f).name == "game.schema.json" for f in data["files"]), data
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    bad = envelope(run_pnpgen, "schema", "--out", str(blocked / "schema"), code=2)
    assert bad["errors"][0]["message"]


def test_report(run_pnpgen: CliRun, tmp_path: Path) -> None:
    data = envelope(run_pnpgen, "report", "burning-desire", "-n", "4", "--skill", "none", "--out", str(tmp_path))
    assert Path(data["pdf"]).is_file() and Path(data["data"]).is_file()
    bad = envelope(run_pnpgen, "report", "burning-desire", "-n", "0", "--out", str(tmp_path), code=2)
    assert "--games" in bad["errors"][0]["message"]


def test_referee(run_pnpgen: CliRun, tmp_path: Path) -> None:
    sample = envelope(run_pnpgen, "referee", "burning-desire", "--example-state")
    state = tmp_path / "state.json"
    state.write_text(json.dumps(sample), encoding="utf-8")  # the envelope reads back as a state
    legal = envelope(run_pnpgen, "referee", "burning-desire", "--state", str(state), "--legal")
    assert legal["legal_moves"]
    illegal = envelope(run_pnpgen, "referee", "burning-desire", "--state", str(REF / "valid.yaml"), "--move", "stop",
                       "--content", str(BAD / "ok"), code=1)
    assert illegal["legal"] is False and illegal["rule"]
    bad = envelope(run_pnpgen, "referee", "burning-desire", "--state", str(state), "--move", "fly away", code=2)
    assert "cannot read move 'fly away'" in bad["errors"][0]["message"]


def test_usage_error_is_an_envelope(run_pnpgen: CliRun) -> None:
    bad = envelope(run_pnpgen, "simulate", code=2)
    assert "Missing argument" in bad["errors"][0]["message"]


@pytest.mark.parametrize("command", ["build", "validate", "simulate", "referee", "report"])
def test_unknown_collection_member_everywhere(run_pnpgen: CliRun, command: str, tmp_path: Path) -> None:
    extra = {"build": ["--out", str(tmp_path)], "validate": QUICK, "referee": ["--example-state"],
             "report": ["--out", str(tmp_path)], "simulate": ["-n", "1"]}[command]
    code, out, err = run_pnpgen(command, "fast-alone/no-gap-a", *extra)
    assert code == 2 and out == ""
    assert err.startswith("error: content: unknown game 'fast-alone/no-gap-a' (did you mean 'fast-alone/no-gaps-a'?)")
    code, _, err = run_pnpgen(command, "fast-alone/zzz", *extra)
    assert code == 2 and "unknown game 'fast-alone/zzz'; games in fast-alone:" in err


def complete(words: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> list[str]:
    from pnpgen.cli import app

    monkeypatch.setenv("_PNPGEN_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", words)
    monkeypatch.setenv("COMP_CWORD", str(len(words.split()) - (0 if words.endswith(" ") else 1)))
    with pytest.raises(SystemExit):
        app(prog_name="pnpgen")
    return capsys.readouterr().out.split()


def test_completion(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert "validate" in complete("pnpgen va", monkeypatch, capsys)
    assert complete("pnpgen build fast-alone/no", monkeypatch, capsys) == ["fast-alone/no-gaps-a",
                                                                           "fast-alone/no-gaps-b"]
    assert "burning-desire" in complete("pnpgen referee bu", monkeypatch, capsys)
    assert complete("pnpgen simulate burning-desire --bots greedy,o", monkeypatch, capsys) == ["greedy,optimal"]
    assert complete("pnpgen build --content tests/fixtures ki", monkeypatch, capsys) == ["kit-demo"]
    assert "Letter" in complete("pnpgen build --paper L", monkeypatch, capsys)
    assert os.environ["COMP_WORDS"]


def test_new_print_only_game_builds_and_validates(run_pnpgen: CliRun, tmp_path: Path) -> None:
    root = tmp_path / "content"
    data = envelope(run_pnpgen, "new", "my-game", "--content", str(root))
    assert (tmp_path / "schema" / "game.schema.json").is_file()
    first = (root / "my-game" / "game.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../schema/game.schema.json"
    assert len(data["files"]) > 4
    built = envelope(run_pnpgen, "build", "my-game", "--content", str(root), "--out", str(tmp_path / "build"))
    assert {Path(f["path"]).name for f in built["files"]} >= {"rulebook-en.pdf", "cards-ja.pdf", "board-en.pdf",
                                                             "score-sheet-ja.pdf"}
    checked = envelope(run_pnpgen, "validate", "my-game", *QUICK, "--content", str(root))
    assert all(c["ok"] for c in checked["games"][0]["checks"])
    again = envelope(run_pnpgen, "new", "my-game", "--content", str(root), code=2)
    assert "already exists" in again["errors"][0]["message"]
    bad = envelope(run_pnpgen, "new", "My Game", "--content", str(root), code=2)
    assert "must be a slug" in bad["errors"][0]["message"]
    hexes = envelope(run_pnpgen, "new", "hexy", "--kind", "hex", "--content", str(root), code=2)
    assert "expected one of print-only, dice, grid" in hexes["errors"][0]["message"]


def test_build_removes_its_own_stale_outputs(run_pnpgen: CliRun, tmp_path: Path) -> None:
    out = tmp_path / "build"
    envelope(run_pnpgen, "build", "kit-demo", "--content", str(FIXTURES), "--out", str(out))
    folder = out / "kit-demo"
    (folder / "my-notes.txt").write_text("kept", encoding="utf-8")  # not the build's: never removed
    assert (folder / "spells-ja.pdf").is_file() and (folder / "preview" / "spells-en.svg").is_file()
    envelope(run_pnpgen, "build", "kit-demo", "--content", str(FIXTURES), "--out", str(out), "--lang", "en",
             "--paper", "Letter")
    left = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert not [name for name in left if "-ja." in name] and "my-notes.txt" in left
    readme = (folder / "README.txt").read_text(encoding="utf-8").split("How to print")[0]
    listed = {line.split()[0] for line in readme.splitlines() if line.startswith("  ") and line.split()}
    made = {name for name in left if name not in ("my-notes.txt", "README.txt", ".pnpgen-build")}
    assert listed == made
