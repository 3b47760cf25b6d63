"""ROUTOU DICE state files (the referee's input) and the invariants a state keeps.

A state file (YAML or JSON):
    turn: A                 # A moves first, B second
    phase: 1                # the phase the player is in (1 or 2)
    board: {34: A5, 35: B3} # cell (X digit, Y digit) -> owner and value
    supply: {A: 53, B: 53}  # optional: computed from the 54 dice when left out
    kills: {A: 0, B: 0}     # dice of the opponent each player destroyed
    stock: {A: 1, B: 0}     # bodyguard stock
    waiting: [56]           # bodyguard dice that may not act yet (optional)
    roll: {action: large, dice: [0, 1, 2, 3, 4, 5]}   # dice awaiting placement (optional;
                            # without dice the roll is still to come; contract: cell: 56)
    passes: 0               # passes in a row (optional)
    actions: {move: 3, ...} # actions taken so far (optional, for statistics)
    result: {end: passes, winners: [B]}   # only in a finished game
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pnpgen.content.schema import Any_, Choice, OneOf, Schema
from pnpgen.content.schema import check as check_schema
from pnpgen.content.yamlpos import where
from pnpgen.errors import ImpossibleState
from pnpgen.examples import load_examples
from pnpgen.games.routou_dice.board import owner, signed
from pnpgen.games.routou_dice.config import ACTION_KINDS
from pnpgen.games.routou_dice.model import RoutouRules
from pnpgen.games.routou_dice.state import SEATS, Roll, State

if TYPE_CHECKING:
    from pnpgen.games.routou_dice.game import RoutouDice

PAIR = {"A": int, "B": int}
STATE_SCHEMA: Schema = {
    "turn": Choice(*SEATS),
    "phase": int,
    "board": OneOf({"*": str}, type(None)),
    "supply?": PAIR,
    "kills": PAIR,
    "stock": PAIR,
    "waiting?": [OneOf(int, str)],
    "roll?": OneOf(type(None), {"action": Choice("large", "small", "contract"), "dice?": [int],
                                "cell?": OneOf(int, str)}),
    "passes?": int,
    "actions?": {"*": int},
    "result?": {"end": str, "winners": [Choice(*SEATS)]},
    "note?": Any_,
}
_DIE = re.compile(r"^([AB])(\d)$")


def state_to_data(rules: RoutouRules, s: State) -> dict[str, object]:
    geo = rules.geo
    data: dict[str, object] = {
        "turn": SEATS[s.turn],
        "phase": s.phase + 1,
        "board": {geo.name(i): f"{SEATS[owner(v)]}{abs(v)}" for i, v in enumerate(s.board) if v},
        "supply": dict(zip(SEATS, s.supply, strict=True)),
        "kills": dict(zip(SEATS, s.kills, strict=True)),
        "stock": dict(zip(SEATS, s.stock, strict=True)),
        "waiting": sorted(geo.name(i) for i in s.waiting),
        "passes": s.passes,
        "actions": dict(zip(ACTION_KINDS, s.actions, strict=True)),
    }
    if s.roll is not None:
        roll: dict[str, object] = {"action": s.roll.action}
        if s.roll.dice is not None:
            roll["dice"] = list(s.roll.dice)
        if s.roll.cell is not None:
            roll["cell"] = geo.name(s.roll.cell)
        data["roll"] = roll
    if s.result is not None:
        data["result"] = {"end": s.result[0], "winners": [SEATS[w] for w in s.result[1]]}
    return data


def state_from_data(rules: RoutouRules, data: Any) -> State:
    if not isinstance(data, dict):
        raise ImpossibleState("a state must be a mapping")
    check_schema(data, STATE_SCHEMA, path="state")
    cfg, geo = rules.cfg, rules.geo

    def fail(message: str, container: object = data, key: object = None) -> ImpossibleState:
        return ImpossibleState(message, **where(container, key))

    def cell(text: object, container: object, key: object) -> int:
        name = str(text)
        if not re.fullmatch(r"\d\d", name) or not geo.on_board(int(name[0]), int(name[1])):
            raise fail(f"'{name}' is not a cell of the board (X {geo.x0}–{geo.x1} then Y {geo.y0}–{geo.y1})",
                       container, key)
        return geo.index(int(name[0]), int(name[1]))

    board = [0] * geo.size
    cells = data.get("board") or {}
    for key, die in cells.items():
        i = cell(key, cells, key)
        m = _DIE.match(die)
        if not m or not 1 <= int(m[2]) < cfg.faces:
            raise fail(f"cell {key}: '{die}' is not a die (owner A or B, then a value 1–{cfg.faces - 1})",
                       cells, key)
        board[i] = signed(SEATS.index(m[1]), int(m[2]))
    turn = SEATS.index(data["turn"])
    phase = data["phase"]
    if not 1 <= phase <= cfg.phases:
        raise fail(f"phase {phase}: a turn has phases 1–{cfg.phases}", data, "phase")
    kills = (data["kills"]["A"], data["kills"]["B"])
    stock = (data["stock"]["A"], data["stock"]["B"])
    for name, pair, high in (("kills", kills, cfg.dice), ("stock", stock, cfg.stock_cap)):
        for seat, n in enumerate(pair):
            if not 0 <= n <= high:
                raise fail(f"{name} of {SEATS[seat]} is {n}; it must be 0–{high}", data[name], SEATS[seat])
    roll = None
    raw_roll = data.get("roll")
    if raw_roll:
        action = raw_roll["action"]
        dice = raw_roll.get("dice")
        n = cfg.roll_dice[action]
        if action != "contract" and phase not in cfg.allowed_phases[action]:
            raise fail(f"a {action} placement cannot be under way in phase {phase}", data, "roll")
        if dice is not None and action == "contract":
            raise fail("roll dice: a contract die is resolved as soon as it is rolled; give only the cell",
                       raw_roll, "dice")
        if dice is not None and (len(dice) != n or any(not 0 <= d < cfg.faces for d in dice)):
            raise fail(f"roll dice: the {action} action rolls {n} dice (faces 0–{cfg.faces - 1})", raw_roll, "dice")
        target = None
        if action == "contract":
            if "cell" not in raw_roll:
                raise fail("a contract roll needs the contracted cell (cell:)", data, "roll")
            target = cell(raw_roll["cell"], raw_roll, "cell")
            if board[target]:
                raise fail("the contracted cell must be empty", raw_roll, "cell")
        roll = Roll(action, tuple(sorted(dice)) if dice is not None else None, target)
    waiting = set()
    for index, name in enumerate(data.get("waiting") or []):
        i = cell(name, data["waiting"], index)
        if not board[i] or owner(board[i]) != turn:
            raise fail(f"waiting die {name}: only a die of the player to move ({SEATS[turn]}) can be "
                       "waiting to act", data["waiting"], index)
        waiting.add(i)
    pending = [1 if roll is not None and roll.action == "contract" and s == turn else 0 for s in (0, 1)]
    supply = []
    for seat in (0, 1):
        on_board = sum(1 for v in board if v and owner(v) == seat)
        held = on_board + kills[1 - seat] + pending[seat]
        if "supply" in data:
            n = data["supply"][SEATS[seat]]
            if n + held != cfg.dice:
                raise fail(f"{SEATS[seat]}'s dice do not add up to {cfg.dice}: supply {n} + board {on_board} + "
                           f"taken by {SEATS[1 - seat]} {kills[1 - seat]}" +
                           (" + contract die being rolled 1" if pending[seat] else "") + f" = {n + held}",
                           data["supply"], SEATS[seat])
        else:
            n = cfg.dice - held
            if n < 0:
                raise fail(f"{SEATS[seat]} has more than {cfg.dice} dice on the board and in kills", data, "board")
        supply.append(n)
    actions = data.get("actions") or {}
    for name in actions:
        if name not in ACTION_KINDS:
            raise fail(f"actions: '{name}' is not one of {', '.join(ACTION_KINDS)}", actions, name)
        if actions[name] < 0:
            raise fail(f"actions: {name} {actions[name]} cannot be negative", actions, name)
    passes = data.get("passes", 0)
    if not 0 <= passes < (3 if "result" in data else 2):
        raise fail("passes: 0 or 1 (two passes in a row end the game)", data, "passes")
    result = None
    if "result" in data:
        end = data["result"]["end"]
        if end not in rules.end_conditions():
            raise fail(f"result end '{end}' is not one of {', '.join(rules.end_conditions())}",
                       data["result"], "end")
        result = (end, tuple(SEATS.index(w) for w in data["result"]["winners"]))
    state = State(
        board=tuple(board), supply=(supply[0], supply[1]), kills=kills, stock=stock, turn=turn,
        phase=phase - 1, roll=roll, waiting=frozenset(waiting), passes=passes, result=result,
        actions=tuple(int(actions.get(k, 0)) for k in ACTION_KINDS),
    )
    if result is None:
        for seat in (0, 1):
            window = geo.any_line(state.board, seat)
            if window is not None:
                raise fail(f"{SEATS[seat]} already has {cfg.line} in a row "
                           f"({'-'.join(geo.name(i) for i in window)}): the game would be over "
                           "(add result:)", data, "board")
            if kills[seat] >= cfg.kills_to_win:
                raise fail(f"{SEATS[seat]} already has {kills[seat]} kills: the game would be over (add result:)",
                           data["kills"], SEATS[seat])
    return state


def invariants(rules: RoutouRules, s: State) -> list[str]:
    cfg, geo = rules.cfg, rules.geo
    problems = []
    if len(s.board) != geo.size:
        problems.append(f"the board has {len(s.board)} cells, not {geo.size}")
    for i, v in enumerate(s.board):
        if v and not 1 <= abs(v) < cfg.faces:
            problems.append(f"the die on {geo.name(i)} has value {abs(v)}, outside 1–{cfg.faces - 1}")
    for seat in (0, 1):
        pending = int(s.roll is not None and s.roll.action == "contract" and s.roll.dice is None and s.turn == seat)
        on_board = sum(1 for v in s.board if v and owner(v) == seat)
        total = s.supply[seat] + on_board + s.kills[1 - seat] + pending
        if total != cfg.dice or s.supply[seat] < 0:
            problems.append(f"{SEATS[seat]}: supply {s.supply[seat]} + board {on_board} + kills held by "
                            f"{SEATS[1 - seat]} {s.kills[1 - seat]} + rolling {pending} = {total}, "
                            f"not {cfg.dice}")
        if not 0 <= s.stock[seat] <= cfg.stock_cap:
            problems.append(f"{SEATS[seat]} has stock {s.stock[seat]}, outside 0–{cfg.stock_cap}")
    if not 0 <= s.phase < cfg.phases:
        problems.append(f"phase {s.phase + 1} is outside 1–{cfg.phases}")
    for i in s.waiting:
        if not s.board[i] or owner(s.board[i]) != s.turn:
            problems.append(f"waiting cell {geo.name(i)} holds no die of the player to move")
    return problems


# A custom codec: seats are A and B, cells their two-digit names.


def to_data(rules: RoutouDice, state: State) -> dict[str, object]:
    return state_to_data(rules, state)


def from_data(rules: RoutouDice, data: Any) -> State:
    return state_from_data(rules, data)


def example_state(rules: RoutouDice) -> State:
    for example in load_examples(rules.content):  # the first example with dice on the board
        if example["state"].get("board"):
            return state_from_data(rules, example["state"])
    return rules.initial_state(2)


def check(rules: RoutouDice, state: State) -> list[str]:
    return invariants(rules, state)
