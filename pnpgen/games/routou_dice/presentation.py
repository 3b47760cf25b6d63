"""ROUTOU DICE for people: the board as the referee prints it, the rulebook's values and
its quick-reference table of actions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

from pnpgen import scene as sc
from pnpgen.content.schema import text_for
from pnpgen.games.routou_dice.board import owner
from pnpgen.games.routou_dice.state import SEATS, Move, State
from pnpgen.words import COMMON, Words

if TYPE_CHECKING:
    from pnpgen.games.routou_dice.game import RoutouDice

WORDS = Words.load(Path(__file__).with_name("routou_dice.words.yaml"))
ACTION_RULES = {"large": "RD-LARGE", "small": "RD-SMALL", "move": "RD-MOVE", "slash": "RD-SLASH",
                "clone": "RD-CLONE", "contract": "RD-GUARD"}
SEAT_FILL = (sc.PAPER, "#3b3b3b")  # A's dice white, B's dark
SEAT_INK = (sc.INK, sc.PAPER)
DESTROY = "#c0392b"
WINDOW_PAD, WINDOW_MIN = 1, 5  # a cropped board: cells round what matters, and its least side
CROPPED_CELL = 24.0  # pt: a cropped board's cell, drawn larger than the whole board's 17
PHASE_BOX, PHASE_GAP = (128.0, 30.0), 14.0  # pt: a phase of the turn drawn beside a board (_phase_strip)
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
    (supply_a, supply_b), (kills_a, kills_b), (stock_a, stock_b) = s.supply, s.kills, s.stock
    lines.append(f"supply A {supply_a} B {supply_b}; kills A {kills_a} B {kills_b}; stock A {stock_a} B {stock_b}")
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
    return _draw(rules, s, moves, lang, window(rules, [s], moves))

def draw_pair(rules: RoutouDice, before: State, moves: Sequence[Move], after: State, lang: str = "en"
              ) -> tuple[sc.Scene, sc.Scene]:
    """Before and after on the same part of the board; under the after board, a player's
    stock and kills in the accent colour when the moves changed them."""
    part = window(rules, [before, after], moves)
    return _draw(rules, before, moves, lang, part), _draw(rules, after, (), lang, part, since=before)

def window(rules: RoutouDice, states: Sequence[State], moves: Sequence[Move]) -> tuple[int, int, int, int]:
    """The part of the board a picture shows (first column, first row, columns, rows): the
    dice on it and the cells the moves touch, WINDOW_PAD cells round them, at least
    WINDOW_MIN cells a side; the whole board when nothing is on it (the empty board is
    then the subject), and no board for an action with no cell on an empty board."""
    geo = rules.geo
    cells = {i for s in states for i, v in enumerate(s.board) if v}
    for m in moves:
        cells.update(m.path)
        cells.update(c for c in (m.cell,) if c is not None)
        cells.update(end for _, end in m.parts)
        cells.update(m.destroys)
        cells.update(geo.index(x, y) for x, y, _ in m.triples if geo.on_board(x, y))
    if not cells:  # an action with no cell on an empty board: its words alone, no board
        return (0, 0, 0, 0) if moves else (0, 0, geo.width, geo.height)
    points = [(x - geo.x0, y - geo.y0) for x, y in map(geo.xy, cells)]
    c0, cols = _span(min(c for c, _ in points), max(c for c, _ in points), geo.width)
    r0, rows = _span(min(r for _, r in points), max(r for _, r in points), geo.height)
    return c0, r0, cols, rows

def _draw(rules: RoutouDice, s: State, moves: Sequence[Move], lang: str, part: tuple[int, int, int, int],
          since: State | None = None) -> sc.Scene:
    geo = rules.geo
    c0, r0, cols, rows = part
    # larger cells when cropped, never a board larger than the whole one drawn at 17 pt
    cell = min(CROPPED_CELL, 17.0 * geo.width / max(cols, 1), 17.0 * geo.height / max(rows, 1))
    grid = sc.Grid(cols, rows, cell, x=14 if cols else 0, y=12 if rows else 0)
    shapes: list[sc.Shape] = [*grid.cells(), *grid.labels(
        cols=[str(geo.x0 + c0 + k) for k in range(cols)], rows=[str(geo.y0 + r0 + k) for k in range(rows)])]

    def cr(i: int) -> tuple[int, int]:  # a cell index as (column, row) of the part shown
        x, y = geo.xy(i)
        return x - geo.x0 - c0, y - geo.y0 - r0

    def inside(i: int) -> bool:
        c, r = cr(i)
        return 0 <= c < cols and 0 <= r < rows

    for i, v in enumerate(s.board):
        if v and inside(i):
            x, y = grid.at(*cr(i))
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
            route = grid.route([cr(c) for c in m.path], colour)
            # a refused move's path dashed: tried, not taken (and the faces it crosses stay readable)
            marks += [replace(z, dash=True) if k == refused and isinstance(z, sc.Line) else z for z in route]
            fails = [m.path[-1]]
        elif m.kind == "clone" and m.cell is not None:
            marks += [grid.arrow(cr(m.cell), cr(end), colour) for _, end in m.parts if end != m.cell]
            marks.append(grid.highlight(*cr(m.cell), colour))
            fails = [m.cell]
        elif m.kind == "contract" and m.cell is not None:
            marks.append(grid.highlight(*cr(m.cell), colour))
            contract, fails = m.cell, [m.cell]
        elif m.kind == "roll" and contract is not None and len(m.dice) == 1 and not s.board[contract]:
            x, y = grid.at(*cr(contract))  # the bodyguard's roll lands on its cell
            seat = s.turn
            marks += sc.die(x + 1.5, y + 1.5, cell - 3, m.dice[0], SEAT_FILL[seat], SEAT_INK[seat], number=True)
            marks.append(grid.highlight(*cr(contract)))
            contract = None
        elif m.kind in ("large", "small", "pass"):  # an action chosen: named under the board
            said.append((WORDS(f"chose_{m.kind}", lang, seat=SEATS[(s.turn + passes) % 2]), colour))
            passes += m.kind == "pass"
        elif m.kind == "roll":
            rolled = m.dice
        elif m.kind == "place":
            declined = list(m.declined) + [False] * len(m.triples)
            filled = {i for i, v in enumerate(s.board) if v}
            for (x, y, value), skip in zip(m.triples, declined, strict=False):
                if geo.on_board(x, y) and inside(geo.index(x, y)):
                    i = geo.index(x, y)
                    # a group aimed at an occupied cell, or with no value (a 0), is not placed: grey
                    shade = colour if skip else sc.GREY if i in filled or value < 1 else sc.ACCENT
                    marks.append(grid.highlight(*cr(i), shade))
                    filled.add(i)
                    if skip:
                        fails.append(i)
            for i in m.destroys:
                x1, y1 = grid.at(*cr(i))
                x2, y2 = x1 + cell, y1 + cell
                marks += [sc.Line(x1 + 1, y1 + 1, x2 - 1, y2 - 1, DESTROY, 1.4),
                          sc.Line(x1 + 1, y2 - 1, x2 - 1, y1 + 1, DESTROY, 1.4)]
        if k == refused:
            for i in fails:
                x, y = grid.at(*cr(i))
                marks += _refusal(grid, x, y, cell)
    height = grid.y + rows * cell + 2
    height += 9
    shapes.append(sc.Label(grid.x, height - 1, _whose_turn(rules, s, lang), 7, sc.INK, "start"))
    for text, colour in said:
        height += 9
        shapes.append(sc.Label(grid.x, height - 1, ("× " if colour == DESTROY else "→ ") + text, 7, colour,
                               "start"))
    for seat, name in enumerate(SEATS):  # each player's stock and kills, under the board
        text = WORDS("counters", lang, seat=name, stock=s.stock[seat], kills=s.kills[seat])
        height += 8
        changed = since is not None and (since.stock[seat], since.kills[seat]) != (s.stock[seat], s.kills[seat])
        shapes.append(sc.Label(grid.x, height - 1, text, 6.5, sc.ACCENT if changed else sc.GREY, "start"))
    height += 1
    strip = _phase_strip(rules, s, moves, refused, lang)
    right = grid.x + cols * cell + 2
    if strip:  # the turn's phases, stacked right of the board (under the words when no board)
        tall = rules.cfg.phases * (PHASE_BOX[1] + PHASE_GAP) - PHASE_GAP
        x, y = (right + 16, grid.y + max(0.0, (rows * cell - tall) / 2)) if cols else (grid.x, height + 4)
        shapes += [sc.shift(z, x, y) for z in strip]
        right = x + PHASE_BOX[0] + 6
        height = max(height, y + tall + 4)
    if rolled:
        size, gap = 12.0, 3.0
        x0 = grid.x + max(0.0, (cols * cell - len(rolled) * (size + gap) + gap) / 2)
        for k, face in enumerate(rolled):
            shapes += sc.die(x0 + k * (size + gap), height + 3, size, face, number=True)
        height += size + 5
    words = max((sc.text_width(z.text, z.size) for z in shapes if isinstance(z, sc.Label)), default=0.0)
    return sc.Scene(max(right, grid.x + words), height, tuple(shapes + marks))



def _whose_turn(rules: RoutouDice, s: State, lang: str) -> str:
    """Who is to play and in which phase; once the game is over, who won and how."""
    if s.result is None:
        return WORDS("turn", lang, seat=SEATS[s.turn], phase=s.phase + 1, phases=rules.cfg.phases)
    end, winners = s.result
    how = text_for(rules.content.labels("end_conditions").get(end, end), lang)
    return WORDS("game_over", lang, seat=WORDS("and", lang).join(SEATS[w] for w in winners), end=how)


def _phase_strip(rules: RoutouDice, s: State, moves: Sequence[Move], refused: int | None, lang: str
                 ) -> list[sc.Shape]:
    """When the refused move is an action chosen in a phase it may not start in: the turn's
    phases as boxes one above the other, the phase it was chosen in outlined in red with the
    refusal badge and "not allowed", the phases that allow it saying so (empty otherwise)."""
    if refused is None:
        return []
    kind = moves[refused].kind
    if kind not in rules.cfg.allowed_phases:
        return []
    state = s
    for m in moves[:refused]:  # the phase the refused action was chosen in
        state, _ = rules.apply(state, m)
    now, allowed = state.phase + 1, rules.cfg.allowed_phases[kind]
    if now in allowed:
        return []
    action = rules.rule_title(ACTION_RULES[kind], lang)
    (w, h), gap = PHASE_BOX, PHASE_GAP
    out: list[sc.Shape] = []
    for p in range(1, rules.cfg.phases + 1):
        y = (p - 1) * (h + gap)
        if p > 1:
            out.append(sc.Line(w / 2, y - gap + 2, w / 2, y - 2, sc.GREY, 1.0, arrow=True))
        here = p == now
        out.append(sc.Rect(0, y, w, h, sc.HIGHLIGHT if here else sc.PAPER, DESTROY if here else sc.GREY,
                           1.6 if here else 0.6, radius=2))
        out.append(sc.Label(6, y + 9, WORDS("phase_now" if here else "phase_n", lang, n=p), 7, sc.INK, "start"))
        if here:
            out.append(sc.Label(6, y + h - 9, WORDS("not_allowed", lang, action=action), 7, DESTROY, "start"))
            r = 5.0
            out += [sc.Circle(w - 2, y + 2, r, DESTROY, sc.PAPER, 0.6),
                    *sc.cross(w - 2 - r, y + 2 - r, 2 * r, sc.PAPER, 1.2, inset=0.3)]
        elif p in allowed:
            out.append(sc.Label(6, y + h - 9, WORDS("allowed", lang, action=action), 7, sc.ACCENT, "start"))
    return out


def rulebook_figure(rules: RoutouDice, name: str, lang: str) -> list[sc.Scene]:
    """'setup': the table at the start (setup_figure)."""
    if name != "setup":
        raise KeyError(name)
    return [setup_figure(rules, lang)]



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


def rulebook_table(rules: RoutouDice, name: str, lang: str) -> list[list[str]]:
    """'actions': the players' table of costs, phases and dice, from rules:;
    'actions_notation': the same with each action's recording notation (for referees)."""
    if name == "zero_odds":
        return _zero_odds(rules, lang)
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


def _zero_odds(rules: RoutouDice, lang: str) -> list[list[str]]:
    """'zero_odds' (for the companion): the exact chance that a placement roll holds no 0,
    enough 0s for a stock, and enough for a destroy, from the dice rolled and the die's
    faces in rules:."""
    cfg = rules.cfg
    rows = [[WORDS(key, lang) for key in ("roll", "no_zero", "zeros_for_stock", "zeros_for_destroy")]]
    for action in ("large", "small"):
        n, p = cfg.roll_dice[action], Fraction(1, cfg.faces)
        exactly = [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]

        def at_least(k: int, exactly: list[Fraction] = exactly) -> str:
            return f"{float(sum(exactly[k:], Fraction(0))) * 100:.1f}%"

        rows.append([WORDS("roll_of", lang, action=rules.rule_title(ACTION_RULES[action], lang), n=n),
                     f"{float(exactly[0]) * 100:.1f}%", at_least(cfg.zeros_stock), at_least(cfg.zeros_destroy)])
    return rows


def rulebook_context(rules: RoutouDice, lang: str) -> dict[str, object]:
    cfg = rules.cfg
    return {"dice_per_player": cfg.dice, "stock_cap": cfg.stock_cap, "kills_to_win": cfg.kills_to_win,
            "line_to_win": cfg.line, "columns": COMMON("range", lang, a=cfg.columns[0], b=cfg.columns[1]),
            "rows": COMMON("range", lang, a=cfg.rows[0], b=cfg.rows[1]), "zeros_stock": cfg.zeros_stock,
            "zeros_destroy": cfg.zeros_destroy, "phases": cfg.phases,
            "large_dice": cfg.roll_dice["large"], "small_dice": cfg.roll_dice["small"]}


def setup_figure(rules: RoutouDice, lang: str) -> sc.Scene:
    """The table at the start, drawn from the initial state: the empty board (its subject:
    nothing is on it yet) with who plays first, and each player's supply of dice in their
    colour beside it (a pile and its count), labelled under each part."""
    state = rules.initial_state(2)
    board = draw(rules, state, (), lang)
    size = 16.0
    parts, labels = [board], [WORDS("setup_board", lang)]
    for seat, name in enumerate(SEATS):
        count = state.supply[seat]
        shapes: list[sc.Shape] = []
        for k in range(min(count, 4)):  # a pile of faceless dice in the seat's colour, its count beside it
            shapes.append(sc.Rect(k * 5, 12 - k * 4, size, size, SEAT_FILL[seat], sc.ROLE_INK["die"], 0.8,
                                  radius=size * 0.18, role="die"))
        shapes.append(sc.Label(3 * 5 + size + 4, 12 + size / 2, f"× {count}", 9, sc.INK, "start"))
        parts.append(sc.Scene(3 * 5 + size + 34, 12 + size, tuple(shapes)))
        labels.append(WORDS("setup_supply", lang, seat=name, n=count))
    return sc.labelled(parts, labels, gap=20)


def _span(low: int, high: int, size: int) -> tuple[int, int]:
    """First index and length of a cropped side: low..high with WINDOW_PAD round it, grown to
    WINDOW_MIN (or the whole side), kept on the board."""
    low, high = max(0, low - WINDOW_PAD), min(size - 1, high + WINDOW_PAD)
    while high - low + 1 < min(WINDOW_MIN, size):
        if high < size - 1:
            high += 1
        if high - low + 1 < min(WINDOW_MIN, size) and low > 0:
            low -= 1
    return low, high - low + 1
