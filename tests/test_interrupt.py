"""Ctrl-C during a run with worker processes: one line, exit 130, no worker traceback.

A real `pnpgen` process in its own session gets SIGINT on its whole process group, as a
terminal sends it. The test waits for the workers to have played (their CPU time), not
for a wall-clock moment, so a loaded machine only makes it slower.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _children(pid: int) -> dict[int, int]:
    """The child processes of `pid`, with the CPU ticks each has used."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found[int(entry)] = int(fields[11]) + int(fields[12])  # utime + stime
    return found


def _interrupt_while_workers_play(args: list[str]) -> tuple[int, str, dict[int, int]]:
    process = subprocess.Popen([sys.executable, "-m", "pnpgen", *args], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        while True:  # both workers forked and playing: each has used CPU time
            workers = _children(process.pid)
            if process.poll() is not None:
                pytest.fail(f"pnpgen ended before it was interrupted: {process.communicate()}")
            if len(workers) >= 2 and all(ticks >= 5 for ticks in workers.values()):
                break
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        _, err = process.communicate(timeout=600)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.returncode, err, workers


def _assert_quiet_exit(code: int, err: str, expected: str, workers: dict[int, int]) -> None:
    assert code == 130
    assert err.splitlines()[-1] == expected
    assert "Traceback" not in err and "ForkPoolWorker" not in err and "KeyboardInterrupt" not in err, err
    assert not any(Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]
                   for pid in workers)  # the workers ended with it


def test_ctrl_c_during_simulate_with_workers() -> None:
    code, err, workers = _interrupt_while_workers_play(
        ["simulate", "burning-desire", "--workers", "2", "-n", "5000000", "-q"])
    _assert_quiet_exit(code, err, "interrupted: the games played so far were dropped (a summary is printed for "
                       "a whole run only)", workers)
    assert err.splitlines() == [err.splitlines()[-1]]  # the one line


def test_ctrl_c_during_report_writes_nothing(tmp_path: Path) -> None:
    code, err, workers = _interrupt_while_workers_play(
        ["report", "burning-desire", "--workers", "2", "-n", "5000000", "--skill", "none", "-q",
         "--out", str(tmp_path)])
    _assert_quiet_exit(code, err, "interrupted: the games played so far were dropped; no report was written",
                       workers)
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []
