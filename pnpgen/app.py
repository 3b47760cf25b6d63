"""The Typer app: every command's options and help (list, build, validate, simulate, sweep,
report, referee, schema, new, watch, play). pnpgen.cli.main runs it; plain `list` and `referee`
calls skip it (pnpgen.commands).

`--json` on every command prints one JSON object on stdout, the same envelope for all
(docs/json.md): {"ok": bool, "errors": [{"file", "line", "column", "message"}], ...the
command's data}. `ok` is true exactly when the exit code is 0; bad input (exit 2) and bugs
(exit 3) are envelopes too, with nothing on stderr."""

from __future__ import annotations

import contextlib
import functools
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from pnpgen import __version__, commands, limits
from pnpgen.commands import emit, err, error_entry, out, stderr_console
from pnpgen.content.game import content_root, game_folders, load_games
from pnpgen.errors import Interrupted, PnpgenError, UnknownGame
from pnpgen.games import find_rules

if TYPE_CHECKING:
    from rich.progress import Progress

    from pnpgen import ci_report
    from pnpgen.content.game import GameContent
    from pnpgen.engine.protocol import Rules
    from pnpgen.engine.simulate import SkillCheck, Summary
    from pnpgen.play.server import Running
    from pnpgen.sweep import Sweep
    from pnpgen.watch import Status

S = TypeVar("S")
M = TypeVar("M")
C = TypeVar("C", bound=Callable[..., object])  # a command function, registered unchanged

# Start-up time matters for `pnpgen referee` (run once per disputed move) and `pnpgen list`:
# rich's console, progress bars and tables, the simulation engine and its Dask runner are
# imported inside the commands that use them (python -X importtime; benchmarks/bench_startup.py).
# The drawing side (render, build, validate, report) is imported inside the commands that
# use it: it loads ReportLab, Jinja2 and Pillow (about 0.15 s), which `pnpgen referee`,
# run once per disputed move, and `pnpgen simulate` never need.

app = typer.Typer(
    help="pnpgen: describe a print-and-play game in YAML; build its printable release, "
    "prove its rules, and settle disputes at the table.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _help(function: Callable[..., object]) -> str:
    """A command's docstring as Typer shows it: each paragraph on one line, so the terminal
    wraps it (source line breaks would otherwise break the help mid-sentence)."""
    text = (function.__doc__ or "").strip()
    return "\n\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", text))


def command(name: str | None = None) -> Callable[[C], C]:
    def register(function: C) -> C:
        return app.command(name, help=_help(function))(function)
    return register


# --- completion: game ids (collections' members included), bots, languages, papers --------


def _words() -> list[str]:
    """The command line being completed (Typer's shells put it in the environment; its
    `args` and the context's parameters are empty while completing)."""
    import os
    import shlex

    line = os.environ.get("COMP_WORDS") or os.environ.get("_TYPER_COMPLETE_ARGS") or ""
    try:
        return shlex.split(line)[1:]
    except ValueError:
        return line.split()[1:]


def _completion_root(ctx: typer.Context) -> Path | None:
    content = ctx.params.get("content")
    words = _words()
    if "--content" in words[:-1]:
        content = Path(words[words.index("--content") + 1])
    try:
        return content_root(content)
    except PnpgenError:
        return None


def complete_game(ctx: typer.Context, incomplete: str) -> list[str]:
    """Game folders and, for a collection, each of its games ('fast-alone/no-gaps-a')."""
    from pnpgen.games import rules_for_content

    root = _completion_root(ctx)
    if root is None:
        return []
    names: list[str] = []
    for folder in game_folders(root):
        names.append(folder.name)
        if incomplete.split("/")[0] == folder.name:  # 'fast-alone' or 'fast-alone/…': its games
            with contextlib.suppress(PnpgenError):
                (game,) = load_games(root, [folder.name])
                names += [r.id for r in rules_for_content(game) if r.id != folder.name]
    return [n for n in names if n.startswith(incomplete)]


def complete_bots(ctx: typer.Context, incomplete: str) -> list[str]:
    """Bot names of the game given before, for the last of a comma-separated list."""
    from pnpgen.engine.bots import available_bots
    from pnpgen.games import find_rules

    root, args = _completion_root(ctx), _words()
    # the game: the first word after the command that is neither an option nor its value
    words = [w for i, w in enumerate(args[1:], 1) if not w.startswith("-") and not args[i - 1].startswith("--")]
    names = ["random", "greedy", "mcts", "mcts:400"]
    if root is not None and words:
        with contextlib.suppress(PnpgenError):
            names = available_bots(find_rules(root, words[0]))
    done, _, last = incomplete.rpartition(",")
    prefix = done + "," if done else ""
    return [prefix + n for n in names if n.startswith(last)]


def complete_lang(incomplete: str) -> list[str]:
    return [x for x in ("ja,en", "ja", "en") if x.startswith(incomplete)]


def complete_paper(incomplete: str) -> list[str]:
    return [x for x in ("A4", "Letter", "B5", "A3", "B4", "A5") if x.lower().startswith(incomplete.lower())]


def complete_preset(incomplete: str) -> list[str]:
    return [x for x in ("standard", "us-eighth-inch", "large-format") if x.startswith(incomplete)]


def complete_vendor(incomplete: str) -> list[str]:
    from pnpgen.render.vendors import vendor_names

    return [x for x in vendor_names() if x.startswith(incomplete)]


ContentOpt = Annotated[
    Path | None,
    typer.Option("--content", help="Content folder (default: $PNPGEN_CONTENT or ./content)."),
]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show the full traceback on errors.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object on stdout: {ok, errors, ...} (docs/json.md).")]
GameArg = Annotated[str, typer.Argument(help="Game id, e.g. burning-desire or fast-alone/no-gaps-a.",
                                        autocompletion=complete_game)]
GamesArg = Annotated[list[str] | None, typer.Argument(help="Games (default: all).", autocompletion=complete_game)]
BotsOpt = Annotated[
    str | None,
    typer.Option("--bots", help="Bot per seat, comma-separated (e.g. optimal,greedy,random; "
                 "mcts:400 = MCTS with 400 iterations; default: the game's).", autocompletion=complete_bots),
]


def select_games(root: Path, names: list[str] | None) -> list[GameContent]:
    """The named game folders (all when none), each name checked strictly: a name with a
    '/' must be one of its collection's games ('fast-alone/no-gaps-a'), with did-you-mean."""
    from pnpgen.engine.collection import pick_game, unknown_game
    from pnpgen.games import rules_for_content

    selected = load_games(root, names or None)
    for name in names or []:
        folder_id = name.split("/")[0]
        if name == folder_id:
            continue
        content = next(c for c in selected if c.id == folder_id)
        rules = rules_for_content(content)
        if pick_game(rules, name, folder_id) is None:
            raise UnknownGame(unknown_game(rules, name, folder_id), root)
    return selected


ClusterOpt = Annotated[
    str | None,
    typer.Option("--cluster", help="Play on Dask: 'local' (a LocalCluster here) or a scheduler address "
                 "such as tcp://host:8786 (pip install 'pnpgen\\[cluster]'). Same seed, same results."),
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


@command()
def build(
    games: GamesArg = None,
    lang: Annotated[
        str, typer.Option("--lang", help="Languages, comma-separated.", autocompletion=complete_lang)
    ] = "ja,en",
    paper: Annotated[
        str, typer.Option("--paper", help="Paper for rulebooks and components naming none: A4, Letter, B5, A3, B4, A5.",
                          autocompletion=complete_paper)
    ] = "A4",
    out_dir: Annotated[Path, typer.Option("--out", help="Output folder.")] = Path("build"),
    guides: Annotated[
        bool, typer.Option("--guides", help="Proof mode: draw trim and safe-zone guides.")
    ] = False,
    print_shop: Annotated[
        bool,
        typer.Option("--print-shop", help="Also write print-shop files: one card per page, CMYK."),
    ] = False,
    tts: Annotated[
        bool, typer.Option("--tts", help="Also write Tabletop Simulator decks and boards into tts/ (docs/tts.md).")
    ] = False,
    tts_base_url: Annotated[
        str | None,
        typer.Option("--tts-base-url", help="URL the tts/ folder will be served from (default: its file:/// path)."),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option("--preset", help="Printer preset for every component's bleed and safe zone: standard "
                     "(3 mm), us-eighth-inch (3.175 mm), large-format (5 mm bleed, 10 mm safe).",
                     autocompletion=complete_preset),
    ] = None,
    ink_saver: Annotated[
        bool, typer.Option("--ink-saver", help="Also write <id>-ink-saver*.pdf beside the home files: backgrounds "
                           "and full-bleed fills off, art kept (light text on them turns dark).")
    ] = False,
    vendor: Annotated[
        str | None,
        typer.Option("--vendor", help="Also write the files a print-on-demand shop takes, into <vendor>/: "
                     "thegamecrafter, makeplayingcards, drivethrucards (docs/vendors.md).",
                     autocompletion=complete_vendor),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
    content: ContentOpt = None,
    as_json: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Build the PDFs of the given games (all by default) into build/<game>/. A build
    removes the files an earlier build of the game wrote that this one does not, so the
    folder and its README.txt always agree."""
    from rich.table import Table

    from pnpgen.build import GameBuildFailed, build_game, check_options  # lazy: ReportLab (see top)
    from pnpgen.output import BuildOptions

    root = content_root(content)
    options = BuildOptions(
        out=out_dir,
        langs=tuple(x.strip() for x in lang.split(",") if x.strip()),
        paper=paper,
        guides=guides,
        print_shop=print_shop,
        tts=tts or tts_base_url is not None,
        tts_base_url=tts_base_url,
        preset=preset,
        ink_saver=ink_saver,
        vendor=vendor,
        content_root=root,
    )
    check_options(options)
    selected = select_games(root, games)
    table = Table(title=f"Built into {out_dir}")
    for column in ("game", "file", "pages"):
        table.add_column(column, overflow="fold")
    written: list[dict[str, object]] = []
    failed: dict[str, list[str]] = {}  # a game that fails does not stop the others (listed at the end)
    for game in selected:
        if not quiet and not as_json:
            err.print(f"building {game.id} …")
        try:
            made = build_game(game, options)
        except GameBuildFailed as failure:
            made, failed[game.id] = failure.built, failure.failures
        except PnpgenError as error:  # before anything was built (its rules, its content)
            if debug:
                raise
            made, failed[game.id] = [], [str(error)]
        for problem in failed.get(game.id, []) if not as_json else []:
            print(f"error: {problem}", file=sys.stderr)
        for built in made:
            for note in built.notes:  # e.g. a picture under 300 ppi in a print-shop file
                if note.startswith("warning: ") and not as_json:
                    err.print(f"warning: {built.path.name}: {note[9:]}", markup=False, highlight=False,
                              soft_wrap=True)
            table.add_row(built.game, str(built.path), str(built.pages) if built.pages else "–")
            written.append({"game": built.game, "path": str(built.path), "pages": built.pages, "kind": built.kind})
    if as_json:
        emit(not failed, {"out": str(out_dir), "files": written, "failed": failed},
             [error_entry(problem) for problems in failed.values() for problem in problems])
    else:
        out.print(table)
        if failed and len(selected) > 1:  # one game: its error line says it all
            err.print(f"{len(failed)} of {len(selected)} game(s) failed: {', '.join(failed)} (errors above; each "
                      "folder's README.txt lists what was built and what failed)", markup=False, highlight=False,
                      soft_wrap=True)
    if failed:
        raise typer.Exit(2)


@command()
def validate(
    games: GamesArg = None,
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
    quick: Annotated[
        bool, typer.Option("--quick", help="Skip the checks that play games (playthroughs, determinism, smoke "
                           "test, end conditions): for a pre-commit hook; CI runs them all.")
    ] = False,
    report_format: Annotated[
        str, typer.Option("--format", help="text; github: a ::error line per problem, shown beside the "
                          "changed line; junit or sarif: a report file (--output, else stdout); github,sarif "
                          "or github,junit: both (docs/ci.md).",
                          autocompletion=lambda: ["text", "github", "junit", "sarif"])
    ] = "text",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File for the junit or sarif report.")
    ] = None,
    files: Annotated[
        bool, typer.Option("--files", help="The arguments are changed files: validate the games holding them "
                           "(what the pre-commit hook runs).")
    ] = False,
    content: ContentOpt = None,
    as_json: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Check schema and references, replay every worked example, verify the rules with
    checked random playthroughs, run a seeded smoke test, check that every declared end
    condition is reached, and compare the golden playthroughs.

    Exits 1 if any check fails (naming the game, the check and what differed),
    2 if a content file is malformed. `--format github|junit|sarif` reports the same
    results for CI, with paths relative to the repository and the same exit codes.
    """
    import time

    from pnpgen import ci_report
    from pnpgen.output import refuse_content_folder
    from pnpgen.validate import validate_game  # lazy: ReportLab (see top)

    github, file_format = ci_report.formats(report_format, output)
    to_stdout = file_format is not None and output is None
    if as_json and (github or to_stdout):
        raise PnpgenError(f"--json and --format {report_format} both write stdout; give --output FILE")
    root = content_root(content)
    golden_dir = golden or _default_golden(root, update_golden)
    if update_golden and golden_dir is not None:
        refuse_content_folder(golden_dir, root, "golden folder")
    if output is not None:
        refuse_content_folder(output, root, "report file")
    report = ci_report.Report(root)
    plain = not as_json and not to_stdout  # the usual lines on stdout
    if files:
        changed, games = games or [], ci_report.games_of_files(root, games or [], golden_dir)
        if not games:
            if plain:
                out.print(f"no game folder of {root} holds the {len(changed)} changed file(s)", highlight=False)
            _finish_report(report, file_format, output, as_json, {"games": [], "failed_checks": 0}, [])
            return
    failures = 0
    results: list[dict[str, object]] = []
    errors: list[dict[str, object]] = []
    started, current = time.perf_counter(), ""
    try:
        for game in select_games(root, games):
            current, checks, game_started = game.id, [], time.perf_counter()
            for check in validate_game(game, smoke_games=smoke_games, seed=seed, golden_dir=golden_dir,
                                       update_golden=update_golden, verify_games=verify_games,
                                       simulated=not quick):
                checks.append({"name": check.name, "ok": check.ok, "detail": check.detail,
                               "problems": check.problems})
                errors += [error_entry(problem) for problem in check.problems]
                failures += not check.ok
                found = report.add(game.id, check.name, check.ok, check.detail, check.problems)
                if not plain:
                    continue
                mark = "[green]ok[/]  " if check.ok else "[red]FAIL[/]"
                out.print(f"{mark} {game.id}: {check.name}" + (f" — {check.detail}" if check.detail else ""),
                          soft_wrap=True)
                for problem, entry in zip(check.problems, found, strict=True):
                    line = ci_report.github_line(entry) if github else f"       {problem}"
                    out.print(line, markup=False, highlight=False, soft_wrap=True)
            report.seconds[game.id] = time.perf_counter() - game_started
            results.append({"id": game.id, "checks": checks})
    except PnpgenError as error:  # bad input: exit 2 as ever; the report names it too
        stop = report.stopped(error, current)
        if github:
            out.print(ci_report.github_line(stop), markup=False, highlight=False, soft_wrap=True)
        _finish_report(report, file_format, output, False, {}, [])
        raise
    report.exit_code = 1 if failures else 0
    _finish_report(report, file_format, output, as_json, {"games": results, "failed_checks": failures}, errors)
    if plain:
        out.print(f"[red]{failures} check(s) failed[/]" if failures else "[green]all checks passed[/]")
    if files and plain and not quick:  # pre-commit shows it when the hook fails (or with --verbose)
        err.print(f"validated in {time.perf_counter() - started:.1f} s; to skip the slow simulated checks locally: "
                  "args: [--quick] in .pre-commit-config.yaml, or SKIP=pnpgen-validate git commit "
                  "(CI runs them all)", highlight=False, soft_wrap=True)
    if failures:
        raise typer.Exit(1)


def _finish_report(report: ci_report.Report, file_format: str | None, output: Path | None, as_json: bool,
                   data: dict[str, Any], errors: list[dict[str, Any]]) -> None:
    """The junit or sarif report (to --output, else stdout) and the --json envelope."""
    from pnpgen import ci_report

    if file_format is not None:
        if output is not None:
            ci_report.write(report, file_format, output)
        else:
            print(ci_report.render(report, file_format), end="")
    if as_json:
        emit(report.exit_code == 0, data, errors)


@command()
def preflight(
    target: Annotated[str, typer.Argument(help="A game id (its print files are built and checked) or a PDF file.",
                                          autocompletion=complete_game)],
    vendor: Annotated[
        str | None,
        typer.Option("--vendor", help="Check against a print-on-demand shop's profile: thegamecrafter, "
                     "makeplayingcards, drivethrucards (docs/vendors.md).", autocompletion=complete_vendor),
    ] = None,
    content: ContentOpt = None,
    as_json: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """A print shop's preflight of a PDF, ours or anyone's, or of a game's print files
    (print-shop PDFs, or the vendor's files with --vendor): page boxes and bleed, colour
    spaces and pictures (ppi), total ink (maximum and where), fonts embedded, hairlines,
    small text, text in the safe zone, the vendor's own rules; for a game also the
    colour-vision check. Exits 1 when a check fails, 0 (warnings listed) otherwise
    (docs/preflight.md)."""
    from rich.table import Table

    from pnpgen.preflight import limits_for, preflight_game, preflight_pdf

    limits = limits_for(vendor)
    path = Path(target)
    if target.lower().endswith(".pdf") or path.is_file():
        if not path.is_file():
            raise PnpgenError(f"{target}: no such file")
        reports = [preflight_pdf(path, limits)]
    else:
        root = content_root(content)
        game = select_games(root, [target])[0]
        if not as_json:
            err.print(f"building the print files of {game.id} to check them …")
        reports = preflight_game(game, vendor, root)
    failed = sum(not r.ok for r in reports)
    if as_json:
        emit(not failed, {"vendor": vendor, "files": [r.to_json() for r in reports], "failed_files": failed})
    else:
        table = Table(title=f"Preflight{' for ' + limits.vendor.name if limits.vendor else ''}")
        for column in ("file", "page", "check", "result", "detail"):
            table.add_column(column, overflow="fold")
        for report in reports:
            facts = report.facts
            summary = "; ".join(filter(None, [
                ", ".join(facts.get("sizes", [])), f"bleed {facts['bleed_mm']:g} mm" if "bleed_mm" in facts else "",
                "colour " + "/".join(facts.get("colour_spaces", [])) if facts.get("colour_spaces") else "",
                f"max ink {facts['max_ink_percent']:g} % ({facts['max_ink_at']})" if "max_ink_percent" in facts else "",
                f"{len(facts.get('fonts', []))} font(s)" if "fonts" in facts else "",
                f"{facts['size_px'][0]}×{facts['size_px'][1]} px {facts['mode']}" if "size_px" in facts else "",
                facts.get("colour_vision", "")]))
            table.add_row(report.file, "", "summary", "[green]ok[/]" if report.ok else "[red]FAIL[/]", summary)
            for finding in report.findings:
                mark = "[red]FAIL[/]" if finding.severity == "fail" else "[yellow]warn[/]"
                table.add_row("", finding.page, finding.check, mark, finding.message)
        out.print(table)
        out.print(f"[red]{failed} of {len(reports)} file(s) failed[/]" if failed
                  else f"[green]all {len(reports)} file(s) passed[/]")
    if failed:
        raise typer.Exit(1)


@command()
def schema(
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for the <kind>.schema.json files.")] = Path("schema"),
    as_json: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Write a JSON Schema for every kind of content file (game, rulebook, components,
    deck, board, sheet, card layouts, examples), generated from the specs pnpgen validates with, so an
    editor completes keys and marks errors as you type (docs/editor.md)."""
    from pnpgen.schemas import write_schemas  # lazy: ReportLab (see top)

    paths = write_schemas(out_dir)
    if as_json:
        emit(True, {"files": [str(p) for p in paths]})
        return
    for path in paths:
        out.print(f"wrote {path}", highlight=False)


@command()
def new(
    game: Annotated[str, typer.Argument(help="The new game's id (a slug, e.g. my-game): its folder's name.")],
    kind: Annotated[str, typer.Option("--kind", help="What to make: print-only (cards, board, sheet, rulebook) "
                                      "dice or grid (a played game: content plus its rules package).",
                                      autocompletion=lambda: ["print-only", "dice", "grid"])] = "print-only",
    no_ci: Annotated[bool, typer.Option("--no-ci", help="Write no .pre-commit-config.yaml and "
                                        ".github/workflows/pnpgen.yml.")] = False,
    content: ContentOpt = None,
    as_json: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Make a new game folder in the content folder that builds and validates at once: a
    ja/en rulebook, a deck from a CSV, a board and a score sheet, each file naming its JSON
    Schema for the editor (schemas written to schema/ beside the content folder). The
    repository also gets a pre-commit hook and a GitHub workflow that validate the games,
    unless they exist or --no-ci (docs/ci.md)."""
    import os

    from pnpgen.scaffold import new_game  # lazy: ReportLab (see top)

    root = content or Path(os.environ.get("PNPGEN_CONTENT", "content"))  # made if missing
    paths = new_game(root, game, kind, ci=not no_ci)
    if as_json:
        emit(True, {"game": game, "files": [str(p) for p in paths]})
        return
    for path in paths:
        out.print(f"wrote {path}", highlight=False, soft_wrap=True)
    package = next((p.parent for p in paths if p.name == "pyproject.toml"), None)
    if package is not None:  # a played game: its rules package must be installed first
        out.print(f"next: pip install -e {package}", highlight=False, soft_wrap=True)
    out.print(f"next: pnpgen validate {game}" + (f" --content {root}" if content else ""), highlight=False,
              soft_wrap=True)
    if any(p.name == ".pre-commit-config.yaml" for p in paths):
        out.print("next: pip install pre-commit && pre-commit install   # validate on each commit (docs/ci.md)",
                  highlight=False, soft_wrap=True)


@command()
def watch(
    game: GameArg,
    lang: Annotated[
        str, typer.Option("--lang", help="Languages, comma-separated.", autocompletion=complete_lang)
    ] = "ja,en",
    paper: Annotated[str, typer.Option("--paper", help="Paper, as for build.", autocompletion=complete_paper)] = "A4",
    out_dir: Annotated[Path, typer.Option("--out", help="Output folder.")] = Path("build"),
    serve_page: Annotated[bool, typer.Option("--serve", help="Serve a page of previews and the last error "
                                             "on 127.0.0.1, reloading itself after each rebuild.")] = False,
    port: Annotated[int, typer.Option("--port", help="Port of the --serve page (0: any free port).")] = 8000,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON envelope per line on stdout, one per "
                                          "rebuild: {ok, errors, version, rebuilt, seconds, previews}.")] = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Build a game, then rebuild what changed on every save (a component's own YAML, its
    CSV or pictures; the rulebook; everything for game.yaml). A broken edit prints its error
    line and keeps the last good PDFs. Ctrl-C stops."""
    import threading

    from pnpgen.build import check_options  # lazy: ReportLab (see top)
    from pnpgen.output import BuildOptions
    from pnpgen.watch import Watcher, serve

    root = content_root(content)
    options = BuildOptions(out=out_dir, langs=tuple(x.strip() for x in lang.split(",") if x.strip()),
                           paper=paper, content_root=root)
    check_options(options)
    (chosen,) = select_games(root, [game])  # a collection's game: its folder is watched
    def report(status: Status) -> None:  # --json: one line per rebuild (JSON Lines)
        errors = [error_entry(status.error)] if status.error else []
        envelope = {"ok": status.error is None, "errors": errors, "game": game, **status.to_data(watcher.previews())}
        print(json.dumps(envelope, ensure_ascii=False), flush=True)

    watcher = Watcher(chosen.folder, options, report=report if as_json else None,
                      say=(lambda text: None) if as_json else
                      (lambda text: err.print(text, markup=False, highlight=False, soft_wrap=True)))
    watcher.build_all()
    if serve_page:
        if not 0 <= port <= 65535:
            raise PnpgenError(f"--port {port} is not a port (0 to 65535)")
        server = serve(watcher, port)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        err.print(f"serving http://127.0.0.1:{server.server_address[1]}/", highlight=False)
    try:
        err.print(f"watching {chosen.folder} (Ctrl-C stops)", highlight=False)
        watcher.run(threading.Event())
    except (KeyboardInterrupt, Interrupted):  # exit 130, as a shell expects of a stopped command
        raise Interrupted(f"stopped watching; the last good files stay in {watcher.game_dir}") from None


def _default_golden(root: Path, create: bool) -> Path | None:
    """tests/golden beside the content folder, when the project has a tests folder."""
    folder = root.resolve().parent / "tests" / "golden"
    return folder if folder.is_dir() or (create and folder.parent.is_dir()) else None


@command()
def simulate(
    game: GameArg,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 1000,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed (printed when omitted).")] = None,
    bots: BotsOpt = None,
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
    as_json: JsonOpt = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Play many seeded games with bots and print win rates (95% Wilson intervals, seats
    rotated), balance, game lengths and end conditions."""
    from pnpgen.engine.bots import parse_bot, scaled_bot
    from pnpgen.engine.capabilities import bot_methods
    from pnpgen.engine.cluster import open_runner
    from pnpgen.engine.simulate import RunInterrupted, skill_check
    from pnpgen.engine.simulate import simulate as run_games

    rules = _rules_with_settings(content_root(content), game, settings or [])
    seed = _checked_run(games, 1 if workers is None else workers, seed, skill_games if skill else None)
    bot_names = _bot_list(rules, bots, players)
    if skill:
        parse_bot(rules, scaled_bot(skill, 4))
    runner = open_runner(cluster, workers)
    quiet = quiet or as_json
    if not as_json:
        out.print(f"{rules.id}: {games} games, seed {seed}, bots {', '.join(bot_names)}, on {runner.description}")
        note = (rules.content.data.get("simulation") or {}).get("report_note")
        if note:
            out.print(str(note), markup=False, highlight=False)
        for name, method in bot_methods(rules).items():
            if name in bot_names:
                out.print(f"  {name}: {method}")
    check = None
    with runner:
        try:
            with _progress(quiet) as progress:
                task = progress.add_task("games", total=games)
                summary = run_games(rules, games, seed, bot_names, on_games=lambda n: progress.advance(task, n),
                                    runner=runner)
        except RunInterrupted as stop:  # Ctrl-C: the games finished so far, in order, are summarised
            done = stop.done.summary(rules.id, seed, bot_names) if stop.done.games else None
            raise _interrupted_run(done, rules, as_json, (
                f"the summary above is of the first {done.games:,} of {games:,} games, as --games "
                f"{done.games} --seed {seed} plays them" if done else
                f"no game had finished yet (seed {seed})")) from None
        if skill:
            try:
                with _progress(quiet) as progress:
                    task = progress.add_task("skill", total=skill_games * (2 if len(bot_names) == 1 else 1))
                    check = skill_check(rules, skill, len(bot_names), skill_games, seed, runner=runner,
                                        on_games=lambda n: progress.advance(task, n))
            except (KeyboardInterrupt, Interrupted):
                raise _interrupted_run(summary, rules, as_json, f"the summary above is of all {games:,} games "
                                       f"(seed {seed}); the skill check was dropped") from None
    if as_json:
        data = summary.to_data()
        if check:
            data["skill_check"] = check.to_data()
        emit(True, data)
        return
    _print_summary(summary, rules)
    if check:
        _print_skill(check)


def _interrupted_run(summary: Summary | None, rules: Rules[S, M], as_json: bool, message: str) -> Interrupted:
    """A run Ctrl-C stopped: what it finished printed (or the JSON envelope, not ok, with it),
    and the Interrupted whose line says what that is."""
    if summary is not None:
        if as_json:
            emit(False, summary.to_data(), errors=[error_entry(f"interrupted: {message}")])
        else:
            _print_summary(summary, rules)
    return Interrupted(message)


def _rules_with_settings(root: Path, game: str, settings: list[str]) -> Any:
    if not settings:
        return find_rules(root, game)
    from pnpgen.content.override import parse_setting
    from pnpgen.sweep import rules_with  # lazy: ReportLab (see top)

    parsed = dict(parse_setting(text, single=True) for text in settings)
    return rules_with(root, game, {key: values[0] for key, values in parsed.items()})


@app.command()
def sweep(
    game: GameArg,
    settings: Annotated[
        list[str],
        typer.Option("--set", help="A YAML value and the values to try: KEY=V1,V2,… (e.g. rules.threshold=800,1000); "
                     "repeat for a grid."),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="Games per point.")] = 1000,
    seed: Annotated[int | None, typer.Option("--seed", help="Sweep seed (printed when omitted).")] = None,
    bots: BotsOpt = None,
    players: Annotated[
        int | None, typer.Option("--players", help="Seats, when --bots names a single bot.")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Processes (with --cluster local: its workers).")
    ] = None,
    cluster: ClusterOpt = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Output folder.")] = Path("build"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    as_json: JsonOpt = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Simulate the game over a grid of YAML values (changed in memory, never in files) and
    write a table, JSON and a PDF of every metric against every parameter with 95% intervals.
    Points already simulated are read back from the cache (PNPGEN_CACHE)."""
    from pnpgen.content.override import parse_setting
    from pnpgen.engine.cluster import open_runner
    from pnpgen.output import check_source_date_epoch, refuse_content_folder
    from pnpgen.sweep import SweepInterrupted, plan_sweep, rules_with, run_sweep, write_sweep  # lazy

    root = content_root(content)
    refuse_content_folder(out_dir, root)
    check_source_date_epoch()
    params = [parse_setting(text) for text in settings]
    keys = [key for key, _ in params]
    if len(set(keys)) != len(keys):
        raise PnpgenError(f"--set {next(k for k in keys if keys.count(k) > 1)} is given twice")
    seed = _checked_run(games, 1 if workers is None else workers, seed)
    bot_names = _bot_list(rules_with(root, game, {}), bots, players)
    points = plan_sweep(root, game, params, bot_names)
    runner = open_runner(cluster, workers)
    if not as_json:
        out.print(f"{game}: {len(points)} points × {games} games, sweep seed {seed}, bots {', '.join(bot_names)}, "
                  f"on {runner.description}")
    try:
        with runner, _progress(quiet or as_json) as progress:
            task = progress.add_task("games", total=len(points) * games)
            result = run_sweep(points, params, games, seed, bot_names, runner,
                               on_games=lambda n: progress.advance(task, n))
    except SweepInterrupted as stop:  # Ctrl-C: the finished points are shown, and kept in the cache
        finished = len(stop.done.points)
        message = (f"{finished} of {len(points)} points finished (sweep seed {seed}); no PDF was written. "
                   "Finished points are cached: the same command resumes after them")
        if as_json:
            emit(False, _sweep_data(stop.done), errors=[error_entry(f"interrupted: {message}")])
        elif finished:
            _print_sweep(stop.done)
        raise Interrupted(message) from None
    if as_json:
        pdf, data = write_sweep(result, out_dir)
        emit(True, {**_sweep_data(result), "pdf": str(pdf), "data": str(data)})
        return
    _print_sweep(result)
    pdf, data = write_sweep(result, out_dir)
    out.print(f"wrote {pdf} and {data}", highlight=False)


def _sweep_data(result: Sweep) -> dict[str, object]:
    from pnpgen.content.override import describe  # lazy
    return {"game": result.game, "seed": result.seed,
            "points": [{"seed": p.seed, "settings": describe(p.settings)} for p in result.points]}


def _print_sweep(result: Sweep) -> None:
    """The sweep's table, each point's seed, and the command that replays one point."""
    from rich.table import Table

    from pnpgen.content.override import describe
    from pnpgen.sweep import replay_command, sweep_table  # lazy

    keys = [key for key, _ in result.params]
    headers, rows = sweep_table(result)
    table = Table(title=f"Sweep of {result.game} ({result.games} games per point; 95% intervals)")
    for i, header in enumerate(headers):
        table.add_column(header, justify="left" if i < len(keys) else "right", overflow="fold")
    for row in rows:
        table.add_row(*row)
    out.print(table)
    for point in result.points:  # every point's seed on a line of its own
        out.print(f"seed {point.seed}: {describe(point.settings)}", markup=False, highlight=False, soft_wrap=True)
    out.print(f"one point alone: {replay_command(result.game, result.points[0], result.games, result.bots)}",
              markup=False, highlight=False, soft_wrap=True)


def _checked_run(games: int, workers: int, seed: int | None, skill_games: int | None = None) -> int:
    """Check the run options; the seed, drawn and printed when omitted."""
    import random

    if not 1 <= games <= limits.MAX_GAMES:
        raise PnpgenError(f"--games must be from 1 to {limits.MAX_GAMES:,}")
    if not 1 <= workers <= limits.MAX_WORKERS:
        raise PnpgenError(f"--workers must be from 1 to {limits.MAX_WORKERS}")
    if skill_games is not None and not 1 <= skill_games <= limits.MAX_SKILL_GAMES:
        raise PnpgenError(f"--skill-games must be from 1 to {limits.MAX_SKILL_GAMES:,}")
    if seed is not None and not 0 <= seed <= limits.MAX_INT:
        raise PnpgenError(f"--seed must be from 0 to {limits.MAX_INT}")
    return seed if seed is not None else random.SystemRandom().randrange(1, 2**31)


def _progress(quiet: bool, budget: bool = False) -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    if budget:  # games as they finish, against the clock
        return Progress(TextColumn("simulating"), BarColumn(), TextColumn("{task.completed:,.0f} games"),
                        TimeElapsedColumn(), console=stderr_console(), disable=quiet, transient=True)
    return Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=stderr_console(), disable=quiet, transient=True,
    )


def _bot_list(rules: Rules[S, M], bots: str | None, players: int | None) -> list[str]:
    from pnpgen.engine.bots import parse_bot

    sim = rules.content.data.get("simulation", {}) or {}
    names = [b.strip() for b in bots.split(",")] if bots else list(sim.get("bots", ["random"]))
    if players is not None and not 1 <= players <= limits.MAX_PLAYERS:
        raise PnpgenError(f"--players must be from 1 to {limits.MAX_PLAYERS}")
    count = players if players is not None else (
        len(names) if len(names) > 1 else max(rules.min_players, 2 if rules.max_players > 1 else 1))
    if len(names) == 1:
        names = names * count
    if not rules.min_players <= len(names) <= rules.max_players:
        raise PnpgenError(
            f"{rules.id} takes {rules.min_players}–{rules.max_players} players, got {len(names)}"
        )
    for name in names:
        parse_bot(rules, name)
    return names


def _print_summary(summary: Summary, rules: Rules[S, M]) -> None:
    from rich.table import Table

    from pnpgen.engine.simulate import TALLY, tally_groups

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
        if not kind.startswith(TALLY):
            figures.add_row(f"event {kind} per game", f"{value:.2f}")
    for group, items in tally_groups(summary.events).items():
        total = sum(v for _, v in items) or 1.0
        figures.add_row(f"{group} (per game; share)", ", ".join(f"{k} {v:.2f} ({v / total:.1%})" for k, v in items))
    out.print(figures)
    for problem in summary.problems:
        out.print(f"[red]problem:[/] {problem}")


def _print_skill(check: SkillCheck) -> None:
    low, high = check.interval
    out.print(
        f"skill check: {check.strong} vs {check.weak}, {check.games} games: {check.strong} wins "
        f"{check.rate:.1%} ({low:.1%} – {high:.1%}) against a fair share of {check.fair_share:.1%}: {check.verdict}"
    )


@command()
def report(
    game: GameArg,
    games: Annotated[
        int | None, typer.Option("--games", "-n", help="Number of games (default: as many as --budget allows).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulation.")] = 1,
    bots: BotsOpt = None,
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
    as_json: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Write a simulation report (PDF with charts, and JSON) into build/<game>/: win rates
    with error bars, game lengths, end conditions, balance figures and a skill check."""
    import os

    from pnpgen.engine.bots import parse_bot, scaled_bot
    from pnpgen.engine.cluster import open_runner
    from pnpgen.output import check_source_date_epoch, refuse_content_folder
    from pnpgen.report import ReportOptions, skill_defaults, write_report  # lazy: ReportLab (see top)

    root = content_root(content)
    refuse_content_folder(out_dir, root)
    check_source_date_epoch()
    rules = find_rules(root, game)
    fixed = games is not None or skill_games is not None
    if not fixed and not 0 < budget <= 86_400:
        raise PnpgenError("--budget must be more than 0 and at most 86400 seconds")
    workers = (os.cpu_count() or 1) if workers is None else workers
    _checked_run(1 if games is None else games, workers, seed, skill_games)
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
    if not as_json:
        err.print(f"{rules.id}: {plan}, seed {seed}, on {runner.description}", highlight=False)
    played = [0]  # games finished, for the line Ctrl-C prints
    try:
        with runner, _progress(quiet or as_json, budget=not fixed) as progress:
            task = progress.add_task("games", total=total)

            def advance(games: int) -> None:
                played[0] += games
                progress.advance(task, games)

            pdf, data = write_report(rules, options, on_games=advance)
    except (KeyboardInterrupt, Interrupted):
        raise Interrupted(f"no report was written; the {played[0]:,} games played so far (seed {seed}) "
                          "were dropped") from None
    used = json.loads(data.read_text(encoding="utf-8")).get("budget")
    if as_json:
        emit(True, {"game": rules.id, "pdf": str(pdf), "data": str(data), **({"budget": used} if used else {})})
        return
    if used:
        out.print(f"budget used: {used['used_seconds']:g} s of {used['seconds']:g} s: {used['games']} games, "
                  f"{used['skill_games']} skill games (the same report again: {used['replay']})", highlight=False)
        if used.get("skill_check"):
            out.print(f"skill check {used['skill_check']}", highlight=False)
    out.print(f"wrote {pdf} and {data}")


@command("list")
def list_games(content: ContentOpt = None, as_json: JsonOpt = False, debug: DebugOpt = False) -> None:
    """List the games in the content folder: players, time, and what a build makes. The
    components are named from the YAML, unchecked (pnpgen validate checks them); a components
    list that names none is listed with the error."""
    commands.list_games(content, as_json, debug)


@command()
def referee(
    game: GameArg,
    state: Annotated[Path | None, typer.Option("--state", help="State file (YAML or JSON).")] = None,
    move: Annotated[str | None, typer.Option("--move", help="The disputed move, in notation.")] = None,
    legal: Annotated[bool, typer.Option("--legal", help="List every legal move.")] = False,
    example_state: Annotated[
        bool, typer.Option("--example-state", help="Print a documented sample state.")
    ] = False,
    odds: Annotated[
        str | None, typer.Option("--odds", help="Exact odds of a fight, in the game's notation (Dungeon War).")
    ] = None,
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Also draw the position (before/after with the move) as SVG.")
    ] = None,
    as_json: JsonOpt = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Judge a move: exit 0 legal (prints the new state and events), 1 illegal (rule and
    reason), 2 malformed input."""
    try:
        commands.referee(game, state, move, legal, example_state, odds, svg, as_json, content, debug)
    except commands.CommandExit as done:  # the verdict's exit code, as Typer gives it
        raise typer.Exit(done.code) from None


@command()
def play(
    game: GameArg,
    seats: Annotated[str | None, typer.Option("--seats", help="Who sits at each seat, comma-separated: human or a "
                                              "bot (e.g. human,mcts:200,greedy). Default: you, then the "
                                              "game's simulation bots.",
                                              autocompletion=lambda ctx, incomplete: [
                                                  *(["human"] if "human".startswith(incomplete) else []),
                                                  *complete_bots(ctx, incomplete)])] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the dice and the bots (printed when "
                                             "omitted).")] = None,
    state: Annotated[Path | None, typer.Option("--state", help="Start from this state file (as pnpgen referee "
                                               "reads it).")] = None,
    dice: Annotated[str, typer.Option("--dice", help="seed: rolled from the seed; hand: entered at the table "
                                      "(a physical table's dice).")] = "seed",
    serve_only: Annotated[bool, typer.Option("--serve", help="Only serve (print the links); do not open a "
                                             "browser.")] = False,
    host: Annotated[str, typer.Option("--host", help="Address to listen on; other than loopback, every "
                                      "request needs the join token printed.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port (0: any free port).")] = 8000,
    bot_delay: Annotated[float, typer.Option("--bot-delay", help="Seconds a bot waits before it moves.")] = 0.8,
    lang: Annotated[str, typer.Option("--lang", help="Language of the words in pictures.",
                                      autocompletion=complete_lang)] = "en",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON envelope once serving: {ok, errors, "
                                          "game, seed, seats, links, token}.")] = False,
    content: ContentOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Play a game in the browser against bots, or at a table: the position drawn, legal moves
    as buttons, undo and redo, a log, a referee page; in a game with hidden cards, one page per
    seat (docs/play.md). Ctrl-C stops."""
    import random
    import time

    try:
        from pnpgen.play.server import Play, Running
    except ImportError:
        from pnpgen.play import INSTALL_HINT

        raise PnpgenError(INSTALL_HINT) from None
    from pnpgen.play.table import Table, seat_list
    from pnpgen.referee import load_state

    if not 0 <= port <= 65535:
        raise PnpgenError(f"--port {port} is not a port (0 to 65535)")
    if bot_delay < 0 or bot_delay > 60:
        raise PnpgenError(f"--bot-delay {bot_delay}: 0 to 60 seconds")
    rules = find_rules(content_root(content), game)
    start = load_state(rules, state) if state is not None else None
    players = rules.num_players(start) if start is not None else None
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    table = Table(rules, seat_list(rules, seats, players), seed, start, dice, lang)
    running = Running(Play(table, host, bot_delay), port)
    urls = running_links(running)
    if as_json:
        print(json.dumps({"ok": True, "errors": [], "game": rules.id, "seed": seed, "seats": table.seats,
                          "links": running.play.links(running.url), "token": running.play.token},
                         ensure_ascii=False), flush=True)
    else:
        err.print(f"{rules.id}: seats {', '.join(table.seats)}; seed {seed}", highlight=False)
        for label, url in urls:
            err.print(f"{label}: {url}", highlight=False, soft_wrap=True)
    if not serve_only:
        import webbrowser

        webbrowser.open(urls[0][1])
    if not as_json:
        err.print("Ctrl-C stops", highlight=False)
    try:
        while running.thread.is_alive():
            time.sleep(0.5)
    finally:
        running.stop()


def running_links(running: Running) -> list[tuple[str, str]]:
    """The pages of a running table, first the one to open: (label, url)."""
    play = running.play
    links = play.links(running.url)
    hotseat = links["hotseat"]
    said = [("table", links["table"])]
    if play.table.info is not None:  # hidden cards: open the one person's seat, or the hotseat device
        humans = play.table.humans()
        if len(humans) == 1:
            said = [(f"seat {humans[0] + 1}", links["seats"][humans[0]])]
        elif hotseat is not None:
            said = [("hotseat", hotseat)]
        said.append(("lobby", links["table"]))
    if play.token is not None:
        said.append(("join token", play.token))
    said += [(f"seat {k + 1}", url) for k, url in enumerate(links["seats"]) if (f"seat {k + 1}", url) not in said]
    if hotseat is not None and ("hotseat", hotseat) not in said:
        said.append(("hotseat", hotseat))
    said.append(("referee", links["referee"]))
    return said


@functools.cache
def click_command() -> Callable[..., object]:
    """`app` as the Click command Typer builds from it, built once per process: Typer builds it
    again on every call (about 20 ms), and a test session calls the CLI over a thousand times."""
    return typer.main.get_command(app)
