"""Budgets of the print kit: every count and size a deck, board or sheet can make large,
and every fault of a CSV file, ends in one line naming the file, line and limit (exit 2),
before anything is drawn: no PDF and no `.part` file is left in the output folder.

The corpus cases tests/bad_input/content/{deck,csv,board,sheet}-* run here through
`build` (with the output folder checked) and `validate` (which lists the same problem);
cases too large to keep as files (a 2 MB CSV, 5,001 rows) are written into tmp_path.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen import limits
from pnpgen.content.game import load_game
from pnpgen.content.schema import number
from pnpgen.content.yamlpos import load_yaml
from pnpgen.errors import ContentError
from pnpgen.output import BuildOptions
from pnpgen.render.kit import components
from pnpgen.render.kit.bounds import FONT, LENGTH, SIZE, check_bounds
from pnpgen.render.kit.deck import expand_cards
from pnpgen.render.kit.page import KitJob
from pnpgen.render.kit.tiling import TooManyTiles, plan_tiles
from tests.conftest import ROOT, CliRun

CORPUS = Path("tests") / "bad_input" / "content"
CASES = sorted(p.name for p in (ROOT / CORPUS).iterdir()
               if p.name.startswith(("deck-", "csv-", "board-", "sheet-")) and (p / "expected.txt").is_file())


@pytest.fixture(autouse=True)
def _in_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # messages name files relative to the project folder


def expected_line(case: str) -> str:
    text = (ROOT / CORPUS / case / "expected.txt").read_text(encoding="utf-8").strip()
    return text.replace("{content}", str(CORPUS / case))


def written(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) if out.exists() else []


def test_the_kit_corpus_covers_decks_csv_boards_and_sheets() -> None:
    assert len(CASES) >= 20
    for prefix in ("deck-", "csv-", "board-", "sheet-"):
        assert sum(case.startswith(prefix) for case in CASES) >= 5, prefix


@pytest.mark.parametrize("case", CASES)
def test_build_stops_with_one_line_and_writes_nothing(run_pnpgen: CliRun, case: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, stdout, err = run_pnpgen("build", "kit-demo", "--content", str(CORPUS / case), "--out", str(out),
                                   "--lang", "ja,en", "--quiet")
    assert err.splitlines() == [expected_line(case)]
    assert code == 2 and "Traceback" not in stdout + err
    assert written(out) == []  # no PDF, preview or .part


@pytest.mark.parametrize("case", CASES)
def test_validate_lists_the_same_problem(run_pnpgen: CliRun, case: str) -> None:
    code, stdout, err = run_pnpgen("validate", "kit-demo", "--content", str(CORPUS / case))
    assert code == 1 and err == "" and "Traceback" not in stdout
    assert expected_line(case).removeprefix("error: ") in stdout.replace("\n       ", " ")


# --- cases written into tmp_path ------------------------------------------------------------

GAME = """\
id: g
title: G
players: {min: 1, max: %d}
time_minutes: 5
version: 1
components: [kit.yaml]
"""
CSV_DECK = """\
- type: deck
  id: d
  title: D
  csv: cards.csv
  front: [{text: "{{ name }}"}]
"""


def write_game(root: Path, kit: str, files: dict[str, str | bytes] | None = None, players: int = 4) -> Path:
    folder = root / "content" / "g"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME % players, encoding="utf-8")
    (folder / "kit.yaml").write_text(textwrap.dedent(kit), encoding="utf-8")
    for name, data in (files or {}).items():
        (folder / name).write_bytes(data.encode() if isinstance(data, str) else data)
    return folder


def build(run_pnpgen: CliRun, root: Path, *more: str) -> tuple[int, str, list[str]]:
    out = root / "out"
    code, stdout, err = run_pnpgen("build", "g", "--content", str(root / "content"), "--out", str(out), "--quiet",
                                   *more)
    assert "Traceback" not in stdout + err
    return code, err.strip(), written(out)


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("too-large", "name,quantity\n" + ("x" * 99 + ",0\n") * 21_000,
     "cards.csv: larger than 2,000,000 bytes (the limit for a CSV file)"),
    ("too-many-rows", "name,quantity\n" + "x,0\n" * 5_001, "cards.csv:5002: more than 5,000 rows (the limit"),
    ("long-cell", "name,quantity\n" + "x" * 20_001 + ",1\n", "cards.csv:2: a cell of 20,001 characters; the "
     "limit is 20,000"),
    ("longer-than-csv-allows", 'name,quantity\n"' + "x" * 200_000 + '",1\n',
     "cards.csv:2: a cell longer than 20,000 characters (the limit)"),
])
def test_csv_files_too_large_for_the_corpus(run_pnpgen: CliRun, tmp_path: Path, name: str, text: str,
                                            expected: str) -> None:
    write_game(tmp_path, CSV_DECK, {"cards.csv": text})
    code, err, left = build(run_pnpgen, tmp_path)
    assert code == 2 and len(err.splitlines()) == 1 and expected in err, err
    assert left == []


def test_a_quantity_from_game_yaml_is_bounded_and_100_players_build(run_pnpgen: CliRun, tmp_path: Path) -> None:
    kit = """\
        - type: deck
          id: seats
          title: Seats
          cards: [{quantity: players.max}]
          front: [{text: "{{ copy }}"}]
        """
    write_game(tmp_path / "huge", kit, players=10**12)
    code, err, left = build(run_pnpgen, tmp_path / "huge")
    assert code == 2 and left == []
    assert err.rstrip().endswith("game.yaml:3:24: players.max: 1e+12 is out of range; expected an integer from "
                                 "1 to 100")  # game.yaml's own range comes first
    write_game(tmp_path / "many", kit, players=limits.MAX_PLAYERS)
    code, err, left = build(run_pnpgen, tmp_path / "many", "--lang", "en")
    assert code == 0, err
    assert "g/seats.pdf" in left
    assert len(PdfReader(tmp_path / "many" / "out" / "g" / "seats.pdf").pages) == 12  # 100 cards, 9 a page


def test_the_print_shop_file_has_its_own_page_limit(run_pnpgen: CliRun, tmp_path: Path) -> None:
    """1,001 poker cards with backs make 226 home pages but 2,002 print-shop pages."""
    write_game(tmp_path, """\
        - type: deck
          id: d
          title: D
          cards: [{quantity: 1000}, {quantity: 1}]
          front: [{shape: rect}]
          back: [{shape: rect}]
        """)
    code, err, left = build(run_pnpgen, tmp_path, "--print-shop")
    assert code == 2 and left == []
    assert err.endswith("kit.yaml:1:3: the print-shop file makes 2,002 pages; the limit is 2,000 pages in one file")


def test_the_limits_themselves_are_allowed(tmp_path: Path) -> None:
    """MAX_COPIES of one card and MAX_CARDS in a deck are fine; one more is not."""
    copies = limits.MAX_COPIES
    kinds = limits.MAX_CARDS // copies
    cards = ", ".join([f"{{quantity: {copies}}}"] * kinds)
    kit = "- {type: deck, id: d, title: D, front: [{text: x}], cards: [" + cards + "]}\n"
    folder = write_game(tmp_path, kit)
    content = load_game(folder)
    job = KitJob(content, [], BuildOptions(out=tmp_path / "out"))
    assert len(expand_cards(components(content)[0], job)) == limits.MAX_CARDS
    (folder / "kit.yaml").write_text(kit.replace("]}", ", {quantity: 1}]}"), encoding="utf-8")
    content = load_game(folder)
    with pytest.raises(ContentError, match="1 copy brings the deck to 5,001 cards; the limit is 5,000"):
        expand_cards(components(content)[0], KitJob(content, [], BuildOptions(out=tmp_path / "out")))


def test_bounds_walk_the_spec(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text("grid: {cell: {width: 20, height: 0}}\nsizes: [1, 2, 6000]\nfont: 500\n", encoding="utf-8")
    data = load_yaml(path)
    spec = {"grid": {"cell": (SIZE, {"width": SIZE, "height": SIZE})}, "sizes": [LENGTH], "font": FONT}
    with pytest.raises(ContentError, match=r"b.yaml:1:34: grid.cell.height: 0 mm; must be more than 0 mm"):
        check_bounds(data, spec)
    data["grid"]["cell"]["height"] = 20
    with pytest.raises(ContentError, match=r"b.yaml:2:15: sizes\[2\]: 6,000 mm; the limit is 5,000 mm"):
        check_bounds(data, spec)
    data["sizes"][2] = 5000.0
    check_bounds(data, spec)  # a limit is allowed; a font of exactly 500 pt too
    assert [number(v) for v in (1000, 0.5, -20000.0, 1e20)] == ["1,000", "0.5", "-20,000", "1e+20"]


def test_tiles_are_counted_before_they_are_made() -> None:
    with pytest.raises(TooManyTiles, match="the limit is 2,000 pages"):
        plan_tiles(5000, 5000, (190, 271), overlap=185)
    assert len(plan_tiles(5000, 5000, (190, 271), overlap=10).tiles) < limits.MAX_PAGES
