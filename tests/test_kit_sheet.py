"""Sheets read back from their PDFs: the Burning Desire score sheet, the stage-race
standings sheet and course card, tables from rules data, game.yaml paths and CSV files,
imposition of small sheets, print-shop pages and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pnpgen.content.game import load_game
from pnpgen.render.kit import check_components
from tests.conftest import ROOT
from tests.kit_pdf import colour_operators, unembedded_fonts
from tests.test_kit_board import (
    build_component,
    copy_game,
    print_only_game,
    rect_mm,
    rects_mm,
    text_of,
)

BD = ROOT / "content" / "burning-desire"
DRR = ROOT / "content" / "dice-road-race"


# --- Burning Desire score sheet -------------------------------------------------------------


def test_bd_score_sheet_english(tmp_path: Path) -> None:
    path, reader = build_component(BD, "score-sheet", tmp_path, "en")
    assert path.name == "score-sheet-en.pdf"
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert rect_mm(page.mediabox) == (0, 0, 210.0, 297.0)
    assert rect_mm(page.trimbox) == (10.0, 16.0, 190.0, 271.0)  # A4 less the 10 mm margins and 16 mm foot
    # 2.5 mm of bleed kept at the sides and top: 10 mm less the 7.5 mm a crop mark needs
    assert rect_mm(page.bleedbox) == (7.5, 13.5, 195.0, 276.0)
    text = text_of(reader)
    lines = text.split("\n")
    for seat in range(1, 6):  # players.max is 5
        assert f"Player {seat}" in lines
    assert lines.count("Points") == 5 and lines.count("Total") == 5
    sheet = yaml.safe_load((BD / "components" / "score-sheet.yaml").read_text(encoding="utf-8"))[0]
    rounds = sheet["blocks"][1]["table"]["rows"][1]["repeat"]
    for turn in range(1, rounds + 1):
        assert str(turn) in lines
    # the threshold and the score table come from game.yaml through the rules
    rules = yaml.safe_load((BD / "game.yaml").read_text(encoding="utf-8"))["rules"]
    assert f"When a total reaches {rules['threshold']}" in text.replace("\n", " ")
    for combination in rules["combinations"]:
        for points in combination["points"]:
            assert str(points) in lines
    assert "0, 0, 1, 1, 1, 2" in text  # multiplier die A
    assert unembedded_fonts(path) == []


def test_bd_score_sheet_japanese_and_positions(tmp_path: Path) -> None:
    _, reader = build_component(BD, "score-sheet", tmp_path, "ja")
    text = text_of(reader)
    assert "プレイヤー1" in text and "累計" in text and "得点表" in text
    # the score table: the round column is 14 mm wide; the first body cell of the "Name"
    # row starts where the round column ends, 4 mm padding inside the 10 mm trim
    rects = rects_mm(reader, reader.pages[0])
    round_column = [r for r in rects if r[2] == pytest.approx(14.0, abs=0.01)]
    assert round_column and all(r[0] == pytest.approx(14.0, abs=0.1) for r in round_column)
    name_row = [r for r in rects if r[3] == pytest.approx(10.0, abs=0.01) and r[0] > 14.0 + 13.9]
    assert len(name_row) == 5  # one merged name cell per player
    assert name_row[0][0] == pytest.approx(28.0, abs=0.1)  # 10 + 4 + 14
    assert name_row[-1][0] + name_row[-1][2] == pytest.approx(196.0, abs=0.1)  # 210 - 10 - 4


def test_a_changed_score_table_is_printed_without_editing_the_sheet(tmp_path: Path) -> None:
    folder = copy_game("burning-desire", tmp_path)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("points: [10, 25, 60, 120, 250, 500]",
                                                             "points: [10, 25, 60, 120, 250, 777]")
                    .replace("threshold: 1000", "threshold: 1200"), encoding="utf-8")
    _, reader = build_component(folder, "score-sheet", tmp_path / "out", "en")
    text = text_of(reader)
    assert "777" in text.split("\n") and "500" not in text.split("\n")
    assert "reaches 1200" in text


def test_a_word_wider_than_its_cell_is_set_smaller() -> None:
    from pnpgen.render.kit.blocks import MIN_SIZE, fitting_size, natural_width

    assert fitting_size("Final", 9, 12) == 9
    size = fitting_size("Tie-break", 9, 12)  # 14 mm column less its 1 mm padding each side
    assert MIN_SIZE <= size < 9
    assert natural_width("Tie-break", size) == pytest.approx(12, abs=0.01)
    assert fitting_size("Supercalifragilistic", 9, 5) == MIN_SIZE


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_bundled_sheets_fit_a4_and_letter(paper: str) -> None:
    from pnpgen.games import rules_for_content
    from pnpgen.output import BuildOptions
    from pnpgen.render.kit import components, sheet
    from pnpgen.render.kit.page import KitJob

    for folder in (BD, DRR):
        content = load_game(folder)
        rules = rules_for_content(content)
        for item in components(content):
            if item["type"] == "sheet":
                for lang in ("ja", "en"):
                    assert sheet.check(item, KitJob(content, rules, BuildOptions(paper=paper), lang)) == []


# --- The Dice Road Race: standings sheet and course card -------------------------------------


def test_standings_sheet_six_riders_five_stages(tmp_path: Path) -> None:
    _, reader = build_component(DRR, "standings-sheet", tmp_path, "en")
    page = reader.pages[0]
    assert rect_mm(page.mediabox) == (0, 0, 297.0, 210.0)  # A4 landscape
    lines = text_of(reader).split("\n")
    for stage in range(1, 6):
        assert f"Stage {stage}" in lines
    assert lines.count("Added") == 5 and lines.count("Bonus") == 5 and lines.count("Total") == 5
    assert lines.count("gap") == 6 * 5  # a gap line per rider, merged across each stage
    for rider in range(1, 7):
        assert str(rider) in lines
    # added-time rules and bonus seconds from the rules data
    rules = yaml.safe_load((DRR / "game.yaml").read_text(encoding="utf-8"))["rules"]
    joined = " ".join(lines)
    assert f"+{rules['added_seconds']['not_finished']} s" in joined
    for seconds in rules["bonus_seconds"]:
        assert f"−{seconds} s" in lines
    # the gap cells: the three columns of a stage merged, as wide as the stage's group title
    rects = rects_mm(reader, page)
    rects = sorted(set(rects))  # a shaded cell is painted, then outlined: the same rectangle twice
    column = [r for r in rects if r[3] == pytest.approx(9.0, abs=0.01)]  # added / bonus / total cells
    assert len(column) == 6 * 15
    assert len({round(r[2], 2) for r in column}) == 1  # the 15 stage columns share the room equally
    merged = [r for r in rects if r[3] == pytest.approx(7.0, abs=0.01)
              and r[2] == pytest.approx(3 * column[0][2], abs=0.05)]
    top = max(r[1] for r in merged)
    assert len([r for r in merged if r[1] == top]) == 5  # the group titles "Stage n"
    assert len([r for r in merged if r[1] < top]) == 6 * 5  # a gap cell per rider and stage


def test_course_card_from_the_course_table(tmp_path: Path) -> None:
    course = yaml.safe_load((DRR / "game.yaml").read_text(encoding="utf-8"))["rules"]["course"]
    _, reader = build_component(DRR, "course-card", tmp_path, "ja")
    page = reader.pages[0]
    assert rect_mm(page.mediabox) == (0, 0, 210.0, 297.0)
    lines = text_of(reader).split("\n")
    assert lines.count("コース表") == 2  # two A6 cards on the page
    for stage in course:
        assert lines.count(str(stage["total_cost"])) >= 2
    assert lines.count("平坦") == 2 and lines.count("個人TT") == 2
    assert "ボーナスタイムなし" in lines
    # two 148 x 105 mm trims, centred, one above the other with 6 mm (twice the bleed) between
    trim = rect_mm(page.trimbox)
    assert trim[2:] == pytest.approx((148.0, 216.0), abs=0.01)


def test_course_card_follows_the_course_data(tmp_path: Path) -> None:
    folder = copy_game("dice-road-race", tmp_path)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("total_cost: 45", "total_cost: 44"),
                    encoding="utf-8")
    _, reader = build_component(folder, "course-card", tmp_path / "out", "en")
    lines = text_of(reader).split("\n")
    assert "44" in lines and "45" not in lines and "flat" in lines


def test_print_shop_sheet_is_one_trim_per_page_in_cmyk(tmp_path: Path) -> None:
    path, reader = build_component(DRR, "course-card", tmp_path, "en", print_shop=True)
    page = reader.pages[0]
    assert rect_mm(page.mediabox) == (0, 0, 154.0, 111.0)
    assert rect_mm(page.trimbox) == (3.0, 3.0, 148.0, 105.0)
    assert colour_operators(path) <= {"k", "K", "spot:CutContour"}


# --- the generic mechanisms ------------------------------------------------------------

COURSE_TABLE = """
- type: sheet
  id: course-list
  title: {ja: コース, en: Course}
  size: A6
  blocks:
    - table:
        data: rules.course                       # a path in game.yaml
        columns:
          - {header: {ja: ステージ, en: Stage}, field: stage}
          - {header: {ja: 種類, en: Type}, field: type, lookup: "rules.stage_types.{}.name"}
          - {header: {ja: コスト, en: Cost}, field: total_cost}
"""


def test_rows_from_a_game_yaml_path_with_lookup(tmp_path: Path) -> None:
    folder = copy_game("dice-road-race", tmp_path)
    (folder / "extra.yaml").write_text(COURSE_TABLE, encoding="utf-8")
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("components: components.yaml",
                                                             "components: [components.yaml, extra.yaml]"),
                    encoding="utf-8")
    course = yaml.safe_load(game.read_text(encoding="utf-8"))["rules"]["course"]
    _, reader = build_component(folder, "course-list", tmp_path / "out", "en")
    lines = text_of(reader).split("\n")
    # A6 on A4: two cards side by side on the turned paper (10 mm margins, 6 mm between)
    assert rect_mm(reader.pages[0].mediabox)[2:] == (297.0, 210.0)
    assert lines.count("mountain") == 2 * 2  # stages 2 and 5, on both cards
    assert lines.count("individual time trial") == 2
    assert [str(s["total_cost"]) in lines for s in course] == [True] * len(course)


PLAY_AID = """
- type: sheet
  id: aid
  title: {ja: 早見表, en: Play aid}
  size: A6
  copies: 3
  blocks:
    - heading: {ja: 地形, en: Terrain}
    - table:
        data: {file: terrain.yaml}               # a YAML file of the game folder
        columns:
          - {header: {ja: 地形, en: Terrain}, field: name}
          - {header: {ja: 移動, en: Move}, field: cost}
    - checkboxes: {label: {ja: 手番, en: Turns}, count: 8}
    - write_in: {label: {ja: メモ, en: Notes}, lines: 2}
    - text: {ja: "{{ n }} 人まで。", en: "Up to {{ n }} players."}
"""
TERRAIN = """- {name: {ja: 草原, en: Meadow}, cost: 1}
- {name: {ja: 沼, en: Marsh}, cost: 3}
"""


def aid_game(tmp: Path, yaml_text: str = PLAY_AID) -> Path:
    text = yaml_text.replace("{{ n }} 人まで。", "4 人まで。").replace("{{ n }} players", "4 players")
    folder = print_only_game(tmp, text)
    (folder / "terrain.yaml").write_text(TERRAIN, encoding="utf-8")
    return folder


def test_data_file_tables_and_copies_on_a_print_only_game(tmp_path: Path) -> None:
    folder = aid_game(tmp_path)
    _, reader = build_component(folder, "aid", tmp_path / "out", "en")
    assert len(reader.pages) == 2  # A6 twice on A4 landscape: 3 copies need 2 pages
    assert rect_mm(reader.pages[0].mediabox) == (0, 0, 297.0, 210.0)
    # the page's TrimBox spans both cards: 105 + 6 + 105 mm, centred in the 277 x 184 mm printable area
    assert rect_mm(reader.pages[0].trimbox) == pytest.approx((40.5, 34.0, 216.0, 148.0), abs=0.01)
    assert rect_mm(reader.pages[1].trimbox)[2:] == pytest.approx((105.0, 148.0), abs=0.01)
    lines = text_of(reader).split("\n")
    assert lines.count("Meadow") == 3 and lines.count("Marsh") == 3
    assert lines.count("Up to 4 players.") == 3
    _, ja = build_component(folder, "aid", tmp_path / "out", "ja")
    assert "沼" in text_of(ja) and "4 人まで。" in text_of(ja)


def test_the_kit_demo_sheets(tmp_path: Path) -> None:
    import shutil

    demo = ROOT / "tests" / "fixtures" / "kit-demo"
    folder = tmp_path / "kit-demo"
    shutil.copytree(demo, folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    if "sheet.yaml" not in text:  # until the fixture's list names it
        game.write_text(text.replace("components: [", "components: [sheet.yaml, "), encoding="utf-8")
    _, reader = build_component(folder, "card-list", tmp_path / "out", "en")
    lines = text_of(reader).split("\n")
    csv_lines = (demo / "cards.csv").read_text(encoding="utf-8").splitlines()[1:]
    for row in csv_lines:
        assert row.split(",")[1] in lines  # every card's English name
    _, record = build_component(folder, "duel-record", tmp_path / "out", "ja")
    assert "勝利条件" in text_of(record)


@pytest.mark.parametrize(("change", "broken", "message"), [
    ("field: cost", "field: costs", "no row of 'terrain.yaml' has the field 'costs' (did you mean 'cost'?)"),
    ("file: terrain.yaml", "file: terrain.yml", "file not found"),
    ("- checkboxes:", "- checkbox:", "a block is one of heading, text, table, checkboxes, write_in, space, row; "
                                     "found 'checkbox' (did you mean 'checkboxes'?)"),
    ("Up to {{ n }} players.", "Up to {{ m }} players.", "unknown field '{{ m }}'"),
    ("copies: 3", "copies: 3\n  font_size: 40", "the sheet's content is"),
    ("count: 8", "count: eight", "expected an integer"),
])
def test_bad_sheet_input_names_file_and_line(tmp_path: Path, change: str, broken: str, message: str) -> None:
    folder = aid_game(tmp_path, PLAY_AID.replace(change, broken, 1))
    problems = check_components(load_game(folder), [])  # a print-only game: no rules
    assert problems and message in problems[0]
    assert problems[0].startswith(str(folder))


def test_every_sheet_example_in_the_docs_builds(tmp_path: Path) -> None:
    from tests.test_kit_board import check_doc_example, doc_examples

    text = (ROOT / "docs" / "components" / "sheet.md").read_text(encoding="utf-8")
    terrain = text.split("with `terrain.yaml` beside `game.yaml`:\n\n```yaml\n")[1].split("```")[0]
    examples = doc_examples("sheet.md")
    assert len(examples) >= 3
    for index, example in enumerate(examples):
        assert check_doc_example(example, tmp_path / str(index), {"terrain.yaml": terrain}) == [], example
