"""Small faults a new user met (issue 17): each one's fix, through the real CLI where it can be."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pnpgen.render.kit import _name_languages
from tests.conftest import ROOT, CliRun

DEMO = ROOT / "tests" / "fixtures" / "kit-demo"


def demo_copy(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(DEMO, root / "kit-demo")
    return root


def test_list_keeps_ids_whole_at_80_columns(run_pnpgen: CliRun, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run_pnpgen("list")
    assert code == 0
    for ident in ("burning-desire", "dice-road-race", "routou-dice", "/horizontal-vertical-number",
                  "/pairing-five-expert"):
        assert ident in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_help_paragraphs_are_not_broken_mid_sentence(run_pnpgen: CliRun, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_pnpgen("--help")
    assert code == 0
    assert "verify the rules with checked random playthroughs" in " ".join(out.split())
    assert not any(line.rstrip().endswith(" with") for line in out.splitlines())


@pytest.mark.parametrize("command", ["simulate", "report", "sweep"])
def test_help_shows_the_cluster_extra(run_pnpgen: CliRun, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """Square brackets in help text are rich markup unless escaped: the extra's name vanished."""
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_pnpgen(command, "--help")
    assert code == 0
    assert "pip install 'pnpgen[cluster]'" in " ".join(out.replace("│", " ").split())


def test_list_shows_broken_components(run_pnpgen: CliRun, tmp_path: Path) -> None:
    """list names components from the YAML without the kit (start-up time): a component with
    no id is shown as an error there; a wrong key inside one is for validate to find."""
    root = demo_copy(tmp_path)
    deck = root / "kit-demo" / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("size: poker", "sise: poker"), encoding="utf-8")
    code, out, err = run_pnpgen("list", "--content", str(root))
    assert code == 0 and "spells (deck)" in out and "components: invalid" not in out and not err
    deck.write_text(text.replace("  id: spells\n", ""), encoding="utf-8")
    code, out, err = run_pnpgen("list", "--content", str(root))
    assert code == 0 and "components: invalid" in out
    assert err.startswith("warning: kit-demo: components not listed: ") and "an 'id' and a 'type'" in err
    code, out, _ = run_pnpgen("list", "--content", str(root), "--json")
    (game,) = json.loads(out)["games"]
    assert game["problems"][0]["file"].endswith("deck.yaml") and game["problems"][0]["line"] == 3


def test_ages_may_be_a_number(run_pnpgen: CliRun, tmp_path: Path) -> None:
    root = demo_copy(tmp_path)
    main = root / "kit-demo" / "game.yaml"
    main.write_text(main.read_text(encoding="utf-8") + "ages: 8\n", encoding="utf-8")
    code, _, err = run_pnpgen("validate", "kit-demo", "--content", str(root), "--games", "0")
    assert code == 0, err


def test_unquoted_hash_colour_is_reported_at_its_line(run_pnpgen: CliRun, tmp_path: Path) -> None:
    root = demo_copy(tmp_path)
    board = root / "kit-demo" / "board.yaml"
    lines = board.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line.strip().startswith('fill: "#fbf7ee"'))
    lines[number] = lines[number].replace('"#fbf7ee"', "#fbf7ee")
    board.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run_pnpgen("validate", "kit-demo", "--content", str(root), "--games", "0")
    assert code == 1
    assert f"board.yaml:{number + 1}:" in err or f"board.yaml:{number + 1}:" in _
    assert "quote a colour" in err + _


def test_a_problem_in_both_languages_is_said_once() -> None:
    same = "deck.yaml:3:1: text overflows"
    merged = _name_languages({"ja": [same, "deck.yaml:9:1: too long"], "en": [same]})
    assert merged == [same, "deck.yaml:9:1: too long (ja)"]
    assert _name_languages({None: [same]}) == [same]


@pytest.mark.parametrize("args", [
    ["referee", "routou-dice", "--example-state"],  # the direct path, print()
    ["simulate", "burning-desire", "-n", "20"],  # Typer, a rich table
    ["simulate", "burning-desire", "-n", "20", "--json"],  # Typer, print(): click turns EPIPE into exit 1
])
def test_a_reader_that_stops_early_gets_no_error_line(args: list[str]) -> None:
    """`pnpgen … | head -1`: the pipe closes before pnpgen has written; like other tools it
    stops quietly (exit 141, 128 + SIGPIPE) instead of printing "error: Broken pipe"."""
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "pnpgen", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=Path(__file__).resolve().parents[1])
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # no reader any more: the first write fails
    err = process.stderr.read()
    assert process.wait(timeout=60) == 141
    assert err == b""
