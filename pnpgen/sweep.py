"""`pnpgen sweep GAME --set KEY=V1,V2,… [--set …] --games N`: a balance sweep.

Every combination of the values (the grid) is a *point*: the game with those values set in
memory (pnpgen.content.override, checked by the same schema as the YAML; no file is
written), simulated for N games with the point's own seed. A point's seed is derived from
the sweep seed and the point's values only, so it does not move when the grid grows, and
`pnpgen simulate GAME --set KEY=V … --seed S -n N` replays one point alone.

Points are kept in the figures cache (pnpgen.engine.figures: keyed by the game folder's
hash, pnpgen's code, Python, and the point's values, games, seed and bots), so a sweep run
again, or grown by a value, simulates only the new points.

Output: a table (stdout), `<game>-sweep.json` and `<game>-sweep.pdf` with a chart of every
metric against every parameter (the other parameters as separate lines), with 95%
intervals: win rate per seat and end-condition shares (Wilson), first-player advantage
(seat 1's Wilson interval minus the fair share), mean game length (normal).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnpgen import __version__
from pnpgen.content.game import load_games
from pnpgen.content.override import describe, with_settings
from pnpgen.engine.collection import pick_game
from pnpgen.engine.figures import cached
from pnpgen.engine.metrics import wilson_interval
from pnpgen.engine.protocol import Rules
from pnpgen.engine.simulate import OnGames, Runner, simulate
from pnpgen.errors import Interrupted, PnpgenError, UnknownGame
from pnpgen.games import rules_for_content
from pnpgen.output import atomic_output, clean_stale_parts
from pnpgen.render.fonts import SANS
from pnpgen.render.paper import paper_points
from pnpgen.render.pdf import new_canvas
from pnpgen.report import GRID, INK, content_version, page_heading

Grid = list[tuple[str, list[Any]]]  # each YAML key swept, with its values
S = TypeVar("S")
M = TypeVar("M")

MAX_POINTS = 1000
SERIES = [(0.22, 0.42, 0.69), (0.85, 0.37, 0.05), (0.2, 0.6, 0.3), (0.6, 0.3, 0.65), (0.55, 0.45, 0.2),
          (0.1, 0.65, 0.7), (0.8, 0.25, 0.45), (0.45, 0.45, 0.45)]


def rules_with(root: Path, game: str, settings: Mapping[str, object]) -> Rules[Any, Any]:
    """The game `game` with `settings` applied in memory; errors name the settings."""
    (content,) = load_games(root, [game])
    if settings:
        content = with_settings(content, settings)
        try:
            games = rules_for_content(content)
        except PnpgenError as err:
            raise PnpgenError(f"--set {describe(settings)}: {err.message}") from err
    else:
        games = rules_for_content(content)
    picked = pick_game(games, game, content.id)
    if picked is None:
        raise UnknownGame(f"'{game}' names no single playable game", root)
    return picked


def grid(params: Grid) -> list[dict[str, object]]:
    """Every combination of the values, the last parameter varying fastest."""
    points = [dict(zip([k for k, _ in params], combo, strict=True))
              for combo in itertools.product(*[values for _, values in params])]
    if len(points) > MAX_POINTS:
        raise PnpgenError(f"the grid has {len(points):,} points; at most {MAX_POINTS:,}")
    return points


def point_seed(seed: int, settings: Mapping[str, object]) -> int:
    """A point's seed: from the sweep seed and the point's values only."""
    text = json.dumps([seed, sorted((k, repr(v)) for k, v in settings.items())])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") % (2**31 - 1) + 1


@dataclass
class Point:
    settings: Mapping[str, object]
    seed: int
    summary: dict[str, Any]  # Summary.to_data()
    cached: bool

    def metrics(self, ends: list[str]) -> dict[str, tuple[float, float, float]]:
        """metric -> (value, low, high) at 95%."""
        s = self.summary
        n, players = s["games"], s["players"]
        out: dict[str, tuple[float, float, float]] = {}
        for seat in s["seats"]:
            low, high = seat["interval95"]
            out[f"seat {seat['seat']} win rate" if players > 1 else "win rate"] = (seat["win_rate"], low, high)
        if players > 1:
            rate, (low, high) = s["seats"][0]["win_rate"], s["seats"][0]["interval95"]
            fair = 1 / players
            out["first-player advantage"] = (rate - fair, low - fair, high - fair)
        length = s["length"]
        low, high = length["interval95"]
        out["game length (player moves)"] = (length["mean_player_moves"], low, high)
        for end in ends:
            count = s["ends"].get(end, 0)
            low, high = wilson_interval(count, n)
            out[f"ended: {end}"] = (count / n if n else 0.0, low, high)
        return out


@dataclass
class Sweep:
    game: str
    title: str
    games: int
    seed: int
    bots: list[str]
    params: Grid
    points: list[Point]
    runner: str
    content: dict[str, str]

    @property
    def ends(self) -> list[str]:
        return sorted({end for p in self.points for end in p.summary["ends"]})

    def to_data(self) -> dict[str, object]:
        return {
            "game": self.game, "title": self.title, "pnpgen": __version__, "content": self.content,
            "games_per_point": self.games, "seed": self.seed, "bots": self.bots,
            "seed_rule": "a point's seed = point_seed(seed, its values); game i of a point uses "
                         "derive_seed(point seed, i); bots rotate one seat per game",
            "parameters": [{"key": k, "values": v} for k, v in self.params],
            "points": [{"set": p.settings, "seed": p.seed, "cached": p.cached,
                        "replay": replay_command(self.game, p, self.games, self.bots),
                        "metrics": {k: {"value": v, "interval95": [lo, hi]}
                                    for k, (v, lo, hi) in p.metrics(self.ends).items()},
                        "summary": p.summary} for p in self.points],
        }


def replay_command(game: str, point: Point, games: int, bots: list[str]) -> str:
    sets = " ".join(f"--set '{part}'" for part in describe(point.settings).split(" ") if part)
    return f"pnpgen simulate {game} {sets} -n {games} --seed {point.seed} --bots {','.join(bots)}"


def plan_sweep(root: Path, game: str, params: Grid,
               bots: list[str]) -> list[tuple[dict[str, object], Rules[Any, Any]]]:
    """Every point with its rules: every bad key or value is found before any game is played."""
    planned = []
    for settings in grid(params):
        rules = rules_with(root, game, settings)
        if not rules.min_players <= len(bots) <= rules.max_players:
            raise PnpgenError(f"--set {describe(settings)}: {rules.id} takes {rules.min_players}–"
                              f"{rules.max_players} players, got {len(bots)}")
        planned.append((settings, rules))
    return planned


def run_sweep(planned: list[tuple[dict[str, object], Rules[S, M]]], params: Grid,
              games: int, seed: int, bots: list[str], runner: Runner, on_games: OnGames | None = None,
              on_point: Callable[[Point], None] | None = None) -> Sweep:
    points = [settings for settings, _ in planned]
    ruleset = [rules for _, rules in planned]
    done: list[Point] = []
    try:
        for settings, rules in zip(points, ruleset, strict=True):
            done.append(_run_point(settings, rules, games, seed, bots, runner, on_games))
            if on_point:
                on_point(done[-1])
    except (KeyboardInterrupt, Interrupted):
        raise SweepInterrupted(_sweep(ruleset[0], games, seed, bots, params, done, runner)) from None
    return _sweep(ruleset[0], games, seed, bots, params, done, runner)


class SweepInterrupted(Interrupted):
    """Ctrl-C during a sweep: `done` holds the points that finished (each is in the cache, so
    the same command resumes after them); the point being played is dropped."""

    def __init__(self, done: Sweep) -> None:
        super().__init__()
        self.done = done


def _sweep(base: Rules[S, M], games: int, seed: int, bots: list[str], params: Grid,
           points: list[Point], runner: Runner) -> Sweep:
    return Sweep(base.id, base.content.title("en"), games, seed, bots, params, points, runner.description,
                 content_version(base))


def _run_point(settings: dict[str, object], rules: Rules[S, M], games: int, seed: int, bots: list[str],
               runner: Runner, on_games: OnGames | None) -> Point:
    """One point's games, from the cache when an earlier sweep played them."""
    pseed = point_seed(seed, settings)
    key = json.dumps({"game": rules.id, "set": describe(settings), "games": games, "seed": pseed,
                      "bots": bots}, sort_keys=True)
    computed: list[bool] = []

    def compute() -> dict[str, object]:
        computed.append(True)
        return simulate(rules, games, pseed, bots, runner=runner, on_games=on_games).to_data()

    def valid(data: object) -> bool:
        return isinstance(data, dict) and data.get("games") == games and data.get("seed") == pseed

    data = cached("sweep", rules.content.folder, key, compute, valid)
    if not computed and on_games:
        on_games(games)
    return Point(settings, pseed, data, cached=not computed)


def sweep_table(sweep: Sweep) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the sweep's table: the values, then each metric as its value over
    its 95% interval (rates in percent; the points' seeds are printed on lines of their own)."""
    keys = [key for key, _ in sweep.params]
    names = list(sweep.points[0].metrics(sweep.ends))
    rows = []
    for point in sweep.points:
        row = [_label(point.settings[k]) + (" (cached)" if point.cached else "") for k in keys[:1]]
        row += [_label(point.settings[k]) for k in keys[1:]]
        for name, (value, low, high) in point.metrics(sweep.ends).items():
            if name.startswith("game length"):
                row.append(f"{value:.1f}\n{low:.0f}–{high:.0f}")
            else:
                sign = "+" if "advantage" in name else ""
                row.append(f"{value * 100:{sign}.1f}\n{low * 100:{sign}.0f}–{high * 100:{sign}.0f}")
        rows.append(row)
    headers = [key.replace(".", ".\n") for key in keys]  # a narrow terminal breaks keys at their dots
    return headers + [name if name.startswith("game length") else f"{name} %" for name in names], rows


def sweep_paths(sweep: Sweep, out: Path) -> tuple[Path, Path]:
    name = sweep.game.split("/")[-1]
    folder = out / sweep.game.split("/")[0]
    return folder / f"{name}-sweep.pdf", folder / f"{name}-sweep.json"


def write_sweep(sweep: Sweep, out: Path) -> tuple[Path, Path]:
    pdf_path, json_path = sweep_paths(sweep, out)
    clean_stale_parts(pdf_path.parent)
    with atomic_output(json_path) as tmp:
        tmp.write_text(json.dumps(sweep.to_data(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    with atomic_output(pdf_path) as tmp:
        canvas = new_canvas(tmp, paper_points("A4"), f"{sweep.title} — balance sweep")
        _draw(canvas, sweep)
        canvas.save()
    return pdf_path, json_path


# --- drawing ------------------------------------------------------------------------------

def _draw(c: Canvas, sweep: Sweep) -> None:
    width, height = c._pagesize
    left = 16 * mm
    lines = [
        f"Game {sweep.game} · content version {sweep.content['version']} · hash {sweep.content['sha256']} · "
        f"pnpgen {__version__}",
        f"{len(sweep.points)} points × {sweep.games} games, sweep seed {sweep.seed} (each point's seed in the "
        f"JSON), bots {', '.join(sweep.bots)} rotated one seat per game",
        "Parameters: " + "; ".join(f"{k} = {', '.join(_label(v) for v in vals)}" for k, vals in sweep.params),
        "Error bars: 95% intervals (Wilson for rates and shares; normal for the mean length).",
    ]
    y = page_heading(c, left, (f"{sweep.title} — balance sweep", 16), lines, (8.5, 6 * mm, 4.2 * mm))
    charts = [(metric, key) for key, _ in sweep.params for metric in sweep.points[0].metrics(sweep.ends)]
    chart_w = (width - 2 * left - 12 * mm) / 2
    chart_h = 52 * mm
    row_h = chart_h + 24 * mm
    y -= 4 * mm
    for i, (metric, key) in enumerate(charts):
        column = i % 2
        if column == 0 and y - row_h < 10 * mm:
            c.showPage()
            y = height - 16 * mm
        if column == 0:
            y -= row_h
        _chart(c, left + column * (chart_w + 12 * mm), y + 14 * mm, chart_w, chart_h, sweep, metric, key)
    c.showPage()


def _label(value: object) -> str:
    return describe({"k": value})[2:]


def _chart(c: Canvas, x: float, y: float, w: float, h: float, sweep: Sweep, metric: str, key: str) -> None:
    values = next(vals for k, vals in sweep.params if k == key)
    others = [k for k, _ in sweep.params if k != key]
    series: dict[str, list[tuple[int, tuple[float, float, float]]]] = {}
    for point in sweep.points:
        label = describe({k: point.settings[k] for k in others}) or "all points"
        index = next(i for i, v in enumerate(values) if repr(v) == repr(point.settings[key]))
        series.setdefault(label, []).append((index, point.metrics(sweep.ends)[metric]))
    c.setFillColorRGB(*INK)
    c.setFont(SANS, 9.5)
    c.drawString(x, y + h + 3 * mm, f"{metric} vs {key}")
    lows = [m[1] for s in series.values() for _, m in s]
    highs = [m[2] for s in series.values() for _, m in s]
    rate = "rate" in metric or metric.startswith("ended") or "advantage" in metric
    lo, hi, step = _axis_range(min(lows), max(highs), rate)
    x0, w0 = x + 11 * mm, w - 11 * mm
    c.setFont(SANS, 6.5)
    for t in range(round((hi - lo) / step) + 1):  # grid and labels at round values
        value = lo + step * t
        ty = y + h * (value - lo) / (hi - lo)
        c.setStrokeColorRGB(*GRID)
        c.setLineWidth(0.4)
        c.line(x0, ty, x0 + w0, ty)
        c.setFillColorRGB(*INK)
        c.drawRightString(x0 - 1.2 * mm, ty - 2, _tick(value, step, rate, "advantage" in metric))
    if "advantage" in metric and lo < 0 < hi:  # no advantage
        zy = y + h * (0 - lo) / (hi - lo)
        c.setStrokeColorRGB(*INK)
        c.setDash(2, 2)
        c.line(x0, zy, x0 + w0, zy)
        c.setDash()
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.8)
    c.line(x0, y, x0 + w0, y)
    c.line(x0, y, x0, y + h)
    slot = w0 / len(values)
    c.setFillColorRGB(*INK)
    for i, value in enumerate(values):
        c.drawCentredString(x0 + slot * (i + 0.5), y - 3.2 * mm, _label(value)[:18])
    count = len(series)
    spread = min(slot * 0.5, 4 * mm * count)
    for s_index, (label, marks) in enumerate(series.items()):
        colour = SERIES[s_index % len(SERIES)]
        offset = (s_index - (count - 1) / 2) * (spread / max(1, count - 1)) if count > 1 else 0.0
        c.setStrokeColorRGB(*colour)
        c.setFillColorRGB(*colour)
        c.setLineWidth(0.9)

        def at(v: float) -> float:
            return y + h * (v - lo) / (hi - lo)

        path = [(x0 + slot * (i + 0.5) + offset, m) for i, m in sorted(marks)]
        for (ax, am), (bx, bm) in itertools.pairwise(path):
            c.line(ax, at(am[0]), bx, at(bm[0]))
        for px, (value, low, high) in path:
            c.line(px, at(low), px, at(high))
            c.line(px - 1 * mm, at(low), px + 1 * mm, at(low))
            c.line(px - 1 * mm, at(high), px + 1 * mm, at(high))
            c.circle(px, at(value), 0.9 * mm, stroke=0, fill=1)
        if count > 1:  # legend under the axis
            lx = x0 + (s_index % 2) * w0 / 2
            ly = y - 7.5 * mm - (s_index // 2) * 3.4 * mm
            c.rect(lx, ly, 2.4 * mm, 2.4 * mm, stroke=0, fill=1)
            c.setFillColorRGB(*INK)
            c.setFont(SANS, 6.5)
            c.drawString(lx + 3.4 * mm, ly + 0.3 * mm, label[:48])


def _tick(value: float, step: float, rate: bool, signed: bool) -> str:
    """An axis label with the decimals its step needs (rates in percent)."""
    if rate:
        value, step = value * 100, step * 100
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    if step * 10**decimals % 1 > 1e-6:  # a step of 2.5, 0.25…
        decimals += 1
    text = f"{value:{'+' if signed and abs(value) > step / 1e6 else ''}.{decimals}f}"
    return text + ("%" if rate else "")


def _axis_range(low: float, high: float, rate: bool, ticks: int = 5) -> tuple[float, float, float]:
    """Axis ends and tick step around [low, high]: round values (1, 2, 2.5 or 5 × 10^k apart),
    about `ticks` intervals; rates stay within -1..1."""
    if high - low < 1e-9:
        pad = 0.05 if rate else max(1.0, abs(low) * 0.1)
        low, high = low - pad, high + pad
    raw = (high - low) / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    low, high = math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step
    if rate:
        low, high = max(-1.0, low), min(1.0, high)
    return low, high, step
