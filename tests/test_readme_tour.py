"""README's "A short tour" runs as written: every line of its fenced block is run, in the
project folder, after the files it names are made (a state from --example-state).

What the test changes, and why (SMALLER below, printed in each test's id):
- files the tour writes (state.yaml, s.yaml, move.svg, build/, schema/, ~/games, shell
  completion) go to a temporary folder, never into the project;
- slow lines run with the smallest options that do the same work: `--lang en` for builds
  (one language instead of two), 20 games for simulate/sweep/report (2,000 in the tour),
  a 1-iteration MCTS skill check for report, one game for a `pnpgen validate` that names
  none (all five take minutes) with its smoke and checked playthroughs at 0;
- `watch --serve` runs until its page answers, then gets Ctrl-C; so does `play`, served
  (`--serve`, no browser opened) on a free port;
- skipped, because they need the network: `--cluster tcp://host:8786` (a Dask scheduler),
  `nox -s bench` (nox installs the project into a fresh virtualenv from PyPI) and
  `pip install -e examples/pig` (an isolated build from PyPI; it would also change the
  test's environment; tests/test_external_game.py covers that package).
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from pnpgen.engine.capabilities import codec
from pnpgen.referee import dump_state
from tests.conftest import ROOT, CliRun

NETWORK = {"--cluster tcp://": "a Dask scheduler on the network",
           "nox ": "nox installs the project into a fresh virtualenv from PyPI",
           "pip install": "an isolated build from PyPI (and it would change the test's environment)"}
MADE = ("state.yaml", "s.yaml", "move.svg")  # files the tour's own lines write and read
GAMES = {p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file()}


def tour() -> list[str]:
    """The commands of README's "A short tour" block, one per line, as written (continuation
    comment lines dropped, comments cut)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## A short tour\n\n```\n(.*?)```", text, re.S)
    assert block is not None
    lines = [line for line in block.group(1).splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [re.split(r"\s+#\s", line)[0].strip() for line in lines]  # a comment: " # …"


TOUR = tour()


def smaller(argv: list[str], out: Path) -> list[str]:
    """The same command with the tour's slow counts made small and its outputs in `out`."""
    command = argv[1] if len(argv) > 1 else ""
    argv = list(argv)
    swaps = {"--games": "20", "-n": "20"} if command in ("simulate", "sweep") else {}
    for i, arg in enumerate(argv[:-1]):
        if arg in swaps:
            argv[i + 1] = swaps[arg]
    if command == "validate" and not any(a.split("/")[0] in GAMES for a in argv[2:]):  # every game: one
        argv += ["burning-desire", "--games", "0", "--verify-games", "0"]
    if command == "build" and "--lang" not in argv:
        argv += ["--lang", "en"]
    if command == "report":
        argv += ["-n", "20", "--skill", "mcts:1", "--skill-games", "1", "--workers", "1"]
    if command in ("build", "report", "sweep", "watch") and "--out" not in argv:
        argv += ["--out", str(out / "build")]
    if command == "schema" and "--out" not in argv:
        argv += ["--out", str(out / "schema")]
    return argv


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files the tour's lines read, made first: each --example-state as its line writes it."""
    from pnpgen.content.game import load_game
    from pnpgen.games import rules_for_content

    folder = tmp_path_factory.mktemp("tour")
    for game, name in (("burning-desire", "state.yaml"), ("routou-dice", "s.yaml")):
        rules = rules_for_content(load_game(ROOT / "content" / game))[0]
        (folder / name).write_text(dump_state(rules, codec(rules).example_state()), encoding="utf-8")
    return folder


def test_the_tour_is_read() -> None:
    assert len(TOUR) >= 25 and TOUR[0] == "pnpgen list"
    assert "pnpgen referee routou-dice --state s.yaml --move m33-43 --svg move.svg" in TOUR


@pytest.mark.parametrize("line", TOUR)
def test_a_tour_line_runs(line: str, made: Path, tmp_path: Path, run_pnpgen: CliRun,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    for marker, why in NETWORK.items():
        if marker in line:
            pytest.skip(f"needs the network: {why}")
    monkeypatch.chdir(ROOT)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    command, _, target = line.partition(" > ")
    argv = [str(made / a) if a in MADE else str(home) + a[1:] if a.startswith("~/") else a
            for a in shlex.split(command)]
    argv = smaller(argv, tmp_path)
    assert argv[0] == "pnpgen"
    if argv[1] == "watch":
        return watch_until_served(argv, home)
    if argv[1] == "play":
        return play_until_served(argv)
    if argv[1] == "new":
        code, out, err = run_pnpgen(*argv[1:])
        assert code == 0 and (home / "games" / "my-game" / "game.yaml").is_file(), err
        return None
    if argv[1] == "--install-completion":
        done = subprocess.run([sys.executable, "-m", "pnpgen", "--install-completion"], cwd=ROOT, text=True,
                              capture_output=True, env={**os.environ, "HOME": str(home), "SHELL": "/bin/bash"},
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert "pnpgen" in (home / ".bashrc").read_text(encoding="utf-8")
        return None
    code, out, err = run_pnpgen(*argv[1:])
    expected = 4 if "view-ambush-spring-cannot-tell" in line else 0  # the tour says: "legal only if …", exit 4
    assert code == expected, (argv, out[-2000:], err[-2000:])
    assert "Traceback" not in err
    if target:  # `… > file`: the file the next lines read
        assert out.strip()
        (tmp_path / target.strip()).write_text(out, encoding="utf-8")
    if "--svg" in argv:
        assert Path(argv[argv.index("--svg") + 1]).read_text(encoding="utf-8").startswith("<svg")
    return None


def play_until_served(argv: list[str]) -> None:
    """`pnpgen play …`: served without a browser on a free port; its table page answers with
    the game, then Ctrl-C stops it."""
    import json

    process = subprocess.Popen([sys.executable, "-m", "pnpgen", *argv[1:], "--serve", "--port", "0", "--json"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        said = json.loads(process.stdout.readline() or "{}")  # the links, once it serves
        assert said.get("ok"), process.stderr.read() if process.stderr else said
        page = urllib.request.urlopen(said["links"]["table"], timeout=30).read().decode()
        assert argv[2] in page
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) in (0, 130)  # Ctrl-C is how it stops
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def watch_until_served(argv: list[str], home: Path) -> None:
    """`pnpgen watch … --serve`: its first build, then its page; Ctrl-C stops it."""
    subprocess.run([sys.executable, "-m", "pnpgen", "new", "my-game", "--content", str(home / "games")],
                   cwd=ROOT, capture_output=True, timeout=120, check=True)
    said = home / "watch.txt"
    with said.open("w") as out:
        process = subprocess.Popen([sys.executable, "-m", "pnpgen", *argv[1:], "--port", "0"], cwd=ROOT,
                                   stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        url = None
        for _ in range(1200):  # its first build, then the server: polled, not timed
            found = re.search(r"serving (http://\S+)", said.read_text(encoding="utf-8"))
            if found or process.poll() is not None:
                url = found.group(1) if found else None
                break
            time.sleep(0.1)
        assert url is not None, said.read_text(encoding="utf-8")
        page = urllib.request.urlopen(url, timeout=30).read().decode()
        assert "preview" in page
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) in (0, 130), said.read_text(encoding="utf-8")  # Ctrl-C is how it stops
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
