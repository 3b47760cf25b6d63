"""Grid boards read back from their PDFs: page size, page boxes, cell positions to 0.1 mm,
labels, fonts, tiling only when needed, bad input. (The PDF helpers here serve
test_kit_sheet.py too.)"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from pypdf import PageObject, PdfReader
from pypdf.generic import ContentStream
from reportlab.lib.units import mm

from pnpgen.content.game import GameContent, load_game
from pnpgen.games import rules_for_content
from pnpgen.output import BuildOptions
from pnpgen.render.kit import components
from pnpgen.render.kit.blocks import natural_width
from pnpgen.render.kit.page import KitJob
from tests.conftest import ROOT
from tests.kit_pdf import colour_operators, drawing, unembedded_fonts


def rect_mm(box: Any) -> tuple[float, float, float, float]:
    """A PDF box as (x, y, width, height) in mm, rounded to 0.01 mm."""
    x0, y0, x1, y1 = (float(v) for v in box)
    return tuple(round(v / mm, 2) for v in (x0, y0, x1 - x0, y1 - y0))  # type: ignore[return-value]


def rects_mm(reader: PdfReader, page: PageObject) -> list[tuple[float, float, float, float]]:
    """Every `re` rectangle of a page's content stream, (x, y, width, height) in mm."""
    ops = ContentStream(page.get_contents(), reader).operations
    return [tuple(round(float(v) / mm, 2) for v in operands) for operands, op in ops if op == b"re"]  # type: ignore[misc]


def text_of(reader: PdfReader) -> str:
    """The text of every page, one extracted line per line, stripped."""
    return "\n".join(line.strip() for page in reader.pages for line in page.extract_text().split("\n"))


def copy_game(name: str, tmp: Path) -> Path:
    """A copy of a bundled game folder, to edit its YAML in a test."""
    target = tmp / "content" / name
    shutil.copytree(ROOT / "content" / name, target)
    return target


def build_component(folder: Path, component_id: str, out: Path, lang: str | None = "en",
                    **options: Any) -> tuple[Path, PdfReader]:
    """Render one component of a game folder with its type module; the PDF and its reader."""
    import importlib

    content: GameContent = load_game(folder)
    rules = rules_for_content(content)
    item = next(c for c in components(content) if c["id"] == component_id)
    module = importlib.import_module(f"pnpgen.render.kit.{item['type']}")
    job = KitJob(content, rules, BuildOptions(out=out, **options), lang)
    assert module.check(item, job) == []
    built = module.render(item, job)
    assert len(built) == 1
    return built[0].path, PdfReader(built[0].path)


def print_only_game(tmp: Path, components_yaml: str, name: str = "kit-test") -> Path:
    """A print-only game folder (no engine) with the given components.yaml."""
    folder = tmp / "content" / name
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(
        f"id: {name}\ntitle: {{ja: 試験, en: Test}}\nplayers: {{min: 1, max: 4}}\ntime_minutes: 10\n"
        "version: 1\ncomponents: components.yaml\n", encoding="utf-8")
    (folder / "components.yaml").write_text(components_yaml, encoding="utf-8")
    return folder


# --- ROUTOU DICE: 9 x 10 cells on B5 ----------------------------------------------------

ROUTOU = ROOT / "content" / "routou-dice"
CELL = 16.0  # content/routou-dice/components.yaml grid.cell


def cell_rects(reader: PdfReader, page: PageObject, size: float) -> list[tuple[float, float, float, float]]:
    return [r for r in rects_mm(reader, page) if abs(r[2] - size) < 0.01 and abs(r[3] - size) < 0.01]


def test_routou_board_is_one_b5_page_with_boxes(tmp_path: Path) -> None:
    _, reader = build_component(ROUTOU, "board", tmp_path, "ja")
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert rect_mm(page.mediabox) == (0, 0, 182.0, 257.0)  # B5
    # the board is 3 + 6 + 9 x 16 + 6 + 3 = 162 mm wide and 3 + 14 + 6 + 10 x 16 + 6 + 3 = 192 mm
    # tall (3 mm padding: the safe zone), centred in the printable area (10 mm margins, 16 mm at the foot)
    assert rect_mm(page.trimbox) == (10.0, 35.5, 162.0, 192.0)
    # 3 mm bleed above and below; 2.5 mm at the sides, where the trim is 10 mm from the paper
    # edge and a crop mark needs 7.5 mm (the bleed gives way, never the mark)
    assert rect_mm(page.bleedbox) == (7.5, 32.5, 167.0, 198.0)
    # crop marks: thin lines on the trim's edges, all in the margin, none across the bleed box
    bx, by, bw, bh = (v * mm for v in rect_mm(page.bleedbox))
    marks = [m for m in drawing(reader, 0).segments if m.width == pytest.approx(0.25)]
    assert len(marks) == 8
    for m in marks:
        outside = (max(m.x1, m.x2) <= bx + 1e-3 or min(m.x1, m.x2) >= bx + bw - 1e-3
                   or max(m.y1, m.y2) <= by + 1e-3 or min(m.y1, m.y2) >= by + bh - 1e-3)
        assert outside
        assert {round(m.x1 / mm, 1), round(m.y1 / mm, 1)} & {10.0, 172.0, 35.5, 227.5}  # on a trim edge


def test_routou_board_cells_from_game_yaml(tmp_path: Path) -> None:
    _, reader = build_component(ROUTOU, "board", tmp_path, "en")
    cells = cell_rects(reader, reader.pages[0], CELL)
    assert len(cells) == 9 * 10  # rules.board: columns [1, 9], rows [0, 9]
    first, last = cells[0], cells[-1]  # drawn row by row from the top-left
    # top-left cell (X 1, Y 9): grid left = 10 + 3 + 6 = 19; grid top = 227.5 - 3 - 14 - 6 = 204.5
    assert first[:2] == pytest.approx((19.0, 188.5), abs=0.1)
    # bottom-right cell (X 9, Y 0): 8 cells right, 10 cells down
    assert last[:2] == pytest.approx((19.0 + 8 * CELL, 204.5 - 10 * CELL), abs=0.1)
    xs = sorted({c[0] for c in cells})
    assert len(xs) == 9 and xs[1] - xs[0] == pytest.approx(CELL, abs=0.01)


def test_routou_board_labels_title_and_fonts(tmp_path: Path) -> None:
    path, reader = build_component(ROUTOU, "board", tmp_path, "ja")
    text = text_of(reader)
    lines = text.split("\n")
    for label in "123456789":
        assert lines.count(label) >= 2 + 2  # X on top and bottom, Y on both sides
    assert lines.count("0") == 2  # Y 0 on the left and right only
    assert "X" in lines and "Y" in lines
    assert "郎党ダイス" in text and "100%" in text  # the title block and the check ruler
    assert unembedded_fonts(path) == []


def test_routou_board_size_follows_the_rules_data(tmp_path: Path) -> None:
    folder = copy_game("routou-dice", tmp_path)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("board: {columns: [1, 9], rows: [0, 9]}",
                                                             "board: {columns: [1, 7], rows: [0, 7]}"),
                    encoding="utf-8")
    _, reader = build_component(folder, "board", tmp_path / "out", "en")
    assert len(cell_rects(reader, reader.pages[0], CELL)) == 7 * 8
    lines = text_of(reader).split("\n")
    assert "9" not in lines and "8" not in lines and "7" in lines


def test_print_shop_board_is_one_page_of_board_plus_bleed_in_cmyk(tmp_path: Path) -> None:
    path, reader = build_component(ROUTOU, "board", tmp_path, "en", print_shop=True)
    page = reader.pages[0]
    assert rect_mm(page.mediabox) == (0, 0, 168.0, 198.0)
    assert rect_mm(page.trimbox) == (3.0, 3.0, 162.0, 192.0)
    assert colour_operators(path) == {"k", "K", "spot:CutContour"}  # CMYK, and the cut path's spot colour
    assert "100%" not in text_of(reader)  # no ruler on print-shop files


# --- tiling ---------------------------------------------------------------------------------

BIG = """
- type: board
  id: big
  title: Big board
  paper: A4
  overlap: 12
  grid: {columns: 30, rows: 24, cell: 15}
  labels:
    - {axis: columns, start: 1}
    - {axis: rows, values: [A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X]}
  cells:
    - {at: [1, 1], symbol: star, fill: "#ffd27f"}
    - {at: [30, 24], symbol: circle, text: "!"}
"""


def test_a_board_larger_than_the_paper_is_tiled_with_overlap(tmp_path: Path) -> None:
    folder = print_only_game(tmp_path, BIG)
    _, whole = build_component(folder, "big", tmp_path / "shop", None, print_shop=True)
    board_w, board_h = rect_mm(whole.pages[0].trimbox)[2:]
    _, reader = build_component(folder, "big", tmp_path / "home", None)
    pages = reader.pages
    assert len(pages) > 1
    trims = [rect_mm(p.trimbox) for p in pages]
    for page, trim in zip(pages, trims, strict=True):
        paper = rect_mm(page.mediabox)
        assert sorted(paper[2:]) == [210.0, 297.0]
        assert trim[2] <= paper[2] - 20 + 0.01 and trim[3] <= paper[3] - 26 + 0.01  # inside the margins
    # tiles of equal size; along a row their widths add up to the board plus the overlaps
    widths = {round(t[2], 1) for t in trims}
    heights = {round(t[3], 1) for t in trims}
    assert len(widths) == 1 and len(heights) == 1
    columns = round((board_w - 12) / (widths.pop() - 12))
    rows = len(pages) // columns
    assert columns * rows == len(pages)
    assert columns * trims[0][2] - (columns - 1) * 12 == pytest.approx(board_w, abs=0.05)
    assert rows * trims[0][3] - (rows - 1) * 12 == pytest.approx(board_h, abs=0.05)
    text = text_of(reader)
    assert f"tile A1 (1/{len(pages)})" in text and f"({len(pages)}/{len(pages)})" in text
    # the first cell sits on the first tile at the same place relative to its trim as on the
    # whole board; on the second tile it lies left of the trim, cut off by the clip
    whole_first = cell_rects(whole, whole.pages[0], 15)[0]
    whole_trim = rect_mm(whole.pages[0].trimbox)
    first = cell_rects(reader, pages[0], 15)[0]
    assert first[0] - trims[0][0] == pytest.approx(whole_first[0] - whole_trim[0], abs=0.1)
    assert first[1] - (trims[0][1] + trims[0][3]) == pytest.approx(
        whole_first[1] - (whole_trim[1] + whole_trim[3]), abs=0.1)
    second = cell_rects(reader, pages[1], 15)[0]
    assert second[0] - first[0] == pytest.approx(-(trims[0][2] - 12), abs=0.1)  # one window less overlap


def test_a_board_that_fits_only_turned_is_one_landscape_page(tmp_path: Path) -> None:
    wide = BIG.replace("columns: 30, rows: 24, cell: 15", "columns: 16, rows: 10, cell: 15")
    wide = wide.replace("[30, 24]", "[16, 10]").replace(", K, L, M, N, O, P, Q, R, S, T, U, V, W, X", "")
    folder = print_only_game(tmp_path, wide)
    _, reader = build_component(folder, "big", tmp_path / "out", None)
    assert len(reader.pages) == 1
    assert rect_mm(reader.pages[0].mediabox)[2:] == (297.0, 210.0)


# --- marks, regions, blocks ---------------------------------------------------------------

MARKED = """
- type: board
  id: marked
  title: {ja: 印の盤, en: Marked board}
  grid: {columns: 5, rows: 5, cell: 18, fill: "#ffffff"}
  labels:
    - {axis: rows, start: 2, title: {ja: 行, en: Row}}
    - {axis: rows, values: ["≦14", "=17", "≧21", "=17", "≦14"], sides: [right], size: 12}
    - {axis: columns, values: [EVEN, "=18", ODD, "=18", EVEN], sides: [bottom]}
  cells:
    - {at: [[1, 1], [5, 5]], symbol: star, color: "#c03020"}
    - {at: [3, 3], text: {ja: 中, en: C}, fill: "#ffe9a8"}
  regions:
    - {from: [2, 2], to: [4, 2], fill: "#dde8ff", border: "#2050a0", label: {ja: 上段, en: Top band}}
  title_block: {subtitle: {ja: 書き込み用, en: write-on side}}
  blocks:
    - checkboxes: {label: {ja: パス, en: Passes}, count: 3}
    - text: {ja: "上に押し出す：−1", en: "Pushed out at the top: −1"}
    - text: {ja: "行と列の条件を満たせば勝ち。", en: "Meet a row and a column condition to win."}
"""


def test_marks_regions_labels_and_blocks_are_printed(tmp_path: Path) -> None:
    folder = print_only_game(tmp_path, MARKED)
    _, reader = build_component(folder, "marked", tmp_path / "out", "en")
    text = text_of(reader)
    for word in ("≦14", "=17", "≧21", "EVEN", "ODD", "Row", "Top band", "Passes", "C", "Marked board",
                 "write-on side", "Meet a row and a column condition to win."):
        assert word in text, word
    rects = rects_mm(reader, reader.pages[0])
    assert len(cell_rects(reader, reader.pages[0], 18)) >= 25 + 1 + 3  # cells, the marked fill, the region
    assert len([r for r in rects if r[2] == pytest.approx(5) and r[3] == pytest.approx(5)]) == 3  # checkboxes
    _, ja = build_component(folder, "marked", tmp_path / "out", "ja")
    assert "上段" in text_of(ja) and "パス" in text_of(ja) and "中" in text_of(ja)


@pytest.mark.parametrize(("change", "broken", "message"), [
    ("at: [3, 3]", "at: [6, 3]", "at: cell [6, 3] is outside the 5x5 grid"),
    ("from: [2, 2]", "from: [0, 2]", "from: cell [0, 2] is outside the 5x5 grid"),
    ('values: [EVEN, "=18", ODD, "=18", EVEN]', 'values: [EVEN, "=18", ODD, "=18"]', "labels: 4 values for 5 columns"),
    ("symbol: star", "symbol: starr", "expected one of circle"),
    ("title_block: {", "titel_block: {", "unknown key 'titel_block' (did you mean 'title_block'?)"),
    ('values: ["≦14"', 'values: ["≤14"', "'≤' (U+2264) is not in the bundled font and would print as a blank; "
                                          "write '≦' instead"),
])
def test_bad_board_input_names_file_and_line(tmp_path: Path, change: str, broken: str, message: str) -> None:
    from pnpgen.render.kit import check_components

    folder = print_only_game(tmp_path, MARKED.replace(change, broken, 1))
    problems = check_components(load_game(folder), [])  # a print-only game: no rules
    assert len(problems) >= 1
    assert message in problems[0]
    assert problems[0].startswith(str(folder / "components.yaml") + ":")
    line = int(problems[0].split(":")[1])
    source = (folder / "components.yaml").read_text(encoding="utf-8").splitlines()[line - 1]
    assert broken.split(":")[0] in source


# --- the documentation's examples build -----------------------------------------------------

GAME_FOR = {"rules.board": "routou-dice", "{{ threshold }}": "burning-desire", "from_rules: scores": "burning-desire",
            "from_rules: course": "dice-road-race"}


def doc_examples(name: str) -> list[str]:
    """The complete components (YAML blocks starting with '- type:') of docs/components/<name>."""
    text = (ROOT / "docs" / "components" / name).read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```yaml\n")[1:]]
    return [b for b in blocks if b.startswith("- type:")]


def check_doc_example(example: str, tmp: Path, extra: dict[str, str] | None = None) -> list[str]:
    """Problems of one documented component, in the bundled game whose data it names (else a
    print-only game), both languages."""
    from pnpgen.render.kit import check_components

    game = next((g for key, g in GAME_FOR.items() if key in example), None)
    if game is None:
        folder = print_only_game(tmp, example)
    else:
        folder = copy_game(game, tmp)
        (folder / "doc-example.yaml").write_text(example, encoding="utf-8")
        main = folder / "game.yaml"
        text = main.read_text(encoding="utf-8")
        lines = [line if not line.startswith("components:") else "components: [doc-example.yaml]"
                 for line in text.splitlines()]
        main.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for file, body in (extra or {}).items():
        (folder / file).write_text(body, encoding="utf-8")
    content = load_game(folder)
    return check_components(content, rules_for_content(content))


def test_every_board_example_in_the_docs_builds(tmp_path: Path) -> None:
    examples = doc_examples("board.md")
    assert len(examples) >= 2
    for index, example in enumerate(examples):
        assert check_doc_example(example, tmp_path / str(index)) == [], example


def test_the_same_board_gives_the_same_bytes(tmp_path: Path) -> None:
    first, _ = build_component(ROUTOU, "board", tmp_path / "a", "ja")
    second, _ = build_component(ROUTOU, "board", tmp_path / "b", "ja")
    assert first.read_bytes() == second.read_bytes()


def test_span_labels_run_along_a_whole_side(tmp_path: Path) -> None:
    board = """
- type: board
  id: push
  title: Push
  grid: {columns: 3, rows: 3, cell: 20}
  labels:
    - {axis: columns, values: ["−1 (not on a 1)"], span: true, sides: [top]}
    - {axis: rows, values: [reroll], span: true, sides: [left], size: 16}
"""
    folder = print_only_game(tmp_path, board)
    _, reader = build_component(folder, "push", tmp_path / "out", None)
    runs: dict[str, tuple[float, float, float]] = {}  # text -> x, y (mm), size (pt)

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip():
            runs[text.strip()] = ((tm[4] + cm[4]) / mm, (tm[5] + cm[5]) / mm, float(size))

    reader.pages[0].extract_text(visitor_text=visit)
    grid_rects = [r for r in rects_mm(reader, reader.pages[0]) if r[2] == 20 and r[3] == 20]
    grid_left = min(r[0] for r in grid_rects)
    grid_right = max(r[0] + r[2] for r in grid_rects)
    grid_top = max(r[1] + r[3] for r in grid_rects)
    grid_mid_y = (min(r[1] for r in grid_rects) + grid_top) / 2
    # the top label is centred over the whole grid (not over its first column), just above it
    x, y, size = runs["−1 (not on a 1)"]
    assert x + natural_width("−1 (not on a 1)", size) / 2 == pytest.approx((grid_left + grid_right) / 2, abs=0.1)
    assert grid_top < y < grid_top + 9
    # the left one beside the middle of the grid, left of it
    x, y, size = runs["reroll"]
    assert x + natural_width("reroll", size) < grid_left and abs(y - grid_mid_y) < 3
    bad = board.replace('values: [reroll]', 'values: [reroll, again]')
    from pnpgen.render.kit import check_components

    problems = check_components(load_game(print_only_game(tmp_path / "bad", bad)), [])
    assert problems and "labels: 2 values for 1 (span: true)" in problems[0]
