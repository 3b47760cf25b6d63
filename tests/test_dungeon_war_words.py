"""Dungeon War's words come from its one catalogue (dungeon_war.words.yaml, docs/words.md):
every data key the rulebook tables name has a players' name there in both languages."""

from __future__ import annotations

from pathlib import Path

from pnpgen.content.game import load_game
from pnpgen.games.dungeon_war import create, drawing, presentation

ROOT = Path(__file__).resolve().parents[1]


def test_every_key_the_tables_name_is_in_the_catalogue() -> None:
    cfg = create(load_game(ROOT / "content" / "dungeon-war"))[0].cfg
    keys = {*cfg.pieces, "fire_slime", *cfg.cycle}
    keys |= {k.strength for k in cfg.pieces.values()} | {t for k in cfg.pieces.values() for t in k.terrain}
    keys |= {*cfg.actions_a, *cfg.actions_b}
    keys |= {c for card in cfg.war_cards for c in card.categories} | {c.element for c in cfg.war_cards if c.element}
    missing = sorted(k for k in keys if k not in presentation.WORDS)
    assert not missing, f"dungeon_war.words.yaml has no name for {missing}"
    assert presentation.name("king", "ja") == "キングドラゴン" and presentation.name("king", "en") == "King Dragon"
    assert presentation.name("no_such_key", "ja") == "no_such_key"  # a key without a name is printed as it is
    assert drawing.WORDS.origin == presentation.WORDS.origin == "dungeon_war.words.yaml"  # one catalogue


def test_table_heads_match_their_rows() -> None:
    game = create(load_game(ROOT / "content" / "dungeon-war"))[0]
    for lang in ("ja", "en"):
        for table in ("pieces", "war_cards", "king"):
            rows = game.rulebook_table(table, lang)
            assert rows[0] == presentation.head(table, lang)
            assert all(len(row) == len(rows[0]) for row in rows), (table, lang)
    assert game.rulebook_table("pieces", "en")[0][-1] == "Spoils"
    assert game.rulebook_table("king", "ja")[0] == ["段階", "行動", "AP"]
