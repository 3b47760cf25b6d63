"""Balance sweeps: YAML values changed in memory, a grid of points, cached, each replayable alone."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen.content.game import load_game
from pnpgen.content.override import parse_setting, split_values, with_settings
from pnpgen.engine.simulate import simulate
from pnpgen.errors import PnpgenError
from pnpgen.sweep import _axis_range, _tick, point_seed, rules_with

CONTENT = Path(__file__).resolve().parents[1] / "content"
BOTS = "optimal,greedy,random"


def test_settings_parse_as_yaml_values() -> None:
    assert parse_setting("rules.threshold=800,1000") == ("rules.threshold", [800, 1000])
    assert parse_setting("rules.combinations.0.points=[15, 25, 60, 120, 250, 500],[1,2,3,4,5,6]")[1][1] == [
        1, 2, 3, 4, 5, 6]
    assert split_values("a,'x,y',{k: [1, 2]}") == ["a", "'x,y'", "{k: [1, 2]}"]
    for bad, message in [("threshold", "write KEY=VALUE"), ("rules.threshold=1,,2", "a value is empty"),
                         ("rules.threshold=1,1", "listed twice"), ("rules.threshold=[1,", "not a YAML value")]:
        with pytest.raises(PnpgenError, match=message):
            parse_setting(bad)


def test_settings_change_the_game_in_memory_only() -> None:
    path = CONTENT / "burning-desire" / "game.yaml"
    before = path.read_bytes()
    content = load_game(CONTENT / "burning-desire")
    changed = with_settings(content, {"rules.threshold": 300,
                                      "rules.combinations.0.points": [15, 25, 60, 120, 250, 500]})
    assert changed.data["rules"]["threshold"] == 300 and content.data["rules"]["threshold"] == 1000
    assert changed.data["rules"]["combinations"][0]["points"][0] == 15
    assert path.read_bytes() == before
    short = simulate(rules_with(CONTENT, "burning-desire", {"rules.threshold": 300}), 6, 2, ["optimal"] * 2)
    long = simulate(rules_with(CONTENT, "burning-desire", {}), 6, 2, ["optimal"] * 2)
    assert short.stats["turns per player"] * 2 < long.stats["turns per player"]


@pytest.mark.parametrize(("setting", "message"), [
    ("rules.treshold=1", "--set rules.treshold=1: unknown key 'treshold' (did you mean 'threshold'?)"),
    ("rules.threshold=abc", "--set rules.threshold=abc: rules.threshold: expected an integer, found 'abc'"),
    ("rulez.threshold=1", "--set rulez.threshold: no key 'rulez' under the top of game.yaml (did you mean 'rules'?)"),
    ("rules.combinations.9.points=1", "--set rules.combinations.9.points: '9' is not an index of the 3 items"),
    ("rulebook.x=1", "--set rulebook.x: rulebook is a file name (the values are in that file), so it has no 'x'"),
])
def test_a_bad_key_or_value_is_one_line(setting: str, message: str, run_pnpgen, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_pnpgen("sweep", "burning-desire", "--set", setting, "-n", "3", "--content", str(CONTENT),
                                "--out", str(tmp_path))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"error: {message}"), err
    assert not any(tmp_path.iterdir())


def test_sweep_two_parameters_three_values(run_pnpgen, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    args = ("sweep", "burning-desire", "--set", "rules.threshold=400,800,1200", "--set",
            "rules.rolls_per_turn=2,3,4", "-n", "12", "--seed", "3", "--bots", BOTS, "-q",
            "--content", str(CONTENT), "--out", str(tmp_path / "out"))
    code, out, err = run_pnpgen(*args)
    assert code == 0, err
    data = json.loads((tmp_path / "out" / "burning-desire" / "burning-desire-sweep.json").read_text())
    points = data["points"]
    assert [(p["set"]["rules.threshold"], p["set"]["rules.rolls_per_turn"]) for p in points] == [
        (t, r) for t in (400, 800, 1200) for r in (2, 3, 4)]
    assert not any(p["cached"] for p in points)
    for point in points[:2] + points[-1:]:  # each point alone: its printed seed, its values
        assert point["seed"] == point_seed(3, point["set"]) and str(point["seed"]) in out
        alone = simulate(rules_with(CONTENT, "burning-desire", point["set"]), 12, point["seed"], BOTS.split(","))
        assert alone.to_data() == point["summary"]
    lengths = {p["set"]["rules.threshold"]: p["metrics"]["game length (player moves)"]["value"]
               for p in points if p["set"]["rules.rolls_per_turn"] == 3}
    assert lengths[400] < lengths[800] < lengths[1200]  # the YAML drove the games
    for p in points:
        low, high = p["metrics"]["seat 1 win rate"]["interval95"]
        assert low <= p["metrics"]["seat 1 win rate"]["value"] <= high
        assert set(p["metrics"]) >= {"first-player advantage", "ended: final_round", "seat 3 win rate"}
    pdf = PdfReader(tmp_path / "out" / "burning-desire" / "burning-desire-sweep.pdf")
    text = " ".join(page.extract_text() for page in pdf.pages)
    for title in ("seat 1 win rate vs rules.threshold", "first-player advantage vs rules.rolls_per_turn",
                  "game length (player moves) vs rules.threshold", "ended: final_round vs rules.rolls_per_turn"):
        assert title in text
    # again: every point from the cache, the same figures
    code, out, err = run_pnpgen(*args)
    again = json.loads((tmp_path / "out" / "burning-desire" / "burning-desire-sweep.json").read_text())
    assert code == 0 and all(p["cached"] for p in again["points"])
    assert [p["summary"] for p in again["points"]] == [p["summary"] for p in points]


def _ctrl_c_at_point(point: int, played: list[int]) -> Callable[..., object]:
    """simulate() that counts its calls in `played` and is Ctrl-C'd at call `point` (1-based)."""
    def simulate_or_ctrl_c(*args: object, **options: object) -> object:
        played.append(1)
        if len(played) == point:
            raise KeyboardInterrupt
        return simulate(*args, **options)  # type: ignore[arg-type]

    return simulate_or_ctrl_c


def test_ctrl_c_keeps_the_finished_points_and_the_rerun_resumes(run_pnpgen, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                   monkeypatch) -> None:
    import pnpgen.sweep

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    args = ("sweep", "burning-desire", "--set", "rules.threshold=400,800,1200", "-n", "6", "--seed", "3",
            "--bots", BOTS, "-q", "--content", str(CONTENT), "--out", str(tmp_path / "out"))
    played: list[int] = []
    monkeypatch.setattr(pnpgen.sweep, "simulate", _ctrl_c_at_point(3, played))
    code, out, err = run_pnpgen(*args)
    assert code == 130
    assert err == ("interrupted: 2 of 3 points finished (sweep seed 3); no PDF was written. "
                   "Finished points are cached: the same command resumes after them\n")
    for threshold in (400, 800):  # the finished points' table and seeds are shown
        assert f"seed {point_seed(3, {'rules.threshold': threshold})}: rules.threshold={threshold}" in out
    assert "rules.threshold=1200" not in out
    assert not [*(tmp_path / "out").rglob("*.pdf"), *(tmp_path / "out").rglob("*.json")]  # nothing written
    played.clear()
    code, out, err = run_pnpgen(*args)  # the rerun plays only the point that was dropped
    data = json.loads((tmp_path / "out" / "burning-desire" / "burning-desire-sweep.json").read_text())
    assert code == 0 and len(played) == 1
    assert [p["cached"] for p in data["points"]] == [True, True, False]


def test_ctrl_c_with_json_gives_the_finished_points_in_an_envelope(run_pnpgen, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                     monkeypatch) -> None:
    import pnpgen.sweep

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    played: list[int] = []
    monkeypatch.setattr(pnpgen.sweep, "simulate", _ctrl_c_at_point(2, played))
    code, out, err = run_pnpgen("sweep", "burning-desire", "--set", "rules.threshold=400,800", "-n", "4",
                                "--seed", "5", "--bots", BOTS, "--json", "--content", str(CONTENT),
                                "--out", str(tmp_path / "out"))
    data = json.loads(out)
    line = ("interrupted: 1 of 2 points finished (sweep seed 5); no PDF was written. "
            "Finished points are cached: the same command resumes after them")
    assert code == 130 and data["ok"] is False and data["errors"][0]["message"] == line
    assert data["points"] == [{"seed": point_seed(5, {"rules.threshold": 400}), "settings": "rules.threshold=400"}]


@pytest.mark.parametrize(("low", "high", "rate", "ticks"), [
    (0.272, 0.466, True, ["25%", "30%", "35%", "40%", "45%", "50%"]),
    (-0.061, 0.133, True, ["-10%", "-5%", "0%", "+5%", "+10%", "+15%"]),
    (0.9863, 1.0, True, ["98.5%", "99.0%", "99.5%", "100.0%"]),
    (69.0, 151.0, False, ["60", "80", "100", "120", "140", "160"]),
    (0.8, 1.3, False, ["0.8", "0.9", "1.0", "1.1", "1.2", "1.3"]),
])
def test_chart_axes_tick_at_round_values(low: float, high: float, rate: bool, ticks: list[str]) -> None:
    lo, hi, step = _axis_range(low, high, rate)
    assert lo <= low and hi >= high
    signed = low < 0
    assert [_tick(lo + step * i, step, rate, signed) for i in range(round((hi - lo) / step) + 1)] == ticks
