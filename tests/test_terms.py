"""The terminology check (pnpgen/terms.py): a game's glossary holds its books, cards and
sheets to one term per concept, and every ja/en text to the same numbers; it fails on a
fixture game holding each kind of drift and passes on every shipped game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnpgen.content.game import load_games
from pnpgen.terms import bilingual_texts, check_terms, numbers

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
GAMES = ["burning-desire", "dice-road-race", "dungeon-war", "fast-alone", "routou-dice"]


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_game_has_a_glossary_and_keeps_to_it(game: str) -> None:
    (content,) = load_games(CONTENT, [game])
    assert (content.folder / "glossary.yaml").is_file()
    assert check_terms(content) == []


def test_the_check_reads_books_cards_and_sheets() -> None:
    (content,) = load_games(CONTENT, ["dungeon-war"])
    places = {Path(p.where.split(":")[0]).name for p in bilingual_texts(content)}
    assert {"rulebook.yaml", "examples.yaml", "war-cards.csv", "sheets.yaml", "summaries.yaml"} <= places


def test_numbers_are_read_as_digits_words_and_kanji() -> None:
    assert numbers("5×10−(7−4)＝47秒", "ja") == {"5", "10", "7", "4", "47"}
    assert numbers("five minutes, twice, a quarter turn, 25 November 2018", "en") == {"5", "2", "90", "25", "11",
                                                                                         "2018"}
    assert numbers("二人で遊ぶ", "ja") == {"2"} and numbers("二人で遊ぶ", "ja", words=False) == set()


def _fixture(tmp_path: Path, extra_text: str) -> Path:
    root = tmp_path / "content"
    shutil.copytree(CONTENT / "routou-dice", root / "routou-dice")
    book = root / "routou-dice" / "rulebook.yaml"
    book.write_text(book.read_text(encoding="utf-8").rstrip() + "\n  - title: {ja: 追加, en: Extra}\n    blocks:\n"
                    "      - text:\n" + extra_text, encoding="utf-8")
    return root


@pytest.mark.parametrize(("ja", "en", "found"), [
    ("斬捨御免で敵を斬ります。", "Attack the enemy.",
     "the glossary pairs 斬捨御免 with slash, but the en text has no 'slash'"),
    ("斬撃で敵を斬ります。", "Slash the enemy.", "'斬撃' is another name for '斬捨御免'"),
    ("ストックは5つまでです。", "Stock holds at most 6.",
     "the numbers differ between ja and en; only ja: 5; only en: 6"),
])
def test_a_fixture_fails_on_each_kind_of_drift(tmp_path: Path, ja: str, en: str, found: str) -> None:
    root = _fixture(tmp_path, f"          ja: {ja}\n          en: {en}\n")
    (content,) = load_games(root, ["routou-dice"])
    problems = check_terms(content)
    assert any(found in p for p in problems), problems
    assert all(p.startswith(str(root / "routou-dice" / "rulebook.yaml") + ":") for p in problems)


def test_a_bad_glossary_is_one_line_naming_the_file(tmp_path: Path) -> None:
    root = _fixture(tmp_path, "          ja: 郎党\n          en: Clan\n")
    (root / "routou-dice" / "glossary.yaml").write_text("terms:\n  - {ja: 斬捨御免}\n", encoding="utf-8")
    (content,) = load_games(root, ["routou-dice"])
    (problem,) = check_terms(content)
    assert "glossary.yaml:2" in problem and "en" in problem
