"""Dungeon War analysis (Analysis): the evaluation, the greedy bot, bot descriptions, per-game
figures and tallies for the simulation report.

The evaluation reads only what every seat sees (the board, gold, fatigue, crystals, card
COUNTS), so a bot valuing a state drawn from its view (pnpgen.engine.hidden) learns nothing
hidden from it. Its weights are game.yaml `simulation: evaluation:` (documented there and in
docs/notation/dungeon-war.md, "Bots"); a seat's value is its own score minus the best
standing opponent's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pnpgen.engine.protocol import CHANCE, Bot, Event

from .dungeon import manhattan
from .state import Move, State

if TYPE_CHECKING:
    from .model import DungeonWarRules

WEIGHTS = ("win", "crystal", "king_bp", "threat", "threat_range", "guard", "piece", "cost", "gold", "card")
EXPECT_LIMIT = 12  # the greedy bot averages over a chance node's outcomes up to this many


def weights(rules: DungeonWarRules) -> dict[str, float]:
    cached: dict[str, float] | None = getattr(rules, "_evaluation_weights", None)
    if cached is not None:
        return cached
    given = dict(rules.simulation.get("evaluation") or {})
    missing = [k for k in WEIGHTS if k not in given]
    if missing:
        raise ValueError(f"simulation.evaluation: missing {', '.join(missing)}")
    found = {k: float(given[k]) for k in WEIGHTS}
    rules._evaluation_weights = found  # type: ignore[attr-defined]
    return found


def seat_value(rules: DungeonWarRules, state: State, seat: int, w: dict[str, float]) -> float:
    """Public value of one seat: crystals (with King Dragon spoils), King Dragon BP margin and
    safety, material on the board, gold and cards."""
    cfg = rules.cfg
    king = next(((r, c) for r, c, o, k in state.board if o == seat and k == "king"), None)
    value = w["crystal"] * float(rules.score(state, seat)) + w["gold"] * state.gold[seat]
    value += w["card"] * (len(state.hands[seat]) + len(state.equip[seat]))
    value += w["king_bp"] * (rules.crystals(state, seat) - state.fatigue[seat])
    reach = w["threat_range"]
    for r, c, o, k in state.board:
        if o == seat and k != "king":
            value += w["piece"] + w["cost"] * cfg.pieces[k].cost
        elif (king is not None and (o != seat and o >= 0 and k != "king" or k == "tentacle")
              and manhattan(king, (r, c)) <= reach):
            value -= w["threat"]
    if king is not None:
        value += w["guard"] * sum(1 for r, c, o, _ in state.board if o == seat and manhattan(king, (r, c)) == 1)
    return value


def evaluate(rules: DungeonWarRules, state: State, seat: int) -> float:
    w = weights(rules)
    if rules.is_terminal(state):
        out = rules.outcome(state)
        return w["win"] / len(out.winners) if seat in out.winners else -w["win"]
    if seat in state.fallen:
        return -w["win"]
    own = seat_value(rules, state, seat, w)
    others = [seat_value(rules, state, o, w) for o in range(state.players) if o != seat and o not in state.fallen]
    return own - max(others, default=0.0)


def after(rules: DungeonWarRules, state: State, move: Move) -> State:
    """The state after `move`, taken from legal_moves() or chance_outcomes() of `state`
    (apply() without listing the legal moves again to check it: the greedy bot's hot path)."""
    return rules.resolve(state, move)[0]


def expected(rules: DungeonWarRules, state: State, seat: int, depth: int = 2) -> float:
    """The evaluation, averaged over a chance node's outcomes (up to EXPECT_LIMIT of them,
    `depth` chance nodes deep); a bigger node is valued as it stands."""
    if depth and rules.current_player(state) == CHANCE:
        outcomes = rules.chance_outcomes(state)
        if len(outcomes) <= EXPECT_LIMIT:
            return sum(float(p) * expected(rules, after(rules, state, m), seat, depth - 1) for m, p in outcomes)
    return evaluate(rules, state, seat)


def greedy_bot(rules: DungeonWarRules) -> Bot[State, Move]:
    """One move ahead on the expected evaluation; ties broken by the rng."""

    def choose(state: State, rng: random.Random) -> Move:
        seat = rules.current_player(state)
        best: list[Move] = []
        top = float("-inf")
        for move in rules.legal_moves(state):
            value = expected(rules, after(rules, state, move), seat)
            if value > top + 1e-9:
                best, top = [move], value
            elif value >= top - 1e-9:
                best.append(move)
        return rng.choice(best)

    return choose


def bots(rules: DungeonWarRules) -> dict[str, Callable[[], Bot[State, Move]]]:
    return {"greedy": lambda: greedy_bot(rules)}


BOT_METHODS = {
    "random": "uniform over the legal moves of its seat (they depend only on its own view)",
    "greedy": "one move ahead on a state drawn from its view: the expected evaluation (crystals, King Dragon "
              "BP and safety, material, gold, cards; weights in game.yaml simulation.evaluation) over the "
              "dice of the move",
    "mcts": "determinised MCTS (PIMC): plain MCTS in simulation.mcts_worlds states drawn from its view, "
            "playouts cut at simulation.mcts_playout steps and scored by the evaluation margin (a logistic of "
            "width simulation.mcts_scale); the move most "
            "worlds choose",
    "guided": "determinised MCTS guided by the evaluation: in one state drawn from its view, each node's moves "
              "ranked by the expected evaluation (as greedy), tried best first with progressive widening "
              "(simulation.mcts_widen), new leaves judged by that value instead of a playout, UCT constant "
              "simulation.mcts_exploration (against greedy: benchmarks/bench_dungeon_war_mcts.py)",
}


def game_stats(rules: DungeonWarRules, state: State) -> dict[str, float]:
    """Per-game figures: rounds played, dungeon cards laid, crystals held at the end."""
    return {"rounds": float(state.round), "dungeon cards laid": float(len(state.cards)),
            "crystals held at the end (all seats)": float(sum(rules.crystals(state, s) for s in range(state.players)))}


def tally(rules: DungeonWarRules, state: State, move: Move, events: Sequence[Event]) -> list[str]:
    """What a step used, for the report's tallies: 'piece: <kind>' for the piece that acts,
    'card: <id>' for a war card placed, fired, used or sprung, 'fight: flags' or 'fight: BP'
    for how a melee was decided, 'action: <name>' for the kind of move."""
    head = str(move[0])
    labels: list[str] = []
    cfg = rules.cfg
    if head in ("move", "warp", "roll", "dash", "make", "block", "fence", "shoot", "use"):
        piece = rules.occupants(state).get((int(move[1]), int(move[2])))
        if piece is not None:
            labels.append(f"piece: {piece[1]}")
    elif head in ("summon", "alchemy", "remake", "draw", "element", "equip", "unequip"):
        labels.append("piece: king")
    if head == "summon":
        labels.append(f"summon: {move[1]}")
    if head in ("equip", "ambush"):
        labels.append(f"card: {cfg.war_cards[int(move[1])].id}")
    elif head in ("shoot", "use"):
        labels.append(f"card: {cfg.war_cards[int(move[3])].id}")
    if head not in ("card", "deal", "dungeon", "face", "fight", "shot") and state.phase == "turn":
        labels.append(f"action: {head}")
    flags = any(e.kind == "flags" for e in events)
    fights = sum(1 for e in events if e.kind == "fight")
    if fights:
        labels.append("fight: flags" if flags else "fight: BP")
    return labels
