"""Every shipped rulebook has every part a player needs (issues 14, 27): a cover with players,
time, ages and credits; components with a picture; setup; the turn; end of game; credits
with the source's licence terms; a quick reference on the last page, in that order. The
companion has the designer notes with numbered decisions and the referees' chapter.
Found in the built PDFs (outline titles, page text, the components page's drawn ink)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from tests import pdfpages
from tests.test_diagrams import ink_counts

GAMES = ["burning-desire", "dice-road-race", "routou-dice", "fast-alone"]  # Dungeon War names its parts otherwise

# The outline title of each part, per book and language (the turn and the end of the game
# are named for what they are in each game).
PARTS: dict[str, dict[str, dict[str, str]]] = {
    "components": {
        "en": {"burning-desire": "Components", "dice-road-race": "Components", "routou-dice": "What you need",
               "fast-alone": "Components"},
        "ja": {"burning-desire": "内容物", "dice-road-race": "内容物", "routou-dice": "用意するもの",
               "fast-alone": "内容物"},
    },
    "setup": {
        "en": {"burning-desire": "Setup", "dice-road-race": "Setup and the course", "routou-dice": "Setup",
               "fast-alone": "Setup"},
        "ja": {"burning-desire": "準備", "dice-road-race": "準備とコース", "routou-dice": "準備",
               "fast-alone": "準備"},
    },
    "turn": {
        "en": {"burning-desire": "Turn sequence", "dice-road-race": "Playing a stage",
               "routou-dice": "How a turn works", "fast-alone": "Rolling the dice"},
        "ja": {"burning-desire": "手番の進行", "dice-road-race": "ステージの進め方", "routou-dice": "ターンの流れ",
               "fast-alone": "ダイスを振る"},
    },
    "end": {
        "en": {"burning-desire": "End of the game", "dice-road-race": "Final classification and ties",
               "routou-dice": "Game end and tie-breaks", "fast-alone": "End of the game"},
        "ja": {"burning-desire": "ゲームの終わり", "dice-road-race": "最終順位と同タイム",
               "routou-dice": "終了条件と終了時の勝者", "fast-alone": "ゲームの終わり"},
    },
}
SAME_TITLES = {"en": ["Credits"], "ja": ["クレジット"]}  # parts every players' book names alike
COMPANION_TITLES = {"en": ["Designer notes", "For referees"], "ja": ["デザイナーノート", "審判用資料"]}
QUICK = {"en": "Quick reference", "ja": ("クイックリファレンス", "早見表")}
COVER = {"en": ["Players", "Playing time", "Ages", "Original:", "This edition"],
         "ja": ["プレイ人数", "プレイ時間", "対象年齢", "原作", "この版"]}
# Who made each game, as the cover's credits name them (the source names them so).
MAKERS = {"burning-desire": ["Burning Desire", "no designer, publisher or year"],
          "dice-road-race": ["fullkawa", "Open Design Games"],
          "routou-dice": ["Y.T.", "YunPro", "2025"],
          "fast-alone": ["居酒", "十式ゲームワークス", "2018"]}
# The source's own licence terms, where it states them; otherwise the book says it states none.
LICENCE = {"burning-desire": "states no terms", "dice-road-race": "states no licence terms",
           "routou-dice": "personal use", "fast-alone": "states no terms"}


def outline(reader: PdfReader) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []

    def walk(items: Any) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                out.append((str(item.title), reader.get_destination_page_number(item)))

    walk(reader.outline)
    return out


def squash(text: str) -> str:
    return "".join(text.split()).translate(str.maketrans("“”‘’", "\"\"''"))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_book_has_every_part(rulebook_pdfs: dict[str, dict[str, Path]], game: str, lang: str) -> None:
    reader = PdfReader(rulebook_pdfs[game][lang])
    titles = outline(reader)
    names = [t for t, _ in titles]
    for part, by_lang in PARTS.items():
        assert by_lang[lang][game] in names, f"{game} {lang}: no {part} section"
    for title in SAME_TITLES[lang]:
        assert title in names, f"{game} {lang}: no '{title}'"
    quick = [(t, p) for t, p in titles if any(q in t for q in (QUICK[lang] if lang == "ja" else [QUICK[lang]]))]
    assert quick, f"{game} {lang}: no quick reference"
    assert quick[-1][1] == len(reader.pages) - 1, "the quick reference is the last page, on one page"

    cover = squash(reader.pages[0].extract_text())
    for word in COVER[lang]:
        assert squash(word) in cover, f"{game} {lang}: the cover lacks '{word}'"
    if lang == "en":
        for name in MAKERS[game]:
            assert squash(name) in cover, f"{game}: the cover's credits lack '{name}'"

    components = next(p for t, p in titles if t == PARTS["components"][lang][game])
    drawn = ink_counts(pdfpages.texts(rulebook_pdfs[game][lang])[components][2])  # the page's strokes per colour
    assert sum(drawn.values()) >= 4, f"{game} {lang}: no picture on the components page ({drawn})"

    order = [names.index(by_lang[lang][game]) for by_lang in PARTS.values()]
    order += [names.index(SAME_TITLES[lang][0]), len(names) - 1]  # credits, then the quick reference
    assert order == sorted(order), f"{game} {lang}: parts out of order"

    companion = PdfReader(rulebook_pdfs[game][f"companion-{lang}"])
    chapters = outline(companion)
    for title in COMPANION_TITLES[lang]:
        assert title in [t for t, _ in chapters], f"{game} {lang}: the companion has no '{title}'"
    notes = next(p for t, p in chapters if t == COMPANION_TITLES[lang][0])
    referees = next(p for t, p in chapters if t == COMPANION_TITLES[lang][1])
    notes_text = "".join(companion.pages[i].extract_text() for i in range(notes, referees + 1))
    assert ("Decision 1" if lang == "en" else "決定1") in notes_text.replace("決定 1", "決定1"), \
        f"{game} {lang}: no numbered decisions in the designer notes"
    if lang == "en":
        credits = next(p for t, p in titles if t == "Credits")
        assert LICENCE[game] in reader.pages[credits].extract_text().replace("\n", " ").replace("\u00a0", " ")
