"""Dungeon War with its capabilities: notation, state files, analysis and presentation."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

from pnpgen.engine.protocol import Bot, Event, Unseen
from pnpgen.engine.state_data import checked
from pnpgen.errors import BadMove
from pnpgen.scene import Scene

from . import analysis, drawing, evaluation, files, hidden, notation
from .config import ARMY, NEUTRAL
from .fight import fight_odds, odds_text
from .model import DungeonWarRules
from .odds import BP, Fighter, MeleeOdds, ShotOdds, melee, shot, volley
from .presentation import DungeonWarPresentation
from .state import Move
from .state import State as DWState


class DungeonWar(DungeonWarPresentation, DungeonWarRules):
    """The mechanics (model.py) with every capability's methods forwarding to its module."""

    State: ClassVar[type] = DWState

    # --- notation ------------------------------------------------------------------------
    def parse_move(self, text: str, state: DWState | None = None) -> Move:
        return notation.parse_move(self.cfg, text)

    def format_move(self, move: Move) -> str:
        return notation.format_move(self.cfg, move)

    # --- state files ---------------------------------------------------------------------
    def to_data(self, state: DWState) -> dict[str, Any]:
        return files.to_data(self, state)

    def from_data(self, data: Any) -> DWState:
        return checked(self, files.from_data(self, data), data)

    def check(self, state: DWState) -> list[str]:
        return files.check(self, state)

    def example_state(self) -> DWState:
        """Two players in round 1: seat 1's knight (k5 side) faces seat 2's slimes on the crystal card."""
        state = self.initial_state(2)
        hall = next(i for i, layout in enumerate(self.cfg.layouts) if layout.id == "hall")
        crystal = next(i for i, layout in enumerate(self.cfg.layouts) if layout.id == "crystal")
        sr, sc = self.cfg.stairs
        cards = ((sr, sc, -1, False), (sr - 1, sc, hall, False), (sr, sc + 1, crystal, False))
        deck = list(state.dungeon_deck)
        deck[hall] -= 1
        deck[crystal] -= 1
        board = tuple(sorted([(4, 10, 0, "king"), (4, 11, 0, "knight"), (4, 12, 1, "slime"), (4, 13, 1, "slime"),
                              (5, 14, 1, "king")]))
        pools = ((0, 1, 1, 2, 3, 3), (0, 1, 1, 3, 3, 1))
        return state._replace(phase="turn", round=1, ap=self.cfg.ap, cards=cards, board=board, pools=pools,
                              dungeon_deck=tuple(deck), pending=())

    # --- hidden information (hidden.py) ----------------------------------------------------
    def view(self, state: DWState, seat: int) -> hidden.View:
        return hidden.view(self, state, seat)

    def view_seat(self, view: hidden.View) -> int:
        return view.seat

    def determinise(self, view: hidden.View, seat: int, rng: random.Random,
                    assume: Move | None = None) -> DWState | None:
        return hidden.determinise(self, view, rng, assume)

    def unseen(self, view: hidden.View, move: Move) -> Unseen:
        return hidden.unseen(self, view, move)

    def view_to_data(self, view: hidden.View) -> dict[str, Any]:
        return hidden.view_to_data(self, view)

    def view_from_data(self, data: Any) -> hidden.View:
        return hidden.view_from_data(self, data)

    # --- analysis (analysis.py) ------------------------------------------------------------
    def evaluate(self, state: DWState, seat: int) -> float:
        """Own public value minus the best standing opponent's (analysis.py; weights in YAML)."""
        return analysis.evaluate(self, state, seat)

    def search_evaluate(self, state: DWState, seat: int) -> float:
        """The guided MCTS's evaluation: the above plus pressure on the enemy King Dragon (evaluation.py)."""
        return evaluation.search_evaluate(self, state, seat)

    def bots(self) -> dict[str, Callable[[], Bot[DWState, Move]]]:
        return analysis.bots(self)

    def bot_methods(self) -> dict[str, str]:
        return dict(analysis.BOT_METHODS)

    def game_stats(self, state: DWState) -> dict[str, float]:
        return analysis.game_stats(self, state)

    def tally(self, state: DWState, move: Move, events: Sequence[Event]) -> Sequence[str]:
        return analysis.tally(self, state, move, events)

    # --- presentation and odds -----------------------------------------------------------
    def draw(self, state: DWState, moves: Sequence[Move] = (), lang: str = "en") -> Scene:
        """The placed cards, the pieces and the moves marked (drawing.py); public facts only."""
        return drawing.draw(self, self.look, state, moves, lang)

    def rulebook_figure(self, name: str, lang: str) -> list[Scene]:
        """'key': the pieces' letters, the neutral pieces, the terrain squares and the walls;
        'setup': a two-player table after setup (the first cards dealt round the stairs, each
        King Dragon and slime placed), drawn from a seeded setup state."""
        if name == "setup":
            return [drawing.draw(self, self.look, drawing.setup_state(self, 2), (), lang)]
        if name != "key":
            raise KeyError(name)
        return drawing.key(self, self.look, lang)

    def mockup(self, lang: str = "en") -> Scene | None:
        """The full table at the start: a 4-player setup dealt and placed by seeded choices."""
        return drawing.draw(self, self.look, drawing.setup_state(self, self.max_players), (), lang, whole=True)

    @cached_property
    def look(self) -> drawing.Look:
        return drawing.load_look(self.content, {**{n: n for n in (*ARMY, *NEUTRAL)}, "king dragon": "king"})

    def melee_odds(self, attacker: Fighter, defender: Fighter) -> MeleeOdds:
        """Exact melee odds with this game's die, support bonus and fatigue gap."""
        return melee(attacker, defender, self.cfg.die, self.cfg.support, self.cfg.fatigue_gap)

    def shot_odds(self, shooter: BP, attack: frozenset[str], target: Fighter) -> ShotOdds:
        return shot(shooter, attack, target, self.cfg.die, self.cfg.fatigue_gap)

    def volley_odds(self, shooter: BP, attack: frozenset[str],
                    targets: list[Fighter]) -> dict[tuple[bool, ...], Fraction]:
        return volley(shooter, attack, targets, self.cfg.die)

    def odds_report(self, text: str) -> tuple[str, dict[str, Any]]:
        """`pnpgen referee dungeon-war --odds "<fight>"`: exact odds as text and as data."""
        data = fight_odds(text, self.cfg.elements, self.cfg.die, self.cfg.support, self.cfg.fatigue_gap,
                          self.odds_piece)
        lines = [{"label": label, "fraction": str(p), "percent": round(float(p) * 100, 4)}
                 for label, p in data["lines"]]
        return odds_text(data), {"kind": data["kind"], "by_flags": data.get("by_flags"), "odds": lines}

    def odds_piece(self, name: str, cards: tuple[str, ...]) -> tuple[Fighter, int, int]:
        """A piece named in `--odds` ('king', 'golem', 'fire-slime', ...) wearing war cards by id:
        its Fighter, its dash BP, and its BP per crystal (King Dragon only)."""
        cfg = self.cfg
        slime = name.removesuffix("-slime")
        base = cfg.slimes.get(slime) if name.endswith("-slime") else cfg.pieces.get(name)
        if base is None:
            names = [*cfg.pieces, *(f"{s}-slime" for s in cfg.slimes)]
            raise BadMove(f"no piece '{name}' (pieces: {', '.join(names)})")
        if cards and name not in cfg.wearers:
            raise BadMove(f"a {name} wears no cards (wearers: {', '.join(cfg.wearers)})")
        ids = [c.id for c in cfg.war_cards]
        missing = [c for c in cards if c not in ids]
        if missing:
            raise BadMove(f"no war card '{missing[0]}'")
        kind = self._dress(base, tuple(ids.index(c) for c in cards))
        return (Fighter(kind.bp, kind.attack, kind.resist, kind.weak), kind.dash_bp,
                cfg.crystal_bp if name == "king" else 0)
