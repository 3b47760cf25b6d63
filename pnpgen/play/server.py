"""The web side of `pnpgen play`: a Starlette app serving the pages in pnpgen/play/static/
and a small JSON API, updating pages by server-sent events (/api/events: the table's
version number; a page then fetches what its audience may see).

Pages:
  /                 the table (a game of perfect information); for a game with hidden
                    information, a lobby linking the seat pages (their keys only on loopback)
  /seat/N[/KEY]     seat N's own page: only its view (KEY: the seat's key, needed in a game
                    with hidden information)
  /hotseat/KEY      one device passed round: "pass the device to seat N" between turns
  /referee          paste or upload a state or view file, ask about a move, download the result

Every request is bounded (MAX_BODY); bad input is answered with the referee's one-line
error (HTTP 400, {"error": ...}). A server on a host other than loopback asks every request
for the join token (`?token=`; the page keeps it in a cookie).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import secrets
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypedDict, TypeVar

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pnpgen import limits
from pnpgen.engine.protocol import Rules
from pnpgen.errors import PnpgenError
from pnpgen.play.table import PlayError, Table, drawing
from pnpgen.referee import dump_data, judge_position, legal_move_texts, load_position, position_svg
from pnpgen.render.templates import render_file

S = TypeVar("S")
M = TypeVar("M")

MAX_BODY = limits.MAX_STATE_BYTES + 64_000  # a state file and a move, as JSON
LOOPBACK = ("127.0.0.1", "localhost", "::1")
COOKIE = "pnpgen_play"
STATIC = Path(str(resources.files("pnpgen.play") / "static"))


class Denied(Exception):
    """A request without the join token or the seat's key (HTTP 403)."""


class TooLarge(Exception):
    """A request body over MAX_BODY (HTTP 413)."""


class Play:
    """The table, its keys, and the task that makes the bots' moves and rolls the dice."""

    def __init__(self, table: Table, host: str = "127.0.0.1", bot_delay: float = 0.8) -> None:
        self.table, self.host, self.bot_delay = table, host, bot_delay
        self.token = None if host in LOOPBACK else secrets.token_urlsafe(12)
        hidden = table.info is not None
        self.seat_keys = [secrets.token_urlsafe(9) if hidden else "" for _ in table.seats]
        self.hotseat_key = secrets.token_urlsafe(9) if hidden else ""
        self.changed = asyncio.Event()
        self.wake = asyncio.Event()
        self.closing = False  # set when the server stops: event streams end

    # --- who is asking ----------------------------------------------------------------------
    def check_token(self, request: Request) -> None:
        if self.token is None:
            return
        given = request.query_params.get("token") or request.cookies.get(COOKIE) or ""
        if not secrets.compare_digest(given, self.token):
            raise Denied("this table needs its join token (?token=…, printed when the server started)")

    def audience(self, request: Request) -> int | None:
        """None (the whole table), or the seat (0-based) whose page asks: `?seat=N&key=K`, or a
        hotseat device `?hotseat=K&seat=N`."""
        seat_text = request.query_params.get("seat")
        if seat_text is None:
            self.table.check_audience(None)
            return None
        if not seat_text.isdigit():
            raise PlayError(f"seat={seat_text[:20]}: a seat number")
        seat = int(seat_text) - 1
        self.table.check_audience(seat)
        if self.table.info is not None:
            hotseat, key = request.query_params.get("hotseat"), request.query_params.get("key")
            good = (hotseat is not None and secrets.compare_digest(hotseat, self.hotseat_key)) or (
                key is not None and secrets.compare_digest(key, self.seat_keys[seat]))
            if not good:
                raise Denied(f"seat {seat + 1}'s page needs its key (the link printed when the server started)")
        return seat

    def links(self, base: str = "") -> Links:
        token = f"?token={self.token}" if self.token else ""
        seats = [f"{base}/seat/{k + 1}" + (f"/{key}" if key else "") + token
                 for k, key in enumerate(self.seat_keys)]
        return {"table": f"{base}/{token}", "seats": seats, "referee": f"{base}/referee{token}",
                "hotseat": f"{base}/hotseat/{self.hotseat_key}{token}" if self.hotseat_key else None}

    # --- changes ---------------------------------------------------------------------------
    def notify(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()
        self.wake.set()

    async def drive(self) -> None:
        """Make the table's own steps (bots, seeded dice), each after a short visible delay."""
        table = self.table
        while True:
            await self.wake.wait()
            self.wake.clear()
            while table.automatic():
                version = table.version
                await asyncio.sleep(self.bot_delay)
                if table.version != version:
                    continue
                chosen, move = await asyncio.to_thread(table.choose)
                if await asyncio.to_thread(table.apply_auto, chosen, move):
                    self.notify()
                    self.wake.clear()


def create_app(play: Play) -> Starlette:
    table = play.table

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        play.changed, play.wake = asyncio.Event(), asyncio.Event()  # this loop's
        play.wake.set()
        task = asyncio.create_task(play.drive())
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    def endpoint(handler: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            try:
                play.check_token(request)
                result = await handler(request)
            except Denied as denied:
                return JSONResponse({"error": str(denied)}, 403)
            except TooLarge as large:
                return JSONResponse({"error": str(large)}, 413)
            except PnpgenError as error:
                return JSONResponse({"error": str(error)}, 400)
            response = result if isinstance(result, Response) else JSONResponse(result)
            if play.token is not None and request.query_params.get("token") == play.token:
                response.set_cookie(COOKIE, play.token, httponly=True, samesite="strict")
            response.headers["Cache-Control"] = "no-store"
            return response

        return run

    async def state(request: Request) -> object:
        return await asyncio.to_thread(table.payload, play.audience(request))

    async def turn(request: Request) -> object:
        """Whose turn it is, and nothing else (the hotseat page asks before it shows a seat's view)."""
        player = table.to_move()
        return {"version": table.version, "to_move": {"seat": player + 1 if player >= 0 else None,
                                                      "over": table.rules.is_terminal(table.state)}}

    async def move(request: Request) -> object:
        audience = play.audience(request)
        body = await read_json(request)
        verdict = await asyncio.to_thread(table.play, str(body.get("move", "")), audience)
        if verdict.legal is not False:
            play.notify()
        title = table.rules.rule_title(verdict.rule or "") if verdict.rule else ""
        return {"legal": verdict.legal is not False, "move": verdict.move, "rule": verdict.rule,
                "rule_title": title, "reason": verdict.reason, "version": table.version}

    async def undo(request: Request) -> object:
        await asyncio.to_thread(table.undo, play.audience(request))
        play.notify()
        return {"version": table.version}

    async def redo(request: Request) -> object:
        play.audience(request)
        await asyncio.to_thread(table.redo)
        play.notify()
        return {"version": table.version}

    async def roll(request: Request) -> object:
        play.audience(request)
        await asyncio.to_thread(table.roll)
        play.notify()
        return {"version": table.version}

    async def load(request: Request) -> object:
        # the table, hotseat or referee page (whoever holds a full state file knows its cards)
        if request.query_params.get("seat") is not None:
            play.audience(request)
            if request.query_params.get("hotseat") is None:
                raise PlayError("load a state on the table page (a seat's page cannot set the cards)")
        body = await read_json(request)
        position = await asyncio.to_thread(read_position, table.rules, str(body.get("text", "")),
                                           str(body.get("name", "")))
        if position.seat is not None:
            raise PlayError("this is one seat's view (`view:`); the table needs a full state (open it on /referee)")
        await asyncio.to_thread(table.load, position.state)
        play.notify()
        return {"version": table.version}

    async def referee(request: Request) -> object:
        body = await read_json(request)
        move = body.get("move") if isinstance(body.get("move"), str) else None
        return await asyncio.to_thread(referee_answer, table.rules, str(body.get("text", "")),
                                       str(body.get("name", "")), move, table.lang)

    async def events(request: Request) -> Response:
        """The table's version whenever it changes (public: every page follows it, the lobby and
        the hotseat page too, which then ask for what they may show)."""

        async def stream() -> AsyncIterator[str]:
            last, quiet = -1, 0
            while not play.closing:
                if table.version != last:
                    last, quiet = table.version, 0
                    yield f"data: {last}\n\n"
                changed = play.changed
                try:
                    await asyncio.wait_for(changed.wait(), 0.5)
                except TimeoutError:
                    quiet += 1
                    if quiet % 20 == 0:
                        yield ": still here\n\n"  # every 10 s: a dropped connection shows
                if await request.is_disconnected():
                    return

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def table_page(request: Request) -> Response:
        if table.info is not None:
            return page("lobby", {"links": play.links() if play.host in LOOPBACK else None,
                                  "seats": len(table.seats)}, table)
        return page("table", {"query": {}}, table)

    async def seat_page(request: Request) -> Response:
        seat = request.path_params["seat"]
        query = {"seat": str(seat)}
        if table.info is not None:
            query["key"] = request.path_params.get("key", "")
        play.audience(_with_query(request, query))  # a wrong key is refused here, not by the page's fetches
        return page("table", {"query": query, "seat": seat}, table)

    async def hotseat_page(request: Request) -> Response:
        key = request.path_params["key"]
        if table.info is None or not secrets.compare_digest(key, play.hotseat_key):
            raise Denied("no hotseat page with this key")
        return page("table", {"query": {"hotseat": key}, "hotseat": True, "humans": [s + 1 for s in table.humans()]},
                    table)

    async def referee_page(request: Request) -> Response:
        return page("referee", {}, table)

    routes = [
        Route("/", endpoint(table_page)),
        Route("/seat/{seat:int}", endpoint(seat_page)),
        Route("/seat/{seat:int}/{key}", endpoint(seat_page)),
        Route("/hotseat/{key}", endpoint(hotseat_page)),
        Route("/referee", endpoint(referee_page)),
        Route("/api/state", endpoint(state)),
        Route("/api/events", endpoint(events)),
        Route("/api/turn", endpoint(turn)),
        Route("/api/move", endpoint(move), methods=["POST"]),
        Route("/api/undo", endpoint(undo), methods=["POST"]),
        Route("/api/redo", endpoint(redo), methods=["POST"]),
        Route("/api/load", endpoint(load), methods=["POST"]),
        Route("/api/roll", endpoint(roll), methods=["POST"]),
        Route("/api/referee", endpoint(referee), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _with_query(request: Request, query: dict[str, str]) -> Request:
    from urllib.parse import urlencode

    scope = dict(request.scope)
    scope["query_string"] = urlencode(query).encode()
    return Request(scope)


def page(name: str, config: dict[str, Any], table: Table) -> HTMLResponse:
    """A page of static/: its HTML with the game's title and the page's settings filled in
    by the content sandbox (`{{ game }}`, `{{ config }}`), each escaped for where it stands."""
    settings = json.dumps({"game": table.rules.id, **config}).replace("</", "<\\/")
    return HTMLResponse(render_file(STATIC / f"{name}.html", game=html.escape(table.rules.id), config=settings))


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most MAX_BODY bytes (read in pieces: no header is trusted)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLarge(f"the request is {int(declared):,} bytes; at most {MAX_BODY:,}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise TooLarge(f"the request is over {MAX_BODY:,} bytes")
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError) as error:
        raise PnpgenError(f"the request is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise PnpgenError("the request must be a JSON object")
    return data


def read_position(rules: Rules[S, M], text: str, name: str) -> Any:
    """A pasted or uploaded state (or view) file, read exactly as `pnpgen referee --state`
    reads it; its errors name the file as the page named it."""
    safe = Path(name).name if name else "state.yaml"
    safe = "".join(ch for ch in safe if ch.isalnum() or ch in "._-")[:80] or "state.yaml"
    if len(text.encode("utf-8")) > limits.MAX_STATE_BYTES:
        raise PnpgenError(f"{safe}: the state file is over {limits.MAX_STATE_BYTES:,} bytes")
    with tempfile.TemporaryDirectory(prefix="pnpgen-play-") as folder:
        path = Path(folder) / safe
        path.write_text(text, encoding="utf-8")
        try:
            return load_position(rules, path)
        except PnpgenError as error:
            if error.file is not None:
                error.file = error.file.replace(str(path), safe)
            error.message = error.message.replace(str(path), safe)
            raise


def referee_answer(rules: Rules[S, M], text: str, name: str, move: str | None, lang: str) -> dict[str, object]:
    """The referee page's answer: the file drawn, its legal moves; with a move, the verdict, the
    rule, the position before and after, and the resulting file (what `pnpgen referee` prints)."""
    position = read_position(rules, text, name)
    answer: dict[str, object] = {"judged": position.judged, **drawing(rules, position.state, lang)}
    if position.seat is not None:  # a view: its own file, not a state drawn from it
        from pnpgen.referee import dump_view

        answer["text"] = dump_data(dump_view(rules, position))
    answer["legal_moves"] = legal_move_texts(rules, position.state, position)
    if not move:
        return answer
    verdict = judge_position(rules, position, move)
    answer["verdict"] = {**verdict.to_data(), "events": [e.text for e in verdict.events],
                         "rule_title": rules.rule_title(verdict.rule or "") if verdict.rule else "",
                         "score_line": verdict.score_line}
    answer["result"] = dump_data(verdict.state) if verdict.state is not None else None
    if answer["svg"] is not None and position.seat is None:
        answer["svg"] = position_svg(rules, position.state, move)
    return answer


class Links(TypedDict):
    """A table's pages; `hotseat` only in a game with hidden cards."""

    table: str
    seats: list[str]
    referee: str
    hotseat: str | None


class Running:
    """A uvicorn server on its own thread (tests, benchmarks and `pnpgen play`): `url`, `stop()`."""

    def __init__(self, play: Play, port: int = 0) -> None:
        import socket
        import threading

        import uvicorn

        self.play = play
        family = socket.AF_INET6 if ":" in play.host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.socket.bind((play.host, port))
        except OSError as error:
            self.socket.close()
            raise PnpgenError(f"cannot serve on {play.host}:{port}: {error.strerror}") from None
        self.port = int(self.socket.getsockname()[1])
        config = uvicorn.Config(create_app(play), log_level="warning", timeout_graceful_shutdown=1,
                                limit_concurrency=64)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)
        self.thread.start()
        host = socket.gethostname() if play.host in ("0.0.0.0", "::") else play.host  # a name others can reach
        host = f"[{host}]" if ":" in host else host
        self.url = f"http://{host}:{self.port}"
        import time

        while not self.server.started and self.thread.is_alive():
            time.sleep(0.02)

    def stop(self) -> None:
        self.play.closing = True
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()
