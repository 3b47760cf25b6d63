"""Dungeon War for people: the rulebook's numbers (rulebook_context) and tables
(rulebook_table), all read from the content's data; the combat odds come from odds.py, the
same code the engine and `pnpgen referee --odds` use."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from pnpgen.words import COMMON, Words

from . import files
from .config import Config, PieceKind
from .odds import BP, Fighter, melee, shot

# Players' names for the data's keys, the tables' heads and the spoils are words of the
# game's catalogue (dungeon_war.words.yaml); the numbers stay in game.yaml.
WORDS = Words.load(Path(__file__).with_name("dungeon_war.words.yaml"))
WORN = {"sword", "helmet", "armour", "shield", "tool", "magic"}  # a worn card's BP adds to its wearer's
HEAD: dict[str, tuple[str, ...]] = {  # each table's columns: catalogue keys head_<column>
    "pieces": ("piece", "count", "bp", "move", "strength", "terrain", "cost", "spoils"),
    "king": ("step", "action", "ap"),
    "melee": ("melee",),
    "war_cards": ("card", "copies", "kind", "coins", "bp", "element"),
}


def name(key: str, lang: str) -> str:
    """The players' name of a data key (a piece, strength, terrain, action, card kind or
    element); the key itself when the catalogue has none."""
    return WORDS(key, lang) if key in WORDS else key


def head(table: str, lang: str) -> list[str]:
    """The column heads of a rulebook table."""
    return [WORDS(f"head_{column}", lang) for column in HEAD[table]]


def dice(bp: BP) -> str:
    """A BP or move as players write it: '1D+20', '3', '2D'."""
    return str(bp)


def pct(p: Fraction) -> str:
    """A probability as a rounded percentage for players."""
    return f"{float(p) * 100:.0f}%"


class DungeonWarPresentation:
    """Mixed into the game object: needs `cfg` (Config)."""

    cfg: Config

    def describe(self, state: Any) -> str | None:
        """The state as text (files.describe)."""
        return files.describe(self, state)  # type: ignore[arg-type]

    def _fighters(self) -> list[tuple[str, PieceKind]]:
        cfg = self.cfg
        return [("king", cfg.pieces["king"]), ("golem", cfg.pieces["golem"]), ("knight", cfg.pieces["knight"]),
                ("fire_slime", cfg.slimes["fire"])]

    def rulebook_table(self, name_: str, lang: str) -> list[list[str]]:
        """'melee': the attacker's win and mutual-defeat chances for base BPs (odds.melee);
        'pieces': each army piece's numbers; 'king': the King Dragon's two steps; 'war_cards':
        each war card's copies, kind, coins, BP (a worn card's as a bonus) and element."""
        cfg = self.cfg
        if name_ == "melee":
            kinds = self._fighters()
            rows = [[*head("melee", lang), *(name(k, lang) for k, _ in kinds)]]
            for a, akind in kinds:
                row = [f"{name(a, lang)} {dice(akind.bp)}"]
                for d, dkind in kinds:
                    if a == d == "king":  # King Dragons never fight each other
                        row.append("—")
                        continue
                    odds = melee(Fighter(akind.bp), Fighter(dkind.bp), cfg.die, cfg.support, cfg.fatigue_gap)
                    row.append(f"{pct(odds.win)} / {pct(odds.draw)}")
                rows.append(row)
            return rows
        if name_ == "pieces":
            rows = [head("pieces", lang)]
            for key, kind in cfg.pieces.items():
                terrain = WORDS("sheet_sep", lang).join(name(t, lang) for t in sorted(kind.terrain)) or "—"
                spoils = []
                if kind.spoils_crystals:
                    spoils.append(WORDS("spoils_crystals", lang, n=f"{float(kind.spoils_crystals):g}"))
                if kind.spoils_gold:
                    spoils.append(f"{kind.spoils_gold}G")
                cards = kind.spoils_cards  # what the defeater takes; a knight's extra card is its own ability
                if cards:
                    spoils.append(WORDS("spoils_card" if cards == 1 else "spoils_cards", lang, n=cards))
                cost = "—" if key in ("king", "dragon") else f"{kind.cost}G"
                bp = "—" if key == "dragon" else dice(kind.bp)
                rows.append([name(key, lang), str(kind.count), bp, dice(kind.move), name(kind.strength, lang),
                             terrain, cost, " + ".join(spoils) or "—"])
            return rows
        if name_ == "war_cards":
            rows = [head("war_cards", lang)]
            for card in cfg.war_cards:
                own = "shot" in card.effects or not WORN & set(card.categories)  # a shot, trap or dragon's own BP
                bp = "—" if card.bp.dice == 0 and card.bp.plus == 0 else (dice(card.bp) if own else f"+{dice(card.bp)}")
                card_kind = WORDS("sheet_sep", lang).join(name(c, lang).lower() for c in card.categories)
                title = card.title(lang)
                rows.append([title, str(card.count), card_kind, str(card.coins or "—"),
                             bp, name(card.element, lang) if card.element else "—"])
            return rows
        if name_ == "king":
            rows = [head("king", lang)]
            for step, actions in (("a", cfg.actions_a), ("b", cfg.actions_b)):
                for action, ap in actions.items():
                    rows.append([step.upper(), name(action, lang), str(ap)])
            return rows
        raise KeyError(name_)

    def rulebook_context(self, lang: str) -> dict[str, Any]:
        cfg = self.cfg
        pieces = {k: {"bp": dice(p.bp), "move": dice(p.move), "cost": p.cost, "count": p.count,
                      "gold": p.spoils_gold} for k, p in cfg.pieces.items()}
        king, golem, knight = cfg.pieces["king"], cfg.pieces["golem"], cfg.pieces["knight"]
        worked = melee(Fighter(king.bp), Fighter(golem.bp), cfg.die, cfg.support, cfg.fatigue_gap)
        guarded = BP(knight.bp.dice, knight.bp.plus + 5)  # the shot example's knight: Helm +2, Shield +3
        bolt = next(c for c in cfg.war_cards if c.id == "thunderbolt")
        hit = shot(bolt.bp, (bolt.element,), Fighter(guarded), cfg.die, cfg.fatigue_gap).hit
        war_total = sum(c.count for c in cfg.war_cards)
        dungeon_total = sum(lay.count for lay in cfg.layouts if not lay.event)
        events_total = sum(lay.count for lay in cfg.layouts if lay.event)
        steps = {step: COMMON("list_separator", lang).join(f"{name(a, lang)} {ap}" for a, ap in actions.items())
                 for step, actions in (("a", cfg.actions_a), ("b", cfg.actions_b))}
        return {
            "king_a": steps["a"], "king_b": steps["b"],
            "ap": cfg.ap, "action_cost": cfg.action_cost, "cap": dict(cfg.caps), "gold_start": cfg.start_gold,
            "support": cfg.support, "gap": cfg.fatigue_gap, "crystal_bp": cfg.crystal_bp,
            "alchemy_gold": cfg.alchemy_gold, "summon_range": cfg.summon_range, "change_cards": cfg.change_cards,
            "round_cap": cfg.round_cap, "rows": cfg.height, "columns": cfg.width, "card_rows": cfg.rows,
            "card_columns": cfg.columns, "first_spots": cfg.first_spots, "max_crystals": cfg.max_crystals,
            "p": pieces, "dash_dice": knight.dash_dice, "dash_bp": abs(knight.dash_bp),
            "warp_cost": cfg.pieces["magician"].warp_cost, "block_range": cfg.block_range[1],
            "fence_range": COMMON("range", lang, a=cfg.fence_range[0], b=cfg.fence_range[1]),
            "chest_cards": cfg.neutral["chest"]["cards"], "coin_gold": cfg.neutral["coin"]["gold"],
            "neutral_total": sum(int(n["count"]) for n in cfg.neutral.values()),
            "army_total": sum(p.count for p in cfg.pieces.values()),
            "war_total": war_total, "dungeon_total": dungeon_total, "event_total": events_total,
            "breath_dice": cfg.breath.get("range_dice", 1),
            "fight": {"win": pct(worked.win), "draw": pct(worked.draw), "loss": pct(worked.loss),
                      "close": pct(worked.close_win), "win_frac": str(worked.win), "draw_frac": str(worked.draw),
                      "loss_frac": str(worked.loss), "close_frac": str(worked.close_win)},
            "bolt": {"bp": dice(bolt.bp), "target": dice(guarded), "hit": pct(hit), "hit_frac": str(hit)},
        }
