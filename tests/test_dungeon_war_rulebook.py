"""Dungeon War's rulebook numbers come from the data and from the odds code the referee uses."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from pnpgen.content.game import load_game
from pnpgen.games.dungeon_war import create

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return create(load_game(ROOT / "content" / "dungeon-war"))[0]


def test_melee_table_is_the_referees_odds(game) -> None:  # type: ignore[no-untyped-def]
    _, data = game.odds_report("1D+20 vs 2D+13")
    win = next(Fraction(line["fraction"]) for line in data["odds"] if "win" in line["label"].lower())
    rows = game.rulebook_table("melee", "en")
    king = next(r for r in rows if r[0].startswith("King Dragon"))
    golem_col = rows[0].index("Golem")
    assert king[golem_col].startswith(f"{float(win) * 100:.0f}%")
    assert king[1] == "—"  # King Dragons never fight each other
    ctx = game.rulebook_context("en")
    fight = ctx["fight"]
    assert (fight["win_frac"], fight["draw_frac"], fight["loss_frac"]) == ("181/216", "5/72", "5/54")


def test_piece_table_reads_game_yaml(game) -> None:  # type: ignore[no-untyped-def]
    rows = {r[0]: r for r in game.rulebook_table("pieces", "ja")}
    golem = game.cfg.pieces["golem"]
    assert rows["ゴーレム"][2] == str(golem.bp) and rows["ゴーレム"][6] == f"{golem.cost}G"
    # spoils in words: what the defeater takes (a knight's own extra card is not among them)
    assert rows["ゴーレム"][7] == f"{golem.spoils_gold}G + 大戦カード{golem.spoils_cards}枚"
    en = {r[0]: r for r in game.rulebook_table("pieces", "en")}
    assert en["Golem"][7] == f"{golem.spoils_gold}G + {golem.spoils_cards} war card"
    assert en["Knight"][7] == f"{game.cfg.pieces['knight'].spoils_gold}G"
    assert en["King Dragon"][7] == f"{float(game.cfg.pieces['king'].spoils_crystals):g} crystals"
    assert [r[2] for r in game.rulebook_table("king", "en")[1:]] == [
        str(ap) for ap in (*game.cfg.actions_a.values(), *game.cfg.actions_b.values())]
