"""`pnpgen report GAME`: a simulation report as PDF (vector charts) and JSON.

The report states everything needed to reproduce it: seeds, bots and their
settings, the number of games, and the content version (game.yaml `version` plus
a hash of every file in the game folder).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from pnpgen import __version__
from pnpgen.engine.bots import scaled_bot, simulation_bots
from pnpgen.engine.capabilities import bot_methods
from pnpgen.engine.figures import folder_digest
from pnpgen.engine.mcts import DEFAULT_ITERATIONS, EXPLORATION
from pnpgen.engine.metrics import histogram, wilson_interval
from pnpgen.engine.protocol import Rules
from pnpgen.engine.simulate import (
    TALLY,
    OnGames,
    OutOfTime,
    ProcessRunner,
    Runner,
    SkillCheck,
    Summary,
    Tally,
    local_runner,
    simulate,
    skill_check,
    tally_groups,
)
from pnpgen.output import atomic_output, clean_stale_parts
from pnpgen.render.fonts import SANS
from pnpgen.render.kit.ruled import PAD, Cell, Ink, PlainPaint, draw_cells, one_line
from pnpgen.render.kit.tiling import Box, Frame
from pnpgen.render.paper import paper_points
from pnpgen.render.pdf import new_canvas

S = TypeVar("S")
M = TypeVar("M")

INK = (0.1, 0.1, 0.12)
BAR = (0.22, 0.42, 0.69)
ACCENT = (0.85, 0.37, 0.05)
GRID = (0.82, 0.82, 0.85)


DEFAULT_SKILL_BOT = "mcts:10"
DEFAULT_SKILL_GAMES = 40


def skill_defaults(rules: Rules[S, M]) -> tuple[str | None, int]:
    """The skill check a game asks for (game.yaml `simulation: skill_bot`, `skill_games`;
    skill_bot "none" skips it), else the defaults."""
    sim = rules.content.data.get("simulation", {}) or {}
    bot = str(sim.get("skill_bot", DEFAULT_SKILL_BOT))
    return (None if bot.lower() == "none" else bot), int(sim.get("skill_games", DEFAULT_SKILL_GAMES))


DEFAULT_BUDGET = 45.0  # seconds of simulation: with start-up and drawing, a report in under a minute
TARGET_WIDTH = 0.02  # a part whose widest 95% interval is this narrow gets no more games
MAX_BUDGET_GAMES = 1_000_000
BATCH_SHARE = 0.4  # of the time left, what one batch may be planned to take
LAST_BATCH_SHARE = 0.8  # ... and a last batch of one game per worker


@dataclass
class ReportOptions:
    games: int = 500
    seed: int = 1
    bots: list[str] = field(default_factory=list)  # per seat; empty: the game's simulation bots
    workers: int = 1
    skill_bot: str | None = DEFAULT_SKILL_BOT  # None: no skill check
    skill_games: int = DEFAULT_SKILL_GAMES
    out: Path = Path("build")
    budget: float | None = None  # seconds: play as many games as fit instead of `games` and `skill_games`
    runner: Runner | None = None  # where games are played (default: `workers` local processes)


@dataclass
class _Part:
    """One estimate the report makes: the main simulation, or the skill check (one run, or
    two for a solo game), grown batch by batch from game 0 on."""

    name: str
    runs: list[list[str]]  # bots per seat of each run
    tallies: list[Tally]
    games: int = 0
    seconds_per_game: float | None = None
    done: bool = False
    largest_batch: int = MAX_BUDGET_GAMES  # halved when a batch runs out of time

    def width(self) -> float:
        """The widest 95% interval this part reports (1 before any game)."""
        if not self.games:
            return 1.0
        tally = self.tallies[-1]
        if self.name == "skill" and len(tally.seat_wins) > 1:  # the strong bot's win share
            strong = self.runs[0][0]
            low, high = wilson_interval(float(tally.bot_wins.get(strong, 0)), self.games)
            return high - low
        return max(high - low for low, high in (wilson_interval(float(w), self.games) for w in tally.seat_wins))


def budgeted_runs(rules: Rules[S, M], options: ReportOptions, bots: list[str], runner: Runner,
                  on_games: OnGames | None = None, clock: Callable[[], float] = time.monotonic
                  ) -> tuple[Summary, SkillCheck | None, dict[str, Any]]:
    """As many games as fit in `options.budget` seconds, each batch given to the part (main
    simulation or skill check) whose widest interval is widest now. Game counts grow from 0,
    so the result equals a run with those counts (`--games N --skill-games M`)."""
    assert options.budget is not None
    start = clock()
    players = len(bots)
    parts = [_Part("main", [bots], [Tally(players)])]
    if options.skill_bot:
        strong = scaled_bot(options.skill_bot, 4)
        runs = [[options.skill_bot], [strong]] if players == 1 else [[strong] + [options.skill_bot] * (players - 1)]
        parts.append(_Part("skill", runs, [Tally(players) for _ in runs]))
    slots = max(1, runner.workers)
    main_first = options.budget / 3  # the main simulation's time before the skill check may start
    while True:
        used = clock() - start
        left = options.budget - used
        open_parts = [p for p in parts if not p.done and p.width() > TARGET_WIDTH]
        if left <= 0 or not open_parts:
            break
        part = max(open_parts, key=lambda p: p.width())  # the widest interval first (main on a tie)
        if parts[0] in open_parts and used < main_first:
            part = parts[0]
        if part.seconds_per_game is None:
            batch = slots  # a first game per worker: what one costs is unknown
        else:
            # at most doubling, and within BATCH_SHARE of the time left: game lengths vary, and a
            # batch the clock stops is lost, so the last batches shrink instead of one large gamble
            # (a batch smaller than the workers takes as long as one game on each)
            horizon = left * BATCH_SHARE
            if part is parts[0] and len(open_parts) > 1 and used < main_first:
                horizon = min(horizon, main_first - used)  # the other parts start on time
            fit = int(horizon / part.seconds_per_game)
            if fit < slots and part.seconds_per_game * slots <= left * LAST_BATCH_SHARE:
                fit = slots  # one more game per worker still fits: the time is not left unused
            batch = min(max(part.games, slots), fit, part.largest_batch, MAX_BUDGET_GAMES - part.games)
            if batch < 1 or part.seconds_per_game * max(batch, slots) > left:
                part.done = True
                continue
        began = clock()
        try:  # a batch the budget stops is not counted (every run of it or none): the counts stay exact
            # a part's first games may be very long: they get half of what is left while another
            # part could use the rest
            alone = open_parts == [part]
            share = left if part.seconds_per_game is not None or part is parts[0] or alone else left / 2
            fresh = [runner.tally(rules, run, options.seed, part.games, part.games + batch, on_games=on_games,
                                  timeout=max(0.5, share - (clock() - began)))
                     for run in part.runs]
        except OutOfTime:  # longer games than measured: try half as many while time is left
            part.largest_batch = batch // 2
            part.done = part.largest_batch < 1 or part.seconds_per_game is None
            continue
        for tally, new in zip(part.tallies, fresh, strict=True):
            tally.merge(new)
        part.games += batch
        part.seconds_per_game = max(1e-6, (clock() - began) / max(batch, slots))
    main = parts[0]
    summary = main.tallies[0].summary(rules.id, options.seed, bots)
    check = None
    if options.skill_bot and parts[1].games:
        skill = parts[1]
        strong = scaled_bot(options.skill_bot, 4)
        if players == 1:
            weak_s = skill.tallies[0].summary(rules.id, options.seed, skill.runs[0])
            strong_s = skill.tallies[1].summary(rules.id, options.seed, skill.runs[1])
            wins = strong_s.seat_wins[0]
            check = SkillCheck(options.skill_bot, strong, skill.games, options.seed, wins,
                               wilson_interval(wins, skill.games), weak_s.win_rate(0))
        else:
            skill_s = skill.tallies[0].summary(rules.id, options.seed, skill.runs[0])
            wins = skill_s.bot_wins.get(strong, 0.0)
            check = SkillCheck(options.skill_bot, strong, skill.games, options.seed, wins,
                               wilson_interval(wins, skill.games), 1.0 / players)
    used = clock() - start
    budget = {"seconds": options.budget, "used_seconds": round(used, 1), "games": main.games,
              "skill_games": parts[1].games if len(parts) > 1 else 0, "runner": runner.description,
              "rule": "batches go to the part whose widest 95% interval is widest; a part stops at "
                      f"width {TARGET_WIDTH:g} or when the next batch no longer fits",
              "replay": f"--games {main.games} " + (f"--skill-games {check.games}" if check else "--skill none")}
    if options.skill_bot and not check:
        budget["skill_check"] = (f"left out: {options.skill_bot} games did not finish within the budget "
                                 "(give --skill-games N to play them anyway)")
    return summary, check, budget


def content_version(rules: Rules[S, M]) -> dict[str, str]:
    """game.yaml `version` and a SHA-256 over every file of the game folder."""
    digest, files = folder_digest(rules.content.folder)
    return {"version": str(rules.content.data.get("version", "")), "sha256": digest[:16], "files": str(files)}


def mcts_settings(rules: Rules[S, M]) -> str:
    cut = int((rules.content.data.get("simulation", {}) or {}).get("mcts_playout", 0))
    playouts = f"random playouts cut at {cut} steps and judged by evaluate()" if cut else "random playouts to the end"
    return f"mcts:N = UCT, N iterations (default {DEFAULT_ITERATIONS}), exploration {EXPLORATION}, {playouts}"


def report_paths(rules: Rules[S, M], out: Path) -> tuple[Path, Path]:
    name = rules.id.split("/")[-1] if "/" in rules.id else rules.id
    folder = out / rules.content.id
    return folder / f"{name}-report.pdf", folder / f"{name}-report.json"


def analyse(rules: Rules[S, M], options: ReportOptions,
            on_games: object = None) -> tuple[Summary, SkillCheck | None, dict[str, Any]]:
    runner = options.runner or local_runner(options.workers)
    if options.budget is not None and type(runner) is Runner:
        runner = ProcessRunner(1)  # a budget stops games that outlast it: they need a process of their own
    if runner is options.runner:
        return _analyse(rules, options, runner, on_games)
    with runner:
        return _analyse(rules, options, runner, on_games)


def _analyse(rules: Rules[S, M], options: ReportOptions, runner: Runner,
             on_games: Any) -> tuple[Summary, SkillCheck | None, dict[str, Any]]:
    bots = options.bots or simulation_bots(rules)
    budget = None
    if options.budget is not None:
        summary, check, budget = budgeted_runs(rules, options, bots, runner, on_games)
        options = replace(options, games=summary.games, skill_games=check.games if check else 0)
    else:
        summary = simulate(rules, options.games, options.seed, bots, runner=runner, on_games=on_games)
        check = None
        if options.skill_bot:
            check = skill_check(rules, options.skill_bot, len(bots), options.skill_games, options.seed,
                                runner=runner, on_games=on_games)
    data = {
        "game": rules.id,
        "title": rules.content.title("en"),
        "pnpgen": __version__,
        "content": content_version(rules),
        "settings": {"games": options.games, "seed": options.seed, "bots": bots,
                     "mcts": mcts_settings(rules),
                     "bot_methods": {b: m for b, m in bot_methods(rules).items() if b in bots},
                     "seed_rule": "game i uses derive_seed(seed, i); bots rotate one seat per game",
                     "skill_bot": options.skill_bot, "skill_games": options.skill_games},
        "end_labels": rules.end_conditions(),
        "summary": summary.to_data(),
        "skill_check": check.to_data() if check else None,
        "budget": budget,
    }
    return summary, check, data


def write_report(rules: Rules[S, M], options: ReportOptions,
                 on_games: object = None) -> tuple[Path, Path]:
    summary, check, data = analyse(rules, options, on_games)
    pdf_path, json_path = report_paths(rules, options.out)
    clean_stale_parts(pdf_path.parent)
    with atomic_output(json_path) as tmp:
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    with atomic_output(pdf_path) as tmp:
        canvas = new_canvas(tmp, paper_points("A4"),
                            f"{rules.content.title('en')} — simulation report")
        _draw(canvas, rules, summary, check, data)
        canvas.save()
    return pdf_path, json_path


# --- drawing ------------------------------------------------------------------------------

def _draw(c: Canvas, rules: Rules[S, M], summary: Summary, check: SkillCheck | None,
          data: dict[str, Any]) -> None:
    width, _ = c._pagesize
    left = 18 * mm
    version = data["content"]
    lines = [
        f"Game {rules.id} · content version {version['version']} · content hash {version['sha256']} "
        f"({version['files']} files) · pnpgen {data['pnpgen']}",
        f"{summary.games} games, seed {summary.seed} (game i uses derive_seed(seed, i)), "
        f"bots per seat {', '.join(summary.bots)}, rotated one seat per game",
    ]
    if check:
        lines.append(f"Skill check: {check.strong} against {check.weak}, {check.games} games, seed {check.seed}")
    if data.get("budget"):
        b = data["budget"]
        lines.append(f"Budget: {b['used_seconds']:g} s of {b['seconds']:g} s on {b['runner']}, spent where the "
                     f"95% intervals were widest; the same figures again: {b['replay']}")
        if b.get("skill_check"):
            lines.append(f"Skill check {b['skill_check']}")
    note = (rules.content.data.get("simulation") or {}).get("report_note")
    if note:
        lines.append(str(note))
    if check or any(b.startswith("mcts") for b in summary.bots):
        lines.append(data["settings"]["mcts"])
    lines += [f"Bot {name}: {method}" for name, method in data["settings"]["bot_methods"].items()]
    y = page_heading(c, left, (f"{data['title']} — simulation report", 17), lines, (9, 7 * mm, 4.5 * mm))
    chart_w = (width - 2 * left - 10 * mm) / 2
    chart_h = 62 * mm
    y -= chart_h + 8 * mm
    _win_chart(c, left, y, chart_w, chart_h, summary)
    _length_chart(c, left + chart_w + 10 * mm, y, chart_w, chart_h, summary)
    y -= 12 * mm
    labels = data["end_labels"]
    ends_h = 9 * mm * max(1, len(summary.ends)) + 10 * mm
    y -= ends_h
    _ends_chart(c, left, y, width - 2 * left, ends_h, summary, labels)
    y -= 10 * mm
    _figures(c, left, y, summary, check)
    c.showPage()


def page_heading(c: Canvas, margin: float, title: tuple[str, float], lines: list[str],
                 setting: tuple[float, float, float]) -> float:
    """A report page's heading: the title (text, size) at the top-left `margin`, then `lines`
    wrapped to the page's width, set as (size, gap under the title, leading); the y below them."""
    width, height = c._pagesize
    size, gap, leading = setting
    c.setFillColorRGB(*INK)
    c.setFont(SANS, title[1])
    c.drawString(margin, height - margin, title[0])
    c.setFont(SANS, size)
    y = height - margin - gap
    for part in (part for line in lines for part in simpleSplit(line, SANS, size, width - 2 * margin)):
        c.drawString(margin, y, part)
        y -= leading
    return y


def _title(c: Canvas, x: float, y: float, text: str) -> None:
    c.setFillColorRGB(*INK)
    c.setFont(SANS, 10.5)
    c.drawString(x, y, text)


def _axis(c: Canvas, x: float, y: float, w: float, h: float, top: float, ticks: int, spec: str) -> None:
    """Horizontal grid lines with labels on the left, from 0 to `top`, each written
    `format(value, spec)`."""
    c.setFont(SANS, 7)
    for i in range(ticks + 1):
        value = top * i / ticks
        ty = y + h * i / ticks
        c.setStrokeColorRGB(*GRID)
        c.setLineWidth(0.4)
        c.line(x, ty, x + w, ty)
        c.setFillColorRGB(*INK)
        c.drawRightString(x - 1.5 * mm, ty - 2.2, format(value, spec))
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.8)
    c.line(x, y, x + w, y)
    c.line(x, y, x, y + h)


def _win_chart(c: Canvas, x: float, y: float, w: float, h: float, s: Summary) -> None:
    _title(c, x, y + h + 4 * mm, "Win rate per seat, 95% Wilson intervals" if not s.solo
           else "Win rate, 95% Wilson interval")
    if not s.solo:
        c.setFont(SANS, 7)
        c.setFillColorRGB(*ACCENT)
        c.drawRightString(x + w, y - 7 * mm, "dashed line: fair share (1 / players)")
    x0, w0 = x + 9 * mm, w - 9 * mm
    _axis(c, x0, y, w0, h, 1.0, 4, ".0%")
    slot = w0 / s.players
    centres = [x0 + slot * (seat + 0.5) for seat in range(s.players)]
    for seat, cx in enumerate(centres):  # bars and error bars
        low, high = s.seat_intervals[seat]
        bw = min(slot * 0.55, 18 * mm)
        c.setFillColorRGB(*BAR)
        c.rect(cx - bw / 2, y, bw, h * s.win_rate(seat), stroke=0, fill=1)
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.9)
        c.line(cx, y + h * low, cx, y + h * high)
        for v in (low, high):
            c.line(cx - 2 * mm, y + h * v, cx + 2 * mm, y + h * v)
    if not s.solo:  # the fair share over the bars, under the labels
        fair = y + h / s.players
        c.setStrokeColorRGB(*ACCENT)
        c.setDash(3, 2)
        c.line(x0, fair, x0 + w0, fair)
        c.setDash()
    c.setFont(SANS, 7.5)
    for seat, cx in enumerate(centres):
        c.setFillColorRGB(*INK)
        c.drawCentredString(cx, y - 3.5 * mm, "solo player" if s.solo else f"seat {seat + 1}")
        label = f"{s.win_rate(seat):.1%}"
        half = c.stringWidth(label, SANS, 7.5) / 2 + 0.8 * mm
        ly = y + h * s.seat_intervals[seat][1] + 1.5 * mm
        c.setFillColorRGB(1, 1, 1)
        c.rect(cx - half, ly - 0.8 * mm, 2 * half, 3.6 * mm, stroke=0, fill=1)
        c.setFillColorRGB(*INK)
        c.drawCentredString(cx, ly, label)


def _length_chart(c: Canvas, x: float, y: float, w: float, h: float, s: Summary) -> None:
    _title(c, x, y + h + 4 * mm, "Game length (player moves per game)")
    bins = histogram(s.lengths, 14)
    x0, w0 = x + 9 * mm, w - 9 * mm
    peak = max((n for _, _, n in bins), default=1) or 1
    top = _nice(peak)
    _axis(c, x0, y, w0, h, top, 5 if top % 5 == 0 else 4, "g")
    if not bins:
        return
    bw = w0 / len(bins)
    c.setFont(SANS, 6.5)
    labels = [str(low) if low == high else f"{low}–{high}" for low, high, _ in bins]
    widest = max(c.stringWidth(text, SANS, 6.5) for text in labels) + 2 * mm
    stride = max(1, math.ceil(widest / bw))
    for i, (_, _, n) in enumerate(bins):
        c.setFillColorRGB(*BAR)
        c.setStrokeColorRGB(1, 1, 1)
        c.setLineWidth(0.5)
        c.rect(x0 + i * bw, y, bw, h * n / top, stroke=1, fill=1)
        if i % stride == 0:
            c.setFillColorRGB(*INK)
            c.drawCentredString(x0 + (i + 0.5) * bw, y - 3.2 * mm, labels[i])
    mean_x = x0 + w0 * (s.length_mean + 0.5 - bins[0][0]) / (bins[-1][1] + 1 - bins[0][0])
    c.setStrokeColorRGB(*ACCENT)
    c.setDash(3, 2)
    c.line(mean_x, y, mean_x, y + h)
    c.setDash()
    c.setFillColorRGB(*ACCENT)
    c.setFont(SANS, 7)
    c.drawString(mean_x + 1 * mm, y + h - 3 * mm, f"mean {s.length_mean:.1f}")


def _ends_chart(c: Canvas, x: float, y: float, w: float, h: float, s: Summary, labels: dict[str, str]) -> None:
    _title(c, x, y + h, "How games ended")
    label_w = 70 * mm
    row = 9 * mm
    bar_w = w - label_w - 20 * mm
    for i, (end, count) in enumerate(sorted(s.ends.items(), key=lambda kv: -kv[1])):
        ry = y + h - (i + 1) * row - 1 * mm
        share = count / s.games
        c.setFillColorRGB(*INK)
        c.setFont(SANS, 8)
        text = labels.get(end, end)
        c.drawString(x, ry + 1.5 * mm, (text[:46] + "…") if len(text) > 47 else text)
        c.setFillColorRGB(*(ACCENT if end == "timeout" else BAR))
        c.rect(x + label_w, ry, bar_w * share, 5 * mm, stroke=0, fill=1)
        c.setStrokeColorRGB(*GRID)
        c.rect(x + label_w, ry, bar_w, 5 * mm, stroke=1, fill=0)
        c.setFillColorRGB(*INK)
        c.drawString(x + label_w + bar_w + 2 * mm, ry + 1.5 * mm, f"{count} ({share:.1%})")


ROW_MIN = 4.2 * mm  # the closest the figures' rows are set (8.5 pt text) to keep them on one page


def _figures(c: Canvas, x: float, y: float, s: Summary, check: SkillCheck | None) -> None:
    _title(c, x, y, "Figures")
    rows: list[tuple[str, str]] = []
    for seat in range(s.players):
        low, high = s.seat_intervals[seat]
        label = "win rate" if s.solo else f"seat {seat + 1} win rate"
        rows.append((label, f"{s.win_rate(seat):.1%}  (95%: {low:.1%} – {high:.1%})"))
    if len(set(s.bots)) > 1:
        for bot, wins in sorted(s.bot_wins.items()):
            rows.append((f"win share of {bot}", f"{wins / s.games:.1%}"))
    if check:  # a headline figure: beside the win rates, not after the tallies
        lo, hi = check.interval
        rows.append((f"skill: {check.strong} vs {check.weak}, {check.games} games",
                     f"{check.rate:.1%} (95%: {lo:.1%} – {hi:.1%}) vs {check.fair_share:.1%}: {check.verdict}"))
    metrics = s.metrics()
    if metrics:
        rows += [
            ("first-player advantage (seat 1 − fair share)", f"{metrics['first_player_advantage']:+.1%}"),
            ("balance (1 − spread of seat win rates)", f"{metrics['balance']:.3f}"),
            ("decisiveness (games with a single winner)", f"{metrics['decisiveness']:.1%}"),
            ("draws (shared win or no winner)", f"{s.draws}"),
        ]
    rows.append(("timeouts (step cap reached)", f"{s.timeouts}"))
    low, high = s.length_interval
    dist = s.to_data()["length"]
    rows.append(("player moves per game", f"mean {s.length_mean:.1f} (95%: {low:.1f} – {high:.1f}); "
                 f"min {dist.get('min', 0)}, median {dist.get('median', 0):g}, max {dist.get('max', 0)}"))
    if s.solo and s.won_lengths:
        used = s.to_data()["moves_used_in_wins"]
        mean_used = sum(k * v for k, v in s.won_lengths.items()) / s.wins
        rows.append(("moves used in won games", f"mean {mean_used:.1f}; "
                     f"min {used['min']}, median {used['median']:g}, max {used['max']}"))
        score = s.won_score
        rows.append(("score in won games (the game's own)",
                     f"mean {score['mean']:.1f}; min {score['min']:g}, max {score['max']:g}"))
    rows += [(k.replace("_", " "), f"{v:.2f}") for k, v in s.stats.items()]
    rows += [(f"'{k}' events per game", f"{v:.2f}") for k, v in
             [kv for kv in s.events.items() if not kv[0].startswith(TALLY)][:8]]
    for group, items in tally_groups(s.events).items():  # the game's tallies (Analysis.tally)
        total = sum(v for _, v in items) or 1.0
        shares = [f"{k} {v / total:.1%}" for k, v in items]
        if len(items) <= 4:
            rows.append((f"{group}: share", ", ".join(shares)))
        else:
            rows.append((f"{group}: most used (share)", ", ".join(shares[:3])))
            rows.append((f"{group}: least used (share)", ", ".join(shares[-3:])))
    ry, bottom = y - 6 * mm, 15 * mm
    step, gaps = 5 * mm, max(1, len(rows) - 1)
    if gaps * step > ry - bottom >= gaps * ROW_MIN:  # a few rows over: closer rows, one page
        step = (ry - bottom) / gaps
    while rows:
        fit = max(1, math.floor((ry - bottom + 0.01) / step) + 1)  # the rows whose baselines fit
        _figure_rows(c, x, ry, step, rows[:fit])
        rows = rows[fit:]
        if rows:
            c.showPage()
            ry = c._pagesize[1] - 20 * mm
            _title(c, x, ry, "Figures (continued)")
            ry -= 6 * mm


FIGURE_COLUMNS = (78.0, 96.0)  # mm: the figure's name, its value


def _figure_rows(c: Canvas, x: float, baseline: float, step: float, rows: list[tuple[str, str]]) -> None:
    """Rows of figures in the kit's one table look (ruled.draw_cells), in light rules: the first
    row's text on `baseline`, a row every `step` points, each text on one line."""
    h = step / mm
    frame = Frame(x, baseline - 1.6 * mm + step)
    placed = [(Cell(r, col, text, align="left", size=one_line(text, 8.5, FIGURE_COLUMNS[col] - 2 * PAD)),
               Box(sum(FIGURE_COLUMNS[:col]), r * h, FIGURE_COLUMNS[col], h))
              for r, row in enumerate(rows) for col, text in enumerate(row)]
    draw_cells(c, frame, placed, Box(0, 0, sum(FIGURE_COLUMNS), h * len(rows)), PlainPaint(),
               Ink(stroke=_hex(GRID), text=_hex(INK)))


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)


def _nice(value: float) -> float:
    """A round axis maximum at or above `value`."""
    step = 1.0
    while step * 10 < value:
        step *= 10
    for m in (1, 2, 2.5, 5, 10):
        if m * step >= value:
            return m * step
    return 10 * step
