"""`pnpgen watch GAME [--serve]`: rebuild what changed on save; a local page of previews.

A first full build, then, on every save in the game folder (watchfiles), only what the
change touches:

- `game.yaml` (rules, players, part names): everything;
- a rulebook file, `rule_ids`/`end_conditions` files or worked examples: the rulebooks;
- anything else (component YAML, CSVs, layouts files, pictures): the components whose own
  YAML changed, those whose `csv:` or `layouts:` names the saved file, and every component
  for a picture.

A broken edit prints its one error line and changes no file: the last good PDFs and
previews stay (every file is written whole or not at all, and the content is checked
before anything is drawn). The next good save rebuilds. A bug in pnpgen is said as one
"internal error, please report" line, and the watch goes on. Previews are the components'
SVG/PNG in every language; the contact sheet, slow for large decks, is left to `pnpgen
build` (the watcher removes an older one so nothing shown is stale). README.txt and the
build's record of its files (build.MANIFEST) are rewritten after every rebuild.

`--serve` serves http://127.0.0.1:PORT/: every preview and the last error, reloading itself
when a rebuild finishes (the page polls /status).
"""

from __future__ import annotations

import contextlib
import html
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TypeVar
from urllib.parse import unquote, urlparse

from pnpgen.build import remove_stale_outputs, write_release_notes
from pnpgen.content.game import MAIN_FILE, GameContent, load_game
from pnpgen.content.yamlpos import YMap
from pnpgen.engine.protocol import Rules
from pnpgen.errors import PnpgenError
from pnpgen.games import rules_for_content
from pnpgen.output import BuildOptions, BuiltFile, clean_stale_parts, recording_writes
from pnpgen.render.kit import components, jobs, type_module
from pnpgen.render.rulebook import render_rulebooks
from pnpgen.render.templates import render_template

S = TypeVar("S")
M = TypeVar("M")

RULEBOOK = "rulebook"  # the key of the rulebooks' outputs, beside component ids
PICTURES = (".svg", ".png", ".jpg", ".jpeg")
SOURCES = (".yaml", ".yml", ".csv", *PICTURES)


@dataclass
class Output:
    """What one part (the rulebooks, or one component) last wrote."""

    files: list[BuiltFile] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)  # PDFs and previews


@dataclass
class Status:
    version: int = 0  # counts finished rebuilds, good or broken
    error: str | None = None
    rebuilt: list[str] = field(default_factory=list)  # parts rebuilt last time
    seconds: float = 0.0

    def to_data(self, previews: list[str]) -> dict[str, object]:
        return {"version": self.version, "error": self.error, "rebuilt": self.rebuilt,
                "seconds": round(self.seconds, 3), "previews": previews}


class Watcher:
    """One game folder, rebuilt part by part (see the module docstring)."""

    def __init__(self, folder: Path, options: BuildOptions, say: Callable[[str], None] = print,
                 report: Callable[[Status], None] | None = None) -> None:
        self.folder = folder
        self.options = options
        self.say = say
        self.on_status = report  # told of every finished rebuild, good or broken (watch --json)
        self.outputs: dict[str, Output] = {}
        self.component_data: dict[str, str] = {}  # id -> its YAML, as JSON, at the last good build
        self.status = Status()
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)

    @property
    def game_dir(self) -> Path:
        return self.options.out / self.folder.name

    # --- rebuilding ---------------------------------------------------------------------------

    def build_all(self) -> bool:
        return self.rebuild(None)

    def rebuild(self, changed: set[Path] | None) -> bool:
        """Rebuild the parts `changed` touches (everything for None); False on a broken edit."""
        start = time.perf_counter()
        try:
            content = load_game(self.folder)
            rules = rules_for_content(content)
            items = {str(item["id"]): item for item in components(content)}
            parts = self._parts(content, items, changed)
            clean_stale_parts(self.game_dir)
            if RULEBOOK in parts:
                self._build(RULEBOOK, lambda: render_rulebooks(content, rules, self.options))
            for ident in [p for p in parts if p != RULEBOOK]:
                self._build(ident, partial(self._render, content, rules, items[ident]))
            for gone in set(self.outputs) - set(items) - {RULEBOOK}:
                del self.outputs[gone]
            self.component_data = {ident: _fingerprint(item) for ident, item in items.items()}
            self._finish(content)
        except PnpgenError as error:
            self._report(error=str(error), rebuilt=[], seconds=time.perf_counter() - start)
            self.say(f"error: {error}")
            return False
        except Exception as error:  # a bug in pnpgen: said, and the watch goes on with the last good files
            line = " ".join(f"internal error, please report: {type(error).__name__}: {error}".splitlines())[:400]
            self._report(error=line, rebuilt=[], seconds=time.perf_counter() - start)
            self.say(line)
            return False
        seconds = time.perf_counter() - start
        self._report(error=None, rebuilt=parts, seconds=seconds)
        self.say(f"rebuilt {', '.join(parts) or 'nothing'} in {seconds:.2f} s")
        return True

    def _parts(self, content: GameContent, items: dict[str, YMap], changed: set[Path] | None) -> list[str]:
        everything = [RULEBOOK, *items]
        if changed is None or not self.outputs:
            return everything
        # files that are gone again (an editor's or sed's temporaries) change nothing
        names = {self._relative(p) for p in changed if p.exists() or p.suffix in SOURCES}
        if MAIN_FILE in names or None in names:
            return everything
        rulebook_files = _named_files(content, "rulebook", "rule_ids", "end_conditions", "examples")
        parts = [RULEBOOK] if names & rulebook_files else []
        others = names - rulebook_files
        if others:
            for ident, item in items.items():
                new = _fingerprint(item) != self.component_data.get(ident)
                csv = str(item.get("csv", "")) in others
                picture = any(Path(n).suffix.lower() in PICTURES for n in others if n)
                layouts = item.get("layouts")  # a deck's shared layouts file(s)
                files = [layouts] if isinstance(layouts, str) else layouts if isinstance(layouts, list) else []
                shared = any(isinstance(f, str) and f in others for f in files)
                if new or csv or picture or shared:
                    parts.append(ident)
        return parts

    def _relative(self, path: Path) -> str | None:
        try:
            return path.resolve().relative_to(self.folder.resolve()).as_posix()
        except ValueError:
            return None

    def _render(self, content: GameContent, rules: list[Rules[S, M]], item: YMap) -> list[BuiltFile]:
        module = type_module(str(item["type"]))
        if module is None:
            return []
        made = jobs(content, rules, self.options, item)
        if hasattr(module, "check"):  # every language checked before any file is written
            for job in made:
                problems = module.check(item, job)
                if problems:
                    raise PnpgenError(problems[0])
        built: list[BuiltFile] = []
        for job in made:
            built += module.render(item, job)
        if hasattr(module, "preview"):
            for job in made:
                module.preview(item, job)
        return built

    def _build(self, key: str, render: Callable[[], list[BuiltFile]]) -> None:
        with recording_writes() as written:
            files = render()
        self.outputs[key] = Output(files, list(written))

    def _finish(self, content: GameContent) -> None:
        files = [f for key in self._order(content) for f in self.outputs[key].files]
        written = [p for key in self._order(content) for p in self.outputs[key].written]
        with contextlib.suppress(OSError):
            (self.game_dir / "preview" / "contact-sheet.png").unlink()  # `pnpgen build` writes it
        with recording_writes() as notes:
            if files:
                write_release_notes(content, self.options, files,
                                    [p for p in written if p.parent == self.game_dir / "preview"])
        remove_stale_outputs(self.game_dir, written + notes)

    def _order(self, content: GameContent) -> list[str]:
        return ([RULEBOOK] if RULEBOOK in self.outputs else []) + [key for key in self.outputs if key != RULEBOOK]

    def _report(self, error: str | None, rebuilt: list[str], seconds: float) -> None:
        with self.changed:
            self.status = Status(self.status.version + 1, error, rebuilt, seconds)
            self.changed.notify_all()
        if self.on_status is not None:
            self.on_status(self.status)

    # --- watching -----------------------------------------------------------------------------

    def run(self, stop: threading.Event) -> None:
        """Rebuild on every save until `stop` is set; Ctrl-C raises KeyboardInterrupt."""
        import watchfiles

        for changes in watchfiles.watch(self.folder, stop_event=stop, debounce=100, step=20,
                                        watch_filter=_not_temporary, raise_interrupt=True):
            self.rebuild({Path(path) for _, path in changes})

    def previews(self) -> list[str]:
        folder = self.game_dir / "preview"
        return sorted(p.name for p in folder.glob("*.svg")) if folder.is_dir() else []


def _not_temporary(change: object, path: str) -> bool:
    name = Path(path).name
    return not (name.startswith(".") or name.endswith(("~", ".swp", ".part", ".tmp")))


def _fingerprint(item: object) -> str:
    return json.dumps(item, sort_keys=True, ensure_ascii=False, default=str)


def _named_files(content: GameContent, *keys: str) -> set[str | None]:
    names: set[str | None] = set()
    for key in keys:
        value = content.data.get(key)
        for name in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            if isinstance(name, str):
                names.add(Path(name).as_posix())
    return names


# --- the page -------------------------------------------------------------------------------

def page(watcher: Watcher) -> str:
    status = watcher.status
    previews = watcher.previews()
    stamp = status.version
    said = (f"rebuilt {', '.join(status.rebuilt) or 'nothing'} in {status.seconds:.2f} s" if status.error is None
            else "the last edit is broken; showing the last good build")
    return render_template("watch.html.j2", title=html.escape(watcher.folder.name),
                           error=html.escape(status.error or ""), status=html.escape(said),
                           previews=[html.escape(name) for name in previews], version=stamp)


def serve(watcher: Watcher, port: int = 8000) -> ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1 (only this machine) for the page; call serve_forever."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            path = unquote(urlparse(self.path).path)
            if path == "/":
                self._send(200, "text/html; charset=utf-8", page(watcher).encode())
            elif path == "/status":
                data = watcher.status.to_data(watcher.previews())
                self._send(200, "application/json", json.dumps(data, ensure_ascii=False).encode())
            elif path.startswith("/preview/") and path.removeprefix("/preview/") in watcher.previews():
                file = watcher.game_dir / "preview" / path.removeprefix("/preview/")
                self._send(200, "image/svg+xml", file.read_bytes())
            else:
                self._send(404, "text/plain", b"not found")

        def _send(self, code: int, kind: str, body: bytes) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
            return

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)
