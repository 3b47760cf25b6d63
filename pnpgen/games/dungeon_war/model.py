"""Dungeon War rules engine (digest DUNGEON-WAR.md; decisions D-DW-n): the game contract.

The rules live by family, each module with the moves it generates and applies:
turn.py (placement, a turn's moves, its start and end), movement.py (paths, the knight's
roll, warps, ambush windows on the way), building.py (the first cards, Make / Remake /
Reverse, blocks and fences, laying cards, events), combat.py (melee, acid, disposable
cards, spoils, immortality), shooting.py (ranged combat, brainwashing), cards.py (Card
placement, AP cards, trap windows, Mirror Shield, ambushes) and king.py (the King
Dragon's actions); core.py holds the state edits they share and moves.py the move
classes this module dispatches on. Each family's gates (`*_refusal`) decide what its
generator lists and give the referee its reason (explain.py), so legality is stated once.
See docs/notation/dungeon-war.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from fractions import Fraction

from pnpgen.content.game import GameContent
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Outcome, Rules

from . import building, cards, combat, king, movement, shooting, turn
from .config import ARMY, NEUTRAL, Config, PieceKind, load_config
from .core import dice, gear_of
from .dungeon import STEPS, Dungeon, Placed, Square, build_dungeon
from .explain import explain
from .moves import (
    Acid,
    Alchemy,
    Ambush,
    Block,
    Brainwash,
    Card,
    Change,
    Charm,
    Dash,
    Deal,
    Discard,
    Dispose,
    Draw,
    Element,
    End,
    Equip,
    Face,
    Fence,
    Fight,
    Go,
    Lay,
    Make,
    Move,
    Pass,
    Place,
    Put,
    Remake,
    Reverse,
    Revive,
    Roll,
    Shoot,
    Shot,
    Summon,
    Trap,
    Unequip,
    UseCard,
    Walk,
    Warp,
    typed,
)
from .moves import Dungeon as DrawnDungeon
from .pending import AcidChoice, AmbushAsk, Dealing, Disposing, Reviving, Rolling, Shooting, Window
from .state import State

KING_FELL, ROUND_CAP = "king_fell", "round_cap"
RESULTS = ("win", "close-win", "draw", "close-loss", "loss")

Handler = Callable[..., State]  # (rules, state, move of its class, events) -> the next state


class DungeonWarRules(Rules[State, Move]):
    min_players = 2
    max_players = 4
    max_steps = 20_000

    def __init__(self, content: GameContent) -> None:
        super().__init__(content)
        self.cfg: Config = load_config(content)
        self._dungeons: dict[tuple[Placed, ...], Dungeon] = {}
        self._dressed: dict[tuple[str, tuple[int, ...]], PieceKind] = {}

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
            draws=(), pending=Dealing.make(0), fallen=frozenset(), equip=((),) * players,
        )
        return building.after_deal(self, state)

    def first_spots(self) -> list[tuple[int, int]]:
        sr, sc = self.cfg.stairs
        spots = [(sr + dr, sc + dc) for dr, dc in STEPS]
        return [s for s in spots if 0 <= s[0] < self.cfg.rows and 0 <= s[1] < self.cfg.columns][:self.cfg.first_spots]

    def current_player(self, state: State) -> int:
        if state.phase == "over":
            return TERMINAL
        if state.phase in ("deal", "roll", "fight", "build", "shot", "ambushed", "charm") or state.draws:
            return CHANCE
        if state.phase in ("ambush", "window", "mirror", "acid", "dispose", "revive"):
            return ASKED[state.phase](state)
        return state.seat

    def outcome(self, state: State) -> Outcome:
        scores = tuple(float(self.score(state, s)) for s in range(state.players))
        if not state.fallen:
            return Outcome((), scores, ROUND_CAP)
        standing = [s for s in range(state.players) if s not in state.fallen]
        best = max((scores[s] for s in standing), default=0.0)
        return Outcome(tuple(s for s in standing if scores[s] == best), scores, KING_FELL)

    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        if self.current_player(state) != CHANCE:
            return []
        if state.draws:
            deck = state.war_deck if sum(state.war_deck) else state.war_discard
            total = sum(deck)
            return [(Card(i), Fraction(n, total)) for i, n in enumerate(deck) if n]
        if state.phase == "deal":
            eligible = building.deal_eligible(self, state)
            total = sum(n for _, n in eligible)
            return [(Deal(i, flip), Fraction(n, 2 * total)) for i, n in eligible for flip in (False, True)]
        if state.phase == "roll":
            knight = self.cfg.pieces["knight"]
            n = knight.dash_dice if Rolling.of(state).dash else knight.move.dice
            return [(Face(total), p) for total, p in dice(n, self.cfg.die)]
        if state.phase == "build":
            deck = state.dungeon_deck if sum(state.dungeon_deck) else state.dungeon_discard
            total = sum(deck)
            return [(DrawnDungeon(i), Fraction(n, total)) for i, n in enumerate(deck) if n]
        if state.phase == "shot":
            return [(Shot(*combo), p) for combo, p in shooting.shot_odds_in_play(self, state).items()]
        if state.phase == "ambushed":
            return [(Fight(result), p) for result, p in movement.ambush_odds(self, state).outcomes()]
        if state.phase == "charm":
            yes = shooting.charm_odds(self, state)
            return [(Charm(flag), p) for flag, p in ((True, yes), (False, 1 - yes)) if p]
        # fight
        return [(Fight(result), p) for result, p in combat.fight_odds(self, state).outcomes()]


    def legal_moves(self, state: State) -> list[Move]:
        if self.current_player(state) < 0:
            return []
        return PHASE_MOVES.get(state.phase, turn_moves)(self, state)

    # --- apply: one core, checked (apply) or not (apply_unchecked, for engine-drawn moves) ---
    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        return self._apply(state, move, check=True)

    def apply_unchecked(self, state: State, move: Move) -> tuple[State, tuple[str, ...]]:
        """apply() for a move the engine drew itself: not checked against the listed legal moves."""
        new, events = self._apply(state, move, check=False)
        return new, tuple(event.kind for event in events)

    def _apply(self, state: State, move: Move, check: bool) -> tuple[State, list[Event]]:
        if check:
            move = self._checked(state, typed(move), self.current_player(state))
        new, events = self.resolve(state, move)
        return self._after(state, new, move), events

    def resolve(self, state: State, move: Move) -> tuple[State, list[Event]]:
        """What the move does, before the trap window that follows an action (see _after);
        the move is one legal_moves() or chance_outcomes() listed. The greedy bot looks ahead
        with this."""
        table = CHANCE_APPLY if self.current_player(state) == CHANCE else PLAYER_APPLY
        handler = table.get(type(move))
        if handler is None:  # a plain tuple, not one of moves.py's classes
            move = typed(move)
            handler = table[type(move)]
        events: list[Event] = []
        return handler(self, state, move, events), events

    def _checked(self, state: State, move: Move, player: int) -> Move:
        """The move if it is legal now; else IllegalMove naming the rule it breaks."""
        if player == TERMINAL:
            raise IllegalMove("DW-END", "the game is over")
        if player == CHANCE:
            outcomes = [m for m, _ in self.chance_outcomes(state)]
            if move in outcomes:
                return move
            if state.phase == "shot" and not state.draws and move[0] == "shot":
                possible = "; ".join(" ".join(str(v) if isinstance(v, str) else f"reach {v}" for v in m[1:])
                                     for m in outcomes)
                raise IllegalMove("DW-SHOT", f"this shot's result is one of: {possible}")
            if state.phase in ("fight", "ambushed") and not state.draws and move[0] == "fight":
                possible = ", ".join(str(m[1]) for m in outcomes)
                raise IllegalMove("DW-MELEE", f"with these BPs and equipment the fight's result is one of: "
                                  f"{possible}")
            raise IllegalMove("DW-TURN", "a roll or a draw is due, not a player's move")
        if type(move) in PATHS and len(move) > PATHS[type(move)]:
            if movement.declared_path_refusal(self, state, move) is None:
                return move
        elif move in self.legal_moves(state):
            return move
        rule, reason = self.why_illegal(state, move)
        raise IllegalMove(rule, reason)

    def _after(self, before: State, state: State, move: Move) -> State:
        """After a completed action, the trap window of D-DW-21 (not inside a Summon or Card
        placement action, which go on; not after a draw, a roll or a window's own move)."""
        if (state.phase == "turn" and before.phase not in ("window", "place")
                and type(move) not in NO_WINDOW and state.king_step < 3):
            return cards.window(self, state, state.seat)
        return state

    def why_illegal(self, state: State, move: Move) -> tuple[str, str]:
        """The rule a move that is not legal breaks, and why (for the referee)."""
        return explain(self, state, move) or ("DW-TURN", "the move is legal now")

    # --- used by tests and by the other modules of this game --------------------------------
    def _entry(self, state: State, occ: dict[Square, tuple[int, str]], target: Square, kind: PieceKind,
               owner: int, king: bool) -> movement.Entry:
        return movement.entry(self, state, occ, target, kind, owner, king)


def trap(rules: DungeonWarRules, state: State, move: Trap, events: list[Event]) -> State:
    """A trap called in a window, or a Mirror Shield answering a declared shot."""
    return (cards.call_trap if state.phase == "window" else shooting.reflect)(rules, state, move, events)


def pass_(rules: DungeonWarRules, state: State, move: Pass, events: list[Event]) -> State:
    """No trap, Mirror Shield or ambush now."""
    answer = {"window": cards.pass_window, "mirror": shooting.pass_mirror}.get(state.phase, movement.pass_ambush)
    return answer(rules, state, move, events)


PATHS: dict[type[Move], int] = {Walk: 5, Go: 3}  # moves that may declare a path after this many items
NO_WINDOW = frozenset((Card, Face, Summon, Equip, Unequip))  # no trap window after these (see _after)

ASKED: dict[str, Callable[[State], int]] = {  # the seat a decision phase asks
    "ambush": lambda s: AmbushAsk.of(s).seat, "window": lambda s: Window.of(s).seat,
    "mirror": lambda s: Shooting.of(s).seat, "acid": lambda s: AcidChoice.of(s).chooser,
    "dispose": lambda s: Disposing.of(s).chooser, "revive": lambda s: Reviving.of(s).seat,
}

PHASE_MOVES: dict[str, Callable[[DungeonWarRules, State], list[Move]]] = {
    "place": turn.placements, "go": movement.go_moves, "lay": building.lay_moves, "event": building.event_moves,
    "ambush": cards.ambush_moves, "window": cards.window_moves, "acid": combat.acid_moves,
    "dispose": combat.dispose_moves, "revive": combat.revive_moves, "mirror": shooting.mirror_moves,
}

PLAYER_APPLY: dict[type[Move], Handler] = {
    Place: turn.place, End: turn.end,
    Walk: movement.walk, Warp: movement.warp, Roll: movement.roll, Dash: movement.roll, Go: movement.go,
    Make: building.make, Reverse: building.reverse, Block: building.block, Fence: building.block,
    Lay: building.lay, Discard: building.discard, Put: building.put,
    Shoot: shooting.shoot, Brainwash: shooting.brainwash,
    Acid: shooting.acid_move, Dispose: combat.dispose, Revive: combat.revive,
    UseCard: cards.use_card, Equip: cards.place_card, Unequip: cards.place_card, Trap: trap,
    Pass: pass_, Ambush: movement.spring,
    Summon: king.summon, Alchemy: king.alchemy, Remake: king.remake, Draw: king.draw, Change: king.change,
    Element: king.element,
}

CHANCE_APPLY: dict[type[Move], Handler] = {
    Card: cards.draw_card, Deal: building.deal, Face: movement.face, DrawnDungeon: building.drawn,
    Shot: shooting.shot, Charm: shooting.charm, Fight: movement.fight,
}


def turn_moves(rules: DungeonWarRules, state: State) -> list[Move]:
    """The turn's moves: the end, each piece's actions (turn.action_refusal lets it act), the
    King Dragon's (a) and (b) actions (king.a_refusal, b_refusal); Card placement goes on alone."""
    moves: list[Move] = [End()]
    if state.king_step in (3, 4):
        return list(dict.fromkeys(moves + cards.placements_b(rules, state)))  # two copies of a card: one move
    if state.king_step == 0:
        for r, c, owner, name in state.board:
            if name != "king" and not turn.action_refusal(rules, state, (r, c), (owner, name)):
                moves += piece_moves(rules, state, (r, c), name)
    king_square = cards.seat_king(state)
    if king_square:
        moves += king.king_a(rules, state, king_square)
        moves += king.king_b(rules, state, king_square)
    return list(dict.fromkeys(moves))


def piece_moves(rules: DungeonWarRules, state: State, square: Square, name: str) -> Iterator[Move]:
    """The actions of one of the seat's pieces (not the King Dragon), in a fixed order."""
    kind = rules.kind(state, state.seat, name)
    yield from movement.walks(rules, state, square, kind)  # move or roll, dash
    yield from shooting.card_uses(rules, state, square, name, kind)  # AP cards, brainwashing, shots
    yield from movement.warps_from(rules, state, square, kind)
    yield from building.piece_moves(rules, state, square, kind)  # reverse, make, block, fence
