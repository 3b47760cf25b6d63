"""Every real rulebook, built and read back: the players' text (everything but the
"Designer notes" and "For referees" back matter) holds no engine material, and the back
matter holds what was moved there (issue 14)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from pnpgen.render.words import WORDS

CONTENT = Path(__file__).resolve().parents[1] / "content"
GAMES = ["burning-desire", "dice-road-race", "fast-alone", "routou-dice"]
BACK = {WORDS(name, lang) for name in ("designer_notes", "for_referees") for lang in ("ja", "en")}

# What a player never needs to read: the recording notation's "Moves:" line, rule codes
# (BD-3.2, RD-SLASH, D-RR-4, P5-5.1), a pnpgen command, a YAML/engine key, a huge exact
# fraction, a statistics method.
ENGINE = {
    "notation line": re.compile(r"手順：|\bMoves:"),
    "rule code": re.compile(
        r"(?<![A-Za-z0-9])(?:D-)?[A-Z][A-Z0-9]{0,2}-(?:[A-Z]{2,}|\d+(?:\.\d+)*)(?![A-Za-z])"),
    "pnpgen command": re.compile(
        r"\bpnpgen\s+(?:build|validate|referee|simulate|report|sweep|list|new|watch)\b"),
    "snake_case key": re.compile(r"\b[a-z]+_[a-z][a-z_]*\b"),
    "exact fraction": re.compile(r"\d{7,}\s*/\s*\d{7,}"),
    "statistics method": re.compile(r"Wilson|ウィルソン|\(simulation\)|（シミュレーション）"),
}


def outline_pages(reader: PdfReader) -> list[tuple[str, int]]:
    """(title, page index) of every top-level outline entry, in order."""
    return [(str(item.title), reader.get_destination_page_number(item))
            for item in reader.outline if not isinstance(item, list)]


def split_pages(path: Path) -> tuple[list[str], list[str]]:
    """The text of the body pages and of the back-matter pages. The back matter runs from
    the first "Designer notes"/"For referees" chapter to the next other chapter (the quick
    reference, printed last, is players' text)."""
    reader = PdfReader(path)
    tops = outline_pages(reader)
    starts = [page for title, page in tops if title in BACK]
    assert starts, f"{path.name}: no back matter"
    begin = min(starts)
    after = [page for title, page in tops if title not in BACK and page > begin]
    end = min(after) if after else len(reader.pages)
    texts = [page.extract_text() for page in reader.pages]
    return texts[:begin] + texts[end:], texts[begin:end]


@pytest.fixture(scope="module")
def books(real_rulebooks: dict[str, dict[str, Path]]) -> dict[str, dict[str, Path]]:
    return real_rulebooks


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_body_has_no_engine_material(books: Any, game: str, lang: str) -> None:
    body, _ = split_pages(books[game][lang])
    found = []
    for number, text in enumerate(body, 1):
        for line in text.splitlines():
            for kind, pattern in ENGINE.items():
                if pattern.search(line):
                    found.append(f"p{number} {kind}: {line.strip()[:100]}")
    assert found == []


@pytest.mark.parametrize("game", GAMES)
def test_back_matter_keeps_the_rule_ids_and_notation(books: Any, game: str) -> None:
    _, back = split_pages(books[game]["en"])
    text = " ".join(back)
    assert "For referees" in text and "Rule numbers" in text
    assert ENGINE["rule code"].search(text)


CREDITS = {  # what each source states about who made it, when, and on what terms
    "burning-desire": ["Credits", "states no terms"],
    "dice-road-race": ["Credits", "fullkawa", "Open Design Games"],
    "fast-alone": ["Credits", "居酒 枕", "十式ゲームワークス", "25 November 2018"],
    "routou-dice": ["Credits", "YunPro", "1 April 2025", "personal use", "no liability"],
}


@pytest.mark.parametrize("game", GAMES)
def test_credits_and_licence_terms_are_printed(books: Any, game: str) -> None:
    body, _ = split_pages(books[game]["en"])
    text = " ".join(" ".join(body).split())
    for words in CREDITS[game]:
        assert words in text, words
