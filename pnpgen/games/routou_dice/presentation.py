"""ROUTOU DICE for people: the board as the referee prints it, the rulebook's values and
its quick-reference table of actions."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pnpgen import scene as sc
from pnpgen.games.routou_dice.board import owner
from pnpgen.games.routou_dice.state import SEATS, Move, State
from pnpgen.words import Words

if TYPE_CHECKING:
    from pnpgen.games.routou_dice.game import RoutouDice

WORDS = Words.load(Path(__file__).with_name("routou_dice.words.yaml"))
ACTION_RULES = {"large": "RD-LARGE", "small": "RD-SMALL", "move": "RD-MOVE", "slash": "RD-SLASH",
                "clone": "RD-CLONE", "contract": "RD-GUARD"}
SEAT_FILL = (sc.PAPER, "#3b3b3b")  # A's dice white, B's dark
SEAT_INK = (sc.INK, sc.PAPER)
DESTROY = "#c0392b"
NOTATION = {"large": "L", "small": "S", "move": "m55-58", "slash": "x53-56", "clone": "c33:1@33,2@43",
            "contract": "b56"}


def describe(rules: RoutouDice, s: State) -> str:
    """The board as a grid (Y down the side, X across), then the counters."""
    geo = rules.geo
    lines = ["    " + " ".join(f"X{x}" for x in range(geo.x0, geo.x1 + 1))]
    for y in range(geo.y0, geo.y1 + 1):
        row = []
        for x in range(geo.x0, geo.x1 + 1):
            v = s.board[geo.index(x, y)]
            row.append(f"{SEATS[owner(v)]}{abs(v)}" if v else " .")
        lines.append(f"Y{y}  " + " ".join(row))
    lines.append("supply A {} B {}; kills A {} B {}; stock A {} B {}".format(
        *s.supply, *s.kills, *s.stock))
    if s.result is not None:
        lines.append(f"game over ({s.result[0]}): {' '.join(SEATS[w] for w in s.result[1])} wins")
    else:
        lines.append(f"{SEATS[s.turn]} to play, phase {s.phase + 1}"
                     + (f"; {s.roll.action} roll {'pending' if s.roll.dice is None else s.roll.dice}"
                        if s.roll else ""))
    return "\n".join(lines)


def draw(rules: RoutouDice, s: State, moves: Sequence[Move] = (), lang: str = "en") -> sc.Scene:
    """The board with its coordinates and dice (A white, B dark), who is to play and in which
    phase, each player's stock and kills below; moves and slashes as arrows, placed and
    bodyguard cells outlined (a bodyguard's rolled face drawn on its cell), destroyed dice
    crossed, rolled dice under it all. A move the rules refuse is drawn in red with a cross
    on the cell where it fails."""
    geo, cell = rules.geo, 17.0
    grid = sc.Grid(geo.width, geo.height, cell, x=14, y=12)
    shapes: list[sc.Shape] = [*grid.cells(), *grid.labels(
        cols=[str(x) for x in range(geo.x0, geo.x1 + 1)], rows=[str(y) for y in range(geo.y0, geo.y1 + 1)])]
    for i, v in enumerate(s.board):
        if v:
            x, y = grid.at(*_cr(rules, i))
            seat = owner(v)
            shapes += sc.die(x + 1.5, y + 1.5, cell - 3, abs(v), SEAT_FILL[seat], SEAT_INK[seat], number=True)
    refused = _refused(rules, s, moves)
    marks: list[sc.Shape] = []
    rolled: tuple[int, ...] = ()
    contract: int | None = None
    said: list[tuple[str, str]] = []  # actions with no cell, and their colour
    passes = 0
    for k, m in enumerate(moves):
        colour = DESTROY if k == refused else sc.ACCENT
        fails: list[int] = []  # cells where the refused move fails
        if m.kind in ("move", "slash") and len(m.path) > 1:
            marks += grid.route([_cr(rules, c) for c in m.path], colour)
            fails = [m.path[-1]]
        elif m.kind == "clone" and m.cell is not None:
            marks += [grid.arrow(_cr(rules, m.cell), _cr(rules, end), colour) for _, end in m.parts if end != m.cell]
            marks.append(grid.highlight(*_cr(rules, m.cell), colour))
            fails = [m.cell]
        elif m.kind == "contract" and m.cell is not None:
            marks.append(grid.highlight(*_cr(rules, m.cell), colour))
            contract, fails = m.cell, [m.cell]
        elif m.kind == "roll" and contract is not None and len(m.dice) == 1 and not s.board[contract]:
            x, y = grid.at(*_cr(rules, contract))  # the bodyguard's roll lands on its cell
            seat = s.turn
            marks += sc.die(x + 1.5, y + 1.5, cell - 3, m.dice[0], SEAT_FILL[seat], SEAT_INK[seat], number=True)
            marks.append(grid.highlight(*_cr(rules, contract)))
            contract = None
        elif m.kind in ("large", "small", "pass"):  # an action chosen: named under the board
            said.append((WORDS(f"chose_{m.kind}", lang, seat=SEATS[(s.turn + passes) % 2]), colour))
            passes += m.kind == "pass"
        elif m.kind == "roll":
            rolled = m.dice
        elif m.kind == "place":
            declined = list(m.declined) + [False] * len(m.triples)
            for (x, y, _), skip in zip(m.triples, declined, strict=False):
                if geo.on_board(x, y):
                    marks.append(grid.highlight(x - geo.x0, y - geo.y0, colour if skip else sc.ACCENT))
                    if skip:
                        fails.append(geo.index(x, y))
            for i in m.destroys:
                x1, y1 = grid.at(*_cr(rules, i))
                x2, y2 = x1 + cell, y1 + cell
                marks += [sc.Line(x1 + 1, y1 + 1, x2 - 1, y2 - 1, DESTROY, 1.4),
                          sc.Line(x1 + 1, y2 - 1, x2 - 1, y1 + 1, DESTROY, 1.4)]
        if k == refused:
            for i in fails:
                x, y = grid.at(*_cr(rules, i))
                marks += _refusal(grid, x, y, cell)
    height = grid.y + geo.height * cell + 2
    height += 9
    turn = WORDS("turn", lang, seat=SEATS[s.turn], phase=s.phase + 1, phases=rules.cfg.phases)
    shapes.append(sc.Label(grid.x, height - 1, turn, 7, sc.INK, "start"))
    for text, colour in said:
        height += 9
        shapes.append(sc.Label(grid.x, height - 1, ("× " if colour == DESTROY else "→ ") + text, 7, colour,
                               "start"))
    for seat, name in enumerate(SEATS):  # each player's stock and kills, under the board
        text = WORDS("counters", lang, seat=name, stock=s.stock[seat], kills=s.kills[seat])
        height += 8
        shapes.append(sc.Label(grid.x, height - 1, text, 6.5, sc.GREY, "start"))
    height += 1
    if rolled:
        size, gap = 12.0, 3.0
        x0 = grid.x + (geo.width * cell - len(rolled) * (size + gap) + gap) / 2
        for k, face in enumerate(rolled):
            shapes += sc.die(x0 + k * (size + gap), height + 3, size, face, number=True)
        height += size + 5
    return sc.Scene(grid.x + geo.width * cell + 2, height, tuple(shapes + marks))


def _refusal(grid: sc.Grid, x: float, y: float, cell: float) -> list[sc.Shape]:
    """The mark of a cell where a move fails: a red outline and a red badge with a white x
    on its corner, leaving the die's face readable."""
    r = cell * 0.24
    cx, cy = x + cell - r * 0.6, y + r * 0.6
    return [sc.Rect(x + 0.9, y + 0.9, cell - 1.8, cell - 1.8, None, DESTROY, 1.8),
            sc.Circle(cx, cy, r, DESTROY, sc.PAPER, 0.6),
            *sc.cross(cx - r, cy - r, 2 * r, sc.PAPER, 1.2, inset=0.3)]


def _refused(rules: RoutouDice, s: State, moves: Sequence[Move]) -> int | None:
    """The index of the first of `moves` the rules refuse from `s`, or None."""
    state = s
    for k, m in enumerate(moves):
        try:
            state, _ = rules.apply(state, m)
        except Exception:  # noqa: BLE001 - IllegalMove, or a state the move cannot follow
            return k
    return None


def _cr(rules: RoutouDice, i: int) -> tuple[int, int]:
    """A cell index as (column, row) of the drawn grid."""
    x, y = rules.geo.xy(i)
    return x - rules.geo.x0, y - rules.geo.y0


def rulebook_table(rules: RoutouDice, name: str, lang: str) -> list[list[str]]:
    """'actions': the players' table of costs, phases and dice, from rules:;
    'actions_notation': the same with each action's recording notation (for referees)."""
    if name not in ("actions", "actions_notation"):
        raise KeyError(name)
    notation = name == "actions_notation"
    keys = ["action", "phases", "may_start", "dice_rolled"] + (["notation"] if notation else [])
    rows = [[WORDS(key, lang) for key in keys]]
    for action, rule in ACTION_RULES.items():
        dice = rules.cfg.roll_dice.get(action)
        phases = WORDS("phase_or", lang).join(str(p) for p in rules.cfg.allowed_phases[action])
        row = [rules.rule_title(rule, lang), str(rules.cfg.cost[action]), phases,
               str(dice) if dice else "—"]
        rows.append(row + [NOTATION[action]] if notation else row)
    return rows


def rulebook_context(rules: RoutouDice, lang: str) -> dict[str, object]:
    cfg = rules.cfg
    to = "〜" if lang == "ja" else "–"  # a range as each language writes it
    return {"dice_per_player": cfg.dice, "stock_cap": cfg.stock_cap, "kills_to_win": cfg.kills_to_win,
            "line_to_win": cfg.line, "columns": f"{cfg.columns[0]}{to}{cfg.columns[1]}",
            "rows": f"{cfg.rows[0]}{to}{cfg.rows[1]}", "zeros_stock": cfg.zeros_stock,
            "zeros_destroy": cfg.zeros_destroy, "phases": cfg.phases,
            "large_dice": cfg.roll_dice["large"], "small_dice": cfg.roll_dice["small"]}
