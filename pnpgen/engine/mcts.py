"""Monte Carlo tree search for any game of the rules protocol.

UCT (UCB1 applied to trees) with explicit chance: at a chance node an outcome is
drawn with the game's own sampler and the tree branches on the drawn outcome, so
each player node holds one exact state. Leaves are valued by a random playout
(the game's Analysis.sample_move: lazy where the game samples without listing every move).
The search applies the moves it drew itself through the fast path (Rules.apply_unchecked).
Long multi-player games may cut playouts short (game.yaml `simulation: mcts_playout: N`):
the cut state is then valued by the game's evaluate(): each seat scores its margin over
the best other seat squashed into (0, 1)
(`mcts_scale` sets the curve's width). A playout that hits the step cap counts as a loss for every seat. Every
seat maximises its own share of the win (max^n), so it works for 1 to N players.
"""

from __future__ import annotations

import math
import random
from typing import Any, cast

from pnpgen.engine.capabilities import evaluation, move_sampler, move_text, search_evaluation
from pnpgen.engine.chance import chance_sampler
from pnpgen.engine.protocol import CHANCE, TERMINAL, Bot, Rules

DEFAULT_ITERATIONS = 200
EXPLORATION = 1.4


class _Node:
    """A tree node. Its legal moves are listed only when the search first expands from it
    (most nodes are leaves valued by one playout and never need them)."""

    __slots__ = ("rules", "state", "player", "_moves", "_untried", "children", "visits", "totals")

    def __init__(self, rules: Rules[Any, Any], state: Any, seats: int) -> None:
        self.rules = rules
        self.state = state
        self.player = rules.current_player(state)
        self._moves: list[Any] | None = None
        self._untried: list[int] | None = None
        self.children: dict[Any, _Node] = {}  # move index, or chance outcome key
        self.visits = 0
        self.totals = [0.0] * seats

    @property
    def moves(self) -> list[Any]:
        if self._moves is None:
            self._moves = self.rules.legal_moves(self.state) if self.player >= 0 else []
        return self._moves

    @property
    def untried(self) -> list[int]:
        if self._untried is None:
            self._untried = list(range(len(self.moves)))
        return self._untried


def _rewards(rules: Rules[Any, Any], state: Any, seats: int) -> list[float]:
    rewards = [0.0] * seats
    if rules.current_player(state) != TERMINAL:
        return rewards
    winners = rules.outcome(state).winners
    for seat in winners:
        rewards[seat] = 1.0 / len(winners)
    return rewards


def _key(rules: Rules[Any, Any], move: Any) -> Any:
    try:
        hash(move)
        return move
    except TypeError:
        return move_text(rules, move)


class MCTS:
    """A search for one decision; `choose` is the bot function."""

    def __init__(self, rules: Rules[Any, Any], iterations: int = DEFAULT_ITERATIONS,
                 exploration: float = EXPLORATION, playout_limit: int | None = None) -> None:
        self.rules = rules
        self.iterations = iterations
        sim = rules.content.data.get("simulation", {}) or {}
        self.playout_limit = playout_limit or int(sim.get("mcts_playout", 0)) or rules.max_steps
        self.exploration = exploration
        self.sample = chance_sampler(rules)
        self.sample_move = move_sampler(rules)  # playouts: the game's lazy random move
        self.evaluate = evaluation(rules)  # judges cut playouts

    def choose(self, state: Any, rng: random.Random) -> Any:
        rules = self.rules
        seats = rules.max_players
        root = _Node(rules, state, seats)
        if len(root.moves) == 1:
            return root.moves[0]
        for _ in range(self.iterations):
            self._iterate(root, rng, seats)
        seat = root.player  # most visits; equal visits (a wide root, few iterations): the better mean, then the first
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].totals[seat] / item[1].visits,
                                                            -item[0]))
        return root.moves[best[0]]

    def _iterate(self, root: _Node, rng: random.Random, seats: int) -> None:
        rules = self.rules
        node = root
        path = [root]
        while node.player != TERMINAL:
            if node.player == CHANCE:
                outcome = self.sample(node.state, rng)
                key = _key(rules, outcome)
                child = node.children.get(key)
                if child is None:
                    state = rules.apply_unchecked(node.state, outcome)[0]
                    child = node.children[key] = _Node(rules, state, seats)
                node = child
                path.append(node)
                continue
            if node.untried:
                index = node.untried.pop(rng.randrange(len(node.untried)))
                state = rules.apply_unchecked(node.state, node.moves[index])[0]
                node.children[index] = node = _Node(rules, state, seats)
                path.append(node)
                break
            node = self._select(node)
            path.append(node)
        rewards = self._playout(node.state, rng, seats)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat in range(seats):
                totals[seat] += rewards[seat]

    def _select(self, node: _Node) -> _Node:
        seat = node.player
        log_n = math.log(node.visits)
        c = self.exploration
        best: _Node | None = None
        best_value = -1.0
        for child in node.children.values():
            value = child.totals[seat] / child.visits + c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        assert best is not None
        return best

    def _playout(self, state: Any, rng: random.Random, seats: int) -> list[float]:
        rules = self.rules
        sample, sample_move = self.sample, self.sample_move
        current_player, apply = rules.current_player, rules.apply_unchecked
        steps = 0
        limit = self.playout_limit if seats > 1 else rules.max_steps  # solo: no evaluation to compare
        while (player := current_player(state)) != TERMINAL and steps < limit:
            move = sample(state, rng) if player == CHANCE else sample_move(state, rng)
            state = apply(state, move)[0]
            steps += 1
        if player != TERMINAL and limit < rules.max_steps:
            return self._judge(state, seats)
        return _rewards(rules, state, seats)

    def _judge(self, state: Any, seats: int) -> list[float]:
        """A cut playout: each seat scores its evaluation margin over the best other seat,
        squashed into (0, 1) by a logistic curve of width game.yaml `simulation: mcts_scale`
        (default 1): equal seats score 1/2, a seat far ahead nearly 1."""
        evaluate = self.evaluate
        sim = self.rules.content.data.get("simulation", {}) or {}
        scale = float(sim.get("mcts_scale", 1.0)) or 1.0
        values = [evaluate(state, seat) for seat in range(self.rules.num_players(state))]
        rewards = [0.0] * seats
        for seat, value in enumerate(values):
            margin = value - max((v for other, v in enumerate(values) if other != seat), default=value)
            rewards[seat] = 1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -margin / scale))))
        return rewards

def mcts_bot(rules: Rules[Any, Any], iterations: int = DEFAULT_ITERATIONS) -> Bot[Any, Any]:
    return MCTS(rules, iterations).choose


GUIDED_EXPLORATION = 0.25  # guided leaves are judged values, close together: explore less
WIDEN = 1.0  # progressive widening: a node tries its best ceil(WIDEN * sqrt(visits)) moves
EXPECT_LIMIT = 12  # a chance node of up to this many outcomes is averaged over them when judged
UNFINISHED = 0.5  # a judged (unfinished) state is worth at most this share of a won end


class _Guided(_Node):
    """A node of the guided search: its moves ranked best first for its player (listed when
    it is first expanded), and the value its parent's ranking gave it."""

    __slots__ = ("ranked", "prior", "outcomes")

    def __init__(self, rules: Rules[Any, Any], state: Any, seats: int, prior: list[float] | None = None) -> None:
        super().__init__(rules, state, seats)
        self.ranked: list[tuple[int, Any, list[float]]] | None = None  # (move index, next state, value)
        self.prior = prior
        self.outcomes: list[tuple[Any, float]] | None = None  # a chance node's, when few enough to spread


class GuidedMCTS(MCTS):
    """MCTS guided by the game's evaluation (Analysis.evaluate), for games whose random
    playouts say little: a node's moves are ranked by the evaluation after them (averaged over
    the dice they roll, up to EXPECT_LIMIT outcomes two chance nodes deep: what a greedy bot
    sees), tried best first with progressive widening (ceil(widen * sqrt(visits)) of them;
    Coulom 2007, Chaslot et al. 2008), and a new leaf is valued by that judged value instead of
    a playout. So one iteration looks one move deeper along the line that looks best, and the
    opponents' replies in the tree are their own best-looking moves. game.yaml `simulation:`
    sets `mcts_scale` (the judging curve, as for mcts), `mcts_widen` and `mcts_exploration`."""

    def __init__(self, rules: Rules[Any, Any], iterations: int = DEFAULT_ITERATIONS) -> None:
        sim = rules.content.data.get("simulation", {}) or {}
        super().__init__(rules, iterations, float(sim.get("mcts_exploration", GUIDED_EXPLORATION)))
        self.widen = max(1e-3, float(sim.get("mcts_widen", WIDEN)))
        self.unfinished = UNFINISHED
        self.evaluate = search_evaluation(rules)

    def _judge(self, state: Any, seats: int) -> list[float]:
        """As MCTS's, times UNFINISHED: a game not yet won is worth less than a won one, so
        the search takes a fair chance to win now over a lead it may never convert (a game
        may end with everyone losing, e.g. at a round cap)."""
        return [self.unfinished * share for share in super()._judge(state, seats)]

    def choose(self, state: Any, rng: random.Random) -> Any:
        seats = self.rules.max_players
        root = _Guided(self.rules, state, seats)
        if len(root.moves) == 1:
            return root.moves[0]
        for _ in range(self.iterations):
            self._descend(root, rng, seats)
        seat = root.player  # most visits; then the better mean; then the better-ranked move
        order = {index: rank for rank, (index, _, _) in enumerate(root.ranked or [])}
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].totals[seat] / item[1].visits,
                                                            -order.get(item[0], 0)))
        return root.moves[best[0]]

    def _descend(self, root: _Guided, rng: random.Random, seats: int) -> None:
        rules = self.rules
        node, path = root, [root]
        while True:
            if node.player == TERMINAL:
                rewards = _rewards(rules, node.state, seats)
                break
            if node is not root and node.visits == 0:  # a new leaf: its judged value
                rewards = node.prior if node.prior is not None else self._value(node.state, seats, 2)
                break
            if node.player == CHANCE:
                outcome = self._outcome(node, rng)
                key = _key(rules, outcome)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Guided(rules, rules.apply_unchecked(node.state, outcome)[0], seats)
                node = cast(_Guided, child)  # a _Guided's children are _Guided
                path.append(node)
                continue
            ranked = node.ranked if node.ranked is not None else self._rank(node, seats)
            width = min(len(ranked), math.ceil(self.widen * math.sqrt(node.visits + 1)))
            if len(node.children) < width:
                index, state, value = ranked[len(node.children)]
                node.children[index] = node = _Guided(rules, state, seats, value)
            else:
                node = cast(_Guided, self._select(node))
            path.append(node)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat in range(seats):
                totals[seat] += rewards[seat]

    def _outcome(self, node: _Guided, rng: random.Random) -> Any:
        """A chance node's next outcome: of up to EXPECT_LIMIT outcomes, the one furthest below
        its share of the visits (so the node's value tends to the exact average with little
        noise); of more, a drawn one."""
        if node.outcomes is None:
            outcomes = self.rules.chance_outcomes(node.state)
            node.outcomes = [(m, float(p)) for m, p in outcomes] if len(outcomes) <= EXPECT_LIMIT else []
        if not node.outcomes:
            return self.sample(node.state, rng)
        rules, visits = self.rules, node.visits

        def lag(item: tuple[Any, float]) -> float:
            child = node.children.get(_key(rules, item[0]))
            return item[1] * visits - (child.visits if child is not None else 0)

        return max(node.outcomes, key=lag)[0]

    def _rank(self, node: _Guided, seats: int) -> list[tuple[int, Any, list[float]]]:
        """The node's moves, best first for its player by their judged values (stable: ties
        keep the game's order)."""
        apply, seat = self.rules.apply_unchecked, node.player
        scored = []
        for index, move in enumerate(node.moves):
            state = apply(node.state, move)[0]
            scored.append((index, state, self._value(state, seats, 2)))
        scored.sort(key=lambda item: -item[2][seat])
        node.ranked = scored
        return scored

    def _value(self, state: Any, seats: int, depth: int) -> list[float]:
        """Each seat's judged share of the win: an end's result; else the evaluation margin
        squashed as for a cut playout, averaged over a small chance node's outcomes."""
        rules = self.rules
        player = rules.current_player(state)
        if player == TERMINAL:
            return _rewards(rules, state, seats)
        if player == CHANCE and depth:
            outcomes = rules.chance_outcomes(state)
            if len(outcomes) <= EXPECT_LIMIT:
                total = [0.0] * seats
                for move, p in outcomes:
                    shares = self._value(rules.apply_unchecked(state, move)[0], seats, depth - 1)
                    for seat in range(seats):
                        total[seat] += float(p) * shares[seat]
                return total
        return self._judge(state, seats)


def guided_bot(rules: Rules[Any, Any], iterations: int = DEFAULT_ITERATIONS) -> Bot[Any, Any]:
    return GuidedMCTS(rules, iterations).choose
