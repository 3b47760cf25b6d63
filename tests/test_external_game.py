"""A game outside pnpgen: examples/pig is installed with a real `pip install`, then every
command runs on it as a user would (list, validate, simulate, referee, build).

Pig is installed with `pip install --target` into a temporary folder put on PYTHONPATH
of the commands, so the test environment itself is never changed and the test can run
again. Where the environment can build wheels offline (setuptools 70.1 or later, or the
`wheel` package), the build uses it (`--no-build-isolation`); otherwise pip fetches
setuptools from the package index into an isolated build environment, as CI does for
pnpgen itself.

Also: how an unknown engine, a broken engine package and the built-in engines look.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

import pnpgen.games
from pnpgen.content.game import load_game
from pnpgen.errors import ContentError
from tests.conftest import ROOT, CliRun
from tests.kit_pdf import all_text, unembedded_fonts

PIG = ROOT / "examples" / "pig"
CONTENT = PIG / "content"
BUILT_IN = {"burning_desire", "dice_road_race", "dungeon_war", "fast_alone", "routou_dice"}


def _builds_offline() -> bool:
    """Whether this environment can build a setuptools wheel without downloading anything."""
    if importlib.util.find_spec("setuptools") is None:
        return False
    if importlib.util.find_spec("wheel") is not None:
        return True
    import setuptools

    major, minor = (int(part) for part in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1)  # bdist_wheel moved into setuptools in 70.1


@pytest.fixture(scope="module")
def pig_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A folder holding the installed pnpgen-pig (its module and its entry point)."""
    tmp = tmp_path_factory.mktemp("pig")
    source = tmp / "source"  # a copy: building writes build/ and *.egg-info beside the sources
    shutil.copytree(PIG, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "content"))
    target = tmp / "site"
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(source)]
    if _builds_offline():
        command.insert(4, "--no-build-isolation")
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (target / "pnpgen_pig" / "__init__.py").is_file()
    return str(target)


def cli(pig_path: str | None, *args: str) -> tuple[int, str, str]:
    """`pnpgen ARGS…` in a fresh process, with Pig installed when `pig_path` is given."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pig_path:
        env["PYTHONPATH"] = pig_path
    done = subprocess.run([sys.executable, "-m", "pnpgen", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    return done.returncode, done.stdout, done.stderr


def test_list_and_validate(pig_path: str) -> None:
    code, out, err = cli(pig_path, "list", "--content", str(CONTENT))
    assert code == 0, err
    assert "Pig" in out and "2–6" in out and "1 game" in out and "score-sheet (sheet)" in out
    code, out, err = cli(pig_path, "validate", "--content", str(CONTENT))
    assert code == 0, out + err
    for line in ("ok   pig: schema and rules section — 1 game(s)", "ok   pig: rulebook text and references",
                 "ok   pig: components", "ok   pig: example ex2-bust", "ok   pig: example ex5-nothing-to-hold",
                 "ok   pig: determinism pig — seed 1",  # a child process found the engine too
                 "ok   pig: smoke test pig — 20 games, seed 1, bots hold-at-20,random",
                 "ok   pig: end conditions pig — observed: target", "all checks passed"):
        assert line in out, line


def test_simulate(pig_path: str) -> None:
    code, out, err = cli(pig_path, "simulate", "pig", "--games", "50", "--seed", "1", "--json", "-q",
                            "--content", str(CONTENT))
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 50 and data["bots"] == ["hold-at-20", "random"]
    assert sum(seat["win_rate"] for seat in data["seats"]) == pytest.approx(1.0)  # Pig has one winner
    assert data["ends"] == {"target": 50} and data["timeouts"] == 0 and not data["problems"]
    assert data["bot_wins"]["hold-at-20"] > data["bot_wins"]["random"]
    code, out, _ = cli(pig_path, "simulate", "pig", "--games", "50", "--seed", "1", "-q",
                          "--content", str(CONTENT))
    assert code == 0 and "ended by: a player banked the target score" in out and "50 (100.0%)" in out


def test_referee(pig_path: str, tmp_path: Path) -> None:
    content = ["--content", str(CONTENT)]
    code, out, err = cli(pig_path, "referee", "pig", "--example-state", *content)
    assert code == 0, err
    assert yaml.safe_load(out) == {"scores": [34, 61, 12], "turn": 2, "phase": "choose", "turn_total": 9}
    state = tmp_path / "state.yaml"
    state.write_text(out, encoding="utf-8")
    code, out, _ = cli(pig_path, "referee", "pig", "--state", str(state), "--legal", *content)
    assert (code, out.split()) == (0, ["roll", "hold"])
    code, out, _ = cli(pig_path, "referee", "pig", "--state", str(state), "--move", "roll", *content)
    assert code == 0 and "LEGAL roll" in out and "phase: roll" in out and "turn_total: 9" in out
    code, out, _ = cli(pig_path, "referee", "pig", "--state", str(state), "--move", "hold", *content)
    assert code == 0 and "LEGAL hold" in out and "seat 2 holds 9: 70" in out
    assert "scores: [34, 70, 12]" in out and "turn: 3" in out

    rolling = tmp_path / "rolling.yaml"
    rolling.write_text("scores: [10, 20]\nturn: 2\nphase: roll\nturn_total: 17\n", encoding="utf-8")
    code, out, _ = cli(pig_path, "referee", "pig", "--state", str(rolling), "--legal", *content)
    assert code == 0 and out.splitlines() == [f"die {face}  p=1/6" for face in range(1, 7)]
    code, out, _ = cli(pig_path, "referee", "pig", "--state", str(rolling), "--move", "die 1", *content)
    assert code == 0 and "seat 2 rolls 1, loses 17" in out and "turn: 1" in out

    fresh = tmp_path / "fresh.yaml"
    fresh.write_text("scores: [10, 20]\nturn: 2\nphase: choose\nturn_total: 0\n", encoding="utf-8")
    code, out, _ = cli(pig_path, "referee", "pig", "--state", str(fresh), "--move", "hold", *content)
    assert code == 1 and "ILLEGAL hold" in out
    assert "rule PIG-4 (Holding): nothing to hold: roll at least once this turn" in out

    impossible = tmp_path / "impossible.yaml"
    impossible.write_text("scores: [10, 20]\nturn: 3\nphase: choose\n", encoding="utf-8")
    code, out, err = cli(pig_path, "referee", "pig", "--state", str(impossible), *content)
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"error: {impossible}:2:7: turn: seat 3 is not a seat of 1–2"]


def test_build(pig_path: str, tmp_path: Path) -> None:
    out_dir = tmp_path / "build"
    code, _, err = cli(pig_path, "build", "pig", "-q", "--out", str(out_dir), "--content", str(CONTENT))
    assert code == 0, err
    folder = out_dir / "pig"
    for name in ("rulebook-ja.pdf", "rulebook-en.pdf", "score-sheet-ja.pdf", "score-sheet-en.pdf"):
        assert unembedded_fonts(folder / name) == [], name
    english = " ".join(all_text(folder / "rulebook-en.pdf").split())  # lines joined
    for text in ("Pig", "Bust", "First to bank 100 points wins", "probability 1/6",
                 "below 20, one more roll gains on average", "Example 2: bust"):
        assert text in english, text
    companion = " ".join(all_text(folder / "companion-en.pdf").split())
    assert "PIG-3" in companion and "PIG-3" not in english  # rule codes are for referees
    assert "ピッグ" in all_text(folder / "rulebook-ja.pdf")
    sheet = PdfReader(folder / "score-sheet-en.pdf")
    assert len(sheet.pages) == 1
    sheet_text = " ".join(all_text(folder / "score-sheet-en.pdf").split())
    assert "First to 100 wins" in sheet_text and "Player 6" in sheet_text


def test_without_the_package_the_engine_is_unknown() -> None:
    if "pig" in pnpgen.games.engines():
        pytest.skip("pnpgen-pig is installed in this environment")
    code, out, err = cli(None, "validate", "--content", str(CONTENT))
    assert code == 2 and "Traceback" not in err
    (line,) = err.splitlines()
    assert line.startswith(f"error: {CONTENT / 'pig' / 'game.yaml'}:2:9: no game engine named 'pig'; engines: ")
    assert set(line.split("engines: ")[1].split(", ")) >= BUILT_IN


# --- the lookup itself, in process ---------------------------------------------------------

def test_builtin_games_are_entry_points_too() -> None:
    found = pnpgen.games.engines()
    assert set(found) >= BUILT_IN
    assert {name: found[name].value for name in BUILT_IN} == {name: f"pnpgen.games.{name}" for name in BUILT_IN}
    # the names imported without reading the metadata are exactly the registered ones
    own = {name for name, point in found.items() if point.value.startswith("pnpgen.games.")}
    assert set(pnpgen.games.OWN_ENGINES) == own == BUILT_IN


def test_own_engines_start_without_reading_package_metadata() -> None:
    code = ("import sys; from pnpgen.content.game import load_games; from pnpgen.games import rules_for_content; "
            "from pathlib import Path; [rules_for_content(g) for g in load_games(Path(sys.argv[1]))]; "
            "print('importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT / "content")], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


def _game(folder: Path, engine: str) -> Path:
    game = folder / "g"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(f"id: g\nengine: {engine}\ntitle: G\nplayers: {{min: 2, max: 2}}\n"
                                    "time_minutes: 5\nversion: 1\nrules: {}\n", encoding="utf-8")
    return game


def _register(monkeypatch: pytest.MonkeyPatch, name: str, module: str) -> None:
    installed = pnpgen.games.engines()
    point = EntryPoint(name, module, pnpgen.games.GROUP)
    monkeypatch.setattr(pnpgen.games, "engines", lambda: {**installed, name: point})


def test_unknown_engine_suggests_a_name(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as info:
        pnpgen.games.rules_for_content(load_game(_game(tmp_path, "burning-desire")))
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'g' / 'game.yaml'}:2:9: no game engine named 'burning-desire' "
                              "(did you mean 'burning_desire'?); engines: ")
    assert set(message.split("engines: ")[1].split(", ")) >= BUILT_IN


def test_an_engine_that_fails_to_import_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    run_pnpgen: CliRun) -> None:
    (tmp_path / "broken_engine_pkg.py").write_text("import no_such_dependency_xyz\n", encoding="utf-8")
    (tmp_path / "empty_engine_pkg.py").write_text("RULES_SCHEMA = {}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    game = _game(tmp_path / "content", "broken")
    _register(monkeypatch, "broken", "broken_engine_pkg")
    code, _, err = run_pnpgen("validate", "--content", str(game.parent))
    assert code == 2
    assert err.splitlines() == [f"error: {game / 'game.yaml'}:2:9: engine 'broken' (broken_engine_pkg) failed to "
                                "import: ModuleNotFoundError: No module named 'no_such_dependency_xyz'"]
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("broken", "empty"))
    _register(monkeypatch, "empty", "empty_engine_pkg")
    code, _, err = run_pnpgen("validate", "--content", str(game.parent))
    assert (code, err.splitlines()) == (2, [f"error: {game / 'game.yaml'}:2:9: engine 'empty' (empty_engine_pkg) "
                                            "has no create"])
