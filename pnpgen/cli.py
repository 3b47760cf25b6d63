"""The pnpgen command line: list, build, validate, simulate, report, referee."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from typer.exceptions import TyperException

from pnpgen import __version__, limits
from pnpgen.content.game import content_root, load_games
from pnpgen.content.schema import text_for
from pnpgen.engine.bots import parse_bot, scaled_bot
from pnpgen.engine.cluster import open_runner
from pnpgen.engine.simulate import simulate as run_games
from pnpgen.engine.simulate import skill_check
from pnpgen.errors import PnpgenError
from pnpgen.games import find_rules, rules_for_content
from pnpgen.output import BuildOptions, check_source_date_epoch, refuse_content_folder
from pnpgen.referee import dump_data, judge, legal_move_texts, load_state

# The drawing side (render, build, validate, report) is imported inside the commands that
# use it: it loads ReportLab, Jinja2 and Pillow (about 0.15 s), which `pnpgen referee`,
# run once per disputed move, and `pnpgen simulate` never need.

app = typer.Typer(
    help="pnpgen: describe a print-and-play game in YAML; build its printable release, "
    "prove its rules, and settle disputes at the table.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
out = Console()
err = Console(stderr=True)

ContentOpt = Annotated[
    Path | None,
    typer.Option("--content", help="Content folder (default: $PNPGEN_CONTENT or ./content)."),
]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show the full traceback on errors.")]
ClusterOpt = Annotated[
    str | None,
    typer.Option("--cluster", help="Play on Dask: 'local' (a LocalCluster here) or a scheduler address "
                 "such as tcp://host:8786 (pip install 'pnpgen[cluster]'). Same seed, same results."),
]


def _version(value: bool) -> None:
    if value:
        print(f"pnpgen {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """pnpgen command line."""


@app.command("list")
def list_games(content: ContentOpt = None, debug: DebugOpt = False) -> None:
    """List the games in the content folder: players, time, and what a build makes."""
    from pnpgen.render.kit import component_names  # lazy: ReportLab (see top)

    table = Table(title="Games in " + str(content_root(content)))
    for column in ("game", "title", "players", "time", "rules", "builds"):
        table.add_column(column)
    for game in load_games(content_root(content)):
        players = game.data["players"]
        count = f"{players['min']}" if players["min"] == players["max"] else (
            f"{players['min']}–{players['max']}"
        )
        rules = rules_for_content(game)
        names = ", ".join(r.id.split("/")[-1] for r in rules) if len(rules) > 1 else "1 game"
        names = names if rules else "print only"
        builds = ["rulebook (ja, en)"] if "rulebook" in game.data else []
        builds += component_names(game)
        table.add_row(
            game.id,
            f"{text_for(game.data['title'], 'en')}\n{text_for(game.data['title'], 'ja')}",
            count,
            f"~{game.data['time_minutes']} min",
            names,
            "\n".join(builds),
        )
    out.print(table)


@app.command()
def build(
    games: Annotated[list[str] | None, typer.Argument(help="Games to build (default: all).")] = None,
    lang: Annotated[str, typer.Option("--lang", help="Languages, comma-separated.")] = "ja,en",
    paper: Annotated[
        str, typer.Option("--paper", help="Paper for rulebooks and components naming none: A4, Letter, B5, A3, B4, A5.")
    ] = "A4",
    out_dir: Annotated[Path, typer.Option("--out", help="Output folder.")] = Path("build"),
    guides: Annotated[
        bool, typer.Option("--guides", help="Proof mode: draw trim and safe-zone guides.")
    ] = False,
    print_shop: Annotated[
        bool,
        typer.Option("--print-shop", help="Also write print-shop files: one card per page, CMYK."),
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Build the PDFs of the given games (all by default) into build/<game>/."""
    from pnpgen.build import build_game, check_options  # lazy: ReportLab (see top)

    root = content_root(content)
    options = BuildOptions(
        out=out_dir,
        langs=tuple(x.strip() for x in lang.split(",") if x.strip()),
        paper=paper,
        guides=guides,
        print_shop=print_shop,
        content_root=root,
    )
    check_options(options)
    selected = load_games(root, games or None)
    table = Table(title=f"Built into {out_dir}")
    for column in ("game", "file", "pages"):
        table.add_column(column, overflow="fold")
    for game in selected:
        if not quiet:
            err.print(f"building {game.id} …")
        for built in build_game(game, options):
            table.add_row(built.game, str(built.path), str(built.pages) if built.pages else "–")
    out.print(table)


@app.command()
def validate(
    games: Annotated[list[str] | None, typer.Argument(help="Games to check (default: all).")] = None,
    smoke_games: Annotated[
        int | None, typer.Option("--games", help="Simulated games in the smoke test.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the smoke test.")] = None,
    verify_games: Annotated[
        int | None, typer.Option("--verify-games", help="Checked random playthroughs per game.")
    ] = None,
    golden: Annotated[
        Path | None,
        typer.Option("--golden", help="Golden playthrough folder (default: tests/golden beside content)."),
    ] = None,
    update_golden: Annotated[
        bool, typer.Option("--update-golden", help="Rewrite the golden playthroughs instead of comparing.")
    ] = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Check schema and references, replay every worked example, verify the rules with
    checked random playthroughs, run a seeded smoke test, check that every declared end
    condition is reached, and compare the golden playthroughs.

    Exits 1 if any check fails (naming the game, the check and what differed),
    2 if a content file is malformed.
    """
    from pnpgen.validate import validate_game  # lazy: ReportLab (see top)

    root = content_root(content)
    golden_dir = golden or _default_golden(root, update_golden)
    if update_golden and golden_dir is not None:
        refuse_content_folder(golden_dir, root, "golden folder")
    failures = 0
    for game in load_games(root, games or None):
        for check in validate_game(game, smoke_games=smoke_games, seed=seed, golden_dir=golden_dir,
                                   update_golden=update_golden, verify_games=verify_games):
            mark = "[green]ok[/]  " if check.ok else "[red]FAIL[/]"
            out.print(f"{mark} {game.id}: {check.name}" + (f" — {check.detail}" if check.detail else ""),
                      soft_wrap=True)
            for problem in check.problems:
                out.print(f"       {problem}", markup=False, highlight=False, soft_wrap=True)
            failures += not check.ok
    if failures:
        out.print(f"[red]{failures} check(s) failed[/]")
        raise typer.Exit(1)
    out.print("[green]all checks passed[/]")


def _default_golden(root: Path, create: bool) -> Path | None:
    """tests/golden beside the content folder, when the project has a tests folder."""
    folder = root.resolve().parent / "tests" / "golden"
    return folder if folder.is_dir() or (create and folder.parent.is_dir()) else None


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game id, e.g. burning-desire.")],
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 1000,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed (printed when omitted).")] = None,
    bots: Annotated[
        str | None,
        typer.Option("--bots", help="Bot per seat, comma-separated (e.g. optimal,greedy,random; "
                     "mcts:400 = MCTS with 400 iterations)."),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", help="Seats, when --bots names a single bot.")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Processes (with --cluster local: its workers, "
                                 "default one per core); results are the same for any number.")
    ] = None,
    cluster: ClusterOpt = None,
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", help="Play with a YAML value changed in memory, KEY=VALUE (e.g. rules.threshold=800); "
                     "repeatable. Replays one point of a sweep."),
    ] = None,
    skill: Annotated[
        str | None,
        typer.Option("--skill", help="Also run a skill check: this bot with 4× the search against itself "
                     "(e.g. mcts:50)."),
    ] = None,
    skill_games: Annotated[int, typer.Option("--skill-games", help="Games in the skill check.")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Play many seeded games with bots and print win rates (95% Wilson intervals, seats
    rotated), balance, game lengths and end conditions."""
    rules = _rules_with_settings(content_root(content), game, settings or [])
    seed = _checked_run(games, workers or 1, seed)
    bot_names = _bot_list(rules, bots, players)
    if skill:
        parse_bot(rules, scaled_bot(skill, 4))
    runner = open_runner(cluster, workers)
    if not as_json:
        out.print(f"{rules.id}: {games} games, seed {seed}, bots {', '.join(bot_names)}, on {runner.description}")
        for name, method in rules.bot_methods().items():
            if name in bot_names:
                out.print(f"  {name}: {method}")
    check = None
    with runner:
        with _progress(quiet) as progress:
            task = progress.add_task("games", total=games)
            summary = run_games(rules, games, seed, bot_names, on_games=lambda n: progress.advance(task, n),
                                runner=runner)
        if skill:
            with _progress(quiet) as progress:
                task = progress.add_task("skill", total=skill_games * (2 if len(bot_names) == 1 else 1))
                check = skill_check(rules, skill, len(bot_names), skill_games, seed, runner=runner,
                                    on_games=lambda n: progress.advance(task, n))
    if as_json:
        data = summary.to_data()
        if check:
            data["skill_check"] = check.to_data()
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    _print_summary(summary, rules)
    if check:
        _print_skill(check)


def _rules_with_settings(root: Path, game: str, settings: list[str]) -> Any:
    if not settings:
        return find_rules(root, game)
    from pnpgen.content.override import parse_setting
    from pnpgen.sweep import rules_with  # lazy: ReportLab (see top)

    parsed = dict(parse_setting(text, single=True) for text in settings)
    return rules_with(root, game, {key: values[0] for key, values in parsed.items()})


@app.command()
def sweep(
    game: Annotated[str, typer.Argument(help="Game id, e.g. burning-desire.")],
    settings: Annotated[
        list[str],
        typer.Option("--set", help="A YAML value and the values to try: KEY=V1,V2,… (e.g. rules.threshold=800,1000); "
                     "repeat for a grid."),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="Games per point.")] = 1000,
    seed: Annotated[int | None, typer.Option("--seed", help="Sweep seed (printed when omitted).")] = None,
    bots: Annotated[
        str | None, typer.Option("--bots", help="Bot per seat, comma-separated (default: the game's).")
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", help="Seats, when --bots names a single bot.")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Processes (with --cluster local: its workers).")
    ] = None,
    cluster: ClusterOpt = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Output folder.")] = Path("build"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Simulate the game over a grid of YAML values (changed in memory, never in files) and
    write a table, JSON and a PDF of every metric against every parameter with 95% intervals.
    Points already simulated are read back from the cache (PNPGEN_CACHE)."""
    from pnpgen.content.override import describe, parse_setting
    from pnpgen.sweep import plan_sweep, replay_command, rules_with, run_sweep, sweep_table, write_sweep  # lazy

    root = content_root(content)
    refuse_content_folder(out_dir, root)
    check_source_date_epoch()
    params = [parse_setting(text) for text in settings]
    keys = [key for key, _ in params]
    if len(set(keys)) != len(keys):
        raise PnpgenError(f"--set {next(k for k in keys if keys.count(k) > 1)} is given twice")
    seed = _checked_run(games, workers or 1, seed)
    bot_names = _bot_list(rules_with(root, game, {}), bots, players)
    points = plan_sweep(root, game, params, bot_names)
    runner = open_runner(cluster, workers)
    out.print(f"{game}: {len(points)} points × {games} games, sweep seed {seed}, bots {', '.join(bot_names)}, "
              f"on {runner.description}")
    with runner, _progress(quiet) as progress:
        task = progress.add_task("games", total=len(points) * games)
        result = run_sweep(points, params, games, seed, bot_names, runner,
                           on_games=lambda n: progress.advance(task, n))
    headers, rows = sweep_table(result)
    table = Table(title=f"Sweep of {game} ({games} games per point; 95% intervals)")
    for i, header in enumerate(headers):
        table.add_column(header, justify="left" if i < len(keys) else "right", overflow="fold")
    for row in rows:
        table.add_row(*row)
    out.print(table)
    for point in result.points:  # every point's seed on a line of its own
        out.print(f"seed {point.seed}: {describe(point.settings)}", markup=False, highlight=False, soft_wrap=True)
    out.print(f"one point alone: {replay_command(result.game, result.points[0], games, bot_names)}",
              markup=False, highlight=False, soft_wrap=True)
    pdf, data = write_sweep(result, out_dir)
    out.print(f"wrote {pdf} and {data}", highlight=False)


def _checked_run(games: int, workers: int, seed: int | None) -> int:
    """Check the run options; the seed, drawn and printed when omitted."""
    import random

    if not 1 <= games <= limits.MAX_GAMES:
        raise PnpgenError(f"--games must be from 1 to {limits.MAX_GAMES:,}")
    if not 1 <= workers <= limits.MAX_WORKERS:
        raise PnpgenError(f"--workers must be from 1 to {limits.MAX_WORKERS}")
    if seed is not None and not 0 <= seed <= limits.MAX_INT:
        raise PnpgenError(f"--seed must be from 0 to {limits.MAX_INT}")
    return seed if seed is not None else random.SystemRandom().randrange(1, 2**31)


def _progress(quiet: bool, budget: bool = False) -> Progress:
    if budget:  # games as they finish, against the clock
        return Progress(TextColumn("simulating"), BarColumn(), TextColumn("{task.completed:,.0f} games"),
                        TimeElapsedColumn(), console=err, disable=quiet, transient=True)
    return Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=err, disable=quiet, transient=True,
    )


def _bot_list(rules: Any, bots: str | None, players: int | None) -> list[str]:
    sim = rules.content.data.get("simulation", {}) or {}
    names = [b.strip() for b in bots.split(",")] if bots else list(sim.get("bots", ["random"]))
    count = players or (len(names) if len(names) > 1 else max(rules.min_players, 2 if rules.max_players > 1 else 1))
    if len(names) == 1:
        names = names * count
    if not rules.min_players <= len(names) <= rules.max_players:
        raise PnpgenError(
            f"{rules.id} takes {rules.min_players}–{rules.max_players} players, got {len(names)}"
        )
    for name in names:
        parse_bot(rules, name)
    return names


def _print_summary(summary: Any, rules: Any) -> None:
    n = summary.games
    seats = Table(title=f"Win rate per seat ({n} games, seats rotated)" if not summary.solo
                  else f"Win rate ({n} games)")
    for column in ("seat", "win rate", "95% interval"):
        seats.add_column(column, justify="right")
    for i, (wins, (low, high)) in enumerate(
        zip(summary.seat_wins, summary.seat_intervals, strict=True)
    ):
        seats.add_row(str(i + 1), f"{wins / n:.1%}", f"{low:.1%} – {high:.1%}")
    out.print(seats)
    if len(set(summary.bots)) > 1:
        by_bot = Table(title="Wins per bot")
        by_bot.add_column("bot")
        by_bot.add_column("win share", justify="right")
        for bot, wins in sorted(summary.bot_wins.items()):
            count = summary.bots.count(bot)
            by_bot.add_row(f"{bot} ×{count}" if count > 1 else bot, f"{wins / n:.1%}")
        out.print(by_bot)
    figures = Table(title="Games")
    figures.add_column("figure")
    figures.add_column("value", justify="right")
    metrics = summary.metrics()
    if metrics:
        figures.add_row("first-player advantage (seat 1 − fair share)", f"{metrics['first_player_advantage']:+.1%}")
        figures.add_row("balance (1 − best/worst seat spread)", f"{metrics['balance']:.3f}")
        figures.add_row("decisiveness (single winner)", f"{metrics['decisiveness']:.1%}")
        figures.add_row("draws (shared or no winner)", f"{summary.draws} ({summary.draws / n:.1%})")
    figures.add_row("timeouts (step cap)", f"{summary.timeouts} ({summary.timeouts / n:.1%})")
    low, high = summary.length_interval
    figures.add_row("player moves per game", f"{summary.length_mean:.1f} ({low:.1f} – {high:.1f})")
    dist = summary.to_data()["length"]
    figures.add_row("  min / quartiles / max",
                    f"{dist['min']} / {dist['p25']:g} / {dist['median']:g} / {dist['p75']:g} / {dist['max']}")
    if summary.solo and summary.won_lengths:
        won = summary.won_lengths
        figures.add_row("player moves in won games (turns used)",
                        f"{sum(k * v for k, v in won.items()) / summary.wins:.1f} (min {min(won)}, max {max(won)})")
        score = summary.won_score
        figures.add_row("score in won games (the game's own)", f"{score['mean']:.1f} "
                        f"(min {score['min']:g}, max {score['max']:g})")
    labels = rules.end_conditions()
    for end, count in sorted(summary.ends.items()):
        figures.add_row(f"ended by: {labels.get(end, end)}", f"{count} ({count / n:.1%})")
    for key, value in summary.stats.items():
        figures.add_row(key.replace("_", " "), f"{value:.2f}")
    for kind, value in summary.events.items():
        figures.add_row(f"event {kind} per game", f"{value:.2f}")
    out.print(figures)
    for problem in summary.problems:
        out.print(f"[red]problem:[/] {problem}")


def _print_skill(check: Any) -> None:
    low, high = check.interval
    verdict = "skill matters" if check.matters else "no significant effect of skill"
    out.print(
        f"skill check: {check.strong} vs {check.weak}, {check.games} games: {check.strong} wins "
        f"{check.rate:.1%} ({low:.1%} – {high:.1%}) against a fair share of {check.fair_share:.1%}: {verdict}"
    )


@app.command()
def report(
    game: Annotated[str, typer.Argument(help="Game id, e.g. burning-desire.")],
    games: Annotated[
        int | None, typer.Option("--games", "-n", help="Number of games (default: as many as --budget allows).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulation.")] = 1,
    bots: Annotated[
        str | None, typer.Option("--bots", help="Bot per seat, comma-separated (default: the game's).")
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", help="Seats, when --bots names a single bot.")
    ] = None,
    skill: Annotated[
        str | None,
        typer.Option("--skill", help="Skill check bot, played against 4× its search ('none' to skip; "
                     "default: game.yaml simulation.skill_bot, else mcts:10)."),
    ] = None,
    skill_games: Annotated[
        int | None, typer.Option("--skill-games", help="Games in the skill check (default: as many as --budget "
                                 "allows; with --games, the game's skill_games, else 40).")
    ] = None,
    budget: Annotated[
        float, typer.Option("--budget", help="Seconds of simulation when --games and --skill-games are not given; "
                            "spent where the 95% intervals are widest.")
    ] = 45.0,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Processes (default: one per core).")
    ] = None,
    cluster: ClusterOpt = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Output folder.")] = Path("build"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Write a simulation report (PDF with charts, and JSON) into build/<game>/: win rates
    with error bars, game lengths, end conditions, balance figures and a skill check."""
    import os

    from pnpgen.report import ReportOptions, skill_defaults, write_report  # lazy: ReportLab (see top)

    root = content_root(content)
    refuse_content_folder(out_dir, root)
    check_source_date_epoch()
    rules = find_rules(root, game)
    fixed = games is not None or skill_games is not None
    if not fixed and not 0 < budget <= 86_400:
        raise PnpgenError("--budget must be more than 0 and at most 86400 seconds")
    workers = workers or (os.cpu_count() or 1)
    _checked_run(games or 1, workers, seed)
    bot_names = _bot_list(rules, bots, players)
    default_bot, default_games = skill_defaults(rules)
    skill_bot = default_bot if skill is None else (None if skill.lower() == "none" else skill)
    skill_games = default_games if skill_games is None else skill_games
    games = 500 if games is None else games
    if skill_bot:
        parse_bot(rules, scaled_bot(skill_bot, 4))
    runner = open_runner(cluster, workers)
    options = ReportOptions(games=games, seed=seed, bots=bot_names, workers=workers, skill_bot=skill_bot,
                            skill_games=skill_games, out=out_dir, budget=None if fixed else budget, runner=runner)
    total = None if not fixed else games + (skill_games * (2 if len(bot_names) == 1 else 1) if skill_bot else 0)
    plan = f"{games} games + {skill_games} skill games" if fixed else f"a {budget:g} s budget"
    err.print(f"{rules.id}: {plan}, seed {seed}, on {runner.description}", highlight=False)
    with runner, _progress(quiet, budget=not fixed) as progress:
        task = progress.add_task("games", total=total)
        pdf, data = write_report(rules, options, on_games=lambda n: progress.advance(task, n))
    used = json.loads(data.read_text(encoding="utf-8")).get("budget")
    if used:
        out.print(f"budget used: {used['used_seconds']:g} s of {used['seconds']:g} s: {used['games']} games, "
                  f"{used['skill_games']} skill games (the same report again: {used['replay']})", highlight=False)
        if used.get("skill_check"):
            out.print(f"skill check {used['skill_check']}", highlight=False)
    out.print(f"wrote {pdf} and {data}")


@app.command()
def referee(
    game: Annotated[str, typer.Argument(help="Game id, e.g. burning-desire.")],
    state: Annotated[Path | None, typer.Option("--state", help="State file (YAML or JSON).")] = None,
    move: Annotated[str | None, typer.Option("--move", help="The disputed move, in notation.")] = None,
    legal: Annotated[bool, typer.Option("--legal", help="List every legal move.")] = False,
    example_state: Annotated[
        bool, typer.Option("--example-state", help="Print a documented sample state.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable verdict.")] = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Judge a move: exit 0 legal (prints the new state and events), 1 illegal (rule and
    reason), 2 malformed input."""
    rules = find_rules(content_root(content), game)
    if example_state:
        data = rules.to_data(rules.example_state())
        print(json.dumps(data, indent=2, ensure_ascii=False) if as_json else _yaml(data), end="")
        return
    if state is None:
        raise PnpgenError("give --state FILE (try --example-state for a sample)")
    current = load_state(rules, state)
    if legal:
        moves = legal_move_texts(rules, current)
        if as_json:
            print(json.dumps({"legal_moves": moves}, ensure_ascii=False))
        else:
            print("\n".join(moves) if moves else "(no legal moves)")
        return
    if move is None:
        report = None if as_json else rules.describe(current)
        if report is not None:
            print(report)
            return
        data = rules.to_data(current)
        print(json.dumps({"state": data}, indent=2, ensure_ascii=False) if as_json else _yaml(data), end="")
        return
    verdict = judge(rules, current, move)
    if as_json:
        print(json.dumps(verdict.to_data(), indent=2, ensure_ascii=False))
    elif verdict.legal:
        out.print(f"[green]LEGAL[/] {verdict.move}", highlight=False)
        for event in verdict.events:
            out.print(f"  • {event.text}", markup=False, highlight=False)
        out.print("resulting state:")
        print(_yaml(verdict.state), end="")
    else:
        title = rules.rule_title(verdict.rule or "")
        rule = f"{verdict.rule} ({title})" if title else verdict.rule
        out.print(f"[red]ILLEGAL[/] {verdict.move}", highlight=False)
        out.print(f"  rule {rule}: {verdict.reason}", markup=False, highlight=False)
    raise typer.Exit(0 if verdict.legal else 1)


def _yaml(data: Any) -> str:
    return dump_data(data)


def main() -> None:
    """Entry point. Bad input (content, state, move, option, output folder) is one line on
    stderr and exit 2; anything unexpected is a bug: one line asking for a report, exit 3.
    `--debug` shows the traceback instead."""
    debug = "--debug" in sys.argv
    if len(sys.argv) == 1:
        sys.argv.append("--help")
    try:
        code = app(standalone_mode=False)
    except (PnpgenError, TyperException, OSError) as error:
        if debug:
            raise
        err.print(f"error: {_one_line(error)}", markup=False, highlight=False, soft_wrap=True)
        sys.exit(getattr(error, "exit_code", 2) if not isinstance(error, OSError) else 2)
    except (KeyboardInterrupt, typer.Abort):
        err.print("interrupted")
        sys.exit(130)
    except Exception as error:  # noqa: BLE001 - the last guard: never a traceback, never exit 1
        if debug:
            raise
        err.print(f"internal error, please report: {type(error).__name__}: {_one_line(error)[:300]} "
                  "(run again with --debug for the traceback)", markup=False, highlight=False, soft_wrap=True)
        sys.exit(3)
    sys.exit(code if isinstance(code, int) else 0)


def _one_line(error: BaseException) -> str:
    if isinstance(error, TyperException):
        text = error.format_message()
    elif isinstance(error, OSError) and error.strerror:
        text = f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    else:
        text = str(error)
    return " ".join(text.splitlines())
