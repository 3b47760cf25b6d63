"""Ctrl-C during a run with worker processes, or during `watch`: one line, exit 130, no
traceback from any process, and a simulation's games finished so far kept.

A real `pnpgen` process in its own session gets SIGINT on its whole process group, as a
terminal sends it. Its stderr is a pseudo-terminal, so it shows the progress bar a user sees;
each test waits for progress (games finished, or the 'watching' line), never for a moment on
the clock, so a loaded machine only makes it slower.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from pnpgen.engine.simulate import simulate
from pnpgen.games import find_rules
from tests.conftest import ROOT, CliRun

BOTS = ["optimal", "greedy", "random"]
QUIET = ("Traceback", "KeyboardInterrupt", "ForkPoolWorker", "Dask Worker", "CRITICAL", "ERROR")


def _interrupt_when(args: list[str], ready: re.Pattern[str],
                    settled: Callable[[int], bool] = lambda pid: True) -> tuple[int, str, str]:
    """Run `pnpgen ARGS`, send SIGINT to its process group once its stderr (a terminal) shows
    `ready` and `settled(pid)` holds; its exit code, stdout and stderr (escape codes and
    redrawn lines removed)."""
    main, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "pnpgen", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=terminal, start_new_session=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"})
    os.close(terminal)
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(process.stdout.read() if process.stdout else b""))
    reader.start()
    seen, sent = b"", False
    try:
        while True:
            if select.select([main], [], [], 0.05)[0]:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the terminal closed: every process of the group has ended
                    break
                if not chunk:
                    break
                seen += chunk
            elif process.poll() is not None and not select.select([main], [], [], 0)[0]:
                break
            if not sent and ready.search(_plain(seen)) and settled(process.pid):
                os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
                sent = True
        process.wait(timeout=600)
    finally:
        os.close(main)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join()
    assert sent, f"pnpgen ended before it was interrupted: {_plain(seen)}"
    return process.returncode, b"".join(out).decode(), _plain(seen)


def _plain(terminal: bytes) -> str:
    """What a terminal shows at the end: escape codes removed, each line as last redrawn."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", terminal.decode(errors="replace"))
    return "\n".join(line.split("\r")[-1] for line in text.replace("\r\n", "\n").split("\n"))


def _assert_quiet(code: int, err: str) -> str:
    """Exit 130, no process said more than the line; the line."""
    assert code == 130
    assert not any(word in err for word in QUIET), err
    return [line for line in err.splitlines() if line.strip()][-1]


def _progress(games: int, at_least: int) -> re.Pattern[str]:
    """The progress bar showing at least `at_least` (a power of ten) of `games` done. The bar
    counts games kept in game order, what a Ctrl-C keeps, so this is a floor on what is kept."""
    digits = len(str(at_least))
    return re.compile(rf"\b[1-9]\d{{{digits - 1},}}/{games}\b")


def _assert_summary_of_first(out: str, line: str, rules_id: str, seed: int) -> None:
    """The line names the first k games, and the summary printed is theirs: the same figures
    as a run of k games with that seed."""
    found = re.fullmatch(rf"interrupted: the summary above is of the first ([\d,]+) of 5,000,000 games, "
                         rf"as --games (\d+) --seed {seed} plays them", line)
    assert found, line
    games = int(found[2])
    assert int(found[1].replace(",", "")) == games and games >= 256  # a whole block at least
    expected = simulate(find_rules(ROOT / "content", rules_id), games, seed, BOTS, workers=2)
    rows = re.findall(r"│\s+(\d) │\s+([\d.]+%) │", out)  # the win rate per seat table
    assert rows == [(str(s + 1), f"{expected.win_rate(s):.1%}") for s in range(3)], out
    assert f"{sum(expected.ends.values())} (100.0%)" in out  # games by end condition
    assert f"{expected.length_mean:.1f} ({expected.length_interval[0]:.1f}" in out


def test_ctrl_c_during_simulate_with_workers_keeps_the_first_games() -> None:
    code, out, err = _interrupt_when(["simulate", "burning-desire", "--workers", "2", "-n", "5000000",
                                      "--seed", "7"], _progress(5000000, 100))
    line = _assert_quiet(code, err)
    _assert_summary_of_first(out, line, "burning-desire", 7)


def test_ctrl_c_during_simulate_on_a_local_dask_cluster() -> None:
    pytest.importorskip("distributed")
    code, out, err = _interrupt_when(["simulate", "burning-desire", "--cluster", "local", "--workers", "2",
                                      "-n", "5000000", "--seed", "8"], _progress(5000000, 100))
    line = _assert_quiet(code, err)  # neither the scheduler here nor a worker or nanny said anything
    _assert_summary_of_first(out, line, "burning-desire", 8)


def test_ctrl_c_during_report_writes_nothing_and_counts_the_games(tmp_path: Path) -> None:
    code, out, err = _interrupt_when(["report", "burning-desire", "--workers", "2", "-n", "5000000", "--skill",
                                      "none", "--out", str(tmp_path)], _progress(5000000, 1000))
    line = _assert_quiet(code, err)
    found = re.fullmatch(r"interrupted: no report was written; the ([\d,]+) games played so far \(seed 1\) "
                         r"were dropped", line)
    assert found and int(found[1].replace(",", "")) >= 1000, line
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def _waiting_on_files(pid: int) -> bool:
    """watchfiles is waiting for changes: its file-notification thread has started, and the
    main thread sleeps in its loop (the Ctrl-C that watchfiles itself catches, which exited 0)."""
    threads = os.listdir(f"/proc/{pid}/task")
    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return len(threads) >= 2 and state == "S"


def test_ctrl_c_stops_watch_with_exit_130(tmp_path: Path) -> None:
    folder = tmp_path / "content" / "kit-demo"
    shutil.copytree(ROOT / "tests" / "fixtures" / "kit-demo", folder)
    out_dir = tmp_path / "build"
    code, _, err = _interrupt_when(["watch", "kit-demo", "--lang", "en", "--content", str(folder.parent),
                                    "--out", str(out_dir)], re.compile(r"^watching ", re.M), _waiting_on_files)
    line = _assert_quiet(code, err)
    assert line == f"interrupted: stopped watching; the last good files stay in {out_dir / 'kit-demo'}"
    assert any(out_dir.rglob("*.pdf"))  # the first build's files stay


# --- the engine's part, in this process: what a run keeps when Ctrl-C stops it ---------------

def test_blocks_are_kept_in_game_order_whatever_order_they_finish_in() -> None:
    from pnpgen.engine.simulate import InOrder, tally_games

    rules = find_rules(ROOT / "content", "burning-desire")
    kept, reported = InOrder(3, 10), []
    kept.add(14, 18, tally_games(rules, BOTS, 4, 14, 18), reported.append)  # finished before games 10..13
    assert kept.total.games == 0 and kept.next == 10 and reported == []
    kept.add(10, 14, tally_games(rules, BOTS, 4, 10, 14), reported.append)
    assert kept.next == 18 and kept.total == tally_games(rules, BOTS, 4, 10, 18) and reported == [8]
    kept.add(22, 26, tally_games(rules, BOTS, 4, 22, 26), reported.append)  # a gap at 18..21: not counted
    assert kept.total == tally_games(rules, BOTS, 4, 10, 18) and reported == [8]


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_in_a_run_keeps_its_first_games(workers: int) -> None:
    from pnpgen.engine.simulate import RunInterrupted, Tally, local_runner, tally_games

    rules = find_rules(ROOT / "content", "burning-desire")
    reported: list[int] = []  # games kept, as progress is told them

    def ctrl_c_once_games_are_kept(games: int) -> None:
        reported.append(games)
        raise KeyboardInterrupt

    with local_runner(workers) as runner, pytest.raises(RunInterrupted) as stop:
        runner.tally(rules, BOTS, 5, 0, 400, on_games=ctrl_c_once_games_are_kept)
    done: Tally = stop.value.done
    assert done.games == sum(reported) > 0  # what progress showed is what was kept
    assert done == tally_games(rules, BOTS, 5, 0, done.games)  # exactly a run of that many games


# --- the command's part: what simulate prints for the games a Ctrl-C left ------------------------

def test_ctrl_c_in_the_skill_check_keeps_the_whole_run(run_pnpgen: CliRun, monkeypatch: pytest.MonkeyPatch) -> None:
    import pnpgen.engine.simulate as engine

    def ctrl_c(*args: object, **options: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "skill_check", ctrl_c)  # Ctrl-C as the skill check starts
    code, out, err = run_pnpgen("simulate", "burning-desire", "-n", "30", "--seed", "4", "--skill", "mcts:2", "-q")
    assert code == 130
    assert err == "interrupted: the summary above is of all 30 games (seed 4); the skill check was dropped\n"
    expected = simulate(find_rules(ROOT / "content", "burning-desire"), 30, 4, BOTS)
    assert re.findall(r"│\s+(\d) │\s+([\d.]+%) │", out) == [(str(s + 1), f"{expected.win_rate(s):.1%}")
                                                         for s in range(3)]


def test_ctrl_c_with_json_gives_the_kept_games_in_an_envelope(run_pnpgen: CliRun,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from pnpgen.engine.simulate import Runner

    tally = Runner.tally

    def first_blocks_then_ctrl_c(self: Runner, rules: object, bots: list[str], seed: int, start: int, stop: int,
                                 check: bool = False, on_games: object = None, timeout: object = None) -> object:
        def ctrl_c_at_40(games: int) -> None:
            done[0] += games
            if done[0] >= 40:
                raise KeyboardInterrupt

        done = [0]
        return tally(self, rules, bots, seed, start, stop, check, ctrl_c_at_40)  # type: ignore[arg-type]

    monkeypatch.setattr(Runner, "tally", first_blocks_then_ctrl_c)
    code, out, err = run_pnpgen("simulate", "burning-desire", "-n", "1000", "--seed", "6", "--json")
    data = json.loads(out)
    games = data["games"]
    assert code == 130 and data["ok"] is False and 40 <= games < 1000
    line = (f"interrupted: the summary above is of the first {games:,} of 1,000 games, as --games {games} "
            "--seed 6 plays them")
    assert data["errors"][0]["message"] == line and err == line + "\n"
    data.pop("ok"), data.pop("errors")
    monkeypatch.undo()
    assert data == simulate(find_rules(ROOT / "content", "burning-desire"), games, 6, BOTS).to_data()
