"""The report (PDF + JSON) and the harness commands, on toy games plugged in as engines."""

from __future__ import annotations

import json
import sys
import types
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader
from test_harness_toys import NIM_ENDS, NIM_RULES, Nim, nim
from typer.testing import CliRunner

import pnpgen.games
from pnpgen.cli import app
from pnpgen.content.schema import Any_
from pnpgen.report import ReportOptions, analyse, content_version, write_report


def test_report_pdf_and_json(tmp_path: Path) -> None:
    rules = nim()
    pdf, data_path = write_report(rules, ReportOptions(games=120, seed=9, skill_bot="mcts:4", skill_games=20,
                                                       out=tmp_path))
    assert pdf == tmp_path / "toy-nim" / "toy-nim-report.pdf"
    data = json.loads(data_path.read_text())
    assert data["settings"]["seed"] == 9 and data["settings"]["bots"] == ["random", "random"]
    assert data["content"]["version"] == "3"
    summary = data["summary"]
    assert summary["games"] == 120 and sum(summary["ends"].values()) == 120
    assert summary["draws"] == summary["ends"].get("wind", 0)
    assert data["skill_check"]["strong"] == "mcts:16"
    reader = PdfReader(pdf)
    assert len(reader.pages) == 1
    width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (595, 842)
    text = reader.pages[0].extract_text()
    for expected in ("simulation report", "content version 3", "seed 9", "Win rate per seat",
                     "Game length", "How games ended", "the wind took the last stone",
                     f"{summary['ends']['last_stone']} (", "first-player advantage", "mcts:16"):
        assert expected in text, expected
    fonts = {str(f.get("/BaseFont")) for f in _fonts(reader)}
    assert fonts and all("IPAex" in f for f in fonts)


def _fonts(reader: PdfReader) -> list[dict[str, object]]:
    resources = reader.pages[0]["/Resources"]["/Font"]
    return [resources[k].get_object() for k in resources]


def test_content_version_hashes_the_game_folder(tmp_path: Path) -> None:
    folder = _toy_content(tmp_path)
    from pnpgen.content.game import load_game

    rules = Nim(load_game(folder / "toy-nim"))
    first = content_version(rules)
    assert first["version"] == "3" and first["files"] == "1"
    (folder / "toy-nim" / "notes.yaml").write_text("a: 1\n")
    assert content_version(rules)["sha256"] != first["sha256"]


# --- commands, with the toy registered as an engine module ------------------------------

def _toy_content(root: Path, rules: dict[str, object] | None = None) -> Path:
    content = root / "content"
    (content / "toy-nim").mkdir(parents=True, exist_ok=True)
    game = {"id": "toy-nim", "engine": "toy_nim", "title": "Toy Nim", "version": 3,
            "players": {"min": 2, "max": 2}, "time_minutes": 5, "end_conditions": NIM_ENDS,
            "rules": {**NIM_RULES, "wind": {0: "2/3", 1: "1/3"}, **(rules or {})},
            "simulation": {"verify_games": 6, "smoke_games": 4}}
    (content / "toy-nim" / "game.yaml").write_text(yaml.safe_dump(game))
    return content


@pytest.fixture
def toy_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy registered as engine `toy_nim`, as an entry point of the group pnpgen.games would."""
    module = types.ModuleType("toy_nim_engine")
    module.RULES_SCHEMA = Any_  # type: ignore[attr-defined]
    module.create = lambda content: [Nim(content)]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toy_nim_engine", module)
    installed = pnpgen.games.engines()
    point = EntryPoint("toy_nim", "toy_nim_engine", pnpgen.games.GROUP)
    monkeypatch.setattr(pnpgen.games, "engines", lambda: {**installed, "toy_nim": point})


def test_simulate_command_json_and_workers(tmp_path: Path, toy_engine: None) -> None:
    content = str(_toy_content(tmp_path))
    runner = CliRunner()
    base = ["simulate", "toy-nim", "-n", "40", "--seed", "3", "--bots", "greedy,random", "--json",
            "--content", content]
    one = runner.invoke(app, base)
    two = runner.invoke(app, [*base, "--workers", "2"])
    assert one.exit_code == 0, one.output
    assert json.loads(one.stdout) == json.loads(two.stdout)
    data = json.loads(one.stdout)
    assert data["bots"] == ["greedy", "random"] and data["games"] == 40
    assert set(data) >= {"first_player_advantage", "balance", "decisiveness", "draws", "timeouts"}
    table = runner.invoke(app, ["simulate", "toy-nim", "-n", "30", "--seed", "3", "--skill", "mcts:4",
                                "--skill-games", "10", "-q", "--content", content])
    assert table.exit_code == 0, table.output
    assert "skill check: mcts:16 vs mcts:4, 10 games" in table.stdout
    assert "ended by: the wind took the last stone" in table.stdout


def test_report_command(tmp_path: Path, toy_engine: None) -> None:
    content = str(_toy_content(tmp_path))
    result = CliRunner().invoke(app, ["report", "toy-nim", "-n", "30", "--skill", "none", "-q",
                                      "--out", str(tmp_path / "build"), "--content", content])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "build" / "toy-nim" / "toy-nim-report.pdf").is_file()
    assert json.loads((tmp_path / "build" / "toy-nim" / "toy-nim-report.json").read_text())["skill_check"] is None


def test_validate_command_with_golden(tmp_path: Path, toy_engine: None) -> None:
    content = _toy_content(tmp_path)
    golden = tmp_path / "golden"
    runner = CliRunner()
    args = ["validate", "--content", str(content), "--golden", str(golden)]
    updated = runner.invoke(app, [*args, "--update-golden"])
    assert updated.exit_code == 0, updated.output
    assert (golden / "toy-nim.yaml").is_file()
    passed = runner.invoke(app, args)
    assert passed.exit_code == 0, passed.output
    for line in ("ok   toy-nim: verification toy-nim — 6 checked playthroughs",
                 "ok   toy-nim: end conditions toy-nim — observed: last_stone",
                 "ok   toy-nim: golden playthrough toy-nim"):
        assert line in passed.stdout
    _toy_content(tmp_path, {"max_take": 2})
    failed = runner.invoke(app, args)
    assert failed.exit_code == 1
    assert "step 1: 2 options (legal moves or outcomes), the golden run had 3" in failed.stdout
    assert "FAIL toy-nim: golden playthrough toy-nim" in failed.stdout


def test_budgeted_report_equals_a_run_of_its_counts(tmp_path: Path) -> None:
    """A budget picks the game counts (here a fake clock: 1 s per reading); the figures are those
    of a fixed run with the counts it printed, and it spent its batches where intervals were widest."""
    from pnpgen.engine.simulate import Runner
    from pnpgen.report import budgeted_runs

    ticks = iter(range(10_000))
    rules = nim()
    options = ReportOptions(seed=5, skill_bot="mcts:4", out=tmp_path, budget=14.0)
    summary, check, budget = budgeted_runs(rules, options, ["random", "random"], Runner(),
                                           clock=lambda: float(next(ticks)))
    assert check is not None and budget["games"] == summary.games > 0 and budget["skill_games"] == check.games > 0
    assert budget["replay"] == f"--games {summary.games} --skill-games {check.games}"
    assert budget["used_seconds"] <= 14.0 + 2
    _, _, fixed = analyse(rules, ReportOptions(games=summary.games, seed=5, skill_bot="mcts:4",
                                               skill_games=check.games, out=tmp_path))
    assert fixed["summary"] == summary.to_data() and fixed["skill_check"] == check.to_data()


def test_a_batch_the_clock_stops_is_retried_smaller(tmp_path: Path) -> None:
    """Games longer than measured stop a batch at its timeout: the part tries half as many
    instead of giving up the time left (Dungeon War's report played 64 games of a possible 300)."""
    from pnpgen.engine.simulate import OutOfTime, Runner
    from pnpgen.report import budgeted_runs

    class SlowAfterSixteen(Runner):  # games from 16 on take longer than any batch's timeout
        def tally(self, rules, bot_names, seed, start, stop, check_invariants=False,  # type: ignore[no-untyped-def]
                  on_games=None, timeout=None):
            if stop - start > 4 and stop > 16:
                raise OutOfTime
            return super().tally(rules, bot_names, seed, start, stop, check_invariants, on_games, timeout)

    ticks = iter(range(10_000))
    options = ReportOptions(seed=5, skill_bot=None, out=tmp_path, budget=40.0)
    summary, _, budget = budgeted_runs(nim(), options, ["random", "random"], SlowAfterSixteen(),
                                       clock=lambda: float(next(ticks)))
    assert budget["games"] == summary.games > 16  # 1, 1, 2, 4, 8: then batches of 4 or fewer, not a stop


def test_time_for_one_more_slow_game_is_used(tmp_path: Path) -> None:
    """Skill games that take 5 s each (a fake clock the runner moves): while the skill
    interval is open, the report plays on as long as one more game fits, instead of stopping
    when a batch would exceed its share of the time left (Burning Desire's report stopped at
    32 of 45 s with 2 skill games)."""
    from pnpgen.engine.simulate import Runner
    from pnpgen.report import budgeted_runs

    now = [0.0]

    class CostlyRunner(Runner):
        def tally(self, rules, bot_names, seed, start, stop, check_invariants=False,  # type: ignore[no-untyped-def]
                  on_games=None, timeout=None):
            now[0] += (5.0 if bot_names[0].startswith("mcts") else 0.001) * (stop - start)
            return super().tally(rules, bot_names, seed, start, stop, check_invariants, on_games, timeout)

    options = ReportOptions(seed=5, skill_bot="mcts:4", out=tmp_path, budget=45.0)
    _, check, budget = budgeted_runs(nim(), options, ["random", "random"], CostlyRunner(), clock=lambda: now[0])
    assert check is not None and check.games >= 1
    assert 45.0 - 5.0 / 0.8 < budget["used_seconds"] <= 45.0  # what is left could not hold one more game


def test_a_part_left_alone_may_use_all_the_time_left(tmp_path: Path) -> None:
    """Once the main simulation's intervals are narrow, the skill check's first games get all
    the time left instead of half (Burning Desire's report stopped at 30 of 45 s with no skill
    games). The fake runner honours its timeout as a real one does."""
    from pnpgen.engine.simulate import OutOfTime, Runner
    from pnpgen.report import TARGET_WIDTH, budgeted_runs

    now = [0.0]

    class SlowSkillRunner(Runner):
        def tally(self, rules, bot_names, seed, start, stop, check_invariants=False,  # type: ignore[no-untyped-def]
                  on_games=None, timeout=None):
            cost = (30.0 if bot_names[0].startswith("mcts") else 0.0001) * (stop - start)
            if timeout is not None and cost > timeout:
                now[0] += timeout
                raise OutOfTime
            now[0] += cost
            return super().tally(rules, bot_names, seed, start, stop, check_invariants, on_games, timeout)

    options = ReportOptions(seed=5, skill_bot="mcts:4", out=tmp_path, budget=45.0)
    summary, check, budget = budgeted_runs(nim(), options, ["random", "random"], SlowSkillRunner(),
                                           clock=lambda: now[0])
    widest = max(high - low for low, high in summary.seat_intervals)
    assert widest <= TARGET_WIDTH  # the main simulation was done first
    assert check is not None and check.games == 1 and budget["skill_games"] == 1


@pytest.mark.parametrize(("game", "pages"), [("burning-desire", 1), ("dungeon-war", 2)])
def test_figures_close_up_to_stay_on_one_page_or_continue_under_a_heading(
        tmp_path: Path, game: str, pages: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Burning Desire's figures with its skill check ran two rows onto a second, otherwise
    empty page; now the rows close up a little. Dungeon War's many tallies still need a second
    page, which is headed "Figures (continued)"."""
    from pnpgen.games import find_rules

    rules = find_rules(Path(__file__).resolve().parents[1] / "content", game)
    import pnpgen.report

    def with_budget_lines(*args, **kwargs):  # type: ignore[no-untyped-def]
        """A budgeted report's two header lines (a budget's timing would make the test flaky)."""
        summary, check, data = analyse(*args, **kwargs)
        data["budget"] = {"seconds": 45.0, "used_seconds": 44.1, "runner": "2 local worker process(es)",
                          "replay": "--games 20 --skill-games 2", "skill_check": None}
        return summary, check, data

    monkeypatch.setattr(pnpgen.report, "analyse", with_budget_lines)
    skill = "mcts:1" if game == "burning-desire" else None
    pdf, _ = write_report(rules, ReportOptions(games=20, seed=1, skill_bot=skill, skill_games=2, out=tmp_path))
    reader = PdfReader(pdf)
    assert len(reader.pages) == pages
    text = [page.extract_text() for page in reader.pages]
    if pages == 1:
        assert "skill: mcts:4 vs mcts:1" in text[0] and "Figures (continued)" not in text[0]
    else:
        assert text[1].startswith("Figures (continued)") and "least used" in text[1]
