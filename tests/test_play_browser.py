"""`pnpgen play` in a real headless Chromium (Debian's `chromium`, driven over the DevTools
protocol): a whole Burning Desire game against a bot, an illegal move refused with its rule,
a save and load round trip through `pnpgen referee`, a Dungeon War seat page that holds none
of the other seat's hidden cards, and the hotseat pass screen. One browser for the module;
each test its own table (a server starts in a few ms)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from pnpgen.content.game import content_root  # noqa: E402
from pnpgen.engine.bots import make_bot  # noqa: E402
from pnpgen.games import find_rules  # noqa: E402
from pnpgen.play.browser import Browser, chromium  # noqa: E402
from pnpgen.play.server import Play, Running  # noqa: E402
from pnpgen.play.table import Table  # noqa: E402
from pnpgen.referee import dump_data  # noqa: E402
from tests.conftest import ROOT  # noqa: E402

if chromium() is None:  # .ci/run installs Debian's chromium
    pytest.skip("no chromium on this machine", allow_module_level=True)

ROOT_CONTENT = content_root(ROOT / "content")
SEAT2_HIDDEN = ["storm-dragon", "mirror-shield"]  # seat 2's hand in the Dungeon War tests
SEAT1_HAND = ["long-sword", "helm"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    with Browser(tmp_path_factory.mktemp("chromium")) as b:
        yield b


def serve(table: Table, delay: float = 0.02) -> Running:
    return Running(Play(table, bot_delay=delay))


def pnpgen(*args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PNPGEN_CONTENT"}
    done = subprocess.run([sys.executable, "-m", "pnpgen", *args], capture_output=True, text=True, timeout=120,
                          check=False, cwd=ROOT, env=env)
    return done.returncode, done.stdout, done.stderr


def wait_table(browser: Browser, table: Table, before: int) -> None:
    """Wait until the table has taken the move just clicked."""
    for _ in range(500):
        if table.version > before:
            return
        browser.evaluate("new Promise(r => setTimeout(r, 10))")
    raise AssertionError("the click made no move")


def settled(browser: Browser, table: Table) -> None:
    """Wait until the page shows the table's latest position and the table waits for a person."""
    browser.wait("document.body.dataset.version !== undefined")
    for _ in range(500):
        if not table.automatic() and browser.evaluate("document.body.dataset.version") == str(table.version):
            return
        browser.evaluate("new Promise(r => setTimeout(r, 20))")
    raise AssertionError(f"the page stayed at version {browser.evaluate('document.body.dataset.version')}, "
                         f"the table is at {table.version}")


@pytest.fixture
def burning() -> Iterator[tuple[Table, Running]]:
    rules = find_rules(ROOT_CONTENT, "burning-desire")
    table = Table(rules, ["human", "greedy"], seed=11)
    running = serve(table)
    yield table, running
    running.stop()


def test_a_whole_burning_desire_game_against_a_bot(browser: Browser, burning: tuple[Table, Running],
                                                   tmp_path: Path) -> None:
    table, running = burning
    rules = table.rules
    me = make_bot(rules, "greedy")  # what the person clicks: the greedy choice, found here
    browser.goto(running.url + "/")
    clicks = 0
    while True:
        settled(browser, table)
        if rules.is_terminal(table.state):
            break
        assert browser.evaluate("document.getElementById('status').textContent") == "Seat 1 to move"
        choice = table.write(me(table.state, random.Random(clicks)))
        shown = browser.evaluate("[...document.querySelectorAll('#moves button')].map(b => b.textContent)")
        assert choice in shown and sorted(shown) == sorted(table.write(m) for m in rules.legal_moves(table.state))
        assert browser.evaluate("document.querySelector('#board svg') !== null")  # the game's own drawing
        before = table.version
        browser.click("#moves button", choice)
        wait_table(browser, table, before)
        clicks += 1
        assert clicks < 200
    done = rules.outcome(table.state)
    banner = browser.wait("document.getElementById('outcome').textContent")
    scores = ", ".join(f"seat {k + 1}: {s:g}" for k, s in enumerate(done.scores))
    assert banner.startswith("Game over") and scores in banner and f"seat {done.winners[0] + 1} won" in banner
    assert clicks >= 10 and browser.evaluate("document.getElementById('status').textContent") == "Game over"
    log = browser.evaluate("[...document.querySelectorAll('#log-list li')].map(li => li.textContent)")
    assert log == [f"{'chance' if s.actor < 0 else f'seat {s.actor + 1}'}: {s.text}" for s in table.steps]
    assert any(line.startswith("seat 2: ") for line in log)  # the bot played
    browser.screenshot(tmp_path / "burning-desire-over.png")


def test_an_illegal_move_is_refused_with_its_rule(browser: Browser, burning: tuple[Table, Running]) -> None:
    table, running = burning
    browser.goto(running.url + "/")
    settled(browser, table)
    version = table.version
    browser.evaluate("document.getElementById('typed-move').value = 'stop'")
    browser.click("#typed button")
    said = browser.wait("document.getElementById('verdict').textContent")
    assert said.startswith("Illegal: stop.") and "rule BD-4.1 (When the multiplier dice may be rolled)" in said
    assert table.version == version and not table.steps[-1].by_hand  # nothing changed
    browser.evaluate("document.getElementById('typed-move').value = 'score 9'")  # unreadable: the parser's line
    browser.click("#typed button")
    assert "unknown combination '9'" in browser.wait("document.getElementById('error').textContent")


def test_save_and_load_round_trip_through_the_referee(browser: Browser, burning: tuple[Table, Running],
                                                      tmp_path: Path) -> None:
    table, running = burning
    rules = table.rules
    downloads = tmp_path / "downloads"
    browser.downloads_to(downloads)
    browser.goto(running.url + "/")
    for _ in range(2):  # two moves at the table, then save
        settled(browser, table)
        before = table.version
        browser.click("#moves button", table.write(rules.legal_moves(table.state)[0]))
        wait_table(browser, table, before)
    settled(browser, table)
    browser.click("#save")
    saved = wait_for_file(browser, downloads / "burning-desire-state.yaml")
    assert saved.read_text(encoding="utf-8") == dump_data(rules.to_data(table.state))
    code, out, err = pnpgen("referee", "burning-desire", "--state", str(saved), "--legal")
    assert code == 0, err
    move = out.splitlines()[-1].split("  ")[0]
    code, out, err = pnpgen("referee", "burning-desire", "--state", str(saved), "--move", move, "--json")
    assert code == 0, err
    after = tmp_path / "after.yaml"
    after.write_text(dump_data(json.loads(out)["state"]), encoding="utf-8")

    # the referee page: the file the referee wrote loads and is drawn; a move's result downloads
    browser.goto(running.url + "/referee")
    browser.upload("#upload", after)
    assert browser.wait("document.getElementById('judged').textContent") == "judged: full state"
    assert browser.evaluate("document.querySelector('#board svg') !== null")
    legal = browser.evaluate("document.getElementById('legal').textContent").splitlines()
    browser.evaluate(f"document.getElementById('move').value = {json.dumps(legal[0].split('  ')[0])}")
    browser.click("#ask button")
    assert browser.wait("document.getElementById('verdict').textContent").startswith("LEGAL")
    browser.click("#download")
    name = browser.evaluate("document.getElementById('download').download")
    result = wait_for_file(browser, downloads / name)
    code, _, err = pnpgen("referee", "burning-desire", "--state", str(result))
    assert code == 0, err

    # and back at the table: Load takes the referee's file
    browser.goto(running.url + "/")
    settled(browser, table)
    before = table.version
    browser.upload("#load", result)
    wait_table(browser, table, before)
    settled(browser, table)
    assert not any(step.by_hand for step in table.steps)  # a fresh game from the file (the bot may have moved)
    assert browser.evaluate("document.getElementById('log-list').children.length") == len(table.steps)
    assert rules.to_data(table.start) == rules.to_data(rules.from_data(yaml_of(result)))


def wait_for_file(browser: Browser, path: Path) -> Path:
    browser.wait("new Promise(r => setTimeout(() => r(true), 50))")
    for _ in range(200):
        if path.exists() and not path.with_name(path.name + ".crdownload").exists() and path.stat().st_size:
            return path
        browser.evaluate("new Promise(r => setTimeout(r, 25))")
    raise AssertionError(f"no download {path.name}: {sorted(p.name for p in path.parent.glob('*'))}")


def yaml_of(path: Path) -> Any:
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture
def dungeon() -> Iterator[tuple[Table, Running]]:
    """Dungeon War, two people; seat 1 holds SEAT1_HAND, seat 2 SEAT2_HIDDEN."""
    rules = find_rules(ROOT_CONTENT, "dungeon-war")
    data = rules.to_data(rules.example_state())
    data["hands"] = [SEAT1_HAND, SEAT2_HIDDEN]
    for card in SEAT1_HAND + SEAT2_HIDDEN:
        data["war_deck"][card] -= 1
    table = Table(rules, ["human", "human"], seed=5, start=rules.from_data(data))
    running = serve(table)
    yield table, running
    running.stop()


def test_a_dungeon_war_seat_page_holds_none_of_the_other_seats_cards(browser: Browser,
                                                                    dungeon: tuple[Table, Running]) -> None:
    table, running = dungeon
    play = running.play
    browser.events.clear()
    browser.page("Network.enable")
    try:
        browser.goto(running.url + f"/seat/1/{play.seat_keys[0]}")
        settled(browser, table)
        page = browser.html()
        assert all(card in page for card in SEAT1_HAND)  # its own hand is there: the check can fail
        assert "equip long-sword" in page and "Seat 1 to move (you)" in page
        before = table.version
        browser.click("#moves button", "end")  # seat 1 ends its turn; the page follows
        wait_table(browser, table, before)
        settled(browser, table)
        pages = [page, browser.html()]
        bodies = browser.response_bodies()
    finally:
        browser.page("Network.disable")
    assert any("/api/state" in url for url, _ in bodies) and any(url == "event-stream" for url, _ in bodies)
    assert any("long-sword" in body for _, body in bodies)
    for card in SEAT2_HIDDEN:
        assert all(card not in text for text in pages), card
        assert all(card not in body for _, body in bodies), card
    # the other seat's key is needed for its page
    browser.goto(running.url + f"/seat/2/{play.seat_keys[0]}")
    assert "needs its key" in browser.html() and "storm" not in browser.html()


def test_the_hotseat_pass_screen(browser: Browser, dungeon: tuple[Table, Running]) -> None:
    table, running = dungeon
    browser.goto(running.url + f"/hotseat/{running.play.hotseat_key}")
    said = browser.wait("!document.getElementById('pass').hidden && document.getElementById('pass-text').textContent")
    assert said == "Pass the device to seat 1"
    page = browser.html()
    assert not any(card in page for card in SEAT1_HAND + SEAT2_HIDDEN)  # nobody's cards while passing
    browser.click("#pass-button")
    settled(browser, table)
    assert "equip long-sword" in browser.html() and "storm-dragon" not in browser.html()
    before = table.version
    browser.click("#moves button", "end")
    wait_table(browser, table, before)
    said = browser.wait("!document.getElementById('pass').hidden && document.getElementById('pass-text').textContent")
    assert said == "Pass the device to seat 2" and table.to_move() == 1
    page = browser.html()
    assert not any(card in page for card in SEAT1_HAND + SEAT2_HIDDEN)
    browser.click("#pass-button")
    browser.wait("document.getElementById('pass').hidden && document.body.innerHTML.includes('storm-dragon')")
    page = browser.html()
    assert "Seat 2 to move (you)" in page and not any(card in page for card in SEAT1_HAND)
