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
from collections.abc import Iterator
from dataclasses import fields
from fractions import Fraction
from functools import lru_cache, partial
from itertools import combinations, compress, permutations
from typing import Any, TypeVar

from pnpgen.content.game import GameContent
from pnpgen.engine.chance import dice_rolls
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Notation, Outcome, Rules
from pnpgen.games.routou_dice import notation
from pnpgen.games.routou_dice.board import Board, Geometry, owner, signed
from pnpgen.games.routou_dice.config import ACTION_KINDS, load_config
from pnpgen.games.routou_dice.state import SEATS, Move, Roll, State

LINE, KILLS, SUPPLY, PASSES = "six_in_a_row", "ten_kills", "supply", "passes"
_TWO, _MINUS_TWO = 2, -2  # a die that can act holds 2 or more (seat A > 0, seat B < 0)


class RoutouRules(Rules[State, Move], Notation[State, Move]):
    """The mechanics and the move notation; state files, analysis and presentation are
    composed onto them in the package's RoutouDice."""

    def __init__(self, content: GameContent) -> None:
        super().__init__(content)
        self.min_players = self.max_players = 2  # seats A and B are the mechanics'
        self.cfg = load_config(self.settings)
        self.geo = Geometry(self.cfg)
        self._kinds: dict[int, list[str]] = {}  # open action kinds by phase (a few phases)
        self._open_actions: dict[int, tuple[str, ...]] = {}
        self._rolls: dict[tuple[int, ...], Move] = {}
        self._target_cache: dict[tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]] = {}

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
        n, faces, below = self.cfg.roll_dice[state.roll.action], self.cfg.faces, rng._randbelow  # type: ignore[attr-defined]
        dice = tuple(sorted([below(faces) for _ in range(n)]))  # rng.randrange(faces) is _randbelow(faces)
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
            return [Move(kind)]
        if kind == "contract":
            if state.stock[state.turn] < 1:
                return []
            return [Move("contract", cell=i) for i in self._guard_cells(state)]
        gen = {"move": self._steps, "slash": self._slashes, "clone": self._clones}[kind]
        return list(gen(state))

    def _own_movers(self, state: State) -> list[tuple[int, int]]:
        """(cell, value) of the dice of the seat to move that may act, in cell order."""
        board, waiting = state.board, state.waiting
        # the board is mostly empty: the cells are picked out in C (compress), then read
        if state.turn == 0:
            return [(i, board[i]) for i in compress(self.geo.cells, map(_TWO.__le__, board)) if i not in waiting]
        return [(i, -board[i]) for i in compress(self.geo.cells, map(_MINUS_TWO.__ge__, board))
                if i not in waiting]

    def _steps(self, state: State) -> Iterator[Move]:
        for i, v in self._own_movers(state):
            for j in self.geo.distances(state.board, i, v - 1):
                if j != i:
                    yield Move("move", path=(i, j))

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
                    yield Move("slash", path=(i, t))

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
                            yield Move("clone", cell=i, parts=((a, e1), (b, e2)))

    def placements(self, state: State) -> list[Move]:
        """Every distinct result of grouping the rolled dice, zero currency included.
        Groupings that put the same dice on the same cells are one move (the first
        grouping in sorted order stands for them)."""
        assert state.roll is not None and state.roll.dice is not None
        seat, dice, board = state.turn, state.roll.dice, state.board
        zeros, supply = dice.count(0), state.supply[seat]
        moves: list[Move] = []
        seen: set[Any] = set()
        occupied = [i for i, v in enumerate(board) if v]
        for triples, aims in zip(_groupings(dice), self._targets(dice), strict=True):
            placed: list[tuple[int, int]] = []
            cells: list[int] = []
            for cell, v in aims:  # the triples that name a cell, with its value
                if not board[cell] and cell not in cells:
                    placed.append((cell, v))
                    cells.append(cell)
            short = len(placed) > supply
            result = frozenset(placed[:supply])
            if short or zeros < self.cfg.zeros_stock:
                if (result, short) not in seen:
                    seen.add((result, short))
                    moves.append(Move("place", triples=triples, declined=(False,) * len(triples)))
                continue
            after = occupied + [c for c, _ in placed]
            for stocks in range(zeros // self.cfg.zeros_stock + 1):
                left = zeros - stocks * self.cfg.zeros_stock
                gain = min(stocks, self.cfg.stock_cap - state.stock[seat])
                for d in range(left // self.cfg.zeros_destroy + 1):
                    for targets in combinations(sorted(after), d):
                        key = (result, gain, targets)
                        if key not in seen:
                            seen.add(key)
                            moves.append(Move("place", triples=triples, declined=(False,) * len(triples),
                                              stocks=stocks, destroys=targets))
        return moves

    def _targets(self, dice: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each of _groupings(dice): (cell, value) of its triples that name a board cell
        with a value of 1 or more, in order (kept beside the groupings, as bounded)."""
        found = self._target_cache.get(dice)
        if found is None:
            geo = self.geo
            found = tuple(tuple((geo.index(x, y), v) for x, y, v in triples
                                if v >= 1 and geo.x0 <= x <= geo.x1 and geo.y0 <= y <= geo.y1)
                          for triples in _groupings(dice))
            if len(self._target_cache) >= GROUPINGS_KEPT:
                self._target_cache.clear()
            self._target_cache[dice] = found
        return found

    # --- one legal move, sampled lazily (random bot, MCTS playouts) --------------------
    def sample_move(self, state: State, rng: random.Random) -> Move:
        """One legal move without building them all: an action kind first (uniform over the
        open kinds that have a move; pass only when nothing else has one), then a mover,
        then a target; at placement, a random ordering of the dice, then the zero currency.
        Not uniform over legal moves (a kind with few moves is as likely as one with many);
        the same rng gives the same move."""
        if state.roll is not None:
            return self._sample_placement(state, rng)
        kinds = list(self._actions(state.phase))
        rng.shuffle(kinds)
        own: list[tuple[int, int]] | None = None  # the movers, listed once for every kind tried
        for kind in kinds:
            if kind in ("large", "small"):
                return Move(kind)
            if own is None and kind != "contract":
                own = self._own_movers(state)
            move = self._sample_of(state, kind, rng, own)
            if move is not None:
                return move
        return Move("pass")

    def _sample_of(self, state: State, kind: str, rng: random.Random,
                   own: list[tuple[int, int]] | None = None) -> Move | None:
        if kind in ("large", "small"):
            return Move(kind)
        if kind == "contract":
            moves = self.moves_of(state, kind)
            return rng.choice(moves) if moves else None
        movers = list(self._own_movers(state) if own is None else own)
        rng.shuffle(movers)
        board, seat, geo = state.board, state.turn, self.geo
        for i, v in movers:
            if kind == "move":
                ends = [j for j in geo.distances(board, i, v - 1) if j != i]
                if ends:
                    return Move("move", path=(i, rng.choice(ends)))
            elif kind == "slash":
                best: dict[int, int] = {}
                for j, d in geo.distances(board, i, v - 2).items():
                    for t in geo.orth[j]:
                        if board[t] and owner(board[t]) != seat and d + 1 < best.get(t, 99):
                            best[t] = d + 1
                targets = [t for t, k in sorted(best.items()) if v - k >= abs(board[t])]
                if targets:
                    return Move("slash", path=(i, rng.choice(targets)))
            else:
                move = self._sample_clone(board, i, v, rng)
                if move is not None:
                    return move
        return None

    def _sample_clone(self, board: Board, i: int, v: int, rng: random.Random) -> Move | None:
        low = self.cfg.clone_min_part
        empty = _put(board, i, 0)
        splits = list(range(low, v - low + 1))
        rng.shuffle(splits)
        for a in splits:
            b = v - a
            firsts = list(self.geo.distances(empty, i, a - 1))
            rng.shuffle(firsts)
            for e1 in firsts:
                seconds = [e2 for e2 in self.geo.distances(empty, i, b - 1, blocked=e1) if e2 != e1]
                if seconds:
                    return Move("clone", cell=i, parts=((a, e1), (b, rng.choice(seconds))))
        return None

    def _sample_placement(self, state: State, rng: random.Random) -> Move:
        """A placement as placements() would list it, from a random ordering of the dice."""
        assert state.roll is not None and state.roll.dice is not None
        seat, board, geo, cfg = state.turn, state.board, self.geo, self.cfg
        order = list(state.roll.dice)
        rng.shuffle(order)
        triples = tuple((order[k], order[k + 1], order[k + 2]) for k in range(0, len(order), 3))
        declined = (False,) * len(triples)
        zeros = order.count(0)
        placed: list[int] = []
        for x, y, v in triples:
            if v >= 1 and geo.x0 <= x <= geo.x1 and geo.y0 <= y <= geo.y1:
                cell = geo.index(x, y)
                if not board[cell] and cell not in placed:
                    placed.append(cell)
        if len(placed) > state.supply[seat] or zeros < cfg.zeros_stock:
            return Move("place", triples=triples, declined=declined)
        after = sorted([i for i, v in enumerate(board) if v] + placed)
        stocks = rng.randrange(zeros // cfg.zeros_stock + 1)
        left = zeros - stocks * cfg.zeros_stock
        count = rng.randrange(min(left // cfg.zeros_destroy, len(after)) + 1)
        targets = tuple(sorted(rng.sample(after, count)))
        return Move("place", triples=triples, declined=declined, stocks=stocks, destroys=targets)

    # --- applying moves ----------------------------------------------------------------
    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        return self._apply(state, move, False)

    def apply_unchecked(self, state: State, move: Move) -> tuple[State, tuple[str, ...]]:
        """apply() trusting the move (one the engine drew): the phase and the routes are not
        checked, and a route's length is searched only as far as the die's value reaches."""
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
            return replace(state, passes=0, actions=actions, roll=Roll(kind)), [
                Event(kind, partial("{0} rolls {1} dice to place".format, SEATS[seat], n), {"player": SEATS[seat]})]
        counted = replace(state, passes=0 if kind != "pass" else state.passes, actions=actions)
        if kind == "pass":
            return self._apply_pass(counted)
        if kind == "move":
            return self._apply_move(counted, move, trusted)
        if kind == "slash":
            return self._apply_slash(counted, move, trusted)
        if kind == "clone":
            return self._apply_clone(counted, move)
        return self._apply_contract(counted, move)

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

    def _apply_pass(self, state: State) -> tuple[State, list[Event]]:
        seat = state.turn
        passes = state.passes + 1
        events = [Event("pass", f"{SEATS[seat]} passes the turn", {"player": SEATS[seat]})]
        if passes >= 2:
            return self._end(replace(state, passes=passes), PASSES, events)
        return replace(state, passes=passes, turn=1 - seat, phase=0, waiting=frozenset()), events

    def _apply_roll(self, state: State, move: Move, trusted: bool = False) -> tuple[State, list[Event]]:
        assert state.roll is not None
        roll, seat = state.roll, state.turn
        n = self.cfg.roll_dice[roll.action]
        if not trusted and (len(move.dice) != n or any(d >= self.cfg.faces for d in move.dice)):
            raise IllegalMove("RD-ROLL", f"the {roll.action} action rolls {n} dice with faces 0–{self.cfg.faces - 1}")
        faces = "".join(map(str, move.dice))
        if roll.action != "contract":
            event = Event("roll", lambda: f"{SEATS[seat]} rolls {faces}", {"dice": faces})
            return replace(state, roll=replace(roll, dice=move.dice)), [event]
        assert roll.cell is not None
        face, cell = move.dice[0], roll.cell
        name = self.geo.name(cell)
        if face == self.cfg.fail_face:
            kills = _bump(state.kills, 1 - seat)
            events = [Event("contract-failed", f"the bodyguard die for {name} rolls {face}: destroyed, "
                            f"a kill for {SEATS[1 - seat]}", {"cell": name, "value": face})]
            return self._finish(replace(state, kills=kills), seat, [], "contract", events)
        board = _put(state.board, cell, signed(seat, face))
        events = [Event("contract", f"the bodyguard die lands on {name} with value {face}; "
                        "it may act from its owner's next turn", {"cell": name, "value": face})]
        new = replace(state, board=board, waiting=state.waiting | {cell})
        return self._finish(new, seat, [cell], "contract", events)

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
                       declined: tuple[bool, ...] | None = None,
                       events: list[Event] | None = None) -> tuple[Board, tuple[int, int], tuple[Any, ...], bool]:
        """Place the triples in order: (board, supply, placed (cell, value), supply ran out)."""
        seat = state.turn
        board, supply = state.board, state.supply
        placed: list[tuple[int, int]] = []
        for n, triple in enumerate(triples):
            problem = self._triple_problem(board, triple)
            text = f"{triple[0]}{triple[1]}{triple[2]}"
            if problem is None:
                if declined and declined[n]:
                    raise IllegalMove("RD-PLACE", f"triple {text} names the empty cell {text[:2]} with value "
                                                  f"{text[2]}, so it must be placed")
                if supply[seat] == 0:
                    return board, supply, tuple(placed), True
                cell = self.geo.index(triple[0], triple[1])
                board = _put(board, cell, signed(seat, triple[2]))
                supply = _bump(supply, seat, -1)
                placed.append((cell, triple[2]))
                if events is not None:
                    events.append(Event("placed", partial("triple {0}: value {1} placed on {2}".format,
                                                          text, triple[2], text[:2]),
                                        {"triple": text, "cell": text[:2], "value": triple[2]}))
            elif events is not None:
                events.append(Event("not-placed", f"triple {text} is not placed: {problem}",
                                    {"triple": text, "reason": problem}))
        return board, supply, tuple(placed), False

    def _apply_place(self, state: State, move: Move, trusted: bool = False) -> tuple[State, list[Event]]:
        assert state.roll is not None and state.roll.dice is not None
        seat, dice, action = state.turn, state.roll.dice, state.roll.action
        if trusted:  # a placement the engine drew uses the rolled dice and the zeros it has
            return self._place(state, move, seat, action, [])
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

    def _place(self, state: State, move: Move, seat: int, action: str,
               events: list[Event]) -> tuple[State, list[Event]]:
        board, supply, placed, short = self._place_triples(state, move.triples, move.declined, events)
        new = replace(state, board=board, supply=supply)
        touched = sorted(cell for cell, _ in placed)  # the cells that changed, in board order
        if short:
            return self._finish(new, seat, touched, action, events, short=True)
        if move.stocks:
            stock = min(self.cfg.stock_cap, state.stock[seat] + move.stocks)
            lost = state.stock[seat] + move.stocks - stock
            note = f" ({lost} lost over the cap of {self.cfg.stock_cap})" if lost else ""
            events.append(Event("stock", f"{SEATS[seat]} gains bodyguard stock: now {stock}{note}",
                                {"stock": stock, "lost": lost}))
            new = replace(new, stock=_put2(new.stock, seat, stock))
        for cell in move.destroys:
            new = self._zero_destroy(new, seat, cell, events)
        return self._finish(new, seat, touched, action, events)

    def _zero_destroy(self, state: State, seat: int, cell: int, events: list[Event]) -> State:
        value = state.board[cell]
        name = self.geo.name(cell)
        if not value:
            raise IllegalMove("RD-ZERO", f"there is no die on {name} to destroy")
        board = _put(state.board, cell, 0)
        waiting = state.waiting - {cell}
        if owner(value) != seat:
            events.append(Event("destroy", f"zeros destroy {SEATS[1 - seat]}'s die on {name}: a kill",
                                {"cell": name, "kill": True}))
            return replace(state, board=board, waiting=waiting, kills=_bump(state.kills, seat))
        events.append(Event("remove", f"zeros remove {SEATS[seat]}'s own die on {name}: back to supply",
                            {"cell": name, "kill": False}))
        return replace(state, board=board, waiting=waiting, supply=_bump(state.supply, seat))

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
        if trusted and len(path) == 2 and end not in geo.orth[start]:
            dist = geo.distances(board, start, limit)
            if last_enemy:
                return min(dist[j] for j in geo.orth[end] if j in dist) + 1
            return dist[end]
        if len(path) == 2 and end not in geo.orth[start]:
            if last_enemy:
                dist = geo.distances(board, start, geo.size)
                options = [dist[j] for j in geo.orth[end] if j in dist]
                steps = min(options) + 1 if options else None
            else:
                steps = geo.distances(board, start, geo.size).get(end) if not board[end] else None
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

    def _apply_move(self, state: State, move: Move, trusted: bool = False) -> tuple[State, list[Event]]:
        start, end = move.path[0], move.path[-1]
        value = self._mover(state, start, "RD-MOVE")
        if state.board[end] and owner(state.board[end]) != state.turn:
            raise IllegalMove("RD-MOVE", f"{self.geo.name(end)} holds an enemy die: entering it is a slash (x…)")
        if end == start or state.board[end]:
            raise IllegalMove("RD-MOVE", f"{self.geo.name(end)} is not an empty cell to move to")
        steps = self._route(state.board, move.path, value - 1, "RD-MOVE", trusted=trusted)
        board = _put(_put(state.board, start, 0), end, signed(state.turn, value - steps))
        source, target = self.geo.name(start), self.geo.name(end)
        text = partial("the die on {0} moves {1} step(s) to {2}, value {3}".format, source, steps, target,
                       value - steps)
        events = [Event("move", text, {"from": source, "to": target, "value": value - steps})]
        return self._finish(replace(state, board=board), state.turn, [end], "move", events)

    def _apply_slash(self, state: State, move: Move, trusted: bool = False) -> tuple[State, list[Event]]:
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
        kills = _bump(state.kills, seat)
        waiting = state.waiting - {target}
        if arrive == e:
            board = _put(board, target, 0)
            events = [Event("trade", f"slash on {where}: both dice value {e}, a trade; the enemy die is a kill "
                                     "and the attacker goes back to supply", {"cell": where, "value": e})]
            new = replace(state, board=board, kills=kills, waiting=waiting, supply=_bump(state.supply, seat))
            return self._finish(new, seat, [], "slash", events)
        board = _put(board, target, signed(seat, arrive - e))
        events = [Event("slash", f"slash on {where}: {arrive} beats {e}; the enemy die is a kill and the attacker "
                                 f"stays with value {arrive - e}", {"cell": where, "value": arrive - e})]
        return self._finish(replace(state, board=board, kills=kills, waiting=waiting), seat, [target], "slash",
                            events)

    def _apply_clone(self, state: State, move: Move) -> tuple[State, list[Event]]:
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
            return self._finish(state, seat, [], "clone", events, short=True)
        board = _put(_put(empty, e1, signed(seat, a - d1)), e2, signed(seat, b - d2))
        name = self.geo.name
        events = [Event("clone", f"the die on {name(origin)} splits into {a - d1} on {name(e1)} and "
                                 f"{b - d2} on {name(e2)}", {"from": name(origin), "parts": [
                                     [name(e1), a - d1], [name(e2), b - d2]]})]
        new = replace(state, board=board, supply=_bump(state.supply, seat, -1))
        return self._finish(new, seat, [e1, e2], "clone", events)

    def _part_route(self, board: Board, origin: int, end: int, value: int) -> int:
        if end == origin:
            return 0
        if board[end]:
            raise IllegalMove("RD-CLONE", f"{self.geo.name(end)} is occupied")
        steps = self.geo.distances(board, origin, value - 1).get(end)
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

    def _apply_contract(self, state: State, move: Move) -> tuple[State, list[Event]]:
        assert move.cell is not None
        seat = state.turn
        if state.stock[seat] < 1:
            raise IllegalMove("RD-GUARD", "a bodyguard contract needs one stock, and there is none")
        problem = self._guard_problem(state, move.cell)
        if problem is not None:
            raise IllegalMove("RD-GUARD", problem)
        stock = _bump(state.stock, seat, -1)
        if state.supply[seat] == 0:
            events = [Event("contract", "the bodyguard die must come from an empty supply")]
            return self._finish(replace(state, stock=stock), seat, [], "contract", events, short=True)
        new = replace(state, stock=stock, supply=_bump(state.supply, seat, -1), roll=Roll("contract", cell=move.cell))
        return new, [Event("contract-roll", f"{SEATS[seat]} contracts a bodyguard for "
                                            f"{self.geo.name(move.cell)} and rolls one die",
                           {"cell": self.geo.name(move.cell)})]

    # --- ends --------------------------------------------------------------------------
    def _finish(self, state: State, seat: int, touched: list[int], action: str, events: list[Event],
                short: bool = False) -> tuple[State, list[Event]]:
        """After an action: instant wins, then the supply end, then the next phase or turn."""
        window = self.geo.line_through(state.board, touched, seat) if touched else None
        kills = self.cfg.kills_to_win
        if window is not None:
            cells = "-".join(self.geo.name(i) for i in window)
            events.append(Event("win", f"{SEATS[seat]} has {self.cfg.line} in a row ({cells}) and wins",
                                {"end": LINE, "winner": SEATS[seat]}))
            return replace(state, roll=None, result=(LINE, (seat,))), events
        for who in (seat, 1 - seat):
            if state.kills[who] >= kills:
                events.append(Event("win", f"{SEATS[who]} has {kills} kills and wins",
                                    {"end": KILLS, "winner": SEATS[who]}))
                return replace(state, roll=None, result=(KILLS, (who,))), events
        if short:
            return self._end(replace(state, roll=None), SUPPLY, events)
        phase = state.phase + self.cfg.cost[action]
        if phase >= self.cfg.phases:
            return replace(state, roll=None, turn=1 - seat, phase=0, waiting=frozenset()), events
        return replace(state, roll=None, phase=phase), events

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


GROUPINGS_KEPT = 256  # rolls whose groupings are kept (the distinct rolls of a long run are many more)


@lru_cache(maxsize=GROUPINGS_KEPT)  # bounded: the distinct rolls of a long run would otherwise fill memory
def _groupings(dice: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Every distinct ordered grouping of the dice into triples, in sorted order."""
    return tuple(tuple((o[k], o[k + 1], o[k + 2]) for k in range(0, len(o), 3))
                 for o in sorted(set(permutations(dice))))
