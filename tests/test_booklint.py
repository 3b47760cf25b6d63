"""The players' book lint (pnpgen/booklint.py): it fails on a fixture book holding each
forbidden kind, in a built PDF's text and in a game's resolved rulebook texts (both
languages), skips sections marked `companion: true`, and passes on every shipped game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnpgen.booklint import (
    JA_KINDS,
    KINDS,
    Passage,
    book_passages,
    check_japanese,
    check_players_book,
    lint_japanese,
    lint_passages,
    rule_ids,
)
from pnpgen.content.game import load_games
from pnpgen.games import rules_for_content
from pnpgen.terms import bilingual_texts

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"

# one line per forbidden kind, as a careless book would print it
FORBIDDEN = {
    "command line": "To check a move, run pnpgen referee routou-dice with the state.",
    "rule code": "A slash is allowed under RD-SLASH when the attacker is larger.",
    "move notation": "For example m55-58 moves the die from 55 to 58.",
    "YAML key": "The round_cap in the game file ends long games.",
    "backtick": "Write `slash` to attack.",
    "long fraction": "The chance is exactly 2980926648545/26121388032.",
    "aside": "Ties go to the defender (our decision; the source is silent).",
    "refused caption": "The move is refused",
}
FORBIDDEN_JA = {
    "command line": "手を確かめるには pnpgen referee routou-dice を実行します。",
    "rule code": "斬撃の条件は RD-SLASH にあります。",
    "move notation": "たとえば m55-58 で55のダイスを58へ動かします。",
    "YAML key": "round_cap で長いゲームを終えます。",
    "backtick": "`slash` と書きます。",
    "long fraction": "確率は 2980926648545/26121388032 です。",
    "aside": "同点は守る側の勝ちとします（本書の判断、原文に記載なし）。",
    "refused caption": "図：この手は指せない",
}


@pytest.fixture(scope="module")
def routou() -> tuple[object, list[object]]:
    (content,) = load_games(CONTENT, ["routou-dice"])
    return content, rules_for_content(content)


def _pdf(path: Path, lines: list[str]) -> Path:
    canvas = Canvas(str(path), invariant=True)
    for n, line in enumerate(lines):
        canvas.drawString(50, 780 - 20 * n, line)
    canvas.save()
    return path


def test_a_fixture_pdf_fails_on_each_forbidden_kind(routou, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    content, rules = routou
    pdf = _pdf(tmp_path / "book.pdf", ["Setup: each player takes ten dice.", *FORBIDDEN.values()])
    text = " ".join((PdfReader(pdf).pages[0].extract_text() or "").split())
    findings = lint_passages([Passage("book.pdf page 1", text)], rule_ids(content), rules)
    assert {f.kind for f in findings} == set(KINDS)
    assert {f.found for f in findings if f.kind == "move notation"} == {"m55-58"}
    assert {f.found for f in findings if f.kind == "rule code"} == {"RD-SLASH"}


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_alone_is_found_and_plain_text_is_not(routou, kind: str) -> None:  # type: ignore[no-untyped-def]
    content, rules = routou
    for text in (FORBIDDEN[kind], FORBIDDEN_JA[kind]):
        assert {f.kind for f in lint_passages([Passage("x", text)], rule_ids(content), rules)} == {kind}, text
    plain = ("Roll 6 dice; a die on 55 may move to 58. Pass when you cannot move. The source of all "
             "magic is the crystal. 8歳以上、1000点、1〜9。 This text was written for pnpgen as an example.")
    assert lint_passages([Passage("x", plain)], rule_ids(content), rules) == []


def _fixture_game(tmp_path: Path, companion: bool) -> Path:
    root = tmp_path / ("companion" if companion else "players")
    shutil.copytree(CONTENT / "routou-dice", root / "routou-dice")
    book = root / "routou-dice" / "rulebook.yaml"
    items = "\n".join(f"          - ja: {ja!r}\n            en: {en!r}"
                      for ja, en in zip(FORBIDDEN_JA.values(), FORBIDDEN.values(), strict=True))
    flag = "    companion: true\n" if companion else ""
    book.write_text(book.read_text(encoding="utf-8").rstrip() + "\n  - title: {ja: 審判へ, en: For referees}\n"
                    + flag + "    blocks:\n      - list:\n" + items + "\n", encoding="utf-8")
    return root


def test_validate_finds_every_kind_in_both_languages(tmp_path: Path) -> None:
    (content,) = load_games(_fixture_game(tmp_path, False), ["routou-dice"])
    rules = rules_for_content(content)
    problems = check_players_book(content, rules)
    for kind in KINDS:
        assert sum(f"holds {kind}:" in p for p in problems) >= 2, (kind, problems)
    assert all("rulebook.yaml:" in p for p in problems)  # each names file and line
    passages = book_passages(content, rules, "ja")
    assert any("RD-SLASH" in p.text for p in passages)


def test_a_companion_section_is_not_the_players_book(tmp_path: Path) -> None:
    (content,) = load_games(_fixture_game(tmp_path, True), ["routou-dice"])
    assert check_players_book(content, rules_for_content(content)) == []


@pytest.mark.parametrize("game", ["burning-desire", "dice-road-race", "dungeon-war", "fast-alone", "routou-dice"])
def test_every_shipped_players_book_is_clean(game: str) -> None:
    (content,) = load_games(CONTENT, [game])
    assert check_players_book(content, rules_for_content(content)) == []


def test_a_refused_example_needs_a_caption_of_its_own(tmp_path: Path) -> None:
    """A refused move's picture says why in the players' words; without a caption the book
    would print a generic "refused" line, and the lint names the example."""
    root = tmp_path / "nocaption"
    shutil.copytree(CONTENT / "routou-dice", root / "routou-dice")
    game = root / "routou-dice" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if "caption:" in x and "用心棒を置けない" in x)
    game.write_text(text.replace(line + "\n", ""), encoding="utf-8")
    (content,) = load_games(root, ["routou-dice"])
    problems = check_players_book(content, rules_for_content(content))
    assert problems and all("refused caption" in p and "game.yaml" in p for p in problems), problems
    assert len(problems) == 2  # ja and en


# an aside about what the original lacks, beside what this edition does (Dungeon War p.3 had one)
ASIDES = ["The original rulebook does not give the war cards, so this edition plays with stand-in data.",
          "In the original, the heroes arrive after three hours; this edition uses 30 rounds instead.",
          "The original does not say how to pick the first player.",
          "原作のルールブックは大戦カードの中身を載せていません。",
          "先手の決め方は原作に書かれていないので、本書では自由にしています。"]


@pytest.mark.parametrize("text", ASIDES)
def test_an_aside_about_the_original_is_found(routou, text: str) -> None:  # type: ignore[no-untyped-def]
    content, rules = routou
    assert {f.kind for f in lint_passages([Passage("x", text)], rule_ids(content), rules)} == {"aside"}


def test_credits_naming_the_original_are_not_asides(routou) -> None:  # type: ignore[no-untyped-def]
    content, rules = routou
    credits = ("Original: Dungeon War, by Antic; no year given. Terms of the original: it warns that the rules "
               "may change. This edition: pnpgen, edition 1. 原作：『ダンジョン大戦』。発行年の記載なし。")
    assert lint_passages([Passage("x", credits)], rule_ids(content), rules) == []


# one line per Japanese convention, as a careless book or card would print it
JA_BREAKS = {
    "space between a number and its unit": "1000 点に達したら最終ラウンドです。",
    "half-width brackets around Japanese": "バーニング・ディザイア(仮)（テストプレイ前）",
    "a dash for a range (use 〜)": "出目は1–9です。",
    "'+' for an age (use 歳以上)": "対象年齢 8+",
}


def test_each_japanese_convention_is_checked() -> None:
    assert set(JA_BREAKS) == set(JA_KINDS)
    for kind, text in JA_BREAKS.items():
        assert [f.kind for f in lint_japanese([Passage("x", text)])] == [kind], text
    plain = ("1000点に達したら最終ラウンド、0点から始めます。（仮）1〜9、8歳以上、第1版。+20秒、10−2＝8秒、"
             "5×10−(7−4)＝47秒、マス 5-2 と (1,0)。")
    assert lint_japanese([Passage("x", plain)]) == []


def test_a_card_breaking_a_japanese_convention_fails_validate(tmp_path: Path) -> None:
    """Cards and sheets keep the books' conventions: a card list's Japanese column with a
    space before its unit and half-width brackets is named at file:line."""
    root = tmp_path / "cards"
    shutil.copytree(CONTENT / "dungeon-war", root / "dungeon-war")
    cards = next(iter(sorted((root / "dungeon-war").rglob("*.csv"))))
    rows = cards.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    column = next(i for i, name in enumerate(header) if name.endswith("_ja") and name[:-3] + "_en" in header)
    cells = rows[1].split(",")
    cells[column] = "3 枚(仮)"
    rows[1] = ",".join(cells)
    cards.write_text("\n".join(rows) + "\n", encoding="utf-8")
    (content,) = load_games(root, ["dungeon-war"])
    problems = check_japanese((pair.where, pair.ja) for pair in bilingual_texts(content))
    assert len(problems) == 2, problems
    shipped = load_games(CONTENT, ["dungeon-war"])[0]
    assert check_japanese((pair.where, pair.ja) for pair in bilingual_texts(shipped)) == []
    assert all(f"{cards.name}:2" in p for p in problems)


def test_the_word_over_a_refused_picture_is_not_a_refused_caption(routou) -> None:  # type: ignore[no-untyped-def]
    """The renderer prints a word over a refused move's picture (render.words.yaml
    'attempted'); the book lint refuses "The move is refused" and the shogi この手は指せない."""
    from pnpgen.render.rulebook.layout import label

    content, rules = routou
    for lang in ("en", "ja"):
        word = label("attempted", lang)
        assert word and lint_passages([Passage("x", word)], rule_ids(content), rules) == [], word
