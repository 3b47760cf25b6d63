"""Dungeon War rules engine (digest DUNGEON-WAR.md; decisions D-DW-n).

Implemented: setup as chance nodes (the first dungeon cards, D-DW-9/10), initial placement,
AP and the turn die with turn-start bonuses, each piece acting once, movement along declared
or first-shortest paths on the growing map (friendly / enemy / Stop! squares, terrain
abilities, the outside world and the stairs, warp zones, breaking obstacles by strength), the
Knight's rolled move and dash, the Magician's cross warp, the earth slime's Dungeon Make and
Block, the wood slime's Fence, Dungeon Reverse for content that grants it, the King Dragon's
two-step action (move, summon, alchemy, remake; draw, card change, element change, card
placement), melee with acid first, flags, support and the exact odds of odds.py as one chance
node per fight, spoils (D-DW-1/2), fatigue (D-DW-4), immortality (D-DW-16), brainwashing and
frenzy, the stand-in events, drowning (D-DW-8), D-DW-22, the end when a King Dragon falls and
the round cap; ranged combat (line, range, area, breath with its range roll and 怪力貫通
destroying blocks) as one chance node with exact joint odds; traps: ambushes on the squares
a move enters with the emergency move (D-DW-20), unconditional traps in the windows of
D-DW-21, Mirror Shield. See docs/notation/dungeon-war.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Outcome, Rules

from .config import ARMY, NEUTRAL, Config, PieceKind, load_config
from .dungeon import STEPS, Dungeon, Placed, Square, build_dungeon, manhattan, open_spots
from .explain import explain
from .odds import BP, Fighter, melee, shot_outcomes
from .state import Move, State

KING_FELL, ROUND_CAP = "king_fell", "round_cap"
RESULTS = ("win", "close-win", "draw", "close-loss", "loss")


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1:]


class DungeonWarRules(Rules[State, Move]):
    min_players = 2
    max_players = 4
    max_steps = 20_000

    def __init__(self, content: GameContent) -> None:
        super().__init__(content)
        self.cfg: Config = load_config(content)
        self._dungeons: dict[tuple[Placed, ...], Dungeon] = {}
        self._dressed: dict[tuple[str, tuple[int, ...]], PieceKind] = {}

    # --- derived views of a state ------------------------------------------------------
    def dungeon(self, state: State) -> Dungeon:
        found = self._dungeons.get(state.cards)
        if found is None:
            if len(self._dungeons) > 4096:
                self._dungeons.clear()
            found = self._dungeons[state.cards] = build_dungeon(self.cfg, state.cards)
        return found

    @staticmethod
    def occupants(state: State) -> dict[Square, tuple[int, str]]:
        return {(r, c): (owner, kind) for r, c, owner, kind in state.board}

    def kind(self, state: State, owner: int, name: str, kept: tuple[int, ...] = ()) -> PieceKind:
        """The piece's stats with its worn cards, less the disposable cards it keeps (`kept`)."""
        if name == "slime":
            return self.cfg.slimes[self.cfg.cycle[state.element[owner]]]
        base = self.cfg.pieces[name]
        slots = self.cfg.wearers.get(name)
        if not slots or owner < 0:
            return base
        gear_list = [i for slot, i in gear_of(state, owner) if slot in slots]
        for i in kept:
            if i in gear_list:
                gear_list.remove(i)
        gear = tuple(gear_list)
        key = (name, gear)
        found = self._dressed.get(key)
        if found is None:
            found = self._dressed[key] = self._dress(base, gear)
        return found

    def _dress(self, base: PieceKind, gear: tuple[int, ...]) -> PieceKind:
        """A piece wearing the play sheet's cards (digest §4): worn cards add BP, elements,
        resistances, strength and their coins to the summon cost; a card with an action effect
        (shot, AP, brainwash) is used, not worn; a dragon card gives the dragon its stats."""
        bp, cost, attack, resist = base.bp, base.cost, set(base.attack), set(base.resist)
        strength, actions, immortal, stop = base.strength, list(base.actions), base.immortal, base.stop
        spoils_gold, spoils_cards = base.spoils_gold, base.spoils_cards
        use = self.cfg.use.get(base.name, "")
        for i in gear:
            card = self.cfg.war_cards[i]
            fx = card.effects
            if "dragon" in fx:
                bp, cost = card.bp, int(fx.get("cost", 0))
                spoils_gold, spoils_cards = int(fx.get("spoils", 0)), int(fx.get("cards", 0))
                if card.element:
                    attack.add(card.element)
                if "breath" in fx and use and use not in actions:
                    actions.append(use)
                continue
            cost += card.coins
            if self.cfg.action_effects & fx.keys():
                if use and use not in actions:
                    actions.append(use)
                continue
            bp = bp + card.bp
            if card.element:
                attack.add(card.element)
            if fx.get("resist"):
                resist.add(fx["resist"])
            if fx.get("strength"):
                strength = fx["strength"]
            immortal = immortal or "immortal" in fx
            stop = stop or "stop" in fx  # a card may grant 【ストップ！】
        return replace(base, bp=bp, cost=cost, attack=frozenset(attack), resist=frozenset(resist),
                       strength=strength, actions=tuple(actions), spoils_gold=spoils_gold,
                       spoils_cards=spoils_cards, immortal=immortal, stop=stop)

    def has_card_for(self, state: State, seat: int, kind: PieceKind) -> bool:
        return not kind.needs_card or any(slot == kind.needs_card for slot, _ in gear_of(state, seat))

    def crystals(self, state: State, seat: int) -> int:
        terrain = self.dungeon(state).terrain
        return sum(1 for r, c, owner, _ in state.board
                   if owner == seat and self.cfg.terrain[terrain.get((r, c), "F")].get("crystal"))

    def score(self, state: State, seat: int) -> Fraction:
        return self.crystals(state, seat) + state.kings_beaten[seat] * self.cfg.pieces["king"].spoils_crystals

    def may_stand(self, kind: PieceKind, code: str, king: bool) -> bool:
        """Terrain `code` lets this piece stop there (D-DW-8; the King Dragon's bans)."""
        need = self.cfg.terrain[code].get("needs")
        if need and need not in kind.terrain:
            return False
        return not (king and code in self.cfg.king_never_stops)

    # --- the contract ------------------------------------------------------------------
    def num_players(self, state: State) -> int:
        return state.players

    def initial_state(self, players: int) -> State:
        cfg = self.cfg
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{players} players; Dungeon War takes {self.min_players}-{self.max_players}")
        army = tuple(cfg.pieces[name].count for name in ARMY)
        start = cfg.cycle.index(cfg.start_element)
        cards = len(cfg.war_cards)
        state = State(
            players=players, phase="deal", seat=0, round=0, ap=0, king_step=0, summoned=frozenset(),
            acted=frozenset(), cards=((cfg.stairs[0], cfg.stairs[1], -1, False),), board=(),
            pools=(army,) * players, neutral_pool=tuple(int(cfg.neutral[n]["count"]) for n in NEUTRAL),
            gold=(cfg.start_gold,) * players, fatigue=(cfg.start_fatigue,) * players, element=(start,) * players,
            hands=((),) * players, kings_beaten=(0,) * players,
            war_deck=tuple(c.count for c in cfg.war_cards), war_discard=(0,) * cards,
            dungeon_deck=tuple(layout.count for layout in cfg.layouts), dungeon_discard=(0,) * len(cfg.layouts),
            draws=(), pending=(0,), fallen=frozenset(), equip=((),) * players,
        )
        return self._after_deal(state)

    def first_spots(self) -> list[tuple[int, int]]:
        sr, sc = self.cfg.stairs
        spots = [(sr + dr, sc + dc) for dr, dc in STEPS]
        return [s for s in spots if 0 <= s[0] < self.cfg.rows and 0 <= s[1] < self.cfg.columns][:self.cfg.first_spots]

    def current_player(self, state: State) -> int:
        if state.phase == "over":
            return TERMINAL
        if state.phase in ("deal", "roll", "fight", "build", "shot", "ambushed", "charm") or state.draws:
            return CHANCE
        if state.phase == "ambush":
            return state.pending[5]
        if state.phase in ("window", "mirror", "acid", "dispose"):
            return state.pending[-1]
        if state.phase == "revive":
            return state.pending[0]
        return state.seat

    def outcome(self, state: State) -> Outcome:
        scores = tuple(float(self.score(state, s)) for s in range(state.players))
        if not state.fallen:
            return Outcome((), scores, ROUND_CAP)
        standing = [s for s in range(state.players) if s not in state.fallen]
        best = max((scores[s] for s in standing), default=0.0)
        return Outcome(tuple(s for s in standing if scores[s] == best), scores, KING_FELL)

    # --- chance ------------------------------------------------------------------------
    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        if self.current_player(state) != CHANCE:
            return []
        if state.draws:
            deck = state.war_deck if sum(state.war_deck) else state.war_discard
            total = sum(deck)
            return [(("card", i), Fraction(n, total)) for i, n in enumerate(deck) if n]
        if state.phase == "deal":
            eligible = self._deal_eligible(state)
            total = sum(n for _, n in eligible)
            return [(("deal", i, flip), Fraction(n, 2 * total)) for i, n in eligible for flip in (False, True)]
        if state.phase == "roll":
            dice = self.cfg.pieces["knight"].dash_dice if state.pending[2] else self.cfg.pieces["knight"].move.dice
            return [(("face", total), p) for total, p in _dice(dice, self.cfg.die)]
        if state.phase == "build":
            deck = state.dungeon_deck if sum(state.dungeon_deck) else state.dungeon_discard
            total = sum(deck)
            return [(("dungeon", i), Fraction(n, total)) for i, n in enumerate(deck) if n]
        if state.phase == "shot":
            return [(("shot", *combo), p) for combo, p in self.shot_odds_in_play(state).items()]
        if state.phase == "ambushed":
            return [(("fight", result), p) for result, p in self.ambush_odds(state).outcomes()]
        if state.phase == "charm":
            yes = self.charm_odds(state)
            return [(("charm", flag), p) for flag, p in ((True, yes), (False, 1 - yes)) if p]
        # fight
        return [(("fight", result), p) for result, p in self.fight_odds(state).outcomes()]

    def _deal_eligible(self, state: State) -> list[tuple[int, int]]:
        cfg = self.cfg
        crystals = boxes = 0
        for _, _, index, _ in state.cards:
            layout = cfg.stairs_card if index < 0 else cfg.layouts[index]
            crystals += sum(1 for row in layout.rows for code in row if cfg.terrain[code].get("crystal"))
            boxes += sum(1 for row in layout.rows for code in row if cfg.terrain[code].get("empty_box"))
        eligible = []
        for i, layout in enumerate(cfg.layouts):
            if layout.event or not state.dungeon_deck[i]:
                continue
            c = sum(1 for row in layout.rows for code in row if cfg.terrain[code].get("crystal"))
            b = sum(1 for row in layout.rows for code in row if cfg.terrain[code].get("empty_box"))
            if crystals + c <= cfg.max_crystals and boxes + b <= cfg.max_boxes:
                eligible.append((i, state.dungeon_deck[i]))
        return eligible

    def _after_deal(self, state: State) -> State:
        """The next card spot, or initial placement once the spots are filled (or no card fits)."""
        if state.pending[0] < len(self.first_spots()) and self._deal_eligible(state):
            return state
        return state._replace(phase="place", seat=0, pending=(0,))

    # --- legal moves -------------------------------------------------------------------
    def legal_moves(self, state: State) -> list[Move]:
        if self.current_player(state) < 0:
            return []
        if state.phase == "place":
            return self._placements(state)
        if state.phase == "go":
            sr, sc, dash, steps = state.pending
            kind = self.kind(state, state.seat, "knight")
            return [("go", r, c) for r, c in sorted(self.reach(state, (sr, sc), kind, state.seat, steps))]
        if state.phase == "lay":
            return [("lay", False), ("lay", True), ("discard",)]
        if state.phase == "event":
            effect = self.cfg.events[self.cfg.layouts[state.pending[3]].id]
            name = "tentacle" if "frenzy" in effect else str(effect.get("place"))
            return [("put", r, c, *src) for r, c in self._event_targets(state)
                    for src in self._sources(state, -1, name)] or [("put", -1, -1)]
        if state.phase == "ambush":
            return [*(("ambush", i) for i in self._ambushes(state, state.pending[5], (state.pending[2],
                                                                                    state.pending[3]))), ("pass",)]
        if state.phase == "window":
            return [*self._trap_calls(state, state.pending[0]), ("pass",)]
        if state.phase == "acid":
            return [("acid", i) for _, i in self._acid_choices(state)]
        if state.phase == "dispose":
            return self._dispose_moves(state)
        if state.phase == "revive":
            return [("revive", r, c) for r, c in self._graves(state, state.pending[0], ARMY[state.pending[1]])]
        if state.phase == "mirror":
            return [*(("trap", i) for i in self._mirrors(state, state.pending[-1])), ("pass",)]
        return self._turn_moves(state)

    def _placements(self, state: State) -> list[Move]:
        name = self.cfg.first_pieces[state.pending[0]]
        kind = self.kind(state, state.seat, name)
        code = self.cfg.pieces[name].code
        return [("place", code, r, c) for r, c in self._empty_squares(state, kind, name == "king")]

    def _empty_squares(self, state: State, kind: PieceKind | None, king: bool = False) -> list[Square]:
        taken = {(r, c) for r, c, _, _ in state.board}
        return [sq for sq, code in sorted(self.dungeon(state).terrain.items())
                if sq not in taken and (kind is None or self.may_stand(kind, code, king))]

    def _turn_moves(self, state: State) -> list[Move]:
        cfg, seat = self.cfg, state.seat
        moves: list[Move] = [("end",)]
        cost = cfg.action_cost
        king_square = next(((r, c) for r, c, o, k in state.board if o == seat and k == "king"), None)
        if state.king_step in (3, 4):
            return list(dict.fromkeys(moves + self._placements_b(state)))  # two copies of a card: one move
        if state.king_step == 0:
            for r, c, owner, name in state.board:
                if owner != seat or name == "king" or (r, c) in state.acted or state.ap < cost:
                    continue
                moves += self._piece_moves(state, (r, c), name)
            if king_square and king_square not in state.acted:
                moves += self._king_a(state, king_square)
        elif state.king_step == 1 and state.summoned and state.ap >= 0 and king_square:
            moves += self._summons(state, king_square, free=True)
        if king_square and state.king_step in (0, 1):
            b = cfg.actions_b
            if state.ap >= b["draw"] and (sum(state.war_deck) + sum(state.war_discard)) > 0:
                moves.append(("draw",))
            if "change" in b and state.ap >= b["change"] and (sum(state.war_deck) + sum(state.war_discard)) > 0:
                moves += self._changes(state)
            if state.ap >= b["element"]:
                here = state.element[seat]
                for step in (-1, 1):
                    moves.append(("element", (here + step) % len(cfg.cycle)))
            if state.ap >= b["place"]:
                moves += self._placements_b(state)
        return list(dict.fromkeys(moves))

    def _changes(self, state: State) -> list[Move]:
        """Card change (King Dragon (b)): 1 to `change_cards` cards of the hand, as sorted card indices."""
        hand = state.hands[state.seat]
        found: set[Move] = set()

        def pick(start: int, chosen: tuple[int, ...]) -> None:
            if chosen:
                found.add(("change", *chosen))
            if len(chosen) < self.cfg.change_cards:
                for k in range(start, len(hand)):
                    pick(k + 1, (*chosen, hand[k]))

        pick(0, ())
        return sorted(found)

    def _placements_b(self, state: State) -> list[Move]:
        """Card placement (King Dragon (b)): discard placed cards, place cards from the hand
        into free slots that match one of their categories (traps go face down)."""
        seat, cfg = state.seat, self.cfg
        gear = gear_of(state, seat)
        # first discards, then placements: once a card is placed (king_step 4) none is discarded
        moves: list[Move] = [("unequip", i, slot) for slot, i in gear] if state.king_step != 4 else []
        used = {slot: sum(1 for s, _ in gear if s == slot) for slot in cfg.slots}
        for i in sorted(set(state.hands[seat])):
            for slot in cfg.war_cards[i].categories:
                if slot in cfg.slots and used[slot] < cfg.slots[slot]:
                    moves.append(("equip", i, slot))
        return moves

    def _piece_moves(self, state: State, square: Square, name: str) -> Iterator[Move]:
        seat, cfg = state.seat, self.cfg
        kind = self.kind(state, seat, name)
        r, c = square
        if "move" in kind.actions:
            if kind.move.dice:
                yield ("roll", r, c)
            else:
                for dr, dc in sorted(self.reach(state, square, kind, seat, kind.move.plus)):
                    yield ("move", r, c, dr, dc)
        if "dash" in kind.actions and kind.dash_dice:
            yield ("dash", r, c)
        use = self.cfg.use.get(name, "")
        if use and use in kind.actions:
            for slot, i in gear_of(state, seat):
                fx = cfg.war_cards[i].effects
                if slot in self.cfg.wearers[name] and "ap" in fx:
                    yield ("use", r, c, i)
                if slot in self.cfg.wearers[name] and "brainwash" in fx:
                    for tr, tc in self._charm_targets(state, square, i):
                        for source in self._sources(state, seat, self.occupants(state)[(tr, tc)][1]):
                            yield ("use", r, c, i, tr, tc, *source)
                if slot in self.cfg.wearers[name] and ("shot" in fx or "breath" in fx):
                    for tr, tc in self.shot_aims(state, square, i):
                        yield ("shoot", r, c, i, tr, tc)
        if "warp" in kind.actions and state.gold[seat] >= kind.warp_cost:
            for dr, dc in self.warps(state, square, kind, seat):
                yield ("warp", r, c, dr, dc)
        if "reverse" in kind.actions:  # Dungeon Reverse: no base piece has it; content may grant it
            for cr, cc in self._remakeable(state):
                yield ("reverse", r, c, cr, cc)
        if "make" in kind.actions and sum(state.dungeon_deck) + sum(state.dungeon_discard) > 0:
            for cr, cc in open_spots(cfg, state.cards):
                if self._next_to_spot(square, (cr, cc)):
                    yield ("make", r, c, cr, cc)
        for action, rng in (("block", cfg.block_range), ("fence", cfg.fence_range)):
            if action in kind.actions and self._neutral_available(state, action):
                for tr, tc in self._empty_squares(state, None):
                    if rng[0] <= manhattan(square, (tr, tc)) <= rng[1] and not (
                            action == "fence" and cfg.terrain[self.dungeon(state).terrain[(tr, tc)]].get("no_fence")):
                        for source in self._sources(state, -1, action):
                            yield (action, r, c, tr, tc, *source)

    def _next_to_spot(self, square: Square, spot: tuple[int, int]) -> bool:
        for dr, dc in STEPS:
            r, c = square[0] + dr, square[1] + dc
            if (r // self.cfg.card_rows, c // self.cfg.card_columns) == spot and r >= 0 and c >= 0:
                return True
        return False

    def _king_a(self, state: State, square: Square) -> Iterator[Move]:
        a, seat = self.cfg.actions_a, state.seat
        king = self.kind(state, seat, "king")
        if state.ap >= a["move"]:
            for dr, dc in sorted(self.reach(state, square, king, seat, king.move.plus)):
                yield ("move", square[0], square[1], dr, dc)
        if state.ap >= a["summon"]:
            yield from self._summons(state, square, free=False)
        if state.ap >= a["alchemy"]:
            yield ("alchemy",)
        if state.ap >= a["remake"] and sum(state.dungeon_deck) + sum(state.dungeon_discard) > 0:
            for cr, cc in self._remakeable(state):
                yield ("remake", cr, cc)

    def _remakeable(self, state: State) -> list[tuple[int, int]]:
        dun = self.dungeon(state)
        busy = {dun.card_of((r, c)) for r, c, _, _ in state.board}
        return [(cr, cc) for cr, cc, index, _ in state.cards if index >= 0 and (cr, cc) not in busy]

    @staticmethod
    def _army_available(state: State, seat: int, name: str) -> bool:
        """An unused piece of that kind, or one on the board to re-place (D-DW-22)."""
        return bool(state.pools[seat][ARMY.index(name)]) or any(o == seat and k == name for *_, o, k in state.board)

    def _summons(self, state: State, king_square: Square, free: bool) -> Iterator[Move]:
        seat = state.seat
        for name in ARMY:
            kind = self.kind(state, seat, name)
            if (name == "king" or not self.has_card_for(state, seat, kind) or name in state.summoned
                    or not self._army_available(state, seat, name) or state.gold[seat] < kind.cost):
                continue
            for r, c in self._empty_squares(state, kind):
                if manhattan((r, c), king_square) == self.cfg.summon_range:
                    for source in self._sources(state, seat, name):
                        yield ("summon", name, r, c, *source)

    # --- movement ----------------------------------------------------------------------
    def _entry(self, state: State, occ: dict[Square, tuple[int, str]], target: Square, kind: PieceKind,
               owner: int, king: bool) -> tuple[bool, bool, bool] | None:
        """Entering `target`: None if it may not be entered, else (may stop, may pass on, forced stop)."""
        code = self.dungeon(state).terrain[target]
        need = self.cfg.terrain[code].get("needs")
        if need and need not in kind.terrain:
            return None  # D-DW-8
        stand = not (king and code in self.cfg.king_never_stops)
        there = occ.get(target)
        if there is None:
            return stand, True, False
        who, name = there
        if who == owner:
            return None if self.kind(state, who, name).stop else (False, True, False)  # D-DW-7
        if who >= 0:  # an enemy
            if self.kind(state, who, name).stop:
                return None if king and name == "king" or not stand else (True, False, True)
            return stand, True, False
        if name == "tentacle":
            return stand, True, False
        if name in ("block", "fence"):
            return (True, False, True) if name in self.cfg.breaks[kind.strength] and stand else None
        return stand, True, False  # chest, coin

    def reach(self, state: State, start: Square, kind: PieceKind, owner: int, limit: int) -> set[Square]:
        """Squares where a move of at most `limit` steps from `start` may end (0 steps included)."""
        return set(self.reach_paths(state, start, kind, owner, limit))

    def _step_targets(self, state: State, square: Square, cracked: bool) -> Iterator[tuple[Square, bool]]:
        """Squares one step from `square` may enter: (square, through a broken cracked wall);
        the outside world leads to every stairs square (D-DW-11), warp partners count (D-DW-12)."""
        dun = self.dungeon(state)
        for target, wall in dun.steps(square):
            if wall and not (wall == "cracked_wall" and cracked):
                continue
            for t in (dun.stairs if target is None else (target,)):
                yield t, bool(wall)

    def reach_paths(self, state: State, start: Square, kind: PieceKind, owner: int,
                    limit: int) -> dict[Square, tuple[Square, ...]]:
        """Each square where a move of at most `limit` steps may end, with the first shortest
        path to it (squares entered, the end included; `()` for a 0-square move)."""
        if limit < 0:
            return {}
        occ = self.occupants(state)
        king = occ.get(start, (owner, ""))[1] == "king"
        ends: dict[Square, tuple[Square, ...]] = {start: ()}
        seen = {start}
        layer: list[tuple[Square, tuple[Square, ...]]] = [(start, ())]
        cracked = "cracked_wall" in self.cfg.breaks[kind.strength]
        for _ in range(limit):
            nxt_layer = []
            for square, path in layer:
                for t, wall in self._step_targets(state, square, cracked):
                    if t == start:
                        continue
                    entry = self._entry(state, occ, t, kind, owner, king)
                    if entry is None:
                        continue
                    stop, go_on, forced = entry
                    if stop and t not in ends:
                        ends[t] = (*path, t)
                    if go_on and not forced and not wall and t not in seen:
                        seen.add(t)
                        nxt_layer.append((t, (*path, t)))
            layer = nxt_layer
        return ends

    def path_ok(self, state: State, start: Square, path: tuple[Square, ...], kind: PieceKind, owner: int,
                limit: int) -> bool:
        """A declared path (digest §5 「進路を示して進みます」): at most `limit` steps, each a legal
        step, passing only squares it may pass and ending where it may stop; no square twice."""
        if not path or len(path) > limit or len(set(path)) != len(path) or start in path:
            return False
        occ = self.occupants(state)
        king = occ.get(start, (owner, ""))[1] == "king"
        cracked = "cracked_wall" in self.cfg.breaks[kind.strength]
        here = start
        for i, t in enumerate(path):
            walls = [wall for target, wall in self._step_targets(state, here, cracked) if target == t]
            if not walls:
                return False
            entry = self._entry(state, occ, t, kind, owner, king)
            if entry is None:
                return False
            stop, go_on, forced = entry
            if i == len(path) - 1:
                return stop
            if not go_on or forced or min(walls):
                return False
            here = t
        return False

    def warps(self, state: State, start: Square, kind: PieceKind, owner: int) -> list[Square]:
        """Cross warp (D-DW-17): any square in the same row or column the magician may stop on."""
        occ = self.occupants(state)
        found = []
        for t in sorted(self.dungeon(state).terrain):
            if t != start and (t[0] == start[0] or t[1] == start[1]):
                entry = self._entry(state, occ, t, kind, owner, False)
                if entry is not None and entry[0]:
                    found.append(t)
        return found

    # --- ranged combat -------------------------------------------------------------------
    def shot_spec(self, index: int) -> tuple[BP, frozenset[str], str, tuple[int, int], bool, str, int]:
        """(BP, elements, 'line' or 'range', range, area, penetration strength, range dice) of
        the shot a card fires (digest §6; D-DW-13: 怪力貫通 passes walls and blocks)."""
        card = self.cfg.war_cards[index]
        fx = card.effects
        if "breath" in fx:
            dice, plus, *colours = fx["breath"].split(":")
            breath = self.cfg.breath
            return (BP(int(dice), int(plus)), frozenset(colours), "line", (1, 10 ** 3), False,
                    str(breath.get("penetrate", "")), int(breath.get("range_dice", 0)))
        how = fx["shot"].split(":")
        element = frozenset({card.element} if card.element else ())
        if how[0] == "range":
            low, high = (int(v) for v in how[1].split("-"))
            return card.bp, element, "range", (low, high), "area" in fx, "", 0
        return card.bp, element, "line", (1, 10 ** 3), "area" in fx, fx.get("penetrate", ""), 0

    def _targetable(self, state: State, square: Square, seat: int) -> bool:
        """D-DW-14: only an enemy piece or a tentacle creature may be aimed at."""
        piece = self.occupants(state).get(square)
        return piece is not None and (piece[0] >= 0 and piece[0] != seat or piece[1] == "tentacle")

    def _line(self, state: State, src: Square, step: tuple[int, int], seat: int, penetrate: str) -> list[Square]:
        """Enemies a straight-line shot meets going `step` from `src`: it stops at an enemy or a
        tentacle creature (passing on with penetration), a block, a wall or the outside world;
        friends are not hit (digest §6). 怪力貫通 passes walls and blocks (D-DW-13)."""
        dun, occ = self.dungeon(state), self.occupants(state)
        strong = penetrate == "strong"
        hit: list[Square] = []
        here = src
        while True:
            nxt = (here[0] + step[0], here[1] + step[1])
            if nxt not in dun.terrain or (dun.walls.get(frozenset((here, nxt))) and not strong):
                return hit
            piece = occ.get(nxt)
            if piece is not None:
                if piece[1] == "block" and not strong:
                    return hit
                if self._targetable(state, nxt, seat):
                    hit.append(nxt)
                    if not penetrate:
                        return hit
            here = nxt

    def shot_aims(self, state: State, src: Square, index: int) -> list[Square]:
        """Squares a shot from `src` with card `index` may be aimed at (the first enemy in a
        line; any enemy in range for a range shot)."""
        _, _, how, (low, high), _, penetrate, _ = self.shot_spec(index)
        seat = self.occupants(state)[src][0]
        if how == "range":
            return [sq for sq in sorted(self.occupants(state))
                    if low <= manhattan(src, sq) <= high and self._targetable(state, sq, seat)]
        aims = []
        for step in STEPS:
            line = self._line(state, src, step, seat, penetrate)
            if line:
                aims.append(line[0])
        return sorted(aims)

    def shot_targets(self, state: State, src: Square, index: int, aim: Square) -> list[Square]:
        """Every square the shot aimed at `aim` hits, nearest first (area: the aim, then its
        neighbours holding a piece, friends included, D-DW-14)."""
        _, _, how, _, area, penetrate, _ = self.shot_spec(index)
        seat = self.occupants(state)[src][0]
        if how == "line":
            step = ((aim[0] > src[0]) - (aim[0] < src[0]), (aim[1] > src[1]) - (aim[1] < src[1]))
            return self._line(state, src, step, seat, penetrate)
        found = [aim]
        if area:
            occ = self.occupants(state)
            found += sorted({sq for sq in self.dungeon(state).adjacent(aim) if sq != src and sq in occ
                             and (occ[sq][0] >= 0 or occ[sq][1] == "tentacle")})
        return found

    def targets_in_play(self, state: State) -> list[Square]:
        """The squares the pending shot hits; a reflected shot (Mirror Shield) hits its shooter."""
        sr, sc, index, ar, ac = state.pending[:5]
        if len(state.pending) > 5:
            return [(sr, sc)]
        return self.shot_targets(state, (sr, sc), index, (ar, ac))

    def shot_odds_in_play(self, state: State) -> dict[tuple[str | int, ...], Fraction]:
        """The joint outcome of the pending shot; a shot with a range roll (a breath) names the
        rolled range last, since it decides which blocks the breath destroys (D-DW-13)."""
        sr, sc, index, ar, ac = state.pending[:5]
        bp, attack, _, _, _, _, range_dice = self.shot_spec(index)
        occ = self.occupants(state)
        targets = self.targets_in_play(state)
        if len(state.pending) > 5:
            range_dice = 0  # the reflection comes straight back
        fighters = [self.fighter(state, sq, occ[sq][0], occ[sq][1], False, sq, support=False)
                    for sq in targets]
        distances = [manhattan((sr, sc), sq) for sq in targets]
        kings = [occ[sq][1] == "king" for sq in targets]
        if not range_dice:
            plain = shot_outcomes(bp, attack, fighters, distances, kings, 0, self.cfg.die, self.cfg.fatigue_gap)
            return {tuple[str | int, ...](combo): p for combo, p in plain.items()}
        joint: dict[tuple[str | int, ...], Fraction] = {}
        for reach, pr in _dice(range_dice, self.cfg.die):
            near = [i for i, d in enumerate(distances) if d <= reach]
            sub = shot_outcomes(bp, attack, [fighters[i] for i in near], [distances[i] for i in near],
                                [kings[i] for i in near], 0, self.cfg.die, self.cfg.fatigue_gap)
            for combo, p in sub.items():
                full = ["miss"] * len(targets)
                for i, status in zip(near, combo, strict=True):
                    full[i] = status
                key: tuple[str | int, ...] = (*full, reach)
                joint[key] = joint.get(key, Fraction(0)) + pr * p
        return dict(sorted(joint.items()))

    def _breath_blocks(self, state: State, reach: int) -> list[Square]:
        """Blocks a 怪力貫通 shot destroys: those on its line within the rolled range (D-DW-13)."""
        sr, sc, index, ar, ac = state.pending[:5]
        if self.shot_spec(index)[5] != "strong" or len(state.pending) > 5:
            return []
        step = ((ar > sr) - (ar < sr), (ac > sc) - (ac < sc))
        terrain, occ = self.dungeon(state).terrain, self.occupants(state)
        found = []
        here = (sr, sc)
        for _ in range(reach):
            here = (here[0] + step[0], here[1] + step[1])
            if here not in terrain:
                break
            if occ.get(here) == (-1, "block"):
                found.append(here)
        return found

    def _resolve_shot(self, state: State, statuses: tuple[str, ...],
                      reach: int | None = None) -> tuple[State, list[Event]]:
        sr, sc, index, ar, ac = state.pending[:5]
        broken = self._breath_blocks(state, reach) if reach is not None else []
        occ = self.occupants(state)
        owner, s_name = occ[(sr, sc)]
        targets = self.targets_in_play(state)
        shooter = state.pending[5] if len(state.pending) > 5 else owner  # who wins the spoils (D-DW-1)
        card = self.cfg.war_cards[index]
        events = [Event("shot", f"{card.name_en} from {square_name((sr, sc))}: " + ", ".join(
            f"{square_name(sq)} {st}" for sq, st in zip(targets, statuses, strict=True)), {"result": list(statuses)})]
        attack = self.shot_spec(index)[1]
        state = state._replace(phase="turn", pending=())
        fell: set[int] = set()
        revive: list[tuple[int, int]] = []
        for sq, status in zip(targets, statuses, strict=True):
            who, name = occ[sq]
            if status == "hit":
                if who != shooter:  # no spoils for your own pieces (digest §6)
                    state = self._spoils(state, shooter, who, name, s_name == "knight" and shooter == owner, events)
                state = self._fall(state._replace(board=self._board(state, (sq,))), who, name, attack, revive, events)
                if name == "king":
                    fell.add(who)
            elif status == "close" and name == "king":
                cap = self.cfg.caps["fatigue"]
                state = state._replace(fatigue=_set(state.fatigue, who, min(cap, state.fatigue[who] + 1)))
                events.append(Event("fatigue", f"seat {who + 1}'s King Dragon tires (D-DW-4)"))
        for sq in broken:  # 怪力貫通 destroys the blocks it passes (D-DW-13)
            state = self._to_pool(state._replace(board=self._board(state, (sq,))), -1, "block")
            events.append(Event("break", f"the breath destroys the block on {square_name(sq)}"))
        if "disposable" in card.categories:  # D-DW-27
            state = self._drop_card(state, owner, index, self._slot_of(state, owner, index))
            events.append(Event("disposable", f"{card.name_en} is used up and discarded"))
        if fell:  # D-DW-26: the whole shot is resolved first
            return self._game_over(state, fell, events)
        return self._revive_queue(self._settle(state), revive), events

    # --- fights ------------------------------------------------------------------------
    def fighter(self, state: State, square: Square, who: int, name: str, dash: bool, fight_at: Square,
                support: bool = True, kept: tuple[int, ...] = ()) -> Fighter:
        cfg = self.cfg
        if who < 0:
            spec = cfg.neutral[name]
            return Fighter(BP(*spec.get("bp", (0, 0))))
        kind = self.kind(state, who, name, kept)
        bp = kind.bp
        if name == "king":
            bp = BP(bp.dice, bp.plus + (self.crystals(state, who) - state.fatigue[who]) * cfg.crystal_bp)
        if dash:
            bp = BP(bp.dice, bp.plus + kind.dash_bp)
        occ = self.occupants(state)
        friends = sum(1 for sq in self.dungeon(state).adjacent(fight_at)
                      if sq != square and occ.get(sq, (-9, ""))[0] == who) if support else 0
        return Fighter(bp, kind.attack, kind.resist, kind.weak, friends)

    def _fight_sides(self, state: State) -> tuple[Fighter, Fighter]:
        sr, sc, dr, dc, dash = state.pending[:5]
        occ = self.occupants(state)
        a_who, a_name = occ[(sr, sc)]
        d_who, d_name = occ[(dr, dc)]
        return (self.fighter(state, (sr, sc), a_who, a_name, bool(dash), (dr, dc), kept=_kept(state.pending, 0)),
                self.fighter(state, (dr, dc), d_who, d_name, False, (dr, dc), kept=_kept(state.pending, 1)))

    def fight_odds(self, state: State) -> Any:
        attacker, defender = self._fight_sides(state)
        return melee(attacker, defender, self.cfg.die, self.cfg.support, self.cfg.fatigue_gap)

    # --- apply -------------------------------------------------------------------------
    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        player = self.current_player(state)
        if player == TERMINAL:
            raise IllegalMove("DW-END", "the game is over")
        if player == CHANCE:
            outcomes = [m for m, _ in self.chance_outcomes(state)]
            if move not in outcomes:
                if state.phase == "shot" and not state.draws and move[0] == "shot":
                    possible = "; ".join(" ".join(str(v) if isinstance(v, str) else f"reach {v}" for v in m[1:])
                                         for m in outcomes)
                    raise IllegalMove("DW-SHOT", f"this shot's result is one of: {possible}")
                if state.phase in ("fight", "ambushed") and not state.draws and move[0] == "fight":
                    possible = ", ".join(str(m[1]) for m in outcomes)
                    raise IllegalMove("DW-MELEE", f"with these BPs and equipment the fight's result is one of: "
                                      f"{possible}")
                raise IllegalMove("DW-TURN", "a roll or a draw is due, not a player's move")
            return self._after(state, *self._apply_chance(state, move), move)
        return self._after(state, *self._apply_player_checked(state, move), move)

    def apply_unchecked(self, state: State, move: Move) -> tuple[State, tuple[str, ...]]:
        """apply() for a move the engine drew itself: not checked against the listed legal moves."""
        if self.current_player(state) == CHANCE:
            new, events = self._after(state, *self._apply_chance(state, move), move)
        else:
            new, events = self._after(state, *self._apply_player(state, move), move)
        return new, tuple(event.kind for event in events)

    def _after(self, before: State, state: State, events: list[Event], move: Move) -> tuple[State, list[Event]]:
        """After a completed action, the trap window of D-DW-21 (not inside a Summon or Card
        placement action, which go on; not after a draw, a roll or a window's own move)."""
        if (state.phase == "turn" and before.phase not in ("window", "place") and move[0] not in (
                "card", "face", "summon", "equip", "unequip") and state.king_step < 3):
            return self._window(state, state.seat), events
        return state, events

    def _apply_player_checked(self, state: State, move: Move) -> tuple[State, list[Event]]:
        if move[0] in ("move", "go") and len(move) > (5 if move[0] == "move" else 3):
            if not self.declared_path_ok(state, move):
                rule, reason = self.why_illegal(state, move)
                raise IllegalMove(rule, reason)
            return self._apply_player(state, move)
        legal = self.legal_moves(state)
        if move not in legal:
            rule, reason = self.why_illegal(state, move)
            raise IllegalMove(rule, reason)
        return self._apply_player(state, move)

    def why_illegal(self, state: State, move: Move) -> tuple[str, str]:
        """The rule a move that is not legal breaks, and why (for the referee)."""
        return explain(self, state, move)

    def _apply_chance(self, state: State, move: Move) -> tuple[State, list[Event]]:
        events: list[Event] = []
        head = move[0]
        if head == "card":
            index = int(move[1])
            deck, discard = state.war_deck, state.war_discard
            if not sum(deck):
                deck, discard = discard, (0,) * len(discard)
                events.append(Event("reshuffle", "the war-card discards become the deck"))
            seat, n = state.draws[0]
            hand = tuple(sorted((*state.hands[seat], index)))
            draws = ((seat, n - 1),) + state.draws[1:] if n > 1 else state.draws[1:]
            state = state._replace(war_deck=_set(deck, index, deck[index] - 1), war_discard=discard,
                                   hands=_set(state.hands, seat, hand), draws=draws)
            events.append(Event("draw", f"seat {seat + 1} draws {self.cfg.war_cards[index].name_en}"))
            return self._settle(state), events
        if head == "deal":
            index, flip = int(move[1]), bool(move[2])
            cr, cc = self.first_spots()[state.pending[0]]
            state = state._replace(cards=(*state.cards, (cr, cc, index, flip)),
                                   dungeon_deck=_set(state.dungeon_deck, index, state.dungeon_deck[index] - 1),
                                   pending=(state.pending[0] + 1,))
            events.append(Event("deal", f"{self.cfg.layouts[index].id} placed at card {cr + 1}.{cc + 1}"))
            return self._after_deal(state), events
        if head == "face":
            sr, sc, dash = state.pending
            return state._replace(phase="go", pending=(sr, sc, dash, int(move[1]))), [
                Event("roll", f"the knight may move {move[1]}")]
        if head == "dungeon":
            return self._drawn_dungeon(state, int(move[1]))
        if head == "shot":
            reach = move[-1] if isinstance(move[-1], int) and not isinstance(move[-1], bool) else None
            statuses = tuple(str(v) for v in (move[1:-1] if reach is not None else move[1:]))
            return self._resolve_shot(state, statuses, reach)
        if state.phase == "ambushed":
            return self._resolve_ambush(state, str(move[1]))
        if head == "charm":
            return self._resolve_charm(state, bool(move[1]))
        return self._resolve_fight(state, str(move[1]))

    def _settle(self, state: State) -> State:
        """Drop war-card draws that cannot happen (a full hand, no cards left: FAQ A1)."""
        draws = state.draws
        while draws:
            seat, _ = draws[0]
            if len(state.hands[seat]) >= self.cfg.caps["hand"] or not (sum(state.war_deck) or sum(state.war_discard)):
                draws = draws[1:]
            else:
                break
        return state._replace(draws=draws)

    def _owe(self, state: State, seat: int, n: int) -> State:
        return state._replace(draws=(*state.draws, (seat, n))) if n > 0 else state

    def _gain_gold(self, state: State, seat: int, n: int) -> State:
        return state._replace(gold=_set(state.gold, seat, min(self.cfg.caps["gold"], state.gold[seat] + n)))

    def _board(self, state: State, remove: tuple[Square, ...] = (), add: tuple[tuple[int, int, int, str], ...] = ()
               ) -> tuple[tuple[int, int, int, str], ...]:
        return tuple(sorted([p for p in state.board if (p[0], p[1]) not in remove] + list(add)))

    def _to_pool(self, state: State, who: int, name: str) -> State:
        if who < 0:
            i = NEUTRAL.index(name)
            return state._replace(neutral_pool=_set(state.neutral_pool, i, state.neutral_pool[i] + 1))
        i = ARMY.index(name)
        return state._replace(pools=_set(state.pools, who, _set(state.pools[who], i, state.pools[who][i] + 1)))

    def _spoils(self, state: State, winner: int, who: int, name: str, knight: bool, events: list[Event]) -> State:
        """Spoils of the defeated piece (who, name) for seat `winner` (D-DW-1, D-DW-2)."""
        if winner < 0 or winner == who:
            return state
        if who < 0:
            gold, cards, crowns = int(self.cfg.neutral[name].get("spoils", {}).get("gold", 0)), 0, 0
        else:
            kind = self.kind(state, who, name)
            gold, cards, crowns = kind.spoils_gold, kind.spoils_cards, int(name == "king")
        if knight and (gold or cards or crowns):
            cards += self.cfg.pieces["knight"].extra_cards
        state = self._gain_gold(state, winner, gold)
        state = self._owe(state, winner, cards)
        if crowns:
            state = state._replace(kings_beaten=_set(state.kings_beaten, winner, state.kings_beaten[winner] + 1))
        events.append(Event("spoils", f"seat {winner + 1} takes the spoils: {gold}G, {cards} card(s)"
                            + (", a King Dragon's crystals" if crowns else "")))
        return state

    def _resolve_fight(self, state: State, result: str) -> tuple[State, list[Event]]:
        sr, sc, dr, dc, _ = state.pending[:5]
        occ = self.occupants(state)
        a_who, a_name = occ[(sr, sc)]
        d_who, d_name = occ[(dr, dc)]
        events = [Event("fight", f"melee at {square_name((dr, dc))}: {result}", {"result": result})]
        close = result.startswith("close") or result == "draw"
        a_attack, d_attack = (f.attack for f in self._fight_sides(state))
        for side, (who, name) in enumerate(((a_who, a_name), (d_who, d_name))):  # used disposables go
            used = list(self._disposables(state, who, name))
            for i in _kept(state.pending, side):
                used.remove(i)
            for i in used:
                state = self._drop_card(state, who, i, self._slot_of(state, who, i))
                events.append(Event("disposable", f"{self.cfg.war_cards[i].name_en} is used up and discarded"))
        revive: list[tuple[int, int]] = []
        state = state._replace(phase="turn", pending=())
        if result in ("win", "close-win"):
            state = state._replace(board=self._board(state, ((sr, sc), (dr, dc)), ((dr, dc, a_who, a_name),)),
                                   acted=(state.acted - {(sr, sc)}) | {(dr, dc)})
            state = self._spoils(state, a_who, d_who, d_name, a_name == "knight", events)
            state = self._fall(state, d_who, d_name, a_attack, revive, events)
            fallen, survivor = d_who if d_name == "king" else None, a_who if a_name == "king" else None
        elif result == "draw":
            state = state._replace(board=self._board(state, ((sr, sc), (dr, dc))), acted=state.acted - {(sr, sc)})
            state = self._spoils(state, a_who, d_who, d_name, a_name == "knight", events)
            state = self._fall(state, d_who, d_name, a_attack, revive, events)
            state = self._fall(state, a_who, a_name, d_attack, revive, events)
            fell = {s for s, n in ((a_who, a_name), (d_who, d_name)) if n == "king"}
            if fell:
                return self._game_over(state, fell, events)
            return self._revive_queue(self._settle(state), revive), events
        else:
            state = state._replace(board=self._board(state, ((sr, sc),)), acted=state.acted - {(sr, sc)})
            state = self._spoils(state, d_who, a_who, a_name, d_name == "knight", events)
            state = self._fall(state, a_who, a_name, d_attack, revive, events)
            fallen, survivor = a_who if a_name == "king" else None, d_who if d_name == "king" else None
        if survivor is not None and close:
            cap = self.cfg.caps["fatigue"]
            state = state._replace(fatigue=_set(state.fatigue, survivor, min(cap, state.fatigue[survivor] + 1)))
            events.append(Event("fatigue", f"seat {survivor + 1}'s King Dragon tires (D-DW-4)"))
        if fallen is not None:
            return self._game_over(state, {fallen}, events)
        if result in ("win", "close-win"):
            state = self._arrive(state, (dr, dc), a_who, events)
        return self._revive_queue(self._after_action(state, a_name), revive), events

    def _game_over(self, state: State, fell: set[int], events: list[Event]) -> tuple[State, list[Event]]:
        events.append(Event("end", f"King Dragon of seat {', '.join(str(s + 1) for s in sorted(fell))} "
                            "defeated: the game ends"))
        return state._replace(phase="over", fallen=state.fallen | fell, draws=(), pending=()), events

    def _arrive(self, state: State, square: Square, who: int, events: list[Event]) -> State:
        """What a square does to a piece that stops there (rule ④: after any fight)."""
        code = self.dungeon(state).terrain[square]
        cards = int(self.cfg.terrain[code].get("map_cards", 0))
        if cards:
            events.append(Event("map", "the treasure map gives a war card (stand-in)"))
            state = self._owe(state, who, cards)
        return state

    def _after_action(self, state: State, name: str) -> State:
        if name == "king":
            state = state._replace(king_step=1)
        return self._settle(state)

    def _apply_player(self, state: State, move: Move) -> tuple[State, list[Event]]:
        head = move[0]
        seat, cfg = state.seat, self.cfg
        events: list[Event] = []
        if head == "place":
            code, r, c = str(move[1]), int(move[2]), int(move[3])
            name = cfg.by_code[code]
            i = ARMY.index(name)
            state = state._replace(board=self._board(state, add=((r, c, seat, name),)),
                                   pools=_set(state.pools, seat, _set(state.pools[seat], i, state.pools[seat][i] - 1)))
            events.append(Event("place", f"seat {seat + 1} places its {name} on {square_name((r, c))}"))
            nxt, index = seat + 1, state.pending[0]
            if nxt >= state.players:
                nxt, index = 0, index + 1
            if index >= len(cfg.first_pieces):
                return self._start_turn(state._replace(round=1), 0, events), events
            return state._replace(seat=nxt, pending=(index,)), events
        if head == "end":
            return self._end_turn(state, events), events
        if head == "lay":
            return self._lay(state, bool(move[1]), events), events
        if head == "discard":
            mode, _, _, index = state.pending
            state = state._replace(dungeon_discard=_set(state.dungeon_discard, index, state.dungeon_discard[index] + 1))
            events.append(Event("discard", f"{cfg.layouts[index].id} is discarded"))
            return self._settle(state._replace(phase="turn", pending=())), events
        if head == "put":
            return self._put(state, (int(move[1]), int(move[2])), events, tuple(int(v) for v in move[3:])), events
        if head == "acid":
            return self._apply_acid(state, int(move[1]), events), events
        if head == "dispose":
            return self._apply_dispose(state, tuple(int(v) for v in move[1:]), events), events
        if head == "revive":
            return self._revive(state, (int(move[1]), int(move[2])), events), events
        if head == "trap" and state.phase == "mirror":
            mirror_seat, index = state.pending[5], int(move[1])
            state = self._drop_card(state, mirror_seat, index, "trap")
            events.append(Event("mirror", f"seat {mirror_seat + 1} calls {cfg.war_cards[index].name_en}: the shot "
                                "is reflected at its shooter"))
            return state._replace(phase="shot", pending=(*state.pending[:5], mirror_seat)), events
        if head == "pass" and state.phase == "mirror":
            return self._mirror_window(state, state.pending[5], events), events
        if head == "trap" and state.phase == "window":
            return self._call_trap(state, move, events), events
        if head == "pass" and state.phase == "window":
            return self._settle(self._window(state, (state.pending[0] + 1) % state.players)
                                if (state.pending[0] + 1) % state.players != state.seat
                                else state._replace(phase="turn", pending=())), events
        if head == "pass":
            sr, sc, dr, dc, dash, asked, *rest = state.pending
            state = state._replace(phase="turn", pending=())
            return self._travel(state, (sr, sc), ((dr, dc), *_pairs(rest)), bool(dash), events, asked), events
        if head == "ambush":
            return self._spring(state, int(move[1]), events), events
        if head == "go":
            sr, sc, dash, steps = state.pending
            path = self._path_of(state, (sr, sc), move[1:], "knight", steps)
            state = state._replace(phase="turn", pending=())
            return self._travel(state, (sr, sc), path, bool(dash), events), events
        # actions that cost AP
        if head in ("move", "warp"):
            src, dst = (int(move[1]), int(move[2])), (int(move[3]), int(move[4]))
            name = self.occupants(state)[src][1]
            cost = cfg.actions_a["move"] if name == "king" else cfg.action_cost
            state = state._replace(ap=state.ap - cost, acted=state.acted | {src})
            if head == "warp":
                state = self._gain_gold(state, seat, -self.kind(state, seat, name).warp_cost)
                events.append(Event("warp", f"cross warp to {square_name(dst)}"))
                return self._travel(state, src, (dst,), False, events), events
            limit = self.kind(state, seat, name).move.plus
            return self._travel(state, src, self._path_of(state, src, move[3:], name, limit), False, events), events
        if head == "shoot":
            src, index = (int(move[1]), int(move[2])), int(move[3])
            state = state._replace(ap=state.ap - cfg.action_cost, acted=state.acted | {src}, phase="shot",
                                   pending=(src[0], src[1], index, int(move[4]), int(move[5])))
            aim = square_name((int(move[4]), int(move[5])))
            events.append(Event("shoot", f"{cfg.war_cards[index].name_en} is fired at {aim}"))
            if "acid" in cfg.war_cards[index].effects:  # acid first (digest §6), on the aimed piece
                victim = self.occupants(state)[(int(move[4]), int(move[5]))]
                state, waiting = self._acid(state, seat, victim, 1, events)
                if waiting:
                    return waiting, events
            return self._mirror_window(state, seat, events), events
        if head == "use" and len(move) > 4:  # a targeted use: brainwashing
            src, index = (int(move[1]), int(move[2])), int(move[3])
            state = state._replace(ap=state.ap - cfg.action_cost, acted=state.acted | {src}, phase="charm",
                                   pending=(src[0], src[1], index, *(int(v) for v in move[4:])))
            aimed = square_name((int(move[4]), int(move[5])))
            events.append(Event("use", f"{cfg.war_cards[index].name_en} on {aimed}"))
            return state, events
        if head == "use":
            src, index = (int(move[1]), int(move[2])), int(move[3])
            card = cfg.war_cards[index]
            state = state._replace(ap=state.ap - cfg.action_cost, acted=state.acted | {src})
            gain = int(card.effects.get("ap", 0))
            state = state._replace(ap=min(cfg.caps["ap"], state.ap + gain))
            events.append(Event("use", f"{card.name_en}: +{gain} AP"))
            if "disposable" in card.categories:
                state = self._drop_card(state, seat, index, self._slot_of(state, seat, index))
                events.append(Event("disposable", f"{card.name_en} is used up and discarded"))
            return self._settle(state), events
        if head in ("roll", "dash"):
            src = (int(move[1]), int(move[2]))
            state = state._replace(ap=state.ap - cfg.action_cost, acted=state.acted | {src}, phase="roll",
                                   pending=(src[0], src[1], int(head == "dash")))
            return state, events
        if head == "make":
            src = (int(move[1]), int(move[2]))
            state = state._replace(ap=state.ap - cfg.action_cost, acted=state.acted | {src}, phase="build",
                                   pending=(0, int(move[3]), int(move[4])))
            events.append(Event("make", f"Dungeon Make at card {int(move[3]) + 1}.{int(move[4]) + 1}"))
            return state, events
        if head == "reverse":  # flip (180°, D-DW-10) a dungeon card with no piece on it
            src, spot = (int(move[1]), int(move[2])), (int(move[3]), int(move[4]))
            cards = tuple((cr, cc, i, not f) if (cr, cc) == spot else (cr, cc, i, f) for cr, cc, i, f in state.cards)
            events.append(Event("reverse", f"Dungeon Reverse: card {spot[0] + 1}.{spot[1] + 1} is turned round"))
            return self._settle(state._replace(ap=state.ap - cfg.action_cost, acted=state.acted | {src},
                                               cards=cards)), events
        if head in ("block", "fence"):
            src, target = (int(move[1]), int(move[2])), (int(move[3]), int(move[4]))
            state = state._replace(ap=state.ap - cfg.action_cost, acted=state.acted | {src})
            state = self._put_neutral(state, target, str(head), events, tuple(int(v) for v in move[5:]))
            events.append(Event(str(head), f"a {head} on {square_name(target)}"))
            return self._settle(state), events
        king = next((r, c) for r, c, o, k in state.board if o == seat and k == "king")
        if head == "summon":
            name, r, c = str(move[1]), int(move[2]), int(move[3])
            kind = self.kind(state, seat, name)
            i = ARMY.index(name)
            if not state.summoned:
                state = state._replace(ap=state.ap - cfg.actions_a["summon"], acted=state.acted | {king}, king_step=1)
            if not state.pools[seat][i]:  # D-DW-22: the one of its kind the player picked is re-placed
                taken = (int(move[4]), int(move[5]))
                state = self._to_pool(state._replace(board=self._board(state, (taken,)),
                                                     acted=state.acted - {taken}), seat, name)
                events.append(Event("reuse", f"no unused {name}: the one on {square_name(taken)} is taken (D-DW-22)"))
            state = state._replace(board=self._board(state, add=((r, c, seat, name),)),
                                   pools=_set(state.pools, seat, _set(state.pools[seat], i, state.pools[seat][i] - 1)),
                                   summoned=state.summoned | {name}, acted=state.acted | {(r, c)})
            state = self._gain_gold(state, seat, -kind.cost)
            events.append(Event("summon", f"a {name} is summoned on {square_name((r, c))} for {kind.cost}G"))
            return state, events
        if head == "alchemy":
            state = state._replace(ap=state.ap - cfg.actions_a["alchemy"], acted=state.acted | {king}, king_step=1)
            events.append(Event("alchemy", f"alchemy: +{cfg.alchemy_gold}G"))
            return self._gain_gold(state, seat, cfg.alchemy_gold), events
        if head == "remake":
            state = state._replace(ap=state.ap - cfg.actions_a["remake"], acted=state.acted | {king}, king_step=1,
                                   phase="build", pending=(1, int(move[1]), int(move[2])))
            events.append(Event("remake", f"Dungeon Remake of card {int(move[1]) + 1}.{int(move[2]) + 1}"))
            return state, events
        if head in ("equip", "unequip"):
            return self._place_card(state, king, str(head), int(move[1]), str(move[2]), events), events
        # (b) actions end the turn
        state = state._replace(acted=state.acted | {king}, king_step=2)
        if head == "draw":
            state = self._owe(state._replace(ap=state.ap - cfg.actions_b["draw"]), seat, 1)
            events.append(Event("draw-action", "the King Dragon draws a war card"))
        elif head == "change":
            hand = list(state.hands[seat])
            discard = state.war_discard
            for drop in (int(v) for v in move[1:]):
                hand.remove(drop)
                discard = _set(discard, drop, discard[drop] + 1)
            state = state._replace(ap=state.ap - cfg.actions_b["change"], hands=_set(state.hands, seat, tuple(hand)),
                                   war_discard=discard)
            state = self._owe(state, seat, len(move) - 1)
            events.append(Event("change", "card change: " + ", ".join(cfg.war_cards[int(i)].name_en for i in move[1:])
                                + f" discarded, {len(move) - 1} drawn"))
        else:  # element
            state = state._replace(ap=state.ap - cfg.actions_b["element"],
                                   element=_set(state.element, seat, int(move[1])))
            events.append(Event("element", f"slimes become {cfg.cycle[int(move[1])]}"))
            state = self._drown(state, seat, events)
        return self._end_turn(self._settle(state), events), events

    def _spring(self, state: State, index: int, events: list[Event]) -> State:
        """An ambush (digest §7, D-DW-20): the mover arrives, then fights the trap's BP as the
        attacker; the trap is revealed and discarded; no spoils either way."""
        sr, sc, dr, dc, dash, seat, *rest = state.pending
        who, name = self.occupants(state)[(sr, sc)]
        state = self._drop_card(state, seat, index, "trap")
        state = state._replace(board=self._board(state, ((sr, sc),), ((dr, dc, who, name),)),
                               acted=(state.acted - {(sr, sc)}) | {(dr, dc)})
        events.append(Event("ambush", f"seat {seat + 1} springs {self.cfg.war_cards[index].name_en} on "
                            f"{square_name((dr, dc))}"))
        state = state._replace(phase="ambushed", pending=(sr, sc, dr, dc, dash, index, *rest))
        odds = self.ambush_odds(state)
        if odds.by_flags:
            events.append(Event("flags", f"victory flags decide the ambush: the {odds.by_flags} wins"))
            done, more = self._resolve_ambush(state, "win" if odds.by_flags == "attacker" else "loss")
            events.extend(more)
            return done
        return state

    def _resolve_ambush(self, state: State, result: str) -> tuple[State, list[Event]]:
        _, _, dr, dc, dash, index, *rest = state.pending
        who, name = self.occupants(state)[(dr, dc)]
        element = frozenset({self.cfg.war_cards[index].element} - {""})
        events = [Event("fight", f"ambush at {square_name((dr, dc))}: {result}", {"result": result})]
        state = state._replace(phase="turn", pending=())
        if result not in ("win", "close-win"):
            revive: list[tuple[int, int]] = []
            state = self._fall(state._replace(board=self._board(state, ((dr, dc),)), acted=state.acted - {(dr, dc)}),
                               who, name, element, revive, events)
            events.append(Event("ambushed", f"the {name} falls to the ambush (no spoils)"))
            if name == "king":
                return self._game_over(state, {who}, events)
            return self._revive_queue(self._settle(state), revive), events
        if name == "king" and result == "close-win":
            cap = self.cfg.caps["fatigue"]
            state = state._replace(fatigue=_set(state.fatigue, who, min(cap, state.fatigue[who] + 1)))
            events.append(Event("fatigue", f"seat {who + 1}'s King Dragon tires (D-DW-4)"))
        kind = self.kind(state, who, name)
        if rest and not self.may_stand(kind, self.dungeon(state).terrain[(dr, dc)], name == "king"):
            # 緊急移動 (D-DW-20): it may not stop here, so it finishes its declared path
            events.append(Event("emergency", f"the {name} may not stop on {square_name((dr, dc))}: it goes on "
                                "along its declared path"))
            return self._travel(state, (dr, dc), tuple(_pairs(rest)), bool(dash), events), events
        state = self._arrive(state, (dr, dc), who, events)
        return self._after_action(state, name), events

    def _slot_of(self, state: State, seat: int, index: int) -> str:
        return next(slot for slot, i in gear_of(state, seat) if i == index)

    def _drop_card(self, state: State, seat: int, index: int, slot: str) -> State:
        gear = list(gear_of(state, seat))
        gear.remove((slot, index))
        return state._replace(equip=_set(state.equip, seat, tuple(gear)),
                              war_discard=_set(state.war_discard, index, state.war_discard[index] + 1))

    def _place_card(self, state: State, king: Square, head: str, index: int, slot: str,
                    events: list[Event]) -> State:
        """One card of the Card placement action; the first pays its AP (D-DW-23: a placed
        card may be discarded; a dragon without its card returns to the unused pool)."""
        seat, cfg = state.seat, self.cfg
        if state.king_step < 3:
            state = state._replace(ap=state.ap - cfg.actions_b["place"], acted=state.acted | {king}, king_step=3)
        card = cfg.war_cards[index]
        if head == "unequip":
            state = self._drop_card(state, seat, index, slot)
            events.append(Event("unequip", f"{card.name_en} is discarded from the {slot} slot"))
            for needs in {k.needs_card for k in cfg.pieces.values() if k.needs_card}:
                if needs == slot and not any(s == slot for s, _ in gear_of(state, seat)):
                    for r, c, o, k in state.board:
                        if o == seat and cfg.pieces[k].needs_card == slot:
                            state = self._to_pool(state._replace(board=self._board(state, ((r, c),))), seat, k)
                            events.append(Event("unsummon", f"the {k} on {square_name((r, c))} leaves with its "
                                                f"card (D-DW-23)"))
            return self._settle(state)
        hand = list(state.hands[seat])
        hand.remove(index)
        gear = tuple(sorted((*gear_of(state, seat), (slot, index))))
        state = state._replace(hands=_set(state.hands, seat, tuple(hand)), equip=_set(state.equip, seat, gear),
                               king_step=4)
        hidden = slot == "trap"
        events.append(Event("equip", "a card is placed face down in a trap slot" if hidden
                            else f"{card.name_en} is placed in the {slot} slot"))
        return self._settle(state)

    def _drown(self, state: State, seat: int, events: list[Event]) -> State:
        terrain = self.dungeon(state).terrain
        kind = self.kind(state, seat, "slime")
        lost = tuple((r, c) for r, c, o, k in state.board
                     if o == seat and k == "slime" and not self.may_stand(kind, terrain[(r, c)], False))
        for square in lost:
            state = self._to_pool(state._replace(board=self._board(state, (square,))), seat, "slime")
            events.append(Event("drown", f"the slime on {square_name(square)} drowns (D-DW-8)"))
        return state

    # --- traps without a condition: the windows of D-DW-21 ---------------------------------
    def _trap_calls(self, state: State, seat: int) -> list[Move]:
        """Seat's face-down unconditional traps and where each may go (Rockfall `place:block`:
        any empty square; Frenzy Spores `frenzy`: an enemy slime)."""
        moves: list[Move] = []
        for i in sorted({i for slot, i in gear_of(state, seat) if slot == "trap"}):
            fx = self.cfg.war_cards[i].effects
            if "place" in fx and fx["place"] in NEUTRAL and self._neutral_available(state, fx["place"]):
                moves += [("trap", i, r, c, *src) for r, c in self._empty_squares(state, None)
                          for src in self._sources(state, -1, fx["place"])]
            elif "frenzy" in fx:
                moves += [("trap", i, r, c, *src) for r, c in self._frenzy_targets(state, seat)
                          for src in self._sources(state, -1, "tentacle")]
        return moves

    def _window(self, state: State, first: int) -> State:
        """Open the trap window at seat `first` (D-DW-21: after every action and at each change
        of turn, every seat in seat order from the active player), skipping seats with no trap
        to call; the window closes when the order comes back to the active player."""
        n = state.players
        for k in range((first - state.seat) % n, n):
            seat = (state.seat + k) % n
            if self._trap_calls(state, seat):
                return state._replace(phase="window", pending=(seat,))
        return state._replace(phase="turn", pending=())

    def _call_trap(self, state: State, move: Move, events: list[Event]) -> State:
        seat, index, square = state.pending[0], int(move[1]), (int(move[2]), int(move[3]))
        card = self.cfg.war_cards[index]
        state = self._drop_card(state, seat, index, "trap")
        events.append(Event("trap", f"seat {seat + 1} calls its trap: {card.name_en} on {square_name(square)}"))
        source = tuple(int(v) for v in move[4:])
        if "frenzy" in card.effects:
            state = self._frenzy(state, square, events, source)
        else:
            state = self._put_neutral(state, square, card.effects["place"], events, source)
        return self._settle(self._window(state, seat))  # the same seat may call its other trap

    def _mirrors(self, state: State, seat: int) -> list[int]:
        """Seat's face-down Mirror Shield-like traps that may answer the declared shot: its card
        has the category the trap names (`mirror:magic`), it is a straight-line shot, and it
        would hit one of seat's pieces (digest §7 発動条件あり)."""
        sr, sc, index, ar, ac = state.pending[:5]
        card = self.cfg.war_cards[index]
        if self.shot_spec(index)[2] != "line" or "breath" in card.effects:
            return []
        occ = self.occupants(state)
        if not any(occ[sq][0] == seat for sq in self.shot_targets(state, (sr, sc), index, (ar, ac))):
            return []
        return sorted({i for slot, i in gear_of(state, seat) if slot == "trap"
                       and self.cfg.war_cards[i].effects.get("mirror") in card.categories})

    def _mirror_window(self, state: State, after: int, events: list[Event]) -> State:
        """Ask each seat after `after` (seat order from the shooter) that could reflect the shot."""
        n = state.players
        for k in range((after - state.seat) % n + 1, n):
            seat = (state.seat + k) % n
            if self._mirrors(state, seat):
                return state._replace(phase="mirror", pending=(*state.pending[:5], seat))
        return self._targets_acid(state._replace(phase="shot", pending=state.pending[:5]), 0, events)

    def _targets_acid(self, state: State, start: int, events: list[Event]) -> State:
        """Acid comes first in a shot too (digest §6): each enemy target with acid (the water
        slime), in target order from `start`, melts one of the shooter's worn cards, never the
        card being fired (acid mode 3 + the target's number)."""
        sr, sc, index = state.pending[:3]
        occ = self.occupants(state)
        shooter = occ[(sr, sc)]
        for k, square in enumerate(self.targets_in_play(state)):
            who, name = occ[square]
            if k < start or who < 0 or who == shooter[0] or not self.kind(state, who, name).acid:
                continue
            state, waiting = self._acid(state, who, shooter, 3 + k, events, spare=index)
            if waiting:
                return waiting
        return state

    def _ambushes(self, state: State, seat: int, square: Square) -> list[int]:
        """Seat's face-down ambush traps that fire on `square` (stand-in trigger: an empty
        square of the card's terrain code)."""
        code = self.dungeon(state).terrain[square]
        return sorted({i for slot, i in gear_of(state, seat)
                       if slot == "trap" and self.cfg.war_cards[i].effects.get("ambush") == code})

    def _next_ambusher(self, state: State, mover: int, square: Square, after: int) -> int | None:
        """The next seat (in seat order from the active player, D-DW-21) that could spring an
        ambush on `square`, after seat `after`."""
        n = state.players
        for k in range(1, n):
            seat = (state.seat + k) % n
            if (seat - state.seat) % n <= (after - state.seat) % n and after != state.seat:
                continue
            if seat != mover and self._ambushes(state, seat, square):
                return seat
        return None

    def ambush_odds(self, state: State) -> Any:
        dr, dc, dash, index = state.pending[2], state.pending[3], state.pending[4], state.pending[5]
        who, name = self.occupants(state)[(dr, dc)]
        mover = self.fighter(state, (dr, dc), who, name, bool(dash), (dr, dc))
        return melee(mover, Fighter(self.cfg.war_cards[index].bp), self.cfg.die, self.cfg.support,
                     self.cfg.fatigue_gap)

    # --- acid, immortality, brainwashing -------------------------------------------------------
    def _start_melee(self, state: State, side: int, events: list[Event]) -> State:
        """Melee, step 1: acid from either side (attacker first), then victory flags or the roll."""
        sr, sc, dr, dc, _ = state.pending
        occ = self.occupants(state)
        for k, (user, victim) in enumerate((((sr, sc), (dr, dc)), ((dr, dc), (sr, sc)))):
            u_who, u_name = occ[user]
            if k < side or u_who < 0 or not self.kind(state, u_who, u_name).acid:
                continue
            state, waiting = self._acid(state, u_who, occ[victim], 2 * k, events)
            if waiting:
                return waiting
        return self._choose_disposables(state, 0, events)

    def _disposables(self, state: State, who: int, name: str) -> tuple[int, ...]:
        """The worn disposable cards that add to a fight (not those used by an action), sorted."""
        if who < 0:
            return ()
        cfg = self.cfg
        slots = cfg.wearers.get(name, ())
        return tuple(sorted(i for slot, i in gear_of(state, who) if slot in slots
                            and "disposable" in cfg.war_cards[i].categories
                            and not (cfg.action_effects | {"dragon"}) & cfg.war_cards[i].effects.keys()))

    def _choose_disposables(self, state: State, side: int, events: list[Event]) -> State:
        """Melee, step 2: the attacker, then the defender, decides for each worn disposable card
        whether to use it (it adds, then is discarded) or keep it (it adds nothing this fight and
        stays) (digest §6, D-DW-32). pending of 'dispose': the fight's numbers, kept cards, side,
        chooser; kept cards are noted 2 x card + side."""
        occ = self.occupants(state)
        for k in range(side, 2):
            who, name = occ[(state.pending[2 * k], state.pending[2 * k + 1])]
            if self._disposables(state, who, name):
                return state._replace(phase="dispose", pending=(*state.pending, k, who))
        odds = self.fight_odds(state)
        if odds.by_flags:
            events.append(Event("flags", f"victory flags decide: the {odds.by_flags} wins"))
            done, more = self._resolve_fight(state._replace(phase="fight"),
                                             "win" if odds.by_flags == "attacker" else "loss")
            return self._note(done, more, events)
        return state._replace(phase="fight")

    def _dispose_moves(self, state: State) -> list[Move]:
        """('dispose', cards used...): every choice of which worn disposables to use."""
        side = state.pending[-2]
        occ = self.occupants(state)
        cards = self._disposables(state, *occ[(state.pending[2 * side], state.pending[2 * side + 1])])
        return sorted({("dispose", *chosen) for n in range(len(cards) + 1)
                       for chosen in itertools.combinations(cards, n)}, key=lambda m: (len(m), m))

    def _apply_dispose(self, state: State, used: tuple[int, ...], events: list[Event]) -> State:
        *fight, side, who = state.pending
        occ = self.occupants(state)
        kept = list(self._disposables(state, *occ[(fight[2 * side], fight[2 * side + 1])]))
        for i in used:
            kept.remove(i)
        names = ", ".join(self.cfg.war_cards[i].name_en for i in used) or "none"
        events.append(Event("dispose", f"seat {who + 1} uses {names}"
                            + (f" and keeps {', '.join(self.cfg.war_cards[i].name_en for i in kept)}" if kept else "")))
        state = state._replace(phase="fight", pending=(*fight, *(2 * i + side for i in kept)))
        return self._choose_disposables(state, side + 1, events)

    def _acid_cards(self, state: State, who: int, name: str) -> list[tuple[str, int]]:
        """The victim's cards acid may melt: a shield if it wears one, else any it wears."""
        if who < 0 or name not in self.cfg.acid["victims"]:
            return []
        worn = [(slot, i) for slot, i in gear_of(state, who) if slot in self.cfg.wearers.get(name, ())]
        shields = [(slot, i) for slot, i in worn if slot == self.cfg.acid["melts_first"]]
        return sorted(set(shields or worn))

    def _acid(self, state: State, user: int, victim: tuple[int, str], mode: int,
              events: list[Event], spare: int = -1) -> tuple[State, State | None]:
        """Acid (酸): melt one of the victim's cards (never card `spare`, the one being fired);
        the acid's owner chooses unless a shield melts first or only one card is worn.
        (state, a state waiting for the choice or None)."""
        cards = [c for c in self._acid_cards(state, *victim) if c[1] != spare]
        if len({i for _, i in cards}) > 1:
            return state, state._replace(phase="acid", pending=(mode, *state.pending[:5], user))
        if cards:
            state = self._melt(state, victim[0], cards[0], events)
        return state, None

    def _melt(self, state: State, who: int, card: tuple[str, int], events: list[Event]) -> State:
        events.append(Event("acid", f"acid melts seat {who + 1}'s {self.cfg.war_cards[card[1]].name_en}"))
        return self._drop_card(state, who, card[1], card[0])

    def _acid_victim(self, state: State) -> Square:
        """pending (mode, 5 numbers, chooser): mode 0 the attacker's acid on the defender, 2 the
        defender's on the attacker (melee: sr, sc, dr, dc, dash); 1 a shot's on its aim; 3 + k
        the shot's k-th target's acid on the shooter (sr, sc, card, ar, ac)."""
        p = state.pending
        if p[0] >= 3:
            return (p[1], p[2])
        return ((p[3], p[4]) if p[0] == 0 else (p[1], p[2])) if p[0] != 1 else (p[4], p[5])

    def _acid_choices(self, state: State) -> list[tuple[str, int]]:
        """The cards the pending acid may melt (a target's acid spares the card being fired)."""
        victim = self.occupants(state)[self._acid_victim(state)]
        spare = state.pending[3] if state.pending[0] >= 3 else -1
        return [c for c in self._acid_cards(state, *victim) if c[1] != spare]

    def _apply_acid(self, state: State, index: int, events: list[Event]) -> State:
        mode, chooser = state.pending[0], state.pending[-1]
        victim = self.occupants(state)[self._acid_victim(state)]
        card = next(c for c in self._acid_choices(state) if c[1] == index)
        state = self._melt(state, victim[0], card, events)
        state = state._replace(pending=state.pending[1:6])
        if mode >= 3:
            return self._targets_acid(state._replace(phase="shot"), mode - 2, events)
        if mode == 1:
            return self._mirror_window(state._replace(phase="shot"), chooser, events)
        return self._start_melee(state, mode // 2 + 1, events)

    def _graves(self, state: State, seat: int, name: str) -> list[Square]:
        """Empty squares of the immortal respawn terrain the piece may stand on (D-DW-16)."""
        code = self.cfg.immortal["respawn"]
        kind = self.kind(state, seat, name)
        return [sq for sq in self._empty_squares(state, kind, name == "king")
                if self.dungeon(state).terrain[sq] == code]

    def _fall(self, state: State, who: int, name: str, by: frozenset[str], revive: list[tuple[int, int]],
              events: list[Event]) -> State:
        """A defeated army piece goes to the unused pool; an immortal one not beaten by a fire
        attack (the content's `not_against`) is queued to come back on a graveyard (不死身)."""
        kind = self.kind(state, who, name) if who >= 0 else None
        immortal = kind is not None and kind.immortal
        state = self._to_pool(state, who, name)
        if kind is not None and kind.needs_card:  # 「敗北すると、配置した【ドラゴン】のカードが捨札へ」
            for slot, i in [g for g in gear_of(state, who) if g[0] == kind.needs_card]:
                state = self._drop_card(state, who, i, slot)
                events.append(Event("discard", f"the defeated {name}'s {self.cfg.war_cards[i].name_en} card is "
                                    "discarded"))
        if immortal:
            if by & set(self.cfg.immortal["not_against"]):
                events.append(Event("immortal", f"the {name} fell to a fire attack: it cannot come back"))
            elif self._graves(state, who, name):
                revive.append((who, ARMY.index(name)))
            else:
                events.append(Event("immortal", f"no empty graveyard: the {name} stays down (D-DW-16)"))
        return state

    def _revive_queue(self, state: State, revive: list[tuple[int, int]]) -> State:
        if not revive or state.phase == "over":
            return state
        return state._replace(phase="revive", pending=tuple(v for pair in revive for v in pair))

    def _revive(self, state: State, square: Square, events: list[Event]) -> State:
        """An immortal piece comes back (復活は移動: counts as a move, costs no AP)."""
        who, i = state.pending[0], state.pending[1]
        name = ARMY[i]
        state = state._replace(board=self._board(state, add=((square[0], square[1], who, name),)),
                               pools=_set(state.pools, who, _set(state.pools[who], i, state.pools[who][i] - 1)))
        if who == state.seat:
            state = state._replace(acted=state.acted | {square})
        events.append(Event("revive", f"seat {who + 1}'s immortal {name} comes back on {square_name(square)}"))
        rest = state.pending[2:]
        if rest and self._graves(state, rest[0], ARMY[rest[1]]):
            return state._replace(pending=rest)
        return self._settle(state._replace(phase="turn", pending=()))

    def _charm_spec(self, index: int) -> tuple[int, int, tuple[int, int], frozenset[str]]:
        """(dice, at least, range, kinds) of a brainwash card: `brainwash:2:7 reach:1-1 kinds:a/b`."""
        fx = self.cfg.war_cards[index].effects
        dice, need = (int(v) for v in fx["brainwash"].split(":"))
        low, high = (int(v) for v in fx.get("reach", "1-1").split("-"))
        return dice, need, (low, high), frozenset(fx.get("kinds", "").split("/"))

    def _charm_targets(self, state: State, src: Square, index: int) -> list[Square]:
        _, _, (low, high), kinds = self._charm_spec(index)
        seat = self.occupants(state)[src][0]
        return [(r, c) for r, c, o, k in state.board if o >= 0 and o != seat and k in kinds
                and low <= manhattan(src, (r, c)) <= high]

    def charm_odds(self, state: State) -> Fraction:
        dice, need, _, _ = self._charm_spec(state.pending[2])
        return sum((p for total, p in _dice(dice, self.cfg.die) if total >= need), Fraction(0))

    def _resolve_charm(self, state: State, success: bool) -> tuple[State, list[Event]]:
        """Brainwashing (洗脳): the enemy piece goes back to its owner's unused pieces and one of
        the charmer's of the same kind takes its square, with the charmer's stats; with none
        unused, the charmer's first of that kind on the board (square order) is moved (D-DW-22)."""
        sr, sc, index, tr, tc, *source = state.pending
        seat = state.seat
        card = self.cfg.war_cards[index]
        events = [Event("charm", f"{card.name_en} on {square_name((tr, tc))}: " + ("it works" if success
                                                                                else "it fails"))]
        state = state._replace(phase="turn", pending=())
        if "disposable" in card.categories:
            state = self._drop_card(state, seat, index, self._slot_of(state, seat, index))
            events.append(Event("disposable", f"{card.name_en} is used up and discarded"))
        if success:
            who, name = self.occupants(state)[(tr, tc)]
            i = ARMY.index(name)
            state = self._to_pool(state._replace(board=self._board(state, ((tr, tc),))), who, name)
            if not state.pools[seat][i]:
                taken = (source[0], source[1])
                state = self._to_pool(state._replace(board=self._board(state, (taken,)),
                                                     acted=state.acted - {taken}), seat, name)
                events.append(Event("reuse", f"no unused {name}: the one on {square_name(taken)} is taken "
                                    "(D-DW-22)"))
            state = state._replace(board=self._board(state, add=((tr, tc, seat, name),)),
                                   pools=_set(state.pools, seat, _set(state.pools[seat], i, state.pools[seat][i] - 1)),
                                   acted=state.acted | {(tr, tc)})
            events.append(Event("brainwash", f"seat {who + 1}'s {name} on {square_name((tr, tc))} is replaced by "
                                f"seat {seat + 1}'s"))
            if not self.may_stand(self.kind(state, seat, name), self.dungeon(state).terrain[(tr, tc)], False):
                state = self._to_pool(state._replace(board=self._board(state, ((tr, tc),))), seat, name)
                events.append(Event("drown", f"the {name} on {square_name((tr, tc))} drowns (D-DW-8)"))
        return self._settle(state), events

    def _travel(self, state: State, src: Square, path: tuple[Square, ...], dash: bool, events: list[Event],
                asked: int | None = None) -> State:
        """Move the piece on `src` along `path` (the squares it enters, its end last): an ambush
        window opens on the first empty square entered that an enemy's trap names (digest §7;
        D-DW-21), before the piece goes on."""
        occ = self.occupants(state)
        for i, sq in enumerate(path):
            if sq in occ or state.phase != "turn":
                continue
            after = asked if i == 0 and asked is not None else state.seat
            seat = self._next_ambusher(state, occ[src][0], sq, after)
            if seat is not None:  # an ambush window before the piece goes on
                return state._replace(phase="ambush", pending=(src[0], src[1], sq[0], sq[1], int(dash), seat,
                                                               *_flat(path[i + 1:])))
        return self._move_to(state, src, path[-1] if path else src, dash, events)

    def _move_to(self, state: State, src: Square, dst: Square, dash: bool, events: list[Event]) -> State:
        occ = self.occupants(state)
        who, name = occ[src]
        events.append(Event("move", f"{name} {square_name(src)}-{square_name(dst)}"))
        there = occ.get(dst)
        acted = (state.acted - {src}) | {dst}
        if there is not None and dst != src:
            t_who, t_name = there
            if t_who >= 0 or t_name == "tentacle":  # melee (digest §6)
                state = state._replace(pending=(src[0], src[1], dst[0], dst[1], int(dash)))
                return self._start_melee(state, 0, events)
            state = self._to_pool(state, -1, t_name)
            if t_name in ("block", "fence"):
                events.append(Event("break", f"the {t_name} is broken"))
            elif t_name == "chest":
                state = self._owe(state, who, int(self.cfg.neutral["chest"].get("cards", 0)))
                events.append(Event("chest", "a treasure chest: war cards"))
            elif t_name == "coin":
                state = self._gain_gold(state, who, int(self.cfg.neutral["coin"].get("gold", 0)))
                events.append(Event("coin", "a gold coin"))
        state = state._replace(board=self._board(state, (src, dst), ((dst[0], dst[1], who, name),)), acted=acted)
        state = self._arrive(state, dst, who, events)
        return self._after_action(state, name)

    def _path_of(self, state: State, src: Square, rest: tuple[Any, ...], name: str, limit: int) -> tuple[Square, ...]:
        """The path of a move written `(dr, dc)` (the first shortest path) or `(dr, dc, r1, c1, ...)`."""
        if len(rest) > 2:
            return tuple(_pairs(rest[2:]))
        dst = (int(rest[0]), int(rest[1]))
        kind = self.kind(state, state.seat, name)
        return self.reach_paths(state, src, kind, state.seat, limit)[dst]

    def declared_path_ok(self, state: State, move: Move) -> bool:
        """A move with a declared path: its destination is legal and the path is one it may take."""
        if move[0] == "go" and state.phase == "go" and len(move) > 3:
            sr, sc, _, steps = state.pending
            base: Move = move[:3]
            src, name, limit, path = (sr, sc), "knight", steps, tuple(_pairs(move[3:]))
        elif move[0] == "move" and state.phase == "turn" and len(move) > 5:
            base, src = move[:5], (int(move[1]), int(move[2]))
            piece = self.occupants(state).get(src)
            if piece is None:
                return False
            name, path = piece[1], tuple(_pairs(move[5:]))
            limit = self.kind(state, state.seat, name).move.plus
        else:
            return False
        if base not in self.legal_moves(state) or path[-1] != (int(base[-2]), int(base[-1])):
            return False
        return self.path_ok(state, src, path, self.kind(state, state.seat, name), state.seat, limit)

    @staticmethod
    def _note(state: State, more: list[Event], events: list[Event]) -> State:
        events.extend(more)
        return state

    def _start_turn(self, state: State, seat: int, events: list[Event]) -> State:
        cfg = self.cfg
        kind = self.kind(state, seat, "slime")
        terrain = self.dungeon(state).terrain
        slimes = [(r, c) for r, c, o, k in state.board if o == seat and k == "slime"]
        ap = cfg.ap + sum(kind.plant_ap for sq in slimes if cfg.terrain[terrain[sq]].get("plant"))
        state = state._replace(phase="turn", seat=seat, ap=min(ap, cfg.caps["ap"]), king_step=0,
                               summoned=frozenset(), acted=frozenset(), pending=())
        state = self._gain_gold(state, seat, kind.gold_per_turn * len(slimes))
        events.append(Event("turn", f"round {state.round}: seat {seat + 1} takes the die at AP {state.ap}"))
        return self._settle(self._window(state, seat))

    def _end_turn(self, state: State, events: list[Event]) -> State:
        nxt = (state.seat + 1) % state.players
        if nxt == 0:
            if state.round >= self.cfg.round_cap:
                events.append(Event("end", "the round cap is reached: everyone loses (stand-in for 3 hours)"))
                return state._replace(phase="over", draws=(), pending=(), summoned=frozenset())
            state = state._replace(round=state.round + 1)
        return self._start_turn(state, nxt, events)

    # --- building and events -----------------------------------------------------------
    def _drawn_dungeon(self, state: State, index: int) -> tuple[State, list[Event]]:
        deck, discard = state.dungeon_deck, state.dungeon_discard
        events: list[Event] = []
        if not sum(deck):
            deck, discard = discard, (0,) * len(discard)
            events.append(Event("reshuffle", "the dungeon discards become the deck"))
        state = state._replace(dungeon_deck=_set(deck, index, deck[index] - 1), dungeon_discard=discard)
        layout = self.cfg.layouts[index]
        mode, cr, cc = state.pending
        if not layout.event:
            events.append(Event("dungeon", f"{layout.id} is drawn"))
            return state._replace(phase="lay", pending=(mode, cr, cc, index)), events
        state = state._replace(dungeon_discard=_set(state.dungeon_discard, index, state.dungeon_discard[index] + 1))
        events.append(Event("event", f"event: {layout.id} (stand-in)"))
        effect = self.cfg.events[layout.id]
        if "gold" in effect:
            for s in range(state.players):
                state = self._gain_gold(state, s, int(effect["gold"]))
        elif "place" in effect or "frenzy" in effect:
            put = str(effect.get("place", "tentacle"))
            if effect.get("square"):
                spots = [sq for sq in self._empty_squares(state, None)
                         if self.dungeon(state).terrain[sq] == effect["square"]]
                for sq in spots[:state.neutral_pool[NEUTRAL.index(put)]]:
                    state = self._put_neutral(state, sq, put)
                if spots:
                    return self._rebuild(state), events
            state = state._replace(phase="event", pending=(mode, cr, cc, index))
            return state, events
        return self._rebuild(state), events

    def _rebuild(self, state: State) -> State:
        """After an event: Remake fails if its card now holds a piece; otherwise draw again."""
        mode, cr, cc = state.pending[:3]
        if mode == 1 and (cr, cc) not in self._remakeable(state):
            return self._settle(state._replace(phase="turn", pending=()))
        if not (sum(state.dungeon_deck) or sum(state.dungeon_discard)):
            return self._settle(state._replace(phase="turn", pending=()))
        return state._replace(phase="build", pending=(mode, cr, cc))

    def _event_targets(self, state: State) -> list[Square]:
        effect = self.cfg.events[self.cfg.layouts[state.pending[3]].id]
        if "frenzy" in effect:
            return self._frenzy_targets(state, -1)
        put = str(effect.get("place"))
        return self._empty_squares(state, None) if self._neutral_available(state, put) else []

    def _neutral_available(self, state: State, name: str) -> bool:
        """An unused neutral piece, or one on the board to take (D-DW-22: any one)."""
        return bool(state.neutral_pool[NEUTRAL.index(name)]) or any(o < 0 and k == name for *_, o, k in state.board)

    def _frenzy_targets(self, state: State, seat: int) -> list[Square]:
        """Slimes that may become a tentacle creature (狂暴化): an event's any slime (seat -1),
        a trap's enemy slimes only."""
        if not self._neutral_available(state, "tentacle"):
            return []
        return sorted((r, c) for r, c, o, k in state.board if o >= 0 and o != seat and k == "slime")

    @staticmethod
    def _sources(state: State, owner: int, name: str) -> list[tuple[int, ...]]:
        """Where the piece comes from: `()` when one is unused, else each of that kind on the board
        (D-DW-22 「好きな位置から選んで」: the player picks; `owner` -1 for neutral pieces)."""
        pool = state.neutral_pool[NEUTRAL.index(name)] if owner < 0 else state.pools[owner][ARMY.index(name)]
        if pool:
            return [()]
        return [(r, c) for r, c, o, k in state.board if o == owner and k == name]

    def _put_neutral(self, state: State, square: Square, name: str, events: list[Event] | None = None,
                     source: tuple[int, ...] = ()) -> State:
        """Put a neutral piece on `square`; with none unused, the one on `source` (or the first on
        the board in square order) is taken and re-placed as a new piece (D-DW-22)."""
        i = NEUTRAL.index(name)
        if not state.neutral_pool[i]:
            taken = (source[0], source[1]) if source else next(
                (r, c) for r, c, o, k in state.board if o < 0 and k == name)
            state = self._to_pool(state._replace(board=self._board(state, (taken,))), -1, name)
            if events is not None:
                events.append(Event("reuse", f"no unused {name}: the one on {square_name(taken)} is taken (D-DW-22)"))
        return state._replace(board=self._board(state, add=((square[0], square[1], -1, name),)),
                              neutral_pool=_set(state.neutral_pool, i, state.neutral_pool[i] - 1))

    def _frenzy(self, state: State, square: Square, events: list[Event], source: tuple[int, ...] = ()) -> State:
        """Slime frenzy (狂暴化): the slime returns to its owner's unused pieces and a tentacle
        creature takes its square (digest §4)."""
        who = self.occupants(state)[square][0]
        state = self._to_pool(state._replace(board=self._board(state, (square,))), who, "slime")
        state = self._put_neutral(state, square, "tentacle", events, source)
        events.append(Event("frenzy", f"the slime on {square_name(square)} becomes a tentacle creature"))
        return state

    def _put(self, state: State, square: Square, events: list[Event], source: tuple[int, ...] = ()) -> State:
        effect = self.cfg.events[self.cfg.layouts[state.pending[3]].id]
        state = state._replace(pending=state.pending[:3])
        if square[0] < 0:
            events.append(Event("event", "nothing to place"))
        elif "frenzy" in effect:
            state = self._frenzy(state, square, events, source)
        else:
            state = self._put_neutral(state, square, str(effect["place"]), events, source)
            events.append(Event("event", f"a {effect['place']} on {square_name(square)}"))
        return self._rebuild(state)

    def _lay(self, state: State, flip: bool, events: list[Event]) -> State:
        mode, cr, cc, index = state.pending
        cards = state.cards
        if mode == 1:
            old = next(p for p in cards if (p[0], p[1]) == (cr, cc))
            cards = tuple(p for p in cards if p != old)
            discard = state.dungeon_discard
            state = state._replace(dungeon_discard=_set(discard, old[2], discard[old[2]] + 1))
        state = state._replace(cards=(*cards, (cr, cc, index, flip)), phase="turn", pending=())
        events.append(Event("lay", f"{self.cfg.layouts[index].id} laid at card {cr + 1}.{cc + 1}"
                            + (" flipped" if flip else "")))
        return self._settle(state)


def _flat(squares: tuple[Square, ...]) -> tuple[int, ...]:
    return tuple(v for sq in squares for v in sq)


def _pairs(values: Any) -> list[Square]:
    values = [int(v) for v in values]
    return [(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]


def _kept(pending: tuple[int, ...], side: int) -> tuple[int, ...]:
    """The disposable cards side 0 (attacker) or 1 (defender) keeps in the pending melee."""
    return tuple(v // 2 for v in pending[5:] if v % 2 == side)


def gear_of(state: State, seat: int) -> tuple[tuple[str, int], ...]:
    """The war cards on seat's play sheet, (slot, card index)."""
    return state.equip[seat] if seat < len(state.equip) else ()


def _dice(dice: int, sides: int) -> list[tuple[int, Fraction]]:
    from .odds import bp_distribution
    return list(bp_distribution(dice, 0, sides))


COLUMNS = "abcdefghijklmnopqrstuvwxyz"


def square_name(square: Square) -> str:
    return f"{COLUMNS[square[1]]}{square[0] + 1}"
