"""Dungeon War's state and moves (immutable values)."""

from __future__ import annotations

from typing import NamedTuple

from .moves import Move

__all__ = ["PHASES", "Move", "Square", "State"]

Square = tuple[int, int]
# A move is a tuple whose first item names it, one class per kind in moves.py
# (docs/notation/dungeon-war.md):
#   ('deal', layout, flipped) ('place', code, r, c) ('end',) ('move', sr, sc, dr, dc)
#   ('roll', sr, sc) ('dash', sr, sc) ('face', total) ('go', r, c) ('warp', sr, sc, dr, dc)
#   ('make', sr, sc, card_r, card_c) ('block', sr, sc, r, c) ('fence', sr, sc, r, c)
#   ('summon', kind, r, c) ('alchemy',) ('remake', card_r, card_c) ('draw',) ('element', index)
#   ('fight', result) ('card', index) ('dungeon', layout) ('lay', flipped) ('discard',) ('put', r, c)
#   ('equip', card, slot) ('unequip', card, slot) ('use', sr, sc, card) ('shoot', sr, sc, card, r, c)
#   ('ambush', card) ('pass',) ('trap', card[, r, c]) ('change', card[, card]) ('acid', card) ('revive', r, c)
#   ('dispose', card...) (the worn disposable cards a fighter uses; the others are kept)
#   ('use', sr, sc, card, r, c) (a targeted use: Charm) ('charm', success) (chance)
#   ('move', sr, sc, dr, dc, r1, c1, ...) and ('go', r, c, r1, c1, ...): a declared path
#   ('shot', status per target...)  status: hit, close (a King Dragon missed by <= 9), miss

# phases: deal* place turn roll* go fight* build* lay event over shot* ambush ambushed* window mirror acid revive
#         charm*   (* = a chance node)
PHASES = ("deal", "place", "turn", "roll", "go", "fight", "build", "lay", "event", "over", "shot", "ambush", "ambushed",
          "window", "mirror", "acid", "revive", "charm", "dispose")


class State(NamedTuple):
    players: int
    phase: str
    seat: int  # the seat to act (the active player; in 'place', the seat placing)
    round: int  # 1-based; 0 during setup
    ap: int
    king_step: int  # 0: the King Dragon has not acted; 1: its (a) action is done; 2: (b) done;
    # 3: Card placement, discarding; 4: Card placement, a card placed (no more discards)
    summoned: frozenset[str]  # kinds summoned by this (a) Summon action
    acted: frozenset[Square]  # squares of pieces that have acted this turn
    cards: tuple[tuple[int, int, int, bool], ...]  # placed dungeon cards (card r, c, layout, flipped)
    board: tuple[tuple[int, int, int, str], ...]  # (r, c, owner or -1 for neutral, kind), sorted
    pools: tuple[tuple[int, ...], ...]  # per seat, unused army pieces in config.ARMY order
    neutral_pool: tuple[int, ...]  # unused neutral pieces in config.NEUTRAL order
    gold: tuple[int, ...]
    fatigue: tuple[int, ...]
    element: tuple[int, ...]  # index into the slime cycle
    hands: tuple[tuple[int, ...], ...]  # war-card indices, sorted
    kings_beaten: tuple[int, ...]  # King Dragons this seat defeated (spoils: crystals, D-DW-2)
    war_deck: tuple[int, ...]  # counts per war card
    war_discard: tuple[int, ...]
    dungeon_deck: tuple[int, ...]  # counts per dungeon/event card
    dungeon_discard: tuple[int, ...]
    draws: tuple[tuple[int, int], ...]  # war cards owed: (seat, how many)
    pending: tuple[int, ...]  # the phase's decision (pending.py, one class per phase)
    fallen: frozenset[int]  # seats whose King Dragon was defeated
    equip: tuple[tuple[tuple[str, int], ...], ...] = ()  # per seat, placed war cards (slot, card), sorted
