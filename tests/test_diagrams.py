"""Pictures of positions: the scene primitives, every rulebook example's drawing on its
page (die faces and grid cells counted in the PDF by their edge ink), and `referee --svg`."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pnpgen import scene as sc
from pnpgen.content.game import load_game
from pnpgen.content.schema import text_for
from pnpgen.engine.capabilities import picture
from pnpgen.examples import load_examples, positions
from pnpgen.games import rules_for_content
from pnpgen.output import BuildOptions
from pnpgen.render.publishing import rulebook_figure
from pnpgen.render.rulebook import render_rulebooks
from pnpgen.render.rulebook.layout import ACCENT as ACCENT_COLOUR
from pnpgen.render.rulebook.model import Resolver, load_book
from tests import pdfpages

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
GAMES = ["routou-dice", "burning-desire", "dice-road-race", "fast-alone"]
COUNTED = ("die", "cell", "row")
SVG = "{http://www.w3.org/2000/svg}"
CAPTION = "caption:"  # marks a position block's caption among the examples' titles


# --- primitives ---------------------------------------------------------------------------
@pytest.mark.parametrize("value", range(1, 10))
def test_a_die_face_has_its_pips(value: int) -> None:
    shapes = sc.die(0, 0, 20, value)
    assert sum(isinstance(s, sc.Circle) for s in shapes) == value
    assert sum(isinstance(s, sc.Rect) and s.role == "die" for s in shapes) == 1


def test_a_number_die_writes_its_value() -> None:
    shapes = sc.die(0, 0, 12, 0, number=True)
    assert [s.text for s in shapes if isinstance(s, sc.Label)] == ["0"]


def test_a_polyomino_is_outlined_by_its_free_edges() -> None:
    grid = sc.Grid(4, 4, 10)
    l_tile = sc.polyomino([(0, 0), (0, 1), (0, 2), (1, 2)], grid, "#cccccc")
    edges = [s for s in l_tile if isinstance(s, sc.Line)]
    assert len(edges) == 10  # an L tetromino's perimeter is 10 cell edges
    assert sc.Scene(40, 40, tuple(l_tile)).count("tile") == 1


def test_scenes_beside_each_other_keep_their_shapes() -> None:
    a = sc.Scene(30, 20, tuple(sc.die(0, 0, 20, 3)))
    b = sc.Scene(30, 20, tuple(sc.die(0, 0, 20, 5)))
    both = sc.beside([a, b], gap=10, captions=["x", "y"])
    assert both.width == 70 and both.count("die") == 2
    svg = ET.fromstring(sc.to_svg(both))
    assert len([e for e in svg.iter(f"{SVG}circle")]) == 8


# --- the rulebooks --------------------------------------------------------------------------
def inked(scene: sc.Scene) -> Counter[str]:
    """The counted shapes of a scene drawn in their role's ink, as ink_counts finds them on
    the page (a chart's dice, drawn in plain ink, are not a position's)."""
    return Counter(s.role for s in scene.shapes
                   if isinstance(s, sc.Rect | sc.Polygon) and s.role in COUNTED and s.stroke == sc.ROLE_INK[s.role])


def ink_counts(strokes: dict[tuple[float, ...], int]) -> Counter[str]:
    """Shapes a page paints with each counted role's edge ink (pnpgen.scene.ROLE_INK), from
    the paths its content stream strokes in each colour (pdfpages.read_texts)."""
    inks = {tuple(round(int(c[i:i + 2], 16) / 255, 3) for i in (1, 3, 5)): role
            for role, c in sc.ROLE_INK.items() if role in COUNTED}
    counts: Counter[str] = Counter()
    for colour, paths in strokes.items():
        if colour in inks:
            counts[inks[colour]] += paths
    return counts


OPENING = "\x00"  # between an example's title and its text's opening words


def expected_drawings(game: str, lang: str) -> list[tuple[str, Counter[str]]]:
    """(title, shapes counted) of every example the book prints that the game draws, and
    (CAPTION + caption, shapes counted) of every `position` block."""
    content = load_game(CONTENT / game)
    rules = rules_for_content(content)
    book = load_book(content)
    assert book is not None
    res = Resolver(content, rules, lang, collect=True)
    printed = []
    out = []
    for section in book.sections:
        for block in section.blocks:
            default = res.game(section.game, section.node) if section.game else res.game(None, section.node)
            chosen = res.game(block["game"], block) if "game" in block else default
            if "examples" in block:
                printed += res.select_examples(block, chosen)
            if "position" in block and chosen is not None:  # components pictures, under a caption
                shown = positions(chosen, {"state": block["position"]})
                assert shown is not None, f"{game}: a position block does not load"
                scene = picture(chosen, shown[0], lang=lang)
                assert scene is not None
                caption = res.text(block["caption"], block, "caption", chosen)  # a template filled in
                out.append((CAPTION + caption, inked(scene)))
            if "figure" in block and "caption" in block and chosen is not None:
                rows = rulebook_figure(chosen, str(block["figure"]), lang)
                if len(rows) == 1 or block["figure"] == "setup":  # one row: on its caption's page
                    caption = res.text(block["caption"], block, "caption", chosen)
                    out.append((CAPTION + caption, sum((inked(row) for row in rows), Counter())))
    for example in printed:
        game_rules = res.example_rules(example)
        replayed = positions(game_rules, example) if game_rules else None
        if replayed is None:
            continue
        before, moves, after = replayed
        scene = picture(game_rules, before, moves, after, lang=lang, max_width=400)
        if scene is not None:  # the title, and its text's first words (a bold phrase may repeat a title)
            opening = res.text(example["text"], example, "text", game_rules)[:12] if "text" in example else ""
            out.append((text_for(example["title"], lang) + OPENING + opening,
                        inked(scene)))
    return out


@pytest.fixture(scope="module")
def books(rulebook_pdfs: dict[str, dict[str, Path]]) -> dict[str, dict[str, Path]]:
    return rulebook_pdfs  # built once per run (conftest), shared with test_rulebook_body


def _squash(text: str) -> str:
    """Spaces removed, and quotes straight (English books print them curly)."""
    return "".join(text.split()).translate(str.maketrans("“”‘’", "\"\"''"))


def accent_text(runs: tuple[pdfpages.Run, ...]) -> str:
    """The text a page sets in the accent colour at text size (example titles; not the
    contents or the referees' appendix, which set titles in black), spaces removed: from the
    page's runs of text, each with the fill colour set before it (pdfpages.read_texts)."""
    accent = tuple(round(int(ACCENT_COLOUR[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))
    # not a diagram's small labels, nor a chapter head
    return _squash("".join(t for t, fill, size in runs if fill == accent and 9 <= size < 12))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_example_with_a_position_is_drawn_on_its_page(books: Any, game: str, lang: str) -> None:
    """Each page shows exactly the die faces, grid cells and table rows of the examples
    whose titles it carries (a diagram never lands on another page than its example)."""
    drawn = expected_drawings(game, lang)
    assert drawn, f"{game} draws none of its examples"
    read = pdfpages.texts(books[game][lang])  # pypdf's text and strokes of each page, read once per session
    texts = [accent_text(runs) for _, runs, _ in read]
    plain = [_squash(text) for text, _, _ in read]
    contents = {i for i, text in enumerate(plain) if "......" in text}  # its titles are headings' too
    wanted: dict[int, Counter[str]] = {}
    for title, counts in drawn:
        caption = title.startswith(CAPTION)  # a position block: found by its caption
        title, _, opening = title.removeprefix(CAPTION).partition(OPENING)
        pages = [i for i, text in enumerate(plain if caption else texts)
                 if _squash(title) in text and i not in contents]
        if len(pages) > 1 and opening:  # the page that sets the title over the example's text
            pages = [i for i in pages if _squash(title) + _squash(opening) in plain[i]] or pages
        assert pages, f"example '{title}' not found in the {lang} rulebook"
        wanted.setdefault(pages[0], Counter()).update(counts)
    for index, counts in wanted.items():
        assert ink_counts(read[index][2]) == +counts, f"page {index + 1}"
    others = [i for i in range(len(read)) if i not in wanted and ink_counts(read[i][2])]
    assert others == [], "diagrams on pages without their example's title"


# --- referee --svg --------------------------------------------------------------------------
ROUTOU_STATE = """turn: A
phase: 1
board: {"55": A7, "56": B3}
kills: {A: 0, B: 0}
stock: {A: 0, B: 0}
"""


def _referee(tmp_path: Path, move: str) -> tuple[int, ET.Element]:
    state = tmp_path / "state.yaml"
    state.write_text(ROUTOU_STATE, encoding="utf-8")
    svg = tmp_path / "position.svg"
    done = subprocess.run([sys.executable, "-m", "pnpgen", "referee", "routou-dice", "--state", str(state),
                           "--move", move, "--svg", str(svg), "--content", str(CONTENT)],
                          capture_output=True, text=True, cwd=ROOT)
    return done.returncode, ET.parse(svg).getroot()


def _classes(svg: ET.Element) -> Counter[str]:
    return Counter(e.get("class", "") for e in svg.iter(f"{SVG}rect"))


def test_referee_draws_a_legal_move_before_and_after(tmp_path: Path) -> None:
    code, svg = _referee(tmp_path, "m55-53")
    assert code == 0 and svg.tag == f"{SVG}svg"
    classes = _classes(svg)
    # two boards cropped alike to the part the move touches (fewer than the 9 x 10 cells), two dice on each;
    # 55, 53 and the enemy on 56 with a cell round them, at least 5 a side: columns 2-7, rows 3-7
    assert classes["cell"] == 2 * 6 * 5 and classes["die"] == 4
    assert [e.text for e in svg.iter(f"{SVG}title")] == ["routou-dice: m55-53"]
    assert any(e.get("fill") == sc.ACCENT for e in svg.iter(f"{SVG}polygon"))  # the move's arrow head


def test_referee_draws_a_refused_move_on_the_position_alone(tmp_path: Path) -> None:
    code, svg = _referee(tmp_path, "m55-11")  # 8 steps: more than a 7 may walk
    classes = _classes(svg)
    assert code == 1 and classes["die"] == 2 and 25 <= classes["cell"] < 90  # the position alone, cropped


def test_a_rulebook_with_diagrams_rebuilds_byte_identical(books: Any, tmp_path: Path) -> None:
    content = load_game(CONTENT / "routou-dice")
    again = render_rulebooks(content, rules_for_content(content), BuildOptions(out=tmp_path, langs=("en",)))
    assert again[0].path.name == "rulebook-en.pdf"
    assert again[0].path.read_bytes() == books["routou-dice"]["en"].read_bytes()
    assert again[1].path.read_bytes() == books["routou-dice"]["companion-en"].read_bytes()


def test_an_unknown_figure_is_reported_at_its_line(tmp_path: Path) -> None:
    from tests.test_rulebook import broken  # the toy rulebook, edited

    problems, line = broken(tmp_path, "- table: points\n        caption", "- figure: pointz\n        caption")
    assert any(f"rulebook.yaml:{line}:" in p and "unknown figure 'pointz'" in p for p in problems), problems


@pytest.mark.parametrize("game", ["routou-dice", "burning-desire", "fast-alone"])
def test_every_one_move_example_draws_as_svg(game: str) -> None:
    """The referee's SVG of each one-move example parses and holds the scene's dice and cells."""
    from pnpgen.engine.capabilities import codec
    from pnpgen.engine.collection import pick_game
    from pnpgen.referee import position_svg

    content = load_game(CONTENT / game)
    all_rules = rules_for_content(content)
    drawn = 0
    for example in load_examples(content):
        if len(example.get("moves") or []) != 1:
            continue
        rules = pick_game(all_rules, str(example.get("game", all_rules[0].id)), content.id)
        assert rules is not None
        state = codec(rules).from_data(example["state"])
        replayed = positions(rules, example)
        assert replayed is not None
        scene = picture(rules, *replayed, ("before", "after"))
        if scene is None:
            continue
        svg = ET.fromstring(position_svg(rules, state, str(example["moves"][0])))
        classes = _classes(svg)
        assert (classes["die"], classes["cell"]) == (scene.count("die"), scene.count("cell")), example["id"]
        drawn += 1
    assert drawn >= 3
