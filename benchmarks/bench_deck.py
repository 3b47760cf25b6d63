"""Print kit speed: a 200-card deck (fronts and backs, 3 mm bleed, poker on A4) built by
the kit from YAML + CSV, next to a plain ReportLab script drawing the same rectangles
and text at the same places. The ratio (kit / plain) is the figure; the aim is < 1.5×.

    python benchmarks/bench_deck.py [--rounds 10] [--cards 200]
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reportlab.lib import colors  # noqa: E402
from reportlab.lib.units import mm  # noqa: E402
from reportlab.lib.utils import simpleSplit  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from pnpgen.content.game import load_game  # noqa: E402
from pnpgen.output import BuildOptions  # noqa: E402
from pnpgen.render.fonts import SANS, setup_fonts  # noqa: E402
from pnpgen.render.kit import components, jobs  # noqa: E402
from pnpgen.render.kit.deck import render  # noqa: E402

WORDS = ["fire", "storm", "frost", "deal", "damage", "draw", "a", "card", "heal", "gain", "one", "mana", "target",
         "each", "opponent", "until", "your", "next", "turn", "push", "space", "skip", "move", "return", "spell",
         "from", "discard", "pile", "to", "hand"]

GAME = """\
id: bench
title: Bench
players: {min: 2, max: 4}
time_minutes: 10
version: 1
components: deck.yaml
"""

DECK = """\
- type: deck
  id: cards
  title: Bench deck
  csv: cards.csv
  front:
    - {shape: rect, fill: "#e76f51", bleed: true}
    - {shape: rounded, x: 3, y: 3, w: 57, h: 82, radius: 2.5, fill: "#fffaf0", stroke: "#333333"}
    - {text: "{{ name }}", x: 5, y: 5, w: 43, h: 8, size: 10}
    - {shape: circle, x: 49, y: 4, w: 10, h: 10, fill: "#264653"}
    - {text: "{{ cost }}", x: 49, y: 4, w: 10, h: 10, size: 11, align: center, valign: middle, color: white}
    - {text: "{{ text }}", x: 5, y: 50, w: 53, h: 30, size: 8}
    - {text: "{{ index }}", x: 5, y: 80, w: 53, h: 4, size: 5, align: right}
  back:
    - {shape: rect, fill: "#2b2d42", bleed: true}
    - {text: "BENCH", x: 5, y: 40, w: 53, h: 8, size: 14, align: center, color: white}
"""


def make_cards(count: int) -> list[dict[str, str]]:
    cards = []
    for i in range(count):
        words = [WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(18 + i % 9)]
        cards.append({"name": f"Card {i + 1} {WORDS[i % len(WORDS)]}", "cost": str(i % 7),
                      "text": " ".join(words).capitalize() + "."})
    return cards


def write_game(folder: Path, cards: list[dict[str, str]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(textwrap.dedent(DECK), encoding="utf-8")
    with (folder / "cards.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, ["name", "cost", "text"])
        writer.writeheader()
        writer.writerows(cards)


def kit_build(folder: Path, out: Path, print_shop: bool = False) -> Callable[[], Path]:
    """The kit's build of the deck: the home files (the deck and its backs-shifted
    calibration file), or with `print_shop` the PDF/X-4 print-shop file alone."""
    content = load_game(folder)
    component = components(content)[0]
    [job] = jobs(content, [], BuildOptions(out=out, print_shop=print_shop), component)

    def run() -> Path:
        return render(component, job)[0].path

    return run


def plain_build(cards: list[dict[str, str]], out: Path, print_shop: bool = False) -> Callable[[], Path]:
    """The same deck drawn by hand with ReportLab: 3×3 poker on A4, 3 mm bleed, backs mirrored,
    and (home files) the 25-page backs-shifted calibration file the kit also writes."""
    setup_fonts()
    path = out / "plain.pdf"
    card_w, card_h, bleed = 63 * mm, 88 * mm, 3 * mm
    left, bottom = 10.5 * mm, 16.5 * mm
    page_w = 210 * mm

    def slot(i: int, mirror: bool) -> tuple[float, float]:
        col, row = i % 3, i // 3
        if mirror:
            col = 2 - col
        return left + col * card_w, bottom + (2 - row) * card_h

    def clip(c: Canvas, x: float, y: float) -> None:
        p = c.beginPath()
        p.rect(x - bleed, y - bleed, card_w + 2 * bleed, card_h + 2 * bleed)
        c.clipPath(p, stroke=0, fill=0)

    def front(c: Canvas, x: float, y: float, card: dict[str, str], index: int) -> None:
        c.saveState()
        clip(c, x, y)
        c.setFillColor(colors.HexColor("#e76f51"))
        c.rect(x - bleed, y - bleed, card_w + 2 * bleed, card_h + 2 * bleed, stroke=0, fill=1)
        c.setFillColor(colors.HexColor("#fffaf0"))
        c.setStrokeColor(colors.HexColor("#333333"))
        c.roundRect(x + 3 * mm, y + 3 * mm, 57 * mm, 82 * mm, 2.5 * mm, stroke=1, fill=1)
        c.setFillColor(colors.black)
        c.setFont(SANS, 10)
        c.drawString(x + 5 * mm, y + card_h - 5 * mm - 10, card["name"])
        c.setFillColor(colors.HexColor("#264653"))
        c.circle(x + 54 * mm, y + card_h - 9 * mm, 5 * mm, stroke=0, fill=1)
        c.setFillColor(colors.white)
        c.setFont(SANS, 11)
        c.drawCentredString(x + 54 * mm, y + card_h - 9 * mm - 4, card["cost"])
        c.setFillColor(colors.black)
        c.setFont(SANS, 8)
        for n, line in enumerate(simpleSplit(card["text"], SANS, 8, 53 * mm)):
            c.drawString(x + 5 * mm, y + card_h - 50 * mm - 8 - n * 10, line)
        c.setFont(SANS, 5)
        c.drawRightString(x + 58 * mm, y + 4 * mm, str(index))
        c.restoreState()

    def back(c: Canvas, x: float, y: float) -> None:
        c.saveState()
        clip(c, x, y)
        c.setFillColor(colors.HexColor("#2b2d42"))
        c.rect(x - bleed, y - bleed, card_w + 2 * bleed, card_h + 2 * bleed, stroke=0, fill=1)
        c.setFillColor(colors.white)
        c.setFont(SANS, 14)
        c.drawCentredString(x + card_w / 2, y + card_h / 2, "BENCH")
        c.restoreState()

    def run_shop() -> Path:
        """One face per page, the page the card plus its bleed, as a print shop takes them."""
        c = Canvas(str(out / "plain-shop.pdf"), pagesize=(card_w + 2 * bleed, card_h + 2 * bleed), invariant=1,
                   pageCompression=1)
        for index, card in enumerate(cards):
            front(c, bleed, bleed, card, index + 1)
            c.showPage()
            back(c, bleed, bleed)
            c.showPage()
        c.save()
        return out / "plain-shop.pdf"

    def run() -> Path:
        c = Canvas(str(path), pagesize=(page_w, 297 * mm), invariant=1, pageCompression=1)
        for start in range(0, len(cards), 9):
            chunk = cards[start:start + 9]
            for i, card in enumerate(chunk):
                front(c, *slot(i, False), card, start + i + 1)
            c.showPage()
            for i in range(len(chunk)):
                back(c, *slot(i, True))
            c.showPage()
        c.save()
        # the same calibration file the kit writes: a page of backs per reading, shifted
        # −1.0 … +1.0 mm in 0.5 mm steps both ways (25 pages)
        shifted = Canvas(str(out / "plain-backs-shifted.pdf"), pagesize=(page_w, 297 * mm), invariant=1,
                         pageCompression=1)
        steps = [-1.0, -0.5, 0.0, 0.5, 1.0]
        for dy in reversed(steps):
            for dx in steps:
                for i in range(min(9, len(cards))):
                    x, y = slot(i, True)
                    back(shifted, x - dx * mm, y - dy * mm)
                shifted.showPage()
        shifted.save()
        return path

    return run_shop if print_shop else run


def best_times(runs: list[Callable[[], Path]], rounds: int) -> list[float]:
    """The fastest of `rounds` runs of each, taken in turn (kit, plain, kit, plain, ...) so
    that a burst of load on a shared machine hits both alike."""
    for run in runs:
        run()  # warm up: fonts, caches, imports
    best = [float("inf")] * len(runs)
    for _ in range(rounds):
        for i, run in enumerate(runs):
            start = time.perf_counter()
            run()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--cards", type=int, default=200)
    args = parser.parse_args()
    cards = make_cards(args.cards)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_game(root / "content" / "bench", cards)
        kit = kit_build(root / "content" / "bench", root / "build")
        plain = plain_build(cards, root)
        kit_shop = kit_build(root / "content" / "bench", root / "build", print_shop=True)
        plain_shop = plain_build(cards, root, print_shop=True)
        kit_s, plain_s, shop_s, plain_shop_s = best_times([kit, plain, kit_shop, plain_shop], args.rounds)
        pages = -(-args.cards // 9) * 2
        print(f"{args.cards}-card deck, fronts and backs with 3 mm bleed ({pages} pages + calibration):")
        print(f"  print kit (YAML + CSV)   {kit_s * 1000:8.1f} ms   (with the 25-page backs-shifted file)")
        print(f"  plain ReportLab script   {plain_s * 1000:8.1f} ms   (the same two files)")
        print(f"  ratio kit / plain        {kit_s / plain_s:8.2f}×   (aim: under 1.5×)")
        print(f"print-shop file, one face per page ({args.cards * 2} pages), PDF/X-4 CMYK:")
        print(f"  print kit                {shop_s * 1000:8.1f} ms")
        print(f"  plain ReportLab (RGB)    {plain_shop_s * 1000:8.1f} ms")
        print(f"  ratio kit / plain        {shop_s / plain_shop_s:8.2f}×")


if __name__ == "__main__":
    main()
