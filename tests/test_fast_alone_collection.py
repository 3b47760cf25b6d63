"""Fast Alone as a collection: every puzzle game.yaml lists gives two playable sides, each
with referee scenarios and a notation page; the built rulebook opens with the intro
chapter, whose difficulty table has one row per side; every font is embedded."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from pypdf import PdfReader

from pnpgen.content.game import GameContent, load_game
from pnpgen.engine.protocol import Rules
from pnpgen.examples import check_examples
from pnpgen.games import rules_for_content
from pnpgen.games.fast_alone import RULE_MODULES
from pnpgen.games.fast_alone.difficulty import COLLECTION_TABLE
from pnpgen.render.words import WORDS
from tests.conftest import ROOT
from tests.fast_alone_support import check_referee_scenario
from tests.kit_pdf import unembedded_fonts

FOLDER = ROOT / "content" / "fast-alone"
REFEREE = ROOT / "tests" / "referee" / "fast-alone"
SCENARIOS = sorted(p.with_suffix(".yaml") for p in REFEREE.glob("*/*.expected"))
NOTATION = ROOT / "docs" / "notation"
LANGS = ("ja", "en")


@pytest.fixture(scope="module")
def collection() -> tuple[GameContent, list[Rules[Any, Any]]]:
    content = load_game(FOLDER)
    return content, rules_for_content(content)


@pytest.fixture(scope="module")
def rulebooks(rulebook_pdfs: dict[str, dict[str, Path]]) -> dict[str, Path]:
    """Both books ({lang: players' book, "companion-<lang>": companion}), from the session's one
    build (the difficulty simulations dominate)."""
    assert set(rulebook_pdfs["fast-alone"]) == set(LANGS) | {f"companion-{lang}" for lang in LANGS}
    return rulebook_pdfs["fast-alone"]


def puzzle_of(side_id: str, puzzles: list[str]) -> str:
    name = side_id.split("/", 1)[1]
    return max((p for p in puzzles if name.startswith(f"{p}-")), key=len)


def side_ids(collection: Any) -> list[str]:
    return [rules.id for rules in collection[1]]


# --- the puzzles and their sides -----------------------------------------------------------


def test_every_listed_puzzle_yields_two_sides(collection: Any) -> None:
    content, sides = collection
    puzzles = list(content.data["rules"])
    assert set(puzzles) == set(RULE_MODULES)  # all five puzzles
    ids = [r.id for r in sides]
    assert len(ids) == len(set(ids)) == 2 * len(puzzles)
    for puzzle in puzzles:
        own = [i for i in ids if puzzle_of(i, puzzles) == puzzle]
        assert len(own) == 2, (puzzle, own)
        assert all(i.startswith(f"fast-alone/{puzzle}-") for i in own)


# each puzzle's sides and the fewest worked examples it ships
EXAMPLES = {"growing-nine": (("a", "b"), 7), "horizontal-vertical": (("total", "number"), 6),
            "no-gaps": (("a", "b"), 6), "pairing-five": (("basic", "expert"), 5),
            "unification": (("simple", "complex"), 6)}


def test_every_puzzles_examples_replay(collection: Any) -> None:
    """The worked examples of every puzzle replay, on both its sides (one pass over the collection)."""
    content, sides = collection
    results = check_examples(content, sides)
    assert all(r.ok for r in results), [r.problems for r in results if not r.ok]
    assert set(EXAMPLES) == set(RULE_MODULES)
    for key, (names, least) in EXAMPLES.items():
        own = [r.game for r in results if r.game.startswith(f"fast-alone/{key}-")]
        assert set(own) == {f"fast-alone/{key}-{side}" for side in names}
        assert len(own) >= least, key


def test_every_side_has_referee_scenarios_and_a_notation_page(collection: Any) -> None:
    content, _ = collection
    puzzles = list(content.data["rules"])
    index = (NOTATION / "fast-alone.md").read_text(encoding="utf-8")
    for side in side_ids(collection):
        name = side.split("/", 1)[1]
        expected = sorted((REFEREE / name).glob("*.expected"))
        assert len(expected) >= 3, (side, expected)
        assert all(p.with_suffix(".yaml").is_file() for p in expected), side
        page = NOTATION / f"fast-alone-{puzzle_of(side, puzzles)}.md"
        assert page.is_file(), page
        assert name in page.read_text(encoding="utf-8"), (side, page.name)
        assert f"({page.name})" in index and f"`{name}`" in index, (side, "not in notation/fast-alone.md")


# --- the built rulebook --------------------------------------------------------------------


def chapters(reader: PdfReader) -> list[tuple[str, int]]:
    """(title, first page index) of each top-level outline entry, in order."""
    return [(str(item.title), reader.get_destination_page_number(item))
            for item in reader.outline if not isinstance(item, list)]


def intro_text(path: Path, title: str) -> str:
    """The text of the intro chapter's pages: from its outline entry to the next chapter."""
    reader = PdfReader(path)
    found = chapters(reader)
    titles = [t for t, _ in found]
    assert title in titles, (title, titles)
    at = titles.index(title)
    start = found[at][1]
    end = found[at + 1][1] if at + 1 < len(found) else len(reader.pages)
    return "\n".join(reader.pages[i].extract_text() for i in range(start, end))


def flatten(text: str, lang: str) -> str:
    """Extracted text with line breaks undone: Japanese wraps anywhere (and its spacing between
    Japanese and Latin letters or digits is extracted as spaces), English at spaces."""
    return "".join(text.split()) if lang == "ja" else " ".join(text.split())


def printed(cell: str) -> str:
    """A regex for a table cell however it wrapped (a cell may hold a line break)."""
    return r"\s*".join(re.escape(word) for word in cell.split())


def intro_title(lang: str) -> str:
    book = yaml.safe_load((FOLDER / "intro" / "rulebook.yaml").read_text(encoding="utf-8"))
    first = book["sections"][0]
    assert first.get("level") == 0
    return str(first["title"][lang])


@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_opens_with_the_intro_chapter(rulebooks: dict[str, Path], lang: str) -> None:
    reader = PdfReader(rulebooks[lang])
    first_title, _ = chapters(reader)[0]
    assert first_title == intro_title(lang)
    text = flatten(intro_text(rulebooks[lang], intro_title(lang)), lang)
    ids = yaml.safe_load((FOLDER / "intro" / "ids.yaml").read_text(encoding="utf-8"))
    referees = flatten(intro_text(rulebooks[f"companion-{lang}"], WORDS("for_referees", lang)), lang)
    for rule, title in ids.items():  # every intro rule heads a section of the chapter, by name;
        assert re.search(printed(title[lang]), text), rule  # its id is in the companion's referees' chapter
        assert not re.search(printed(rule), text), rule
        assert re.search(printed(f"{rule} {title[lang]}"), referees), rule


@pytest.mark.parametrize("lang", LANGS)
def test_collection_table_has_one_row_per_side(collection: Any, rulebooks: dict[str, Path], lang: str) -> None:
    _, sides = collection
    rows = sides[0].rulebook_table(COLLECTION_TABLE, lang)  # the figures the build just computed
    assert len(rows) == 1 + len(sides)
    # the measured figures are designer notes, not players' text (issue 14)
    flat = flatten(intro_text(rulebooks[f"companion-{lang}"], WORDS("designer_notes", lang)), lang)
    labels = [row[0] for row in rows[1:]]
    assert len(set(labels)) == len(sides)
    for rules, row in zip(sides, rows[1:], strict=True):
        assert str(rules.rulebook_context(lang)["side_name"]) in row[0]
        assert len(re.findall(printed(row[0]), flat)) == 1, (row[0], "not printed once in the designer notes")
        # the row as printed: its label, the games simulated, both win rates with their intervals
        assert re.search(r"\s*".join(printed(cell) for cell in row[:4]), flat), row


def test_rulebook_fonts_are_embedded(rulebooks: dict[str, Path]) -> None:
    assert set(rulebooks) == {*LANGS, *(f"companion-{lang}" for lang in LANGS)}
    for path in rulebooks.values():
        assert unembedded_fonts(path) == [], path


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
def test_referee_scenario(path: Path) -> None:
    check_referee_scenario(path)
