"""Fast Alone's players' book (issue 27): the No Gaps tile chart is one picture with a row per
die face, every tile drawn cell by cell and named in words; each puzzle's Setup shows its
board with the parts its caption names; Pairing Five's before/after pictures sit side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pnpgen import scene as sc
from pnpgen.content.game import load_game
from pnpgen.content.schema import text_for
from pnpgen.engine.capabilities import picture
from pnpgen.engine.collection import pick_game
from pnpgen.examples import load_examples, positions
from pnpgen.games import rules_for_content
from pnpgen.games.fast_alone.no_gaps import NoGaps

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "content" / "fast-alone"
TEXT_WIDTH = (210 - 36) * 72 / 25.4  # pt: A4 less the book's side margins
BOX_WIDTH = TEXT_WIDTH - 20  # an example's shaded box, a little narrower


@pytest.fixture(scope="module")
def games() -> list[Any]:
    return rules_for_content(load_game(FOLDER))


def game(games: list[Any], name: str) -> Any:
    chosen = pick_game(games, name.removeprefix("fast-alone/"), "fast-alone")
    assert chosen is not None, name
    return chosen


@pytest.mark.parametrize("side", ["a", "b"])
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_tile_chart_is_one_picture_with_a_row_per_face(games: list[Any], side: str, lang: str) -> None:
    rules = game(games, f"no-gaps-{side}")
    assert isinstance(rules, NoGaps)
    (chart,) = rules.rulebook_figure("tiles", lang)
    assert chart.width <= TEXT_WIDTH and chart.height < 300  # fits the text, well under half a page
    assert chart.count("die") == rules.faces  # one row per face, headed by its die
    assert chart.count("tile") == len(rules.tiles)  # every tile drawn as its shape
    words = [s.text for s in chart.shapes if isinstance(s, sc.Label)]
    for tile in rules.tiles:  # named in words under its shape, copies counted
        assert any(w.startswith(text_for(tile.name, lang)) and (("×2" in w) == (tile.count == 2)) for w in words)
    cells = [s for s in chart.shapes if isinstance(s, sc.Rect) and s.w == s.h == 6.0 and s.fill is None and s.stroke]
    assert len(cells) == sum(len(t.cells) for t in rules.tiles)  # each cell outlined
    assert ("none (set aside)" if lang == "en" else "なし（使用済みへ）") in words


# the parts each puzzle's Setup picture must show: (role, count) pairs and a caption's words
SETUPS = {
    "horizontal-vertical": ({"cell": 25, "die": 3}, "pass boxes"),
    "no-gaps": ({"cell": 36, "die": 6}, "reroll boxes"),
    "unification": ({"cell": 9, "die": 10}, "push die"),
    "pairing-five": ({"cell": 10, "die": 10}, "1st cell and a 2nd cell"),
}


@pytest.mark.parametrize("puzzle", sorted(SETUPS))
def test_each_setup_shows_the_board_its_caption_names(games: list[Any], puzzle: str) -> None:
    book = yaml.safe_load((FOLDER / puzzle / "rulebook.yaml").read_text(encoding="utf-8"))
    ids = yaml.safe_load((FOLDER / puzzle / "ids.yaml").read_text(encoding="utf-8"))
    chapter = [s for k, s in enumerate(book["sections"]) if not s.get("notes") and not s.get("quick_reference")
               and not (k and s.get("level") == 0)]  # not the credits that follow the last chapter
    titles = [(s.get("title") or ids[s["rule"]])["en"] for s in chapter]
    assert titles[1:3] == ["Goal", "Setup"], f"{puzzle}: the chapter opens with its goal, then its setup"
    assert any(t.startswith("End of the game") for t in titles[-2:]), f"{puzzle}: the end (and score) come last"
    sections = [s for s in book["sections"] if (s.get("title") or ids.get(s.get("rule"), {})).get("en") == "Setup"]
    (block,) = [b for b in sections[0]["blocks"] if "position" in b]
    rules = game(games, block.get("game") or book["game"])
    replayed = positions(rules, {"state": block["position"]})
    assert replayed is not None
    counts, words = SETUPS[puzzle]
    for lang in ("ja", "en"):
        scene = picture(rules, replayed[0], lang=lang)
        assert scene is not None
        assert {role: scene.count(role) for role in counts} == counts
    assert words in " ".join(block["caption"]["en"].split())


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_pairing_five_before_and_after_sit_side_by_side(games: list[Any], lang: str) -> None:
    """Areas as wide as their effect's name: both pictures fit the example box in a row."""
    shown = 0
    for example in load_examples(load_game(FOLDER)):
        if not example["id"].startswith("p5-"):
            continue
        rules = game(games, example["game"])
        before, moves, after = positions(rules, example) or (None, [], None)
        if after is None or not moves:
            continue
        alone = picture(rules, before, lang=lang)
        both = picture(rules, before, moves, after, ("", ""), lang, max_width=BOX_WIDTH)
        assert alone is not None and both is not None
        assert both.height < 1.5 * alone.height, example["id"]  # one row, not stacked
        shown += 1
    assert shown >= 4
