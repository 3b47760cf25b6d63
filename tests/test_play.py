"""`pnpgen play`'s server API (Starlette's TestClient, no browser) for every game: the five
in content/, each Fast Alone puzzle, Pig, and games made by `pnpgen new`. A person's moves
from the listed buttons, the bots' and the dice's after them, undo and redo, the referee
page's answers, the one-line errors, the size bound, keys and the join token."""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with __import__("warnings").catch_warnings():  # Starlette 1.x suggests httpx2; httpx still works
    __import__("warnings").simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from pnpgen.content.game import content_root, load_game  # noqa: E402
from pnpgen.engine.protocol import Rules  # noqa: E402
from pnpgen.errors import PnpgenError  # noqa: E402
from pnpgen.games import find_rules  # noqa: E402
from pnpgen.play.server import MAX_BODY, Play, create_app  # noqa: E402
from pnpgen.play.table import HUMAN, Table, grouped, move_kind, seat_list  # noqa: E402
from pnpgen.referee import dump_data, dump_state  # noqa: E402
from tests.conftest import ROOT  # noqa: E402

CONTENT = content_root(ROOT / "content")
FAST_ALONE = ["horizontal-vertical-total", "horizontal-vertical-number", "growing-nine-a", "growing-nine-b",
              "no-gaps-a", "no-gaps-b", "unification-simple", "unification-complex", "pairing-five-basic",
              "pairing-five-expert"]
GAMES = ["burning-desire", "routou-dice", "dice-road-race", "dungeon-war", *[f"fast-alone/{g}" for g in FAST_ALONE]]


def packaged_rules(package: Path, module_name: str, folder: Path) -> Rules[Any, Any]:
    """The game of a rules package outside pnpgen, its module imported from where it lies (as
    the installed entry point would import it) and given its content folder."""
    sys.path.insert(0, str(package))
    try:
        module = importlib.import_module(module_name)
    finally:
        sys.path.remove(str(package))
    (rules,) = module.create(load_game(folder))
    return rules  # type: ignore[no-any-return]


def new_game_rules(tmp: Path, kind: str) -> Rules[Any, Any]:
    """A game `pnpgen new --kind KIND` makes."""
    from pnpgen.scaffold import new_game

    game = {"dice": "lucky-dice", "grid": "five-line"}[kind]
    new_game(tmp / "content", game, kind)
    return packaged_rules(tmp / f"{game}-rules", f"pnpgen_{game.replace('-', '_')}", tmp / "content" / game)


def rules_of(name: str, tmp: Path) -> Rules[Any, Any]:
    if name == "pig":  # examples/pig, a game in its own package
        pig = ROOT / "examples" / "pig"
        return packaged_rules(pig, "pnpgen_pig", pig / "content" / "pig")
    if name.startswith("new-"):
        return new_game_rules(tmp, name.removeprefix("new-"))
    return find_rules(CONTENT, name)


class Client:
    """The API as a page uses it: state, move, undo, redo (as one audience)."""

    def __init__(self, client: TestClient, table: Table, query: dict[str, str] | None = None) -> None:
        self.http, self.table, self.query = client, table, query or {}

    def state(self) -> dict[str, Any]:
        """The page's data once the table waits for a person (bots and dice have moved)."""
        for _ in range(2000):
            if not self.table.automatic():
                break
            time.sleep(0.005)
        reply = self.http.get("/api/state", params=self.query)
        assert reply.status_code == 200, reply.text
        data: dict[str, Any] = reply.json()
        return data

    def post(self, what: str, body: dict[str, Any] | None = None) -> Any:
        return self.http.post(f"/api/{what}", params=self.query, json=body or {})


def flat(groups: list[dict[str, Any]]) -> list[str]:
    """The moves of the buttons, groups within groups included."""
    return [m for group in groups for m in group["moves"] + flat(group["groups"])]


@pytest.fixture
def played(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Client]:
    rules = rules_of(request.param, tmp_path)
    seats = [HUMAN] + ["random"] * (rules.min_players - 1)
    table = Table(rules, seats, seed=7)
    play = Play(table, bot_delay=0)
    with TestClient(create_app(play)) as client:
        query = {"seat": "1", "key": play.seat_keys[0]} if table.info is not None else {}
        yield Client(client, table, query)


@pytest.mark.parametrize("played", [*GAMES, "pig", "new-dice", "new-grid"], indirect=True)
def test_every_game_plays_undoes_and_redoes(played: Client) -> None:
    table, rules = played.table, played.table.rules
    first = played.state()
    assert first["svg"] or first["text"]  # drawn, or written out for a game that draws none
    assert (first["svg"] is not None) == (rules.draw(table.state) is not None if hasattr(rules, "draw") else False)
    made = []
    for _ in range(3):  # three moves of the person, from the buttons shown
        data = played.state()
        if data["outcome"] is not None:
            break
        buttons = flat(data["moves"])
        assert sorted(buttons) == sorted(table.write(m) for m in rules.legal_moves(table.state))
        answer = played.post("move", {"move": buttons[-1]}).json()
        assert answer["legal"] is True and answer["move"] == buttons[-1]
        made.append(buttons[-1])
    data = played.state()
    mine = [e["text"] for e in data["log"] if e["who"] == "seat 1"]
    assert mine == made and len(data["log"]) == len(table.steps)
    assert data["file"] == (dump_state(rules, table.state) if table.info is None else data["text"])
    after = table.state
    assert played.post("undo").status_code == 200
    assert [s.text for s in table.steps if s.by_hand] == made[:-1]
    assert played.state()["can_redo"] is True
    assert played.post("redo").status_code == 200
    assert table.state == after and played.state()["can_redo"] is False
    bad = played.post("move", {"move": "§§ no such move"})
    assert bad.status_code in (200, 400)
    said = bad.json()
    assert ("error" in said and "\n" not in said["error"]) or said["legal"] is False


@pytest.mark.parametrize("name", [*GAMES, "pig", "new-dice"])
def test_the_referee_page_answers_for_every_game(name: str, tmp_path: Path) -> None:
    rules = rules_of(name, tmp_path)
    example = rules.example_state()
    table = Table(rules, seat_list(rules, None, rules.num_players(example)), seed=1)
    with TestClient(create_app(Play(table, bot_delay=0))) as client:
        text = dump_state(rules, example)
        shown = client.post("/api/referee", json={"text": text}).json()
        assert shown["judged"] == "full state" and (shown["svg"] or shown["text"])
        moves = [m.split("  ")[0] for m in shown["legal_moves"] if not m.startswith("(")]
        if not moves:
            return
        asked = client.post("/api/referee", json={"text": text, "move": moves[0]}).json()
        assert asked["verdict"]["legal"] is True and asked["result"] is not None
        again = client.post("/api/referee", json={"text": asked["result"], "name": "after.yaml"}).json()
        assert again["judged"] == "full state"  # the file it wrote reads back
        loaded = client.post("/api/load", params={}, json={"text": asked["result"]})
        assert loaded.status_code == 200, loaded.text  # and the table plays on from it
        assert dump_data(rules.to_data(table.start)) == asked["result"]


def test_refused_moves_cite_the_rule_and_errors_are_one_line(tmp_path: Path) -> None:
    rules = find_rules(CONTENT, "burning-desire")
    table = Table(rules, ["human", "greedy"], seed=3)
    with TestClient(create_app(Play(table, bot_delay=0))) as client:
        api = Client(client, table)
        api.state()
        verdict = api.post("move", {"move": "stop"}).json()
        assert verdict == {"legal": False, "move": "stop", "rule": "BD-4.1",
                           "rule_title": "When the multiplier dice may be rolled",
                           "reason": "the multiplier dice come after a combination is chosen", "version": table.version}
        unreadable = api.post("move", {"move": "score 9"})
        assert unreadable.status_code == 400
        assert unreadable.json()["error"] == "cannot read move 'score 9': unknown combination '9' (combinations: " \
                                             "1, 2-3, 4-6)"
        broken = client.post("/api/referee", json={"text": "scores: [1, 2\nturn: 1\n", "name": "mine.yaml"})
        assert broken.status_code == 400 and broken.json()["error"].startswith("mine.yaml:")
        assert "pnpgen-play-" not in broken.json()["error"]  # the temporary folder is not named
        huge = client.post("/api/referee", content=b"{" + b" " * MAX_BODY + b"}",
                           headers={"content-type": "application/json"})
        assert huge.status_code == 413
        assert client.post("/api/move", content=b"[1, 2]").json()["error"] == "the request must be a JSON object"
        assert api.post("redo").json()["error"] == "nothing to redo"
        assert client.post("/api/move", params={"seat": "2"}, json={"move": "score 1"}).json()["error"] == \
            "it is seat 1's turn, not seat 2's"


def test_dice_entered_by_hand() -> None:
    rules = find_rules(CONTENT, "fast-alone/no-gaps-a")
    table = Table(rules, ["human"], seed=3, dice="hand")
    with TestClient(create_app(Play(table, bot_delay=0))) as client:
        api = Client(client, table)
        data = api.state()
        assert data["to_move"]["kind"] == "chance" and data["outcome_count"] == 462 and data["outcomes"] == []
        assert api.post("move", {"move": "roll 6 6 6 6 6 7"}).status_code == 400  # not a die face: the parser's line
        assert api.post("move", {"move": "roll 4 6 1 2 3 3"}).json()["legal"] is True
        assert table.steps[-1].text == "roll 1 2 3 3 4 6" and table.steps[-1].by_hand
        assert api.post("undo").status_code == 200 and not table.steps  # a roll typed by mistake is undone
        assert api.post("roll").status_code == 200 and table.steps[-1].actor == -1  # "roll for me": the seed's
        assert api.post("roll").json()["error"] == "there is nothing to roll now"


def test_a_seat_sees_only_its_view_and_the_log_hides_what_it_cannot_see() -> None:
    rules = find_rules(CONTENT, "dungeon-war")
    data = rules.to_data(rules.example_state())
    data["hands"] = [["long-sword", "helm"], ["storm-dragon", "mirror-shield"]]
    for card in ["long-sword", "helm", "storm-dragon", "mirror-shield"]:
        data["war_deck"][card] -= 1
    table = Table(rules, ["human", "human"], seed=2, start=rules.from_data(data))
    play = Play(table, bot_delay=0)
    with TestClient(create_app(play)) as client:
        one = Client(client, table, {"seat": "1", "key": play.seat_keys[0]})
        two = Client(client, table, {"seat": "2", "key": play.seat_keys[1]})
        assert one.post("move", {"move": "draw"}).json()["legal"] is True  # seat 1 draws a war card
        seen_by_one = [e["text"] for e in one.state()["log"]]  # once the card is drawn (the table's step)
        drawn = next(s.text for s in table.steps if s.text.startswith("card "))
        seen_by_two = [e["text"] for e in two.state()["log"]]
        assert drawn in seen_by_one and drawn not in seen_by_two
        assert "(a move you cannot see)" in seen_by_two and "draw" in seen_by_two  # the draw itself is public
        for reply in (client.get("/api/state", params=two.query).text, client.get("/api/turn").text):
            assert "long-sword" not in reply and drawn.split()[1] not in reply.replace("storm-dragon", "")
        assert two.post("undo").json()["error"] == "the last move was seat 1's: only that seat can take it back"
        assert client.get("/api/state").status_code == 400  # no whole-table view of hidden cards
        assert client.get("/api/state", params={"seat": "2", "key": play.seat_keys[0]}).status_code == 403
        assert client.get(f"/seat/2/{play.seat_keys[0]}").status_code == 403
        assert client.get(f"/hotseat/{play.seat_keys[0]}").status_code == 403
        lobby = client.get("/").text
        assert f"/seat/2/{play.seat_keys[1]}" in lobby  # on loopback the lobby links the seats


def test_a_host_other_than_loopback_needs_the_join_token() -> None:
    rules = find_rules(CONTENT, "routou-dice")
    play = Play(Table(rules, ["human", "greedy"], seed=1), host="0.0.0.0", bot_delay=0)
    assert play.token is not None and len(play.token) >= 16
    with TestClient(create_app(play)) as client:
        assert client.get("/").status_code == 403
        assert client.get("/api/state").status_code == 403
        assert client.get("/", params={"token": "wrong"}).status_code == 403
        assert client.get("/", params={"token": play.token}).status_code == 200  # sets the cookie
        assert client.get("/api/state").status_code == 200


def test_seats_and_kinds() -> None:
    rules = find_rules(CONTENT, "burning-desire")
    assert seat_list(rules, "human,mcts:50,greedy") == ["human", "mcts:50", "greedy"]
    with pytest.raises(PnpgenError, match="unknown bot 'grredy'"):
        seat_list(rules, "human,grredy")
    with pytest.raises(PnpgenError, match="burning-desire takes 2 to 5 players"):
        seat_list(rules, "human")
    texts = [f"write {d} at {a}-{b} x {c}" for d in (1, 6) for a in range(2, 7) for b in range(2, 7) for c in range(9)]
    groups = grouped([*texts, "pass"])
    assert [(g["kind"], g["count"]) for g in groups] == [("write", 450), ("pass", 1)]
    assert [g["kind"] for g in groups[0]["groups"]] == ["write 1", "write 6"]
    assert groups[0]["groups"][0]["groups"][0]["kind"] == "write 1 at 2-2" and flat(groups) == [*texts, "pass"]
    assert [move_kind(t) for t in ("k5-j4", "summon S@k3", "K@k5", "j3*j6", "keep 1 5 b", "end")] == \
        ["k5", "summon", "K", "j3", "keep", "end"]


def test_without_the_extra_the_command_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                             run_pnpgen: Any) -> None:
    monkeypatch.setitem(sys.modules, "pnpgen.play.server", None)  # as if Starlette were not installed
    code, out, err = run_pnpgen("play", "burning-desire", "--serve")
    assert code == 2 and "pip install 'pnpgen[play]'" in err + out and "Traceback" not in err


def test_the_referee_page_reads_a_view_file_as_the_referee_does() -> None:
    rules = find_rules(CONTENT, "dungeon-war")
    path = ROOT / "tests" / "referee" / "dungeon-war" / "view-ambush-spring-cannot-tell.yaml"
    table = Table(rules, ["human", "random"], seed=1)
    with TestClient(create_app(Play(table, bot_delay=0))) as client:
        answer = client.post("/api/referee", json={"text": path.read_text(encoding="utf-8"), "name": path.name,
                                                  "move": "ambush pitfall"}).json()
        verdict = answer["verdict"]
        assert answer["judged"] == "view of seat 1" and verdict["legal"] is None and verdict["legal_if"]
        assert answer["text"].startswith("view: 1")  # the view itself, not a state drawn from it
        refused = client.post("/api/load", json={"text": path.read_text(encoding="utf-8")}).json()
        assert refused["error"].startswith("this is one seat's view")


def test_the_command_serves_and_says_where(tmp_path: Path) -> None:
    """`pnpgen play --serve --json`: a real uvicorn on a free loopback port; its links work."""
    import json
    import os
    import subprocess
    import urllib.request

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "pnpgen", "play", "dungeon-war", "--seats", "human,random",
                                "--seed", "3", "--serve", "--port", "0", "--json"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        said = json.loads(process.stdout.readline())
        assert said["ok"] and said["seed"] == 3 and said["seats"] == ["human", "random"] and said["token"] is None
        links = said["links"]
        assert links["table"].startswith("http://127.0.0.1:") and len(links["seats"]) == 2
        seat = urllib.request.urlopen(links["seats"][0], timeout=30).read().decode()
        assert "<title>dungeon-war — pnpgen play</title>" in seat
        lobby = urllib.request.urlopen(links["table"], timeout=30).read().decode()
        assert links["seats"][1].split("/seat/")[1] in lobby
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_command_refuses_bad_input_in_one_line(run_pnpgen: Any, tmp_path: Path) -> None:
    code, out, err = run_pnpgen("play", "burning-desire", "--seats", "human,grredy", "--serve")
    assert code == 2 and err.startswith("error: unknown bot 'grredy' for burning-desire") and len(err.splitlines()) == 1
    view = ROOT / "tests" / "referee" / "dungeon-war" / "view-ambush-spring-cannot-tell.yaml"
    code, _, err = run_pnpgen("play", "dungeon-war", "--state", str(view), "--serve")
    assert code == 2 and "this is one seat's view" in err
    code, _, err = run_pnpgen("play", "burning-desire", "--dice", "loaded", "--serve")
    assert code == 2 and "--dice loaded: seed (rolled from the seed) or hand" in err
    code, _, err = run_pnpgen("play", "dungeon-war", "--dice", "hand", "--serve")
    assert code == 2 and "dungeon-war has hidden cards, so its chance is rolled from the seed" in err


def test_every_page_follows_the_event_stream() -> None:
    """/api/events sends the table's version, to a hotseat page too (it holds no seat)."""
    rules = find_rules(CONTENT, "dungeon-war")
    play = Play(Table(rules, ["human", "human"], seed=4), bot_delay=0)
    with TestClient(create_app(play)) as client, client.stream(
            "GET", "/api/events", params={"hotseat": play.hotseat_key}) as stream:
        assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
        first = next(stream.iter_lines())
        assert first.startswith("data: ") and first.removeprefix("data: ").isdigit()
        play.closing = True  # the server stopping ends the stream


def test_the_same_seed_and_moves_play_the_same_game() -> None:
    """A seed printed is a game given back: the bots' moves and the dice follow the seed and the
    step's number, so an undone step made again by the table comes out the same."""
    rules = find_rules(CONTENT, "burning-desire")

    def game(seed: int, undo_at: int | None = None) -> list[str]:
        table = Table(rules, ["human", "greedy"], seed=seed)
        mine = 0
        while not rules.is_terminal(table.state) and len(table.steps) < 60:
            if table.automatic():
                assert table.apply_auto(*table.choose())
                continue
            table.play(table.write(rules.legal_moves(table.state)[0]), None)
            mine += 1
            if mine == undo_at:
                steps = len(table.steps)
                table.undo()
                assert table.undone[-1].by_hand and len(table.steps) + len(table.undone) == steps
        return [step.text for step in table.steps]

    first = game(5)
    assert game(5) == first and game(6) != first
    assert game(5, undo_at=3) == first  # the undone move is made again; the dice after it are the same


def test_seats_complete_on_tab(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from pnpgen.cli import app

    def complete(words: str) -> list[str]:
        monkeypatch.setenv("_PNPGEN_COMPLETE", "complete_bash")
        monkeypatch.setenv("COMP_WORDS", words)
        monkeypatch.setenv("COMP_CWORD", str(len(words.split()) - 1))
        with pytest.raises(SystemExit):
            app(prog_name="pnpgen")
        return capsys.readouterr().out.split()

    assert complete("pnpgen play burning-desire --seats human,gr") == ["human,greedy"]
    assert complete("pnpgen play burning-desire --seats h") == ["human"]


@pytest.mark.parametrize(("game", "seats", "first"), [
    ("burning-desire", ["human", "greedy", "random"], "table"),  # no hidden cards: the one table
    ("dungeon-war", ["human", "random"], "seat 1"),  # hidden cards, one person: their seat
    ("dungeon-war", ["human", "human"], "hotseat"),  # two people at one device
])
def test_the_page_to_open_first(game: str, seats: list[str], first: str) -> None:
    from types import SimpleNamespace

    from pnpgen.app import running_links

    play = Play(Table(find_rules(ROOT / "content", game), seats, seed=1), bot_delay=0)
    links = running_links(SimpleNamespace(play=play, url="http://127.0.0.1:8000"))  # type: ignore[arg-type]
    labels = [label for label, _ in links]
    assert labels[0] == first and labels[-1] == "referee" and len(set(links)) == len(links)
    assert all(url.startswith("http://127.0.0.1:8000/") for _, url in links)
    assert ("hotseat" in labels) == (game == "dungeon-war")
