"""Shared fixtures: the project folders, builds made once per test session (shared by
pytest-xdist's workers), and the real CLI run in-process."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[1]

CliRun = Callable[..., tuple[int, str, str]]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def content_dir() -> Path:
    return ROOT / "content"


_CACHE_KEY = pytest.StashKey[str]()


# The files that take longest (their own CPU, or the processes they start and wait for), longest
# first, from `--durations` of a whole run. pytest-xdist's `--dist loadfile` hands out files in
# collection order (set below, rather than its default of most tests first), so these start
# first and no worker is left with one of them at the end while the other has nothing to do.
SLOW_FIRST = ["test_ci_hooks.py", "test_rulebook_typography.py", "test_kit_marks.py", "test_readme_tour.py",
              "test_diagrams.py", "test_fast_alone_collection.py", "test_scaffold_played.py", "test_build.py",
              "test_rulebook_body.py", "test_dungeon_war_print.py", "test_external_game.py",
              "test_rulebook_tables.py", "test_interrupt.py", "test_safety.py", "test_sweep.py", "test_schema.py",
              "test_harness_golden.py", "test_build_lock.py", "test_cluster.py", "test_harness_report.py"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """SLOW_FIRST's files first, in its order; the others after, as collected."""
    rank = {name: index for index, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file's own order is kept


def pytest_configure(config: pytest.Config) -> None:
    """A fresh figures cache for each test session, never the user's, and validate's time
    budgets off: set by the controlling process before pytest-xdist starts its workers,
    which inherit both. pytest-xdist schedules files in collection order (SLOW_FIRST)."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False
    if "PYTEST_XDIST_WORKER" not in os.environ:
        cache = tempfile.mkdtemp(prefix="pnpgen-test-cache-")
        os.environ["PNPGEN_CACHE"] = cache
        os.environ["PNPGEN_TIME_BUDGETS"] = "off"  # validate's verdicts never depend on the machine's load
        config.stash[_CACHE_KEY] = cache
    _typer_test_runner_reuses_the_command()


def _typer_test_runner_reuses_the_command() -> None:
    """Typer's CliRunner builds the Click command of the app again on every invoke (about
    20 ms, over a thousand times a session); for pnpgen's app it takes the one the real entry
    point builds once (pnpgen.app.click_command)."""
    import typer.testing

    build = typer.testing._get_command

    def built_once(given: Any) -> Any:
        from pnpgen.app import app, click_command

        return click_command() if given is app else build(given)

    typer.testing._get_command = built_once  # type: ignore[assignment]


def pytest_unconfigure(config: pytest.Config) -> None:
    cache = config.stash.get(_CACHE_KEY, None)
    if cache:
        shutil.rmtree(cache, ignore_errors=True)


def shared_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], Any]) -> Any:
    """`make(folder)` run once per test session, whichever xdist worker asks first; the others
    wait for it and get the same (JSON-able) result. Paths in the result stay valid all session."""
    root = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        root = root.parent  # shared by every worker of this session
    folder = root / f"shared-{name}"
    record = folder / "result.json"
    with FileLock(str(folder) + ".lock"):
        if not record.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            result = make(folder)
            record.write_text(json.dumps(result, default=str), encoding="utf-8")
    return json.loads(record.read_text(encoding="utf-8"))


@pytest.fixture(scope="session", autouse=True)
def _pdf_pages_shared(tmp_path_factory: pytest.TempPathFactory) -> None:
    """tests/pdfpages.py keeps the PDFs pdfplumber parsed in one folder for the whole test
    session (every xdist worker), so each is parsed once."""
    from tests import pdfpages

    pdfpages.share(shared_once(tmp_path_factory, "pdfpages", str))


@pytest.fixture(scope="module", autouse=True)
def _pdf_pages_forgotten() -> Iterator[None]:
    """A module's parsed PDFs leave this process's memory after it (they stay on disk)."""
    yield
    from tests import pdfpages

    pdfpages.forget()


RULEBOOK_GAMES = ["burning-desire", "dice-road-race", "dungeon-war", "fast-alone", "routou-dice"]


@pytest.fixture(scope="session")
def rulebook_pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    """The shipped games' books, built once per test session: {game: {lang: players' rulebook,
    "companion-<lang>": companion}}."""
    built = shared_once(tmp_path_factory, "rulebooks", _build_rulebooks)
    return {game: {lang: Path(path) for lang, path in books.items()} for game, books in built.items()}


def _build_rulebooks(folder: Path) -> dict[str, dict[str, str]]:
    from pnpgen.content.game import load_game
    from pnpgen.games import rules_for_content
    from pnpgen.output import BuildOptions
    from pnpgen.render.rulebook import render_rulebooks

    out: dict[str, dict[str, str]] = {}
    for game in RULEBOOK_GAMES:
        content = load_game(ROOT / "content" / game)
        built = render_rulebooks(content, rules_for_content(content), BuildOptions(out=folder / game))
        out[game] = {(f.path.stem.split("-")[-1] if f.path.stem.startswith("rulebook-") else f.path.stem): str(f.path)
                     for f in built}
    return out


@pytest.fixture(scope="session")
def kit_demo_print_shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/fixtures/kit-demo built once per test session with print-shop files (read only)."""
    return Path(shared_once(tmp_path_factory, "kit-demo-print-shop", _build_kit_demo_print_shop))


@pytest.fixture(scope="session")
def kit_demo_print_shop_rebuilt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same build as kit_demo_print_shop made a second time, in another folder, once per
    test session: what the byte-identical rebuild tests compare with the first (read only)."""
    return Path(shared_once(tmp_path_factory, "kit-demo-print-shop-rebuilt", _build_kit_demo_print_shop))


def _build_kit_demo_print_shop(folder: Path) -> str:
    from pnpgen.build import build_game
    from pnpgen.content.game import load_game
    from pnpgen.output import BuildOptions

    demo = ROOT / "tests" / "fixtures" / "kit-demo"
    build_game(load_game(demo), BuildOptions(out=folder, print_shop=True, content_root=demo.parent))
    return str(folder / "kit-demo")


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
