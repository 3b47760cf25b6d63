"""Rulebook build time: every shipped game's books (both languages), rules loaded once,
the Fast Alone difficulty figures read from a warm cache. Prints seconds per game and the
total; run it before and after a renderer change (issue 26: ReportLab -> Typst).

    PNPGEN_CACHE=/tmp/cache python benchmarks/bench_rulebooks.py

Measured on the shared 2-core machine (issue 26), one run each, warm:

    before (ReportLab platypus, rulebook-<lang>.pdf only)     after (Typst, rulebook + companion)
    burning-desire    0.82 s  2 files,  20 pages              0.68 s  4 files,  22 pages
    dice-road-race    0.59 s  2 files,  18 pages              0.52 s  4 files,  22 pages
    dungeon-war       1.89 s  2 files,  34 pages              0.99 s  4 files,  34 pages
    fast-alone        9.28 s  2 files,  74 pages              1.15 s  4 files,  66 pages
    routou-dice       2.98 s  2 files,  40 pages              0.71 s  4 files,  40 pages
    all books        15.56 s                                  4.05 s  (3.8x faster, twice the files)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from pnpgen.content.game import load_game
from pnpgen.games import rules_for_content
from pnpgen.output import BuildOptions
from pnpgen.render.rulebook import render_rulebooks

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["burning-desire", "dice-road-race", "dungeon-war", "fast-alone", "routou-dice"]


def main() -> None:
    total = 0.0
    with tempfile.TemporaryDirectory() as out:
        for game in GAMES:
            content = load_game(ROOT / "content" / game)
            rules = rules_for_content(content)
            render_rulebooks(content, rules, BuildOptions(out=Path(out)))  # warm: caches, imports
            start = time.perf_counter()
            built = render_rulebooks(content, rules, BuildOptions(out=Path(out)))
            took = time.perf_counter() - start
            total += took
            pages = sum(f.pages for f in built)
            print(f"{game:16} {took:6.2f} s  {len(built)} files, {pages} pages")
    print(f"{'all books':16} {total:6.2f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
