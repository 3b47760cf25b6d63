"""Safe to build anyone's game: outputs, the last-resort guard, killed builds, dates, and
random content mutations that must never crash or hang the loader and build."""

from __future__ import annotations

import contextlib
import copy
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnpgen.content.yamlpos import load_yaml
from pnpgen.errors import ContentError
from pnpgen.output import clean_stale_parts
from tests.conftest import ROOT, CliRun
from tests.sampling import examples

OK_GAME = ROOT / "tests" / "bad_input" / "content" / "ok" / "burning-desire"


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


# --- the last guard -------------------------------------------------------------------------

def test_an_unexpected_exception_is_exit_3_with_one_line(run_pnpgen: CliRun, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: Any) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr("pnpgen.commands.load_games", broken)
    code, out, err = run_pnpgen("list")
    assert code == 3
    assert err.splitlines() == ["internal error, please report: ZeroDivisionError: a bug "
                                "(run again with --debug for the traceback)"]
    with pytest.raises(ZeroDivisionError):
        run_pnpgen("list", "--debug")


@pytest.mark.parametrize(("args", "expected"), [
    (["build", "--lnag", "en"], "error: No such option: --lnag (Possible options: --lang)"),
    (["referee"], "error: Missing argument 'game'."),
    (["build", "burning-desire", "--lang", ","], "error: --lang names no language; languages: ja, en"),
    (["build", "burning-desire", "--lang", "fr"], "error: unknown language 'fr'; languages: ja, en"),
    (["build", "burning-desire", "--paper", "A9"], "error: unknown paper 'A9'; papers: A4, Letter, B5, A3, B4, A5"),
    (["simulate", "burning-desire", "--games", "0"], "error: --games must be from 1 to 10,000,000"),
    (["simulate", "burning-desire", "--workers", "100000"], "error: --workers must be from 1 to 256"),
    (["simulate", "burning-desire", "--seed", str(10**30)], f"error: --seed must be from 0 to {2**53}"),
    # 0 was read as "the default" (1, or one per core); -1 skill games and 10^12 MCTS iterations ran
    (["simulate", "burning-desire", "--workers", "0"], "error: --workers must be from 1 to 256"),
    (["simulate", "burning-desire", "--workers", "0", "--cluster", "local"], "error: --workers must be from 1 to 256"),
    (["report", "burning-desire", "--workers", "0", "--out", "{tmp}"], "error: --workers must be from 1 to 256"),
    (["simulate", "burning-desire", "--players", "0", "--bots", "random"], "error: --players must be from 1 to 100"),
    (["simulate", "burning-desire", "--skill", "mcts:5", "--skill-games", "-1"],
     "error: --skill-games must be from 1 to 100,000"),
    (["report", "burning-desire", "--skill-games", "-1", "--out", "{tmp}"],
     "error: --skill-games must be from 1 to 100,000"),
    (["simulate", "burning-desire", "--bots", "mcts:999999999999"],
     "error: bot 'mcts:999999999999': mcts takes 1 to 1,000,000 iterations (mcts:N)"),
    (["simulate", "burning-desire", "--bots", "mcts:" + "9" * 5000],
     "error: bot 'mcts:" + "9" * 5000 + "': mcts takes 1 to 1,000,000 iterations (mcts:N)"),
    (["simulate", "burning-desire", "--bots", "mcts:\u00b2"],
     "error: bot 'mcts:\u00b2': only guided, mcts take a size, as name:N with N ≥ 1"),
])
def test_bad_options_are_one_line(run_pnpgen: CliRun, args: list[str], expected: str, tmp_path: Path) -> None:
    code, out, err = run_pnpgen(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert (code, err.splitlines()) == (2, [expected]), err


def test_no_arguments_prints_help(run_pnpgen: CliRun) -> None:
    code, out, _ = run_pnpgen()
    assert code == 0 and "Usage: pnpgen" in out


# --- outputs --------------------------------------------------------------------------------

@pytest.fixture
def game_copy(tmp_path: Path) -> Path:
    """A content folder holding a copy of Burning Desire (rulebook, sheet and deck)."""
    root = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "burning-desire", root / "burning-desire")
    return root


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("command", [
    ["build", "burning-desire", "--out", "{content}/out"],
    ["build", "burning-desire", "--out", "{content}"],
    ["report", "burning-desire", "--games", "2", "--skill", "none", "--out", "{content}/burning-desire"],
    ["validate", "burning-desire", "--games", "0", "--verify-games", "0", "--update-golden",
     "--golden", "{content}/golden"],
])
def test_nothing_is_written_into_content(run_pnpgen: CliRun, game_copy: Path, command: list[str]) -> None:
    before = snapshot(game_copy)
    code, out, err = run_pnpgen(*[a.format(content=game_copy) for a in command], "--content", str(game_copy))
    line = one_error_line(err)
    assert code == 2
    assert f"inside the content folder {game_copy}; choose another" in line
    assert snapshot(game_copy) == before


def test_an_output_folder_that_is_a_file_is_one_line(run_pnpgen: CliRun, game_copy: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "out"
    blocker.write_text("not a folder")
    code, _, err = run_pnpgen("build", "burning-desire", "-q", "--out", str(blocker), "--content", str(game_copy))
    assert code == 2
    assert one_error_line(err).startswith(f"error: cannot write {blocker}/burning-desire/")


def test_a_full_disk_is_one_line_and_leaves_no_file(run_pnpgen: CliRun, game_copy: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import pnpgen.output as output

    def full(*_: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(output.os, "replace", full)  # the disk fills as the first file is moved into place
    out = tmp_path / "out"
    code, _, err = run_pnpgen("build", "burning-desire", "-q", "--lang", "en", "--out", str(out),
                              "--content", str(game_copy))
    assert code == 2
    assert one_error_line(err) == f"error: cannot write {out}/burning-desire/rulebook-en.pdf: No space left on device"
    assert [p for p in out.rglob("*") if p.is_file()] == []


def test_stale_part_files_are_removed_by_the_next_build(run_pnpgen: CliRun, game_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "build"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a process id that no longer runs
    stale = out / "burning-desire" / "preview" / f".rulebook-en.pdf.pid{dead.pid}.abc123.part"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"%PDF-1.4 half")
    alive = out / "burning-desire" / f".other.pdf.pid{os.getpid()}.xyz.part"
    alive.write_bytes(b"being written")
    code, _, err = run_pnpgen("build", "burning-desire", "-q", "--lang", "en", "--out", str(out),
                              "--content", str(game_copy))
    assert (code, err) == (0, "")
    assert not stale.exists()
    assert alive.exists()  # a running writer's file is left alone
    assert clean_stale_parts(out) == []


def test_kill_9_during_a_build_leaves_no_partial_file(game_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "build"
    command = [sys.executable, "-m", "pnpgen", "build", "burning-desire", "-q", "--out", str(out),
               "--content", str(game_copy)]
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 900  # a hang guard: the loop ends when a .part appears or the build ends
    while not list(out.rglob("*.part")) and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL, "the build finished before it could be killed"
    for pdf in out.rglob("*.pdf"):
        assert pdf.read_bytes().rstrip().endswith(b"%%EOF"), f"{pdf} is a partial file"
    left = list(out.rglob("*.part"))  # killed while writing: its temporary file stays behind (almost always)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert not list(out.rglob("*.part")), f"{len(left)} temporary file(s) of the killed build not removed"
    assert {p.name for p in (out / "burning-desire").glob("*.pdf")} >= {"rulebook-ja.pdf", "rulebook-en.pdf"}


def test_source_date_epoch_sets_pdf_dates(run_pnpgen: CliRun, game_copy: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    def dates(out: Path) -> set[bytes]:
        data = (out / "burning-desire" / "rulebook-en.pdf").read_bytes()
        start = data.index(b"/CreationDate (")
        return {data[start + 15:start + 29]}

    assert run_pnpgen("build", "burning-desire", "-q", "--lang", "en", "--out", str(tmp_path / "a"),
                      "--content", str(game_copy))[0] == 0
    assert dates(tmp_path / "a") == {b"D:200001010000"}  # fixed: same input, same bytes
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    assert run_pnpgen("build", "burning-desire", "-q", "--lang", "en", "--out", str(tmp_path / "b"),
                      "--content", str(game_copy))[0] == 0
    assert dates(tmp_path / "b") == {b"D:202311142213"}
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    code, _, err = run_pnpgen("build", "burning-desire", "-q", "--out", str(tmp_path / "c"),
                              "--content", str(game_copy))
    assert code == 2 and one_error_line(err) == (
        "error: SOURCE_DATE_EPOCH 'yesterday' is not a number of seconds since 1970")
    assert not (tmp_path / "c").exists()


# --- the loader's budgets -------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("a: " + "[" * 100 + "]" * 100, "t.yaml:1:43: nested more than 40 levels deep (the limit)"),
    ("a: " + "9" * 5000, "t.yaml:1:4: number too large (the limit is ±2**53)"),
    ("a: 123456789012345678901", "t.yaml:1:4: number 1.23e+20 is too large (the limit is ±2**53)"),
    ("a: .inf", "t.yaml:1:4: '.inf' is not a finite number"),
    ("a: .NaN", "t.yaml:1:4: '.NaN' is not a finite number"),
    ("? [a]\n: 1", "t.yaml:1:3: a key must be a plain value, not a list or mapping"),
    ("a: " + "x" * 20_001, "t.yaml:1:4: a text of 20,001 characters; the limit is 20,000"),
    ("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(6)),
     "t.yaml:6:36: expands to more than 1,000,000 values (the limit; aliases count each time they are used)"),
])
def test_loader_budgets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str) -> None:
    monkeypatch.chdir(tmp_path)
    Path("t.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_yaml(Path("t.yaml"))
    assert str(caught.value) == expected


def test_loader_reads_only_regular_files_and_stops_at_the_limit(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="not a regular file"):
        load_yaml(Path("/dev/zero"))
    with pytest.raises(ContentError, match="is a folder"):
        load_yaml(tmp_path)
    big = tmp_path / "big.yaml"
    big.write_text("a: 1\n" * 500_000)
    with pytest.raises(ContentError, match=r"larger than 2,000,000 bytes \(the limit for a YAML file\)"):
        load_yaml(big)


# --- random content mutations ---------------------------------------------------------------

NASTY = st.one_of(
    st.integers(min_value=-(2**60), max_value=2**60), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30), st.booleans(), st.none(), st.just([]), st.just({}), st.just([1, "x"]),
    st.just("../../../../etc/passwd"), st.just("{{ lipsum.__globals__ }}"), st.just(10**12), st.just(-1),
)


def paths_of(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths_of(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from paths_of(value, (*prefix, index))


def mutate(data: Any, path: tuple[Any, ...], action: str, value: Any) -> Any:
    if not path:
        return value
    *head, last = path
    parent = data
    for step in head:
        parent = parent[step]
    if action == "delete":
        del parent[last]
    elif action == "add" and isinstance(parent, dict):
        parent[f"extra_{last}"] = value
    else:
        parent[last] = value
    return data


BASE = yaml.safe_load((OK_GAME / "game.yaml").read_text(encoding="utf-8"))
PATHS = list(paths_of(BASE))
KIT_DEMO = ROOT / "tests" / "fixtures" / "kit-demo"
KIT_PARTS = {name: yaml.safe_load((KIT_DEMO / name).read_text(encoding="utf-8"))
             for name in ("deck.yaml", "board.yaml", "sheet.yaml")}
KIT_PATHS = [(name, path) for name, data in KIT_PARTS.items() for path in paths_of(data)]


class Budget(Exception):
    pass


@contextlib.contextmanager
def time_budget(seconds: int, what: str) -> Iterator[None]:
    """A hang fails the test instead of stalling CI."""
    def stop(*_: Any) -> None:
        raise Budget

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    except Budget:
        pytest.fail(f"took more than {seconds} s: {what}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@settings(max_examples=examples(40, 12), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(path=st.sampled_from(PATHS), action=st.sampled_from(["set", "delete", "add"]), value=NASTY)
def test_random_content_mutations_never_crash_or_hang(run_pnpgen: CliRun, tmp_path_factory: pytest.TempPathFactory,
                                                       path: tuple[Any, ...], action: str, value: Any) -> None:
    root = tmp_path_factory.mktemp("mutant")
    (root / "burning-desire").mkdir()
    data = mutate(copy.deepcopy(BASE), path, action, value)
    (root / "burning-desire" / "game.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")

    with time_budget(60, f"{action} {path} = {value!r}"):
        code, _, err = run_pnpgen("validate", "burning-desire", "--content", str(root), "--games", "0",
                                  "--verify-games", "0")
        if code != 2:
            code, _, err = run_pnpgen("build", "burning-desire", "-q", "--lang", "en", "--content", str(root),
                                      "--out", str(root.parent / f"{root.name}-out"))
    assert code in (0, 1, 2), err
    if code == 2:
        one_error_line(err)


@settings(max_examples=examples(25, 8), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(where=st.sampled_from(KIT_PATHS), action=st.sampled_from(["set", "delete", "add"]), value=NASTY)
def test_random_component_mutations_never_crash_or_hang(run_pnpgen: CliRun, tmp_path_factory: pytest.TempPathFactory,
                                                         where: tuple[str, tuple[Any, ...]], action: str,
                                                         value: Any) -> None:
    """Decks, boards and sheets of the kit demo (CSV, images, rich text), one value changed, built."""
    name, path = where
    root = tmp_path_factory.mktemp("kit")
    shutil.copytree(KIT_DEMO, root / "kit-demo")
    data = mutate(copy.deepcopy(KIT_PARTS[name]), path, action, value)
    (root / "kit-demo" / name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    out = root.parent / f"{root.name}-out"
    with time_budget(60, f"{name}: {action} {path} = {value!r}"):
        code, _, err = run_pnpgen("build", "kit-demo", "-q", "--lang", "en", "--content", str(root), "--out", str(out))
    assert code in (0, 2), err
    if code == 2:
        one_error_line(err)
        assert not list(out.rglob("*.part"))
