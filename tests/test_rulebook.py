"""The rulebook renderer: PDFs read back with pypdf, and check_rulebook's problems.

A tiny Rules object over tests/fixtures/rulebook-toy exercises every block type; the
Burning Desire rulebook is built for real.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from pnpgen.content.game import GameContent, load_game
from pnpgen.engine.protocol import TERMINAL, Analysis, Notation, Outcome, Presentation, Rules, StateCodec
from pnpgen.errors import ContentError
from pnpgen.output import BuildOptions
from pnpgen.render.paper import paper_points
from pnpgen.render.rulebook import check_rulebook, render_rulebooks

FIXTURE = Path(__file__).parent / "fixtures" / "rulebook-toy"


class ToyRules(Rules[int, str], Notation[int, str], StateCodec[int],
               Analysis[int, str], Presentation[int]):
    """Only the rulebook hooks matter here; the numbers come from the fixture's YAML."""

    def __init__(self, content: GameContent, suffix: str = "", target: int | None = None) -> None:
        self.content = content
        self.id = content.id + suffix
        self.target = target or int(content.data["rules"]["target"])

    def initial_state(self, players: int) -> int:
        return 0

    def current_player(self, state: int) -> int:
        return TERMINAL

    def legal_moves(self, state: int) -> list[str]:
        return []

    def chance_outcomes(self, state: int) -> list[tuple[str, Fraction]]:
        return []

    def apply(self, state: int, move: str) -> tuple[int, list[Any]]:
        return state, []

    def outcome(self, state: int) -> Outcome:
        return Outcome((0,), (float(state),), "done")

    def parse_move(self, text: str, state: int | None = None) -> str:
        return text

    def format_move(self, move: str) -> str:
        return move

    def to_data(self, state: int) -> dict[str, Any]:
        return {"score": state}

    def from_data(self, data: Any) -> int:
        return int(data["score"])

    def example_state(self) -> int:
        return 0

    def rulebook_context(self, lang: str) -> dict[str, Any]:
        return {"target": self.target, "ev": 3.5}

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        if name != "points":
            raise KeyError(name)
        head = {"ja": "出目", "en": "Face"}[lang]
        return [[head, "1", "2", "3", "4", "5", "6"], ["pts", "1", "2", "3", "4", "5", str(self.target * 3)]]


def toy(folder: Path = FIXTURE) -> tuple[GameContent, list[Rules[Any, Any]]]:
    content = load_game(folder)
    return content, [ToyRules(content)]


def pdf_text(path: Path) -> str:
    """The PDF's text, no-break spaces as spaces and word joiners (kept lines) dropped."""
    text = "\n".join(page.extract_text() for page in PdfReader(path).pages)
    return text.replace("\u00a0", " ").replace("\u2060", "")


def outline_titles(reader: PdfReader) -> list[str]:
    titles: list[str] = []

    def walk(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(str(item.title))

    walk(reader.outline)
    return titles


def font_problems(path: Path) -> list[str]:
    """Fonts that are not embedded TrueType subsets (base-14 fonts are never embedded)."""
    problems = []
    for number, page in enumerate(PdfReader(path).pages, 1):
        for name, ref in page["/Resources"]["/Font"].items():
            font = ref.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target.get("/FontDescriptor")
            if descriptor is None or "/FontFile2" not in descriptor.get_object():
                problems.append(f"page {number}: {name} {font['/BaseFont']} is not embedded")
    return problems


def copy_toy(tmp_path: Path) -> Path:
    folder = Path(tempfile.mkdtemp(dir=tmp_path)) / "rulebook-toy"
    shutil.copytree(FIXTURE, folder)
    return folder


@pytest.fixture(scope="module")
def toy_build(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    content, rules = toy()
    out = tmp_path_factory.mktemp("toy")
    built = render_rulebooks(content, rules, BuildOptions(out=out, paper="A4"))
    return {f.path.stem.removeprefix("rulebook-"): f.path for f in built}


# --- the generic renderer on the fixture ------------------------------------------------


def test_fixture_rulebook_is_clean() -> None:
    assert check_rulebook(*toy()) == []


def test_one_pdf_per_language_on_a4(toy_build: dict[str, Path]) -> None:
    assert sorted(toy_build) == ["companion-en", "companion-ja", "en", "ja"]
    width, height = paper_points("A4")
    for path in toy_build.values():
        box = PdfReader(path).pages[0].mediabox
        assert (float(box.width), float(box.height)) == pytest.approx((width, height), abs=0.01)


def test_letter_paper(tmp_path: Path) -> None:
    content, rules = toy()
    built = render_rulebooks(content, rules, BuildOptions(out=tmp_path, paper="Letter", langs=("en",)))
    assert [f.path.name for f in built] == ["rulebook-en.pdf", "companion-en.pdf"]
    box = PdfReader(built[0].path).pages[-1].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(paper_points("Letter"), abs=0.01)
    assert built[0].pages == len(PdfReader(built[0].path).pages)


def test_outline_has_chapters_and_sections(toy_build: dict[str, Path]) -> None:
    reader = PdfReader(toy_build["en"])
    titles = outline_titles(reader)
    # the players' book: the "Appendix" chapter held only designer notes, so it is left out
    assert titles == ["Basic rules", "Components", "The turn", "Scoring", "Quick reference"]
    # chapters at the top level, sections nested under them; rule ids stay out of headings
    assert [str(o.title) for o in reader.outline if not isinstance(o, list)] == ["Basic rules", "Quick reference"]
    companion = PdfReader(toy_build["companion-en"])
    assert outline_titles(companion) == ["Designer notes", "For referees", "Using the referee", "Rule numbers",
                                         "Moves of the examples"]


def test_contents_page_lists_sections_with_pages(toy_build: dict[str, Path]) -> None:
    contents = PdfReader(toy_build["en"]).pages[1].extract_text()
    assert "Contents" in contents
    assert "The turn" in contents and "T-1" not in contents
    assert "For referees" not in contents and "Designer notes" not in contents  # the companion's
    contents = PdfReader(toy_build["companion-en"]).pages[1].extract_text()
    assert "For referees" in contents and "Designer notes" in contents


def test_text_comes_from_the_rules_context(toy_build: dict[str, Path]) -> None:
    text = pdf_text(toy_build["en"])
    assert "reach 20 points wins" in text  # {{ target }} from the fixture's game.yaml
    assert "Expected points per turn: 3.50." in text
    assert "60" in text and "Faces and points" in text  # the table rows
    assert "Example 1: a plain turn" in text and "Three points short of 20." in text
    companion = pdf_text(toy_build["companion-en"])
    assert "Decision 1" in companion and "The source sets no limit." in companion  # D-T-1
    assert "Decision 1" not in text
    assert "score pad" in text


def test_japanese_text_is_extractable(toy_build: dict[str, Path]) -> None:
    text = pdf_text(toy_build["ja"]).replace("\n", "")
    assert "おもちゃダイス" in text
    # the fixture writes 「合計が {{ target }} 点以上」: a number sits tight against Japanese
    assert "合計が20点以上になったプレイヤーの勝ちです。" in text
    assert "目次" in text


def test_quick_reference_is_its_own_last_page(toy_build: dict[str, Path]) -> None:
    pages = PdfReader(toy_build["en"]).pages
    last = pages[-1].extract_text()
    assert "Quick reference" in last and "60" in last and "Designer notes" not in last
    assert "Quick reference" not in pages[-2].extract_text()


def test_every_font_embedded_no_base14(toy_build: dict[str, Path]) -> None:
    for path in toy_build.values():
        assert font_problems(path) == []
        fonts = {str(ref.get_object()["/BaseFont"]) for page in PdfReader(path).pages
                 for ref in page["/Resources"]["/Font"].values()}
        # Japanese in IPAex; English in Liberation (IPAex only for a character it lacks)
        bundled = ("IPAex",) if path.stem.endswith("-ja") else ("Liberation", "IPAex")
        assert fonts and all(any(name in f for name in bundled) for f in fonts), fonts
        if path.stem.endswith("-en"):
            assert any("Liberation" in f for f in fonts), fonts


def test_rebuild_is_byte_identical(tmp_path: Path, toy_build: dict[str, Path]) -> None:
    content, rules = toy()
    again = render_rulebooks(content, rules, BuildOptions(out=tmp_path))
    for built in again:
        assert built.path.read_bytes() == toy_build[built.path.stem.removeprefix("rulebook-")].read_bytes()


def test_collection_table_draws_from_the_named_game(tmp_path: Path) -> None:
    folder = copy_toy(tmp_path)
    book = folder / "chapter2.yaml"
    book.write_text(book.read_text().replace("      - table: points\n",
                                             "      - table: points\n        game: b\n"))
    content = load_game(folder)
    rules: list[Rules[Any, Any]] = [ToyRules(content, "/a", 20), ToyRules(content, "/b", 40)]
    assert check_rulebook(content, rules) == []
    built = render_rulebooks(content, rules, BuildOptions(out=tmp_path / "out", langs=("en",)))
    last = PdfReader(built[0].path).pages[-1].extract_text()
    assert "120" in last and "60" not in last  # 3 × target of game b


# --- check_rulebook: problems name file and line -------------------------------------------


def broken(tmp_path: Path, old: str, new: str, file: str = "rulebook.yaml") -> tuple[list[str], int]:
    """check_rulebook's problems after one edit, and the line the edit is on."""
    folder = copy_toy(tmp_path)
    path = folder / file
    text = path.read_text()
    assert old in text
    text = text.replace(old, new, 1)
    path.write_text(text)
    line = text[: text.index(new)].count("\n") + 1
    content = load_game(folder)
    return check_rulebook(content, [ToyRules(content)]), line


def test_unknown_rule_id_is_reported_with_file_and_line(tmp_path: Path) -> None:
    problems, line = broken(tmp_path, "rule: T-2", "rule: T-9")
    assert any(p.endswith(f"rulebook.yaml:{line}:11: unknown rule id 'T-9' (not in game.yaml rule_ids)")
               for p in problems), problems


def test_undefined_template_variable_is_reported(tmp_path: Path) -> None:
    problems, line = broken(tmp_path, "reach **{{ target }} points**", "reach **{{ targte }} points**")
    assert len(problems) == 1, problems
    assert f"rulebook.yaml:{line}:" in problems[0]
    assert "undefined template variable 'targte'" in problems[0]


def test_unknown_table_example_and_game(tmp_path: Path) -> None:
    problems, _ = broken(tmp_path, "- table: points\n        caption",
                         "- table: pointz\n        caption")
    assert any("unknown table 'pointz'" in p and "rulebook.yaml:" in p for p in problems), problems
    problems, line = broken(tmp_path, "- examples: all", "- examples: [ex-one, ex-two]")
    assert any(f"rulebook.yaml:{line}:" in p and "unknown example id 'ex-two'" in p for p in problems)
    problems, line = broken(tmp_path, "    blocks:\n      - decisions", "    game: nope\n    blocks:\n"
                            "      - decisions", "chapter2.yaml")
    assert any(f"chapter2.yaml:{line}:" in p and "unknown game 'nope'" in p for p in problems), problems


def test_missing_language_and_template_syntax(tmp_path: Path) -> None:
    problems, line = broken(tmp_path, "{ja: 6 はもう一度振れます。, en: A 6 rolls again.}",
                            "{ja: 6 はもう一度振れます。}")
    assert any(f"rulebook.yaml:{line}:" in p and "missing 'en' text" in p for p in problems), problems
    problems, line = broken(tmp_path, "en: Roll the die.", "en: \"Roll the {{ die.\"")
    assert any(f"rulebook.yaml:{line}:" in p and "template error" in p for p in problems), problems


def test_bad_structure_is_one_problem(tmp_path: Path) -> None:
    problems, line = broken(tmp_path, "      - callout:", "      - calout:")
    assert len(problems) == 1 and f"rulebook.yaml:{line}:" in problems[0], problems
    assert "a block needs exactly one of" in problems[0]


def test_render_refuses_bad_text_with_a_content_error(tmp_path: Path) -> None:
    folder = copy_toy(tmp_path)
    path = folder / "rulebook.yaml"
    path.write_text(path.read_text().replace("{{ target }} points**", "{{ nope }} points**"))
    content = load_game(folder)
    out = tmp_path / "out"
    with pytest.raises(ContentError, match="undefined template variable 'nope'"):
        render_rulebooks(content, [ToyRules(content)], BuildOptions(out=out))
    assert not list(out.rglob("*.pdf")) and not list(out.rglob("*.part"))  # nothing half-written


# --- Burning Desire, built for real ------------------------------------------------------


@pytest.fixture(scope="module")
def burning_desire(rulebook_pdfs: dict[str, dict[str, Path]]) -> tuple[Any, list[Rules[Any, Any]], dict[str, Path]]:
    from pnpgen.games import rules_for_content

    content = load_game(Path(__file__).resolve().parents[1] / "content" / "burning-desire")
    return content, rules_for_content(content), rulebook_pdfs["burning-desire"]


def test_burning_desire_rulebook_is_clean(burning_desire: Any) -> None:
    content, rules, _ = burning_desire
    assert check_rulebook(content, rules) == []


def test_burning_desire_scoring_table_from_yaml(burning_desire: Any) -> None:
    content, _, pdfs = burning_desire
    for lang in ("ja", "en"):
        text = pdf_text(pdfs[lang])
        for combination in content.data["rules"]["combinations"]:
            points = [str(p) for p in combination["points"]]
            # the row's numbers, in order, somewhere in the extracted text
            assert re.search(r"\s+".join(points), text), (lang, points)


def test_burning_desire_text_and_figures(burning_desire: Any) -> None:
    content, rules, pdfs = burning_desire
    ctx = rules[0].rulebook_context("en")
    en = " ".join(pdf_text(pdfs["en"]).split())
    ja = pdf_text(pdfs["ja"]).replace("\n", "")
    # the designer notes, with the figures the game computes, are in the companion
    notes_en = " ".join(pdf_text(pdfs["companion-en"]).split())
    notes_ja = pdf_text(pdfs["companion-ja"]).replace("\n", "").replace(" ", "")
    assert f"{ctx['optimal_turn_ev_text']} points" in notes_en
    assert f"probability {ctx['multiplier_survive_text']}" in en + notes_en
    assert f"reaches {content.data['rules']['threshold']} or more" in en
    for number in range(1, 7):  # D-BD-1..6, printed as "Decision n" (the id would read as rule BD-n)
        assert f"Decision {number}" in notes_en and f"決定{number}" in notes_ja
        assert f"Decision {number}" not in en
    assert "最終ラウンド" in ja and "バーニング・ディザイア" in ja
    titles = outline_titles(PdfReader(pdfs["ja"]))
    assert "ボーナスダイスのボーナス" in titles and titles[-1] == "クイックリファレンス"
    assert not any("BD-" in t for t in titles)
    for path in pdfs.values():
        assert font_problems(path) == []


def test_example_with_unknown_rule_is_reported(tmp_path: Path) -> None:
    problems, line = broken(tmp_path, "    rule: T-2\n    text:", "    rule: T-7\n    text:", "game.yaml")
    assert any(f"game.yaml:{line}:" in p and "unknown rule id 'T-7'" in p for p in problems), problems


def test_table_widths_must_match_the_columns(tmp_path: Path) -> None:
    problems, line = broken(tmp_path, "        caption: {ja: 出目と得点",
                            "        widths: [2, 1]\n        caption: {ja: 出目と得点")
    assert any(f"rulebook.yaml:{line}:" in p and "widths: 2 given for 7 columns" in p for p in problems), problems


def test_sections_inherit_their_chapters_game(tmp_path: Path) -> None:
    folder = copy_toy(tmp_path)
    book = folder / "chapter2.yaml"
    book.write_text(book.read_text().replace("    level: 0\n", "    level: 0\n    game: b\n", 1))
    content = load_game(folder)
    rules: list[Rules[Any, Any]] = [ToyRules(content, "/a", 20), ToyRules(content, "/b", 40)]
    built = render_rulebooks(content, rules, BuildOptions(out=tmp_path / "out", langs=("en",)))
    text = pdf_text(built[0].path)
    assert "120" in PdfReader(built[0].path).pages[-1].extract_text()  # quick reference: game b
    assert "Faces and points" in text and "reach 20 points" in text  # chapter 1: first game
