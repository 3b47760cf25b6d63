"""ROUTOU DICE rules engine: turns of two phases, six actions, explicit dice rolls.

Rule ids (titles in game.yaml `rule_ids:`) are cited by every refusal. Engine
readings where the source leaves room (designer notes D-RD-E1, E2 in rulebook.yaml):
a triple is placed in the order written (a later triple naming a cell an earlier one
just filled is declined); zero currency is spent after the dice are placed; a move
or slash given only by its end cell takes a shortest route (an explicit path may be
longer); the first part of a shadow clone moves first and blocks the second.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator
from dataclasses import fields
from fractions import Fraction
from functools import partial
from itertools import combinations, compress, permutations
from operator import itemgetter
from typing import Any, TypeVar

from pnpgen.content.game import GameContent
from pnpgen.engine import draws
from pnpgen.engine.chance import dice_rolls
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Outcome, Rules
from pnpgen.games.routou_dice import notation
from pnpgen.games.routou_dice.board import Board, Geometry, owner, signed
from pnpgen.games.routou_dice.config import ACTION_KINDS, load_config
from pnpgen.games.routou_dice.state import SEATS, Move, Roll, State, make_move

LINE, KILLS, SUPPLY, PASSES = "six_in_a_row", "ten_kills", "supply", "passes"
# a grouping of rolled dice into triples, with the (cell, value) its triples name on the board
_Plan = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]]
_PLAIN = {kind: Move(kind) for kind in ("large", "small", "pass")}  # moves without fields, shared
_ASKED = {kind: Roll(kind) for kind in ("large", "small")}  # the rolls a large or small action waits for
# apply_unchecked keeps only the kinds of the events: at the frequent ones it takes these
# (shared, never given out) instead of writing the text and data
_BARE = {kind: Event(kind, "") for kind in ("large", "small", "roll", "placed", "not-placed", "move", "slash",
                                            "trade", "clone")}


class RoutouRules(Rules[State, Move]):
    """The mechanics and the move notation; state files, analysis and presentation are
    composed onto them in the package's RoutouDice."""

    def __init__(self, content: GameContent) -> None:
        super().__init__(content)
        self.min_players = self.max_players = 2  # seats A and B are the mechanics'
        self.cfg = load_config(self.settings)
        self.geo = Geometry(self.cfg)
        self.pass_chance = float(self.simulation.get("random_pass_probability", 0.0))  # sample_move's
        self._kinds: dict[int, list[str]] = {}  # open action kinds by phase (a few phases)
        self._open_actions: dict[int, tuple[str, ...]] = {}
        self._rolls: dict[tuple[int, ...], Move] = {}
        self._rolled: dict[tuple[str, tuple[int, ...]], Roll] = {}  # one Roll per action and distinct roll
        # the cell each triple (X, Y, value) names with a value of 1 or more, for every such triple
        geo = self.geo
        self._cell_of: dict[tuple[int, ...], int] = {
            (x, y, v): geo.index(x, y) for x in range(geo.x0, geo.x1 + 1) for y in range(geo.y0, geo.y1 + 1)
            for v in range(1, self.cfg.faces)}
        self._plan_cache: dict[tuple[int, ...], tuple[_Plan, ...]] = {}
        self._tails: dict[tuple[int, ...], tuple[_Plan, ...]] = {}  # groupings of the dice left after a first triple

    # --- lifecycle ----------------------------------------------------------------------
    def initial_state(self, players: int) -> State:
        n = self.cfg.dice
        return State(board=(0,) * self.geo.size, supply=(n, n), kills=(0, 0), stock=(0, 0))

    def current_player(self, state: State) -> int:
        if state.result is not None:
            return TERMINAL
        if state.roll is not None and state.roll.dice is None:
            return CHANCE
        return state.turn

    def num_players(self, state: State) -> int:
        return 2

    # --- chance ------------------------------------------------------------------------
    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        if self.current_player(state) != CHANCE:
            return []
        assert state.roll is not None
        n, faces = self.cfg.roll_dice[state.roll.action], tuple(range(self.cfg.faces))
        return [(Move("roll", dice=d), p) for d, p in dice_rolls(n, faces)]

    def sample_chance(self, state: State, rng: random.Random) -> Move:
        assert state.roll is not None
        dice = tuple(sorted(draws.below_each(self.cfg.faces, self.cfg.roll_dice[state.roll.action], rng)))
        move = self._rolls.get(dice)
        if move is None:  # one Move per distinct roll: bounded by the dice and faces in content
            move = self._rolls[dice] = Move("roll", dice=dice)
        return move

    # --- legal moves -------------------------------------------------------------------
    def legal_moves(self, state: State) -> list[Move]:
        if self.current_player(state) not in (0, 1):
            return []
        if state.roll is not None:
            return self.placements(state)
        return [m for kind in self.kinds(state) for m in self.moves_of(state, kind)]

    def kinds(self, state: State) -> list[str]:
        """Action kinds open now (a kind may still have no move, e.g. nothing can move). They
        depend on the phase only, so each phase's are found once."""
        found = self._kinds.get(state.phase)
        if found is None:
            found = [k for k in ACTION_KINDS[:-1] if self._phase_problem(state, k) is None]
            if state.phase == 0:
                found.append("pass")
            self._kinds[state.phase] = found
        return list(found)

    def _actions(self, phase: int) -> tuple[str, ...]:
        """The kinds open in `phase` but pass (what sample_move tries), found once per phase."""
        found = self._open_actions.get(phase)
        if found is None:
            state = replace(self.initial_state(2), phase=phase)
            found = self._open_actions[phase] = tuple(k for k in self.kinds(state) if k != "pass")
        return found

    def moves_of(self, state: State, kind: str) -> list[Move]:
        """Every legal move of one kind (at a player decision outside placement)."""
        if kind in ("large", "small", "pass"):
            return [_PLAIN[kind]]
        if kind == "contract":
            if state.stock[state.turn] < 1:
                return []
            return [make_move("contract", cell=i) for i in self._guard_cells(state)]
        gen = {"move": self._steps, "slash": self._slashes, "clone": self._clones}[kind]
        return list(gen(state))

    def _own_movers(self, state: State) -> list[tuple[int, int]]:
        """(cell, value) of the dice of the seat to move that may act, in cell order."""
        board, waiting = state.board, state.waiting
        # the board is mostly empty: the occupied cells are picked out in C (compress), then read
        if state.turn == 0:
            found = [(i, v) for i in compress(self.geo.cells, board) if (v := board[i]) >= 2]
        else:
            found = [(i, -v) for i in compress(self.geo.cells, board) if (v := board[i]) <= -2]
        return [(i, v) for i, v in found if i not in waiting] if waiting else found

    def _steps(self, state: State) -> Iterator[Move]:
        for i, v in self._own_movers(state):
            for j in self.geo.distances(state.board, i, v - 1):
                if j != i:
                    yield make_move("move", path=(i, j))

    def _slashes(self, state: State) -> Iterator[Move]:
        board, seat = state.board, state.turn
        for i, v in self._own_movers(state):
            dist = self.geo.distances(board, i, v - 2)
            best: dict[int, int] = {}
            for j, d in dist.items():
                for t in self.geo.orth[j]:
                    if board[t] and owner(board[t]) != seat and d + 1 < best.get(t, 99):
                        best[t] = d + 1
            for t, k in sorted(best.items()):
                if v - k >= abs(board[t]):
                    yield make_move("slash", path=(i, t))

    def _clones(self, state: State) -> Iterator[Move]:
        low = self.cfg.clone_min_part
        for i, v in self._own_movers(state):
            empty = _put(state.board, i, 0)
            seen: set[frozenset[tuple[int, int]]] = set()
            for a in range(low, v - low + 1):
                b = v - a
                for e1, d1 in self.geo.distances(empty, i, a - 1).items():
                    for e2, d2 in self.geo.distances(empty, i, b - 1, blocked=e1).items():
                        if e2 == e1:
                            continue
                        key = frozenset(((e1, a - d1), (e2, b - d2)))
                        if key not in seen:
                            seen.add(key)
                            yield make_move("clone", cell=i, parts=((a, e1), (b, e2)))

    def placements(self, state: State) -> list[Move]:
        """Every distinct result of grouping the rolled dice, zero currency included.
        Groupings that put the same dice on the same cells are one move (the first
        grouping in sorted order stands for them)."""
        assert state.roll is not None and state.roll.dice is not None
        seat, dice, board, cfg = state.turn, state.roll.dice, state.board, self.cfg
        zeros, supply = dice.count(0), state.supply[seat]
        moves: list[Move] = []
        seen: set[Hashable] = set()  # (cells, short) and (cells, gain, destroyed) kinds of result
        occupied = list(compress(self.geo.cells, board))
        declined = (False,) * (len(dice) // 3)
        for triples, aims in self._plans(dice) if supply >= len(declined) else self._groupings(dice):
            placed: list[tuple[int, int]] = []
            cells: list[int] = []
            for cell, v in aims:  # the triples that name a cell, with its value
                if not board[cell] and cell not in cells:
                    placed.append((cell, v))
                    cells.append(cell)
            short = len(placed) > supply
            result = frozenset(placed[:supply])
            if short or zeros < cfg.zeros_stock:
                if (result, short) not in seen:
                    seen.add((result, short))
                    moves.append(make_move("place", triples=triples, declined=declined))
                continue
            after = sorted(occupied + cells)
            for stocks in range(zeros // cfg.zeros_stock + 1):
                left = zeros - stocks * cfg.zeros_stock
                gain = min(stocks, cfg.stock_cap - state.stock[seat])
                for d in range(left // cfg.zeros_destroy + 1):
                    for targets in combinations(after, d):
                        key = (result, gain, targets)
                        if key not in seen:
                            seen.add(key)
                            moves.append(make_move("place", triples=triples, declined=declined, stocks=stocks,
                                                   destroys=targets))
        return moves

    def _plans(self, dice: tuple[int, ...]) -> tuple[_Plan, ...]:
        """The groupings of the dice (_groupings) left when the supply takes every triple: a
        grouping naming the same cells and values as an earlier one, in another order, always
        gives that one's result and is left out. Kept per roll (bounded)."""
        found = self._plan_cache.get(dice)
        if found is None:
            kept: list[_Plan] = []
            classes: set[Hashable] = set()  # ordered triples, or a set of them
            blank: set[tuple[int, ...]] = set()  # the dice left after a first triple naming no cell
            for head, aims, rest, tails in self._firsts(dice):
                if not aims:  # an earlier such first triple, the same dice left: the same cells and values
                    if rest in blank:
                        continue
                    blank.add(rest)
                for triples, tail in tails:
                    both = aims + tail
                    # the same cell twice: the first triple naming it is placed, so the order counts
                    key = both if len(both) < 2 or len(set(map(itemgetter(0), both))) < len(both) else frozenset(both)
                    if key not in classes:
                        classes.add(key)
                        kept.append((head + triples, both))
            if len(self._plan_cache) >= GROUPINGS_KEPT:
                self._plan_cache.clear()
            found = self._plan_cache[dice] = tuple(kept)
        return found

    def _groupings(self, dice: tuple[int, ...]) -> tuple[_Plan, ...]:
        """Every distinct ordered grouping of the dice into triples, in sorted order (that of
        sorted(set(permutations(dice))) cut into triples), with the (cell, value) of its triples
        that name a board cell with a value of 1 or more, in order."""
        if not dice:
            return (((), ()),)
        return tuple((head + triples, aims + tail) for head, aims, _, tails in self._firsts(dice)
                     for triples, tail in tails)

    def _firsts(self, dice: tuple[int, ...]) -> Iterator[tuple[tuple[tuple[int, ...]], tuple[tuple[int, int], ...],
                                                                tuple[int, ...], tuple[_Plan, ...]]]:
        """Each distinct first triple of a grouping, in order: as a grouping's head, the (cell,
        value) it names (none or one), the dice left, and their groupings (kept, bounded)."""
        cell_of = self._cell_of
        for first in sorted(set(permutations(dice, 3))):
            left = list(dice)
            for die in first:
                left.remove(die)
            rest = tuple(left)
            tails = self._tails.get(rest)
            if tails is None:
                if len(self._tails) >= GROUPINGS_KEPT:
                    self._tails.clear()
                tails = self._tails[rest] = self._groupings(rest)
            yield (first,), ((cell_of[first], first[2]),) if first in cell_of else (), rest, tails

    # --- one legal move, sampled lazily (random bot, MCTS playouts) --------------------
    def sample_move(self, state: State, rng: random.Random) -> Move:
        """One legal move without building them all: an action kind first (uniform over the
        open kinds that have a move; pass only when nothing else has one), then a mover,
        then a target; at placement, a random ordering of the dice, then the zero currency.
        Not uniform over legal moves (a kind with few moves is as likely as one with many);
        the same rng gives the same move. The random player passes when it may with the
        probability simulation.random_pass_probability gives."""
        if state.roll is not None:
            return self._sample_placement(state, rng)
        if "pass" in self.kinds(state) and rng.random() < self.pass_chance:
            return _PLAIN["pass"]
        kinds = list(self._actions(state.phase))
        draws.shuffle(kinds, rng)
        own: list[tuple[int, int]] | None = None  # the movers, listed once for every kind tried
        for kind in kinds:
            if kind in ("large", "small"):
                return _PLAIN[kind]
            if own is None and kind != "contract":
                own = self._own_movers(state)
            move = self._sample_of(state, kind, rng, own)
            if move is not None:
                return move
        return _PLAIN["pass"]

    def _sample_of(self, state: State, kind: str, rng: random.Random,
                   own: list[tuple[int, int]] | None = None) -> Move | None:
        if kind in ("large", "small"):
            return _PLAIN[kind]
        if kind == "contract":  # a cell drawn as rng.choice(moves_of(state, "contract")) draws it
            cells = self._guard_cells(state) if state.stock[state.turn] >= 1 else []
            return make_move("contract", cell=draws.choice(cells, rng)) if cells else None
        movers = list(self._own_movers(state) if own is None else own)
        draws.shuffle(movers, rng)
        board, seat, geo = state.board, state.turn, self.geo
        for i, v in movers:
            if kind == "move":
                ends = [j for j in geo.distances(board, i, v - 1) if j != i]
                if ends:
                    return make_move("move", path=(i, draws.choice(ends, rng)))
            elif kind == "slash":
                best: dict[int, int] = {}
                for j, d in geo.distances(board, i, v - 2).items():
                    for t in geo.orth[j]:
                        if board[t] and owner(board[t]) != seat and d + 1 < best.get(t, 99):
                            best[t] = d + 1
                targets = [t for t, k in sorted(best.items()) if v - k >= abs(board[t])]
                if targets:
                    return make_move("slash", path=(i, draws.choice(targets, rng)))
            else:
                move = self._sample_clone(board, i, v, rng)
                if move is not None:
                    return move
        return None

    def _sample_clone(self, board: Board, i: int, v: int, rng: random.Random) -> Move | None:
        low = self.cfg.clone_min_part
        empty = _put(board, i, 0)
        splits = list(range(low, v - low + 1))
        draws.shuffle(splits, rng)
        for a in splits:
            b = v - a
            firsts = list(self.geo.distances(empty, i, a - 1))
            draws.shuffle(firsts, rng)
            for e1 in firsts:
                seconds = [e2 for e2 in self.geo.distances(empty, i, b - 1, blocked=e1) if e2 != e1]
                if seconds:
                    return make_move("clone", cell=i, parts=((a, e1), (b, draws.choice(seconds, rng))))
        return None

    def _sample_placement(self, state: State, rng: random.Random) -> Move:
        """A placement as placements() would list it, from a random ordering of the dice."""
        assert state.roll is not None and state.roll.dice is not None
        seat, board, cfg, cell_of = state.turn, state.board, self.cfg, self._cell_of
        order = list(state.roll.dice)
        draws.shuffle(order, rng)
        triples = tuple(zip(order[0::3], order[1::3], order[2::3], strict=True))
        declined = (False,) * len(triples)
        zeros = order.count(0)
        placed: list[int] = []
        for triple in triples:
            cell = cell_of.get(triple)
            if cell is not None and not board[cell] and cell not in placed:
                placed.append(cell)
        if len(placed) > state.supply[seat] or zeros < cfg.zeros_stock:
            return make_move("place", triples=triples, declined=declined)
        after = sorted([*compress(self.geo.cells, board), *placed])
        stocks = draws.below(zeros // cfg.zeros_stock + 1, rng)
        left = zeros - stocks * cfg.zeros_stock
        count = draws.below(min(left // cfg.zeros_destroy, len(after)) + 1, rng)
        targets = tuple(sorted(rng.sample(after, count)))
        return make_move("place", triples=triples, declined=declined, stocks=stocks, destroys=targets)

    # --- applying moves ----------------------------------------------------------------
    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        return self._apply(state, move, False)

    def apply_unchecked(self, state: State, move: Move) -> tuple[State, tuple[str, ...]]:
        """apply() trusting the move (one the engine drew): the phase and the routes are not
        checked, a route's length is searched only as far as the die's value reaches, and the
        frequent events are not written out (their kinds are all it gives)."""
        new, events = self._apply(state, move, True)
        return new, tuple([event.kind for event in events])

    def _apply(self, state: State, move: Move, trusted: bool) -> tuple[State, list[Event]]:
        if state.result is not None:
            raise IllegalMove("RD-END", "the game is already over")
        kind = move.kind
        if state.roll is not None:
            if state.roll.dice is None:
                if kind != "roll":
                    raise IllegalMove("RD-ROLL", f"the dice for the {state.roll.action} action must be "
                                                 "rolled first (a roll, e.g. r012345)")
                return self._apply_roll(state, move, trusted)
            if kind != "place":
                raise IllegalMove("RD-PLACE", "the rolled dice must be grouped and placed first "
                                              "(a place move, e.g. p123/456)")
            return self._apply_place(state, move, trusted)
        if kind in ("roll", "place"):
            raise IllegalMove("RD-TURN", f"no dice are waiting to be {'rolled' if kind == 'roll' else 'placed'}; "
                                         "choose an action first")
        problem = None if trusted else self._phase_problem(state, kind)
        if problem is not None:
            raise IllegalMove(*problem)
        seat = state.turn
        actions = _bump(state.actions, ACTION_KINDS.index(kind))
        if kind in ("large", "small"):  # one copy of the state, counted and rolling
            n = self.cfg.roll_dice[kind]
            return replace(state, passes=0, actions=actions, roll=_ASKED[kind]), [_BARE[kind] if trusted else
                Event(kind, partial("{0} rolls {1} dice to place".format, SEATS[seat], n), {"player": SEATS[seat]})]
        if kind == "pass":
            return self._apply_pass(state, actions)
        # the changes to the state, made into one new state when the action ends (_finish)
        changes: dict[str, Any] = {"passes": 0, "actions": actions}
        if kind == "move":
            return self._apply_move(state, changes, move, trusted)
        if kind == "slash":
            return self._apply_slash(state, changes, move, trusted)
        if kind == "clone":
            return self._apply_clone(state, changes, move, trusted)
        return self._apply_contract(state, changes, move)

    def _phase_problem(self, state: State, kind: str) -> tuple[str, str] | None:
        if kind == "pass":
            if state.phase != 0:
                return "RD-PASS", "a pass gives up a whole turn, so it can only be the turn's first action"
            return None
        phase = state.phase + 1
        cost = self.cfg.cost[kind]
        allowed = self.cfg.allowed_phases[kind]
        if phase not in allowed or state.phase + cost > self.cfg.phases:
            rule = {"large": "RD-LARGE", "small": "RD-SMALL", "slash": "RD-SLASH"}.get(kind, "RD-TURN")
            when = " or ".join(str(p) for p in allowed)
            return rule, (f"{kind} costs {cost} phase(s) and may only start in phase {when}; "
                          f"this is phase {phase}")
        return None

    def _apply_pass(self, state: State, actions: tuple[int, ...]) -> tuple[State, list[Event]]:
        seat = state.turn
        passes = state.passes + 1
        events = [Event("pass", f"{SEATS[seat]} passes the turn", {"player": SEATS[seat]})]
        if passes >= 2:
            return self._end(replace(state, passes=passes, actions=actions), PASSES, events)
        return replace(state, passes=passes, actions=actions, turn=1 - seat, phase=0, waiting=frozenset()), events

    def _apply_roll(self, state: State, move: Move, trusted: bool = False) -> tuple[State, list[Event]]:
        assert state.roll is not None
        roll, seat = state.roll, state.turn
        n = self.cfg.roll_dice[roll.action]
        if not trusted and (len(move.dice) != n or any(d >= self.cfg.faces for d in move.dice)):
            raise IllegalMove("RD-ROLL", f"the {roll.action} action rolls {n} dice with faces 0–{self.cfg.faces - 1}")
        if roll.action != "contract":
            if trusted:
                event = _BARE["roll"]
            else:
                faces = "".join(map(str, move.dice))
                event = Event("roll", lambda: f"{SEATS[seat]} rolls {faces}", {"dice": faces})
            key = (roll.action, move.dice)
            rolled = self._rolled.get(key)
            if rolled is None:  # bounded: the distinct rolls of the content's dice and faces
                rolled = self._rolled[key] = Roll(roll.action, move.dice)
            return replace(state, roll=rolled), [event]
        assert roll.cell is not None
        face, cell = move.dice[0], roll.cell
        name = self.geo.name(cell)
        if face == self.cfg.fail_face:
            events = [Event("contract-failed", f"the bodyguard die for {name} rolls {face}: destroyed, "
                            f"a kill for {SEATS[1 - seat]}", {"cell": name, "value": face})]
            return self._finish(state, {"kills": _bump(state.kills, 1 - seat)}, seat, [], "contract", events)
        board = _put(state.board, cell, signed(seat, face))
        events = [Event("contract", f"the bodyguard die lands on {name} with value {face}; "
                        "it may act from its owner's next turn", {"cell": name, "value": face})]
        return self._finish(state, {"board": board, "waiting": state.waiting | {cell}}, seat, [cell], "contract",
                            events)

    def _triple_problem(self, board: Board, triple: tuple[int, int, int]) -> str | None:
        x, y, v = triple
        geo = self.geo
        if not geo.x0 <= x <= geo.x1:
            return f"X={x} is not a column (columns are {geo.x0}–{geo.x1})"
        if not geo.y0 <= y <= geo.y1:
            return f"Y={y} is not a row (rows are {geo.y0}–{geo.y1})"
        if v < 1:
            return f"{v} is not a die value (values are 1–{self.cfg.faces - 1})"
        if board[geo.index(x, y)]:
            return f"cell {x}{y} is occupied"
        return None

    def _place_triples(self, state: State, triples: tuple[tuple[int, int, int], ...],
                       declined: tuple[bool, ...] | None = None, events: list[Event] | None = None,
                       trusted: bool = False) -> tuple[Board, tuple[int, int], tuple[Any, ...], bool]:
        """Place the triples in order: (board, supply, placed (cell, value), supply ran out)."""
        seat = state.turn
        board, supply = state.board, state.supply
        placed: list[tuple[int, int]] = []
        cell_of = self._cell_of
        for n, triple in enumerate(triples):
            cell = cell_of.get(triple)  # None: not a cell, or not a die value (_triple_problem says which)
            if cell is not None and not board[cell]:
                if declined and declined[n]:
                    text = f"{triple[0]}{triple[1]}{triple[2]}"
                    raise IllegalMove("RD-PLACE", f"triple {text} names the empty cell {text[:2]} with value "
                                                  f"{text[2]}, so it must be placed")
                if supply[seat] == 0:
                    return board, supply, tuple(placed), True
                board = _put(board, cell, signed(seat, triple[2]))
                supply = _bump(supply, seat, -1)
                placed.append((cell, triple[2]))
                if events is not None:
                    events.append(_BARE["placed"] if trusted else self._placed(triple))
            elif events is not None:
                events.append(_BARE["not-placed"] if trusted else self._not_placed(board, triple))
        return board, supply, tuple(placed), False

    def _placed(self, triple: tuple[int, int, int]) -> Event:
        text = f"{triple[0]}{triple[1]}{triple[2]}"
        return Event("placed", partial("triple {0}: value {1} placed on {2}".format, text, triple[2], text[:2]),
                     {"triple": text, "cell": text[:2], "value": triple[2]})

    def _not_placed(self, board: Board, triple: tuple[int, int, int]) -> Event:
        text = f"{triple[0]}{triple[1]}{triple[2]}"
        problem = self._triple_problem(board, triple)
        return Event("not-placed", f"triple {text} is not placed: {problem}", {"triple": text, "reason": problem})

    def _apply_place(self, state: State, move: Move, trusted: bool = False) -> tuple[State, list[Event]]:
        assert state.roll is not None and state.roll.dice is not None
        seat, dice, action = state.turn, state.roll.dice, state.roll.action
        if trusted:  # a placement the engine drew uses the rolled dice and the zeros it has
            return self._place(state, move, seat, action, [], trusted)
        used = tuple(sorted(d for t in move.triples for d in t))
        if used != dice or any(len(t) != 3 for t in move.triples):
            shown = "".join(str(d) for d in dice)
            raise IllegalMove("RD-PLACE", f"the triples must use exactly the rolled dice {shown}, "
                                          f"{len(dice) // 3} triple(s) of X, Y, value")
        zeros = dice.count(0)
        spent = move.stocks * self.cfg.zeros_stock + len(move.destroys) * self.cfg.zeros_destroy
        if spent > zeros:
            raise IllegalMove("RD-ZERO", f"the roll has {zeros} zero(s); {move.stocks} stock(s) and "
                                         f"{len(move.destroys)} destroy(s) cost {spent}")
        if len(set(move.destroys)) != len(move.destroys):
            raise IllegalMove("RD-ZERO", "each destroy must name a different die")
        return self._place(state, move, seat, action, [])

    def _place(self, state: State, move: Move, seat: int, action: str, events: list[Event],
               trusted: bool = False) -> tuple[State, list[Event]]:
        board, supply, placed, short = self._place_triples(state, move.triples, move.declined, events, trusted)
        changes: dict[str, Any] = {"board": board, "supply": supply}
        touched = sorted(cell for cell, _ in placed)  # the cells that changed, in board order
        if short:
            return self._finish(state, changes, seat, touched, action, events, short=True)
        if move.stocks:
            stock = min(self.cfg.stock_cap, state.stock[seat] + move.stocks)
            lost = state.stock[seat] + move.stocks - stock
            note = f" ({lost} lost over the cap of {self.cfg.stock_cap})" if lost else ""
            events.append(Event("stock", f"{SEATS[seat]} gains bodyguard stock: now {stock}{note}",
                                {"stock": stock, "lost": lost}))
            changes["stock"] = _put2(state.stock, seat, stock)
        for cell in move.destroys:
            self._zero_destroy(state, changes, seat, cell, events)
        return self._finish(state, changes, seat, touched, action, events)

    def _zero_destroy(self, state: State, changes: dict[str, Any], seat: int, cell: int,
                      events: list[Event]) -> None:
        """Destroy the die on `cell` with zeros, into `changes` (which hold the board and supply)."""
        value = changes["board"][cell]
        name = self.geo.name(cell)
        if not value:
            raise IllegalMove("RD-ZERO", f"there is no die on {name} to destroy")
        changes["board"] = _put(changes["board"], cell, 0)
        changes["waiting"] = changes.get("waiting", state.waiting) - {cell}
        if owner(value) != seat:
            events.append(Event("destroy", f"zeros destroy {SEATS[1 - seat]}'s die on {name}: a kill",
                                {"cell": name, "kill": True}))
            changes["kills"] = _bump(changes.get("kills", state.kills), seat)
            return
        events.append(Event("remove", f"zeros remove {SEATS[seat]}'s own die on {name}: back to supply",
                            {"cell": name, "kill": False}))
        changes["supply"] = _bump(changes["supply"], seat)

    def _mover(self, state: State, cell: int, rule: str) -> int:
        """The value of the mover's own die on `cell`, checked able to act."""
        value = state.board[cell]
        name = self.geo.name(cell)
        if not value or owner(value) != state.turn:
            raise IllegalMove(rule, f"there is no die of {SEATS[state.turn]} on {name}")
        if cell in state.waiting:
            raise IllegalMove("RD-WAIT", f"the bodyguard die on {name} may not act until its owner's next turn")
        if abs(value) < 2:
            raise IllegalMove("RD-MOVE", f"the die on {name} has value 1 and can no longer move")
        return abs(value)

    def _route(self, board: Board, path: tuple[int, ...], limit: int, rule: str, last_enemy: bool = False,
               trusted: bool = False) -> int:
        """Steps a die takes along `path` (start, end: shortest route; or every step). A trusted
        move's route is within `limit`, so the search stops there (the same shortest route)."""
        geo = self.geo
        start, end = path[0], path[-1]
        name = geo.name
        if len(path) == 2 and end not in geo.orth[start]:
            reach = limit if trusted else geo.size  # the whole board: no route, or too long a route
            if last_enemy:  # a slash steps onto the enemy from the nearest free cell beside it
                found = geo.reach(board, start, geo.orth[end], reach)
                steps = None if found is None else found + 1
            else:
                steps = None if board[end] else geo.reach(board, start, (end,), reach)
            if steps is None:
                raise IllegalMove(rule, f"no route of free orthogonal steps leads from {name(start)} to {name(end)}")
        else:
            for a, b in zip(path, path[1:], strict=False):
                if b not in geo.orth[a]:
                    raise IllegalMove(rule, f"{name(a)} to {name(b)} is not one orthogonal step")
            if len(set(path)) != len(path):
                raise IllegalMove(rule, "a route may not visit a cell twice")
            for b in path[1:-1] if last_enemy else path[1:]:
                if board[b]:
                    raise IllegalMove(rule, f"{name(b)} is occupied; dice cannot pass or jump other dice")
            steps = len(path) - 1
        if steps > limit:
            raise IllegalMove(rule, f"{name(start)} to {name(end)} takes {steps} steps; the die's value "
                                    f"allows at most {limit}")
        return steps

    def _apply_move(self, state: State, changes: dict[str, Any], move: Move,
                    trusted: bool = False) -> tuple[State, list[Event]]:
        start, end = move.path[0], move.path[-1]
        value = self._mover(state, start, "RD-MOVE")
        if state.board[end] and owner(state.board[end]) != state.turn:
            raise IllegalMove("RD-MOVE", f"{self.geo.name(end)} holds an enemy die: entering it is a slash (x…)")
        if end == start or state.board[end]:
            raise IllegalMove("RD-MOVE", f"{self.geo.name(end)} is not an empty cell to move to")
        steps = self._route(state.board, move.path, value - 1, "RD-MOVE", trusted=trusted)
        board = _put(_put(state.board, start, 0), end, signed(state.turn, value - steps))
        if trusted:
            events = [_BARE["move"]]
        else:
            source, target = self.geo.name(start), self.geo.name(end)
            text = partial("the die on {0} moves {1} step(s) to {2}, value {3}".format, source, steps, target,
                           value - steps)
            events = [Event("move", text, {"from": source, "to": target, "value": value - steps})]
        changes["board"] = board
        return self._finish(state, changes, state.turn, [end], "move", events)

    def _apply_slash(self, state: State, changes: dict[str, Any], move: Move,
                     trusted: bool = False) -> tuple[State, list[Event]]:
        seat, start, target = state.turn, move.path[0], move.path[-1]
        value = self._mover(state, start, "RD-SLASH")
        enemy = state.board[target]
        if not enemy or owner(enemy) == seat:
            raise IllegalMove("RD-SLASH", f"a slash must end on an enemy die; {self.geo.name(target)} holds none")
        steps = self._route(state.board, move.path, value - 1, "RD-SLASH", last_enemy=True, trusted=trusted)
        arrive, e = value - steps, abs(enemy)
        where = self.geo.name(target)
        if arrive < e:
            raise IllegalMove("RD-SLASH", f"the die arrives on {where} with value {arrive}, below the enemy's {e}: "
                                          "a slash needs at least an equal value")
        board = _put(state.board, start, 0)
        changes.update(kills=_bump(state.kills, seat), waiting=state.waiting - {target})
        if arrive == e:
            changes.update(board=_put(board, target, 0), supply=_bump(state.supply, seat))
            events = [_BARE["trade"] if trusted else Event(
                "trade", f"slash on {where}: both dice value {e}, a trade; the enemy die is a kill "
                         "and the attacker goes back to supply", {"cell": where, "value": e})]
            return self._finish(state, changes, seat, [], "slash", events)
        changes["board"] = _put(board, target, signed(seat, arrive - e))
        events = [_BARE["slash"] if trusted else Event(
            "slash", f"slash on {where}: {arrive} beats {e}; the enemy die is a kill and the attacker "
                     f"stays with value {arrive - e}", {"cell": where, "value": arrive - e})]
        return self._finish(state, changes, seat, [target], "slash", events)

    def _apply_clone(self, state: State, changes: dict[str, Any], move: Move,
                     trusted: bool = False) -> tuple[State, list[Event]]:
        assert move.cell is not None
        seat, origin = state.turn, move.cell
        value = self._mover(state, origin, "RD-CLONE")
        (a, e1), (b, e2) = move.parts
        low = self.cfg.clone_min_part
        if a + b != value or min(a, b) < low:
            raise IllegalMove("RD-CLONE", f"the parts must be at least {low} each and add up to the die's "
                                          f"value {value}")
        if e1 == e2:
            raise IllegalMove("RD-CLONE", "the two parts may not end on the same cell")
        empty = _put(state.board, origin, 0)
        d1 = self._part_route(empty, origin, e1, a)
        d2 = self._part_route(_put(empty, e1, 1), origin, e2, b)
        if state.supply[seat] == 0:
            events = [Event("clone", "the clone needs a die from an empty supply")]
            return self._finish(state, changes, seat, [], "clone", events, short=True)
        board = _put(_put(empty, e1, signed(seat, a - d1)), e2, signed(seat, b - d2))
        name = self.geo.name
        events = [_BARE["clone"] if trusted else Event(
            "clone", f"the die on {name(origin)} splits into {a - d1} on {name(e1)} and {b - d2} on {name(e2)}",
            {"from": name(origin), "parts": [[name(e1), a - d1], [name(e2), b - d2]]})]
        changes.update(board=board, supply=_bump(state.supply, seat, -1))
        return self._finish(state, changes, seat, [e1, e2], "clone", events)

    def _part_route(self, board: Board, origin: int, end: int, value: int) -> int:
        if end == origin:
            return 0
        if board[end]:
            raise IllegalMove("RD-CLONE", f"{self.geo.name(end)} is occupied")
        steps = self.geo.reach(board, origin, (end,), value - 1)
        if steps is None:
            raise IllegalMove("RD-CLONE", f"a part of value {value} cannot reach {self.geo.name(end)} from "
                                          f"{self.geo.name(origin)} (at most {value - 1} free steps)")
        return steps

    def _guard_cells(self, state: State) -> list[int]:
        """The cells where _guard_problem finds none, in order: empty, touching an enemy die
        and no die of the mover's own (8 neighbours)."""
        board, ring = state.board, self.geo.ring
        sign = 1 if state.turn == 0 else -1  # the mover's dice are > 0 for seat 0, < 0 for seat 1
        found = []
        for cell, value in enumerate(board):
            if value:
                continue
            enemy = False
            for j in ring[cell]:
                v = board[j] * sign
                if v > 0:
                    break
                if v < 0:
                    enemy = True
            else:
                if enemy:
                    found.append(cell)
        return found

    def _guard_problem(self, state: State, cell: int) -> str | None:
        board, seat = state.board, state.turn
        if board[cell]:
            return f"{self.geo.name(cell)} is occupied"
        ring = [board[j] for j in self.geo.ring[cell] if board[j]]
        if not any(owner(v) != seat for v in ring):
            return f"{self.geo.name(cell)} touches no enemy die (8 neighbours)"
        if any(owner(v) == seat for v in ring):
            return f"{self.geo.name(cell)} touches a die of your own (8 neighbours)"
        return None

    def _apply_contract(self, state: State, changes: dict[str, Any], move: Move) -> tuple[State, list[Event]]:
        assert move.cell is not None
        seat = state.turn
        if state.stock[seat] < 1:
            raise IllegalMove("RD-GUARD", "a bodyguard contract needs one stock, and there is none")
        problem = self._guard_problem(state, move.cell)
        if problem is not None:
            raise IllegalMove("RD-GUARD", problem)
        changes["stock"] = _bump(state.stock, seat, -1)
        if state.supply[seat] == 0:
            events = [Event("contract", "the bodyguard die must come from an empty supply")]
            return self._finish(state, changes, seat, [], "contract", events, short=True)
        changes.update(supply=_bump(state.supply, seat, -1), roll=Roll("contract", cell=move.cell))
        new = _copy(state, changes)
        return new, [Event("contract-roll", f"{SEATS[seat]} contracts a bodyguard for "
                                            f"{self.geo.name(move.cell)} and rolls one die",
                           {"cell": self.geo.name(move.cell)})]

    # --- ends --------------------------------------------------------------------------
    def _finish(self, state: State, changes: dict[str, Any], seat: int, touched: list[int], action: str,
                events: list[Event], short: bool = False) -> tuple[State, list[Event]]:
        """After an action: `state` with the action's `changes` (one copy), then instant wins,
        then the supply end, then the next phase or turn."""
        changes["roll"] = None
        board = changes.get("board", state.board)
        window = self.geo.line_through(board, touched, seat) if touched else None
        kills = self.cfg.kills_to_win
        if window is not None:
            cells = "-".join(self.geo.name(i) for i in window)
            events.append(Event("win", f"{SEATS[seat]} has {self.cfg.line} in a row ({cells}) and wins",
                                {"end": LINE, "winner": SEATS[seat]}))
            changes["result"] = (LINE, (seat,))
            return _copy(state, changes), events
        counts = changes.get("kills", state.kills)
        for who in (seat, 1 - seat):
            if counts[who] >= kills:
                events.append(Event("win", f"{SEATS[who]} has {kills} kills and wins",
                                    {"end": KILLS, "winner": SEATS[who]}))
                changes["result"] = (KILLS, (who,))
                return _copy(state, changes), events
        if short:
            return self._end(_copy(state, changes), SUPPLY, events)
        phase = state.phase + self.cfg.cost[action]
        if phase >= self.cfg.phases:
            changes.update(turn=1 - seat, phase=0, waiting=frozenset())
        else:
            changes["phase"] = phase
        return _copy(state, changes), events

    def tie_break(self, state: State) -> tuple[int, str]:
        """The winner of a game ended without an instant win, and the deciding criterion."""
        totals = [sum(abs(v) for v in state.board if v and owner(v) == s) for s in (0, 1)]
        for rule in self.cfg.tie_breaks:
            if rule == "second_player":
                return 1, rule
            a, b = {"kills": state.kills, "stock": state.stock, "board_total": totals}[rule]
            if a != b:
                return (0 if a > b else 1), rule
        return 1, "second_player"

    def _end(self, state: State, end: str, events: list[Event]) -> tuple[State, list[Event]]:
        winner, rule = self.tie_break(state)
        why = {"supply": "a player must take a die from an empty supply", "passes": "both players passed"}[end]
        events.append(Event("end", f"game over: {why}; {SEATS[winner]} wins on {rule.replace('_', ' ')}",
                            {"end": end, "winner": SEATS[winner], "decided_by": rule}))
        return replace(state, roll=None, result=(end, (winner,))), events

    def outcome(self, state: State) -> Outcome:
        assert state.result is not None
        end, winners = state.result
        return Outcome(winners, (float(state.kills[0]), float(state.kills[1])), end)

    # --- notation (notation.py) ----------------------------------------------------------
    def parse_move(self, text: str, state: State | None = None) -> Move:
        return notation.parse(self.geo, text)

    def format_move(self, move: Move) -> str:
        return notation.format_move(self.geo, move)


_T = TypeVar("_T", State, Roll)
_FIELDS = {cls: frozenset(f.name for f in fields(cls)) for cls in (State, Roll)}


def replace(value: _T, **changes: Any) -> _T:
    """dataclasses.replace for State and Roll, without re-running __init__ (a third of a
    playout's time went there): a copy of the frozen instance's fields, some changed."""
    return _copy(value, changes)


def _copy(value: _T, changes: dict[str, Any]) -> _T:
    """replace(value, **changes) for changes already in a dict."""
    new = object.__new__(type(value))
    data = new.__dict__
    data.update(value.__dict__)
    data.update(changes)
    if len(data) != len(_FIELDS[type(value)]):  # a key that is no field was added
        unknown = changes.keys() - _FIELDS[type(value)]
        raise TypeError(f"{type(value).__name__} has no field {sorted(unknown)[0]!r}")
    return new


def _put(board: Board, i: int, value: int) -> Board:
    return board[:i] + (value,) + board[i + 1:]


def _put2(pair: tuple[int, int], seat: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _bump(values: tuple[int, ...], i: int, by: int = 1) -> Any:
    return values[:i] + (values[i] + by,) + values[i + 1:]


GROUPINGS_KEPT = 256  # rolls whose plans are kept (the distinct rolls of a long run are many more)
