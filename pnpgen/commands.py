"""What every command shares (the consoles, the JSON envelope, one-line errors) and the two
commands run at the table, `list` and `referee`, written without Typer.

`pnpgen.cli.main` runs a plain call of either straight from here: Typer, click and pydantic
cost about 45 ms of a start-up that must stay under 200 ms (benchmarks/bench_startup.py).
pnpgen.app gives the same functions their options and help for every other call.
rich's console and tables, the referee and the drawing side are imported where used.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpgen.content.game import content_root, load_games
from pnpgen.errors import PnpgenError
from pnpgen.games import find_rules

if TYPE_CHECKING:
    from rich.console import Console

    from pnpgen.content.game import GameContent


class CommandExit(Exception):
    """A command's exit code other than 0 (the referee's verdicts: 1 illegal, 4 cannot tell)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class _LazyConsole:
    """A rich Console made on first use (rich.console costs ~30 ms to import)."""

    def __init__(self, stderr: bool = False) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def real(self) -> Console:
        """The Console itself (for rich objects that use it as a context manager: Live, Progress)."""
        if self._console is None:
            from rich.console import Console

            class PipeConsole(Console):
                def on_broken_pipe(self) -> None:  # rich would exit 1; cli.main exits 141 quietly
                    raise BrokenPipeError

            self._console = PipeConsole(stderr=self._stderr)
        return self._console

    def __getattr__(self, name: str) -> object:
        return getattr(self.real(), name)


out: Console = _LazyConsole()  # type: ignore[assignment]
err: Console = _LazyConsole(stderr=True)  # type: ignore[assignment]


def stderr_console() -> Console:
    """stderr's Console itself: rich's Progress enters it as a context manager (a dunder the
    lazy stand-in cannot pass on)."""
    return err.real() if isinstance(err, _LazyConsole) else err


def emit(ok: bool, data: dict[str, Any] | None = None, errors: list[dict[str, Any]] | None = None) -> None:
    """The JSON envelope on stdout (docs/json.md)."""
    envelope = {"ok": ok, "errors": errors or [], **(data or {})}
    print(json.dumps(envelope, indent=2, ensure_ascii=False, default=str))


PROBLEM = re.compile(r"^(?P<file>[^:\s][^:]*?):(?P<line>\d+)(?::(?P<column>\d+))?: (?P<message>.*)$")


def error_entry(problem: str | BaseException) -> dict[str, Any]:
    """One item of the envelope's errors: file, line, column (None where unknown) and message."""
    if isinstance(problem, PnpgenError):
        return {"file": problem.file, "line": problem.line, "column": problem.column,
                "message": " ".join(problem.message.splitlines())}
    text = problem if isinstance(problem, str) else one_line(problem)
    match = PROBLEM.match(text)
    if match:
        column = match.group("column")
        return {"file": match.group("file"), "line": int(match.group("line")),
                "column": int(column) if column else None, "message": match.group("message")}
    return {"file": None, "line": None, "column": None, "message": text}


def one_line(error: BaseException) -> str:
    if hasattr(error, "format_message"):  # Typer's (click's) usage errors
        text = error.format_message()
    elif isinstance(error, OSError) and error.strerror:
        text = f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    else:
        text = str(error)
    return " ".join(text.splitlines())


def list_games(content: Path | None = None, as_json: bool = False, debug: bool = False) -> None:
    """List the games in the content folder: players, time, and what a build makes. The
    components are named from the YAML, unchecked (pnpgen validate checks them); a components
    list that names none is listed with the error."""
    from rich.table import Table

    from pnpgen.content.schema import text_for
    from pnpgen.games import game_ids

    root = content_root(content)
    rows = []
    for game in load_games(root):
        players = game.data["players"]
        ids = game_ids(game)  # the engine's own list when it has one: no game is built
        builds = ["rulebook (ja, en)"] if "rulebook" in game.data else []
        problems = []
        try:
            builds += _component_names(game)
        except PnpgenError as error:
            problems.append(error_entry(error))
        rows.append({
            "id": game.id,
            "title": {lang: text_for(game.data["title"], lang) for lang in ("en", "ja")},
            "players": {"min": players["min"], "max": players["max"]},
            "time_minutes": game.data["time_minutes"],
            "games": ids,
            "builds": builds,
            "problems": problems,
        })
    if as_json:
        emit(True, {"content": str(root), "games": rows})
        return
    table = Table(title="Games in " + str(root))
    table.add_column("game", no_wrap=True)  # ids are typed: never cut
    table.add_column("players")
    table.add_column("games", no_wrap=True)  # a collection's game ids are typed too
    table.add_column("builds", overflow="fold")
    for row in rows:
        count = str(row["players"]["min"]) if row["players"]["min"] == row["players"]["max"] else (
            f"{row['players']['min']}–{row['players']['max']}")
        names = row["games"]
        rules_text = "print only" if not names else (
            "\n".join("/" + n.split("/")[-1] for n in names) if len(names) > 1 else "1 game")
        builds_text = "\n".join(row["builds"])
        if row["problems"]:
            builds_text += ("\n" if builds_text else "") + "[red]components: invalid[/]"
            err.print(f"warning: {row['id']}: components not listed: {_entry_text(row['problems'][0])}",
                      markup=False, highlight=False, soft_wrap=True)
        title = "\n".join(_cut(row["title"][lang], len(row["id"])) for lang in ("en", "ja"))
        table.add_row(f"[bold]{row['id']}[/]\n{title}", f"{count}\n~{row['time_minutes']} min", rules_text,
                      builds_text)
    out.print(table)


def _component_names(game: GameContent) -> list[str]:
    """'<id> (<type>)' of each component, read from the YAML without the kit (ReportLab)."""
    from pnpgen.content.yamlpos import where
    from pnpgen.errors import ContentError

    items = game.component_items()
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or "type" not in item:
            place = where(item, None) if isinstance(item, dict) else where(items, index, value=True)
            raise ContentError(f"components[{index}]: a component is a mapping with an 'id' and a 'type'", **place)
    return [f"{c['id']} ({c['type']})" for c in items]


def _cut(text: str, width: int) -> str:
    """`text` within `width` cells (a title under its id must not widen the id's column)."""
    from rich.cells import cell_len, set_cell_size

    width = max(width, 12)
    return text if cell_len(text) <= width else set_cell_size(text, width - 1) + "…"


def _entry_text(entry: dict[str, Any]) -> str:
    place = ":".join(str(entry[k]) for k in ("file", "line", "column") if entry[k] is not None)
    return f"{place}: {entry['message']}" if place else entry["message"]


def referee(game: str, state: Path | None = None, move: str | None = None, legal: bool = False,
            example_state: bool = False, odds: str | None = None, svg: Path | None = None, as_json: bool = False,
            content: Path | None = None, debug: bool = False) -> None:
    """Judge a move: exit 0 legal (prints the new state and events), 1 illegal (rule and
    reason), 2 malformed input."""
    from pnpgen.engine.capabilities import codec
    from pnpgen.engine.protocol import Presentation
    from pnpgen.referee import dump_view, judge_position, legal_move_texts, load_position

    rules = find_rules(content_root(content), game)
    if odds is not None:
        report = getattr(rules, "odds_report", None)
        if report is None:
            raise PnpgenError(f"{rules.id} has no --odds calculator")
        text, data = report(odds)
        if as_json:
            emit(True, {"game": rules.id, "fight": odds, **data})
        else:
            print(text)
        return
    if example_state:
        data = codec(rules).to_data(codec(rules).example_state())
        if as_json:
            emit(True, {"game": rules.id, "state": data})  # --state reads this envelope back
        else:
            print(_yaml(data), end="")
        return
    if state is None:
        raise PnpgenError("give --state FILE (try --example-state for a sample)")
    position = load_position(rules, state)
    current = position.state
    if legal:
        moves = legal_move_texts(rules, current, position)
        if as_json:
            emit(True, {"game": rules.id, "judged": position.judged, "legal_moves": moves})
        else:
            if position.seat is not None:
                print(f"judged: {position.judged}")
            print("\n".join(moves) if moves else "(no legal moves)")
        return
    if move is None and svg is not None:
        from pnpgen.referee import write_position_svg

        write_position_svg(svg, rules, current, None)
    if move is None:
        report = None if as_json or not isinstance(rules, Presentation) or position.seat is not None \
            else rules.describe(current)
        if report is not None:
            print(report)
            return
        data = dump_view(rules, position)
        if as_json:
            emit(True, {"game": rules.id, "judged": position.judged, "state": data})
        else:
            print(_yaml(data), end="")
        return
    verdict = judge_position(rules, position, move)
    if svg is not None:
        from pnpgen.referee import write_position_svg

        write_position_svg(svg, rules, current, move)
    if as_json:
        emit(bool(verdict.legal), {"game": rules.id, **verdict.to_data()})
    elif verdict.legal is None:
        _verdict("CANNOT TELL", "yellow", f"{verdict.move}: legal only if {verdict.legal_if}")
        print(f"  judged: {verdict.judged}")
        for event in verdict.events:
            print(f"  • {event.text}")
        print("if so, the resulting state as this seat sees it:")
        print(_yaml(verdict.state), end="")
    elif verdict.legal:
        _verdict("LEGAL", "green", verdict.move)
        print(f"  judged: {verdict.judged}")
        if verdict.then:
            print(f"  what follows rests on hidden facts: {verdict.then}")
            print("  (judge the next step with the full state)")
        for event in verdict.events:
            print(f"  • {event.text}")
        if verdict.score_line:
            print(f"  {verdict.score_line}")
        if verdict.state is not None:
            print("resulting state:")
            print(_yaml(verdict.state), end="")
    else:
        title = rules.rule_title(verdict.rule or "")
        rule = f"{verdict.rule} ({title})" if title else verdict.rule
        _verdict("ILLEGAL", "red", verdict.move)
        print(f"  rule {rule}: {verdict.reason}")
        print(f"  judged: {verdict.judged}")
    raise CommandExit(verdict.exit_code)


def _yaml(data: object) -> str:
    from pnpgen.referee import dump_data

    return dump_data(data)


COLOURS = {"green": 32, "red": 31, "yellow": 33}


def _verdict(word: str, colour: str, rest: str) -> None:
    """A verdict's first line, its word in colour on a terminal (NO_COLOR and TERM=dumb respected),
    printed without rich: the referee starts without importing it."""
    import os
    import sys

    if sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb":
        word = f"\x1b[{COLOURS[colour]}m{word}\x1b[0m"
    print(f"{word} {rest}")
