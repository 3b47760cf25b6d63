"""State edits every rule family shares: the board, pools, gold, draws owed, placed cards."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pnpgen.engine.protocol import Event

from .config import ARMY, NEUTRAL, PieceKind
from .dungeon import Square
from .state import State

if TYPE_CHECKING:
    from .model import DungeonWarRules


def settle(rules: DungeonWarRules, state: State) -> State:
    """Drop war-card draws that cannot happen (a full hand, no cards left: FAQ A1)."""
    draws = state.draws
    while draws:
        seat, _ = draws[0]
        if len(state.hands[seat]) >= rules.cfg.caps["hand"] or not (sum(state.war_deck) or sum(state.war_discard)):
            draws = draws[1:]
        else:
            break
    return state._replace(draws=draws)


def owe(state: State, seat: int, n: int) -> State:
    return state._replace(draws=(*state.draws, (seat, n))) if n > 0 else state


def gain_gold(rules: DungeonWarRules, state: State, seat: int, n: int) -> State:
    return state._replace(gold=set_at(state.gold, seat, min(rules.cfg.caps["gold"], state.gold[seat] + n)))


def board_with(state: State, remove: tuple[Square, ...] = (), add: tuple[tuple[int, int, int, str], ...] = ()
           ) -> tuple[tuple[int, int, int, str], ...]:
    return tuple(sorted([p for p in state.board if (p[0], p[1]) not in remove] + list(add)))


def to_pool(state: State, who: int, name: str) -> State:
    if who < 0:
        i = NEUTRAL.index(name)
        return state._replace(neutral_pool=set_at(state.neutral_pool, i, state.neutral_pool[i] + 1))
    i = ARMY.index(name)
    return state._replace(pools=set_at(state.pools, who, set_at(state.pools[who], i, state.pools[who][i] + 1)))


def game_over(state: State, fell: set[int], events: list[Event]) -> tuple[State, list[Event]]:
    events.append(Event("end", f"King Dragon of seat {', '.join(str(s + 1) for s in sorted(fell))} "
                        "defeated: the game ends"))
    return state._replace(phase="over", fallen=state.fallen | fell, draws=(), pending=()), events


def arrive(rules: DungeonWarRules, state: State, square: Square, who: int, events: list[Event]) -> State:
    """What a square does to a piece that stops there (rule ④: after any fight)."""
    code = rules.dungeon(state).terrain[square]
    cards = int(rules.cfg.terrain[code].get("map_cards", 0))
    if cards:
        events.append(Event("map", "the treasure map gives a war card (stand-in)"))
        state = owe(state, who, cards)
    return state


def after_action(rules: DungeonWarRules, state: State, name: str) -> State:
    if name == "king":
        state = state._replace(king_step=1)
    return settle(rules, state)


def note(state: State, more: list[Event], events: list[Event]) -> State:
    events.extend(more)
    return state


def slot_of(state: State, seat: int, index: int) -> str:
    return next(slot for slot, i in gear_of(state, seat) if i == index)


def drop_card(state: State, seat: int, index: int, slot: str) -> State:
    gear = list(gear_of(state, seat))
    gear.remove((slot, index))
    return state._replace(equip=set_at(state.equip, seat, tuple(gear)),
                          war_discard=set_at(state.war_discard, index, state.war_discard[index] + 1))


def empty_squares(rules: DungeonWarRules, state: State, kind: PieceKind | None, king: bool = False) -> list[Square]:
    taken = {(r, c) for r, c, _, _ in state.board}
    return [sq for sq, code in sorted(rules.dungeon(state).terrain.items())
            if sq not in taken and (kind is None or rules.may_stand(kind, code, king))]


def sources(state: State, owner: int, name: str) -> list[tuple[int, ...]]:
    """Where the piece comes from: `()` when one is unused, else each of that kind on the board
    (D-DW-22 「好きな位置から選んで」: the player picks; `owner` -1 for neutral pieces)."""
    pool = state.neutral_pool[NEUTRAL.index(name)] if owner < 0 else state.pools[owner][ARMY.index(name)]
    if pool:
        return [()]
    return [(r, c) for r, c, o, k in state.board if o == owner and k == name]


def neutral_available(state: State, name: str) -> bool:
    """An unused neutral piece, or one on the board to take (D-DW-22: any one)."""
    return bool(state.neutral_pool[NEUTRAL.index(name)]) or any(o < 0 and k == name for *_, o, k in state.board)


def put_neutral(rules: DungeonWarRules, state: State, square: Square, name: str, events: list[Event] | None = None,
                 source: tuple[int, ...] = ()) -> State:
    """Put a neutral piece on `square`; with none unused, the one on `source` (or the first on
    the board in square order) is taken and re-placed as a new piece (D-DW-22)."""
    i = NEUTRAL.index(name)
    if not state.neutral_pool[i]:
        taken = (source[0], source[1]) if source else next(
            (r, c) for r, c, o, k in state.board if o < 0 and k == name)
        state = to_pool(state._replace(board=board_with(state, (taken,))), -1, name)
        if events is not None:
            events.append(Event("reuse", f"no unused {name}: the one on {square_name(taken)} is taken (D-DW-22)"))
    return state._replace(board=board_with(state, add=((square[0], square[1], -1, name),)),
                          neutral_pool=set_at(state.neutral_pool, i, state.neutral_pool[i] - 1))


def set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1:]


def flat(squares: tuple[Square, ...]) -> tuple[int, ...]:
    return tuple(v for sq in squares for v in sq)


def pairs(values: Any) -> list[Square]:
    values = [int(v) for v in values]
    return [(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]


def gear_of(state: State, seat: int) -> tuple[tuple[str, int], ...]:
    """The war cards on seat's play sheet, (slot, card index)."""
    return state.equip[seat] if seat < len(state.equip) else ()


def dice(n: int, sides: int) -> list[tuple[int, Fraction]]:
    from .odds import bp_distribution
    return list(bp_distribution(n, 0, sides))


COLUMNS = "abcdefghijklmnopqrstuvwxyz"


def square_name(square: Square) -> str:
    return f"{COLUMNS[square[1]]}{square[0] + 1}"
