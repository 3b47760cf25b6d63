"""`pnpgen play`: the time from a click on a move's button to the next position drawn on the
page, in a real headless Chromium (pnpgen.play.browser), p50 and p95 over a game.

The page records each time itself (performance.now() at the click, then once the answer's
position is in the DOM: window.playTimes), so the figure is the person's wait: the POST,
the referee's judgement, the server-sent event, the fetch of the new position with its SVG
drawn by the game, and the page's redraw. With --bot-delay 0 a click may be answered by the
bot's reply (and the dice) too; with the command's default delay (0.8 s) the person sees their
own move first, then the bot's (the bench waits for the table to settle between clicks).

    python benchmarks/bench_play.py [--games burning-desire,dungeon-war] [--clicks 40] [--bot-delay 0.8]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnpgen.content.game import content_root  # noqa: E402
from pnpgen.engine.bots import make_bot  # noqa: E402
from pnpgen.games import find_rules  # noqa: E402
from pnpgen.play.browser import Browser, chromium  # noqa: E402
from pnpgen.play.server import Play, Running  # noqa: E402
from pnpgen.play.table import Table  # noqa: E402

SEATS = {"burning-desire": ["human", "greedy"], "dungeon-war": ["human", "random"],
         "routou-dice": ["human", "greedy"], "fast-alone/no-gaps-a": ["human"]}


def settle(browser: Browser, table: Table) -> None:
    for _ in range(3000):
        if not table.automatic() and browser.evaluate("document.body.dataset.version") == str(table.version):
            return
        time.sleep(0.005)
    raise SystemExit("the page did not settle")


def bench(browser: Browser, game: str, clicks: int, seed: int, delay: float) -> list[float]:
    rules = find_rules(content_root(ROOT / "content"), game)
    table = Table(rules, SEATS.get(game, ["human"] * rules.min_players), seed=seed)
    running = Running(Play(table, bot_delay=delay))
    chooser = make_bot(rules, "greedy") if table.info is None else None
    try:
        url = running.url + (f"/seat/1/{running.play.seat_keys[0]}" if table.info is not None else "/")
        browser.goto(url)
        browser.wait("document.body.dataset.version !== undefined")
        rng = random.Random(seed)
        for _ in range(clicks):
            settle(browser, table)
            if rules.is_terminal(table.state):
                break
            moves = [table.write(m) for m in rules.legal_moves(table.state)]
            choice = table.write(chooser(table.state, rng)) if chooser is not None else rng.choice(moves)
            before, version = browser.evaluate("window.playTimes.length"), table.version
            browser.click("#moves button", choice)
            browser.wait(f"window.playTimes.length > {before}")
            while table.version == version:  # the table has taken it (the page drew it: it has)
                time.sleep(0.002)
        times: list[float] = browser.evaluate("window.playTimes")
        return times
    finally:
        running.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="burning-desire,dungeon-war")
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-delay", type=float, default=0.0)
    args = parser.parse_args()
    if chromium() is None:
        raise SystemExit("no chromium on PATH (Debian: apt-get install chromium)")
    print(f"load average {os.getloadavg()[0]:.2f} (a shared machine moves these figures); bot delay {args.bot_delay} s")
    print(f"{'game':24} {'clicks':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    with tempfile.TemporaryDirectory() as folder, Browser(Path(folder)) as browser:
        for game in args.games.split(","):
            times = bench(browser, game, args.clicks, args.seed, args.bot_delay)
            ordered = sorted(times)
            p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
            print(f"{game:24} {len(times):6d} {statistics.median(times):8.1f} {p95:8.1f} {ordered[-1]:8.1f}")


if __name__ == "__main__":
    main()
