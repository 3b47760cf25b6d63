"""Every real rulebook, built and read back: the players' book holds no engine material, and
the companion (designer notes, "For referees") holds what was moved there (issues 14, 27)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests import pdfpages

CONTENT = Path(__file__).resolve().parents[1] / "content"
GAMES = ["burning-desire", "dice-road-race", "fast-alone", "routou-dice"]

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


def pages(path: Path) -> tuple[str, ...]:
    """The text of each page as pypdf extracts it, read once per session (tests/pdfpages.py,
    shared with test_diagrams)."""
    return tuple(text.replace("\u2060", "") for text, _, _ in pdfpages.texts(path))


def split_pages(books: Any, game: str, lang: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The text of the players' book's pages and of the companion's."""
    return pages(books[game][lang]), pages(books[game][f"companion-{lang}"])


@pytest.fixture(scope="module")
def books(rulebook_pdfs: dict[str, dict[str, Path]]) -> dict[str, dict[str, Path]]:
    return {game: rulebook_pdfs[game] for game in GAMES}  # built once per run (conftest)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_body_has_no_engine_material(books: Any, game: str, lang: str) -> None:
    body, _ = split_pages(books, game, lang)
    found = []
    for number, text in enumerate(body, 1):
        for line in text.splitlines():
            for kind, pattern in ENGINE.items():
                if pattern.search(line):
                    found.append(f"p{number} {kind}: {line.strip()[:100]}")
    assert found == []


@pytest.mark.parametrize("game", GAMES)
def test_back_matter_keeps_the_rule_ids_and_notation(books: Any, game: str) -> None:
    _, back = split_pages(books, game, "en")
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
    body, _ = split_pages(books, game, "en")
    text = " ".join(" ".join(body).replace("\u00a0", " ").split())
    for words in CREDITS[game]:
        assert words in text, words
