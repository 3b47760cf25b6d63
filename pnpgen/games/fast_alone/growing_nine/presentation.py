"""GrowingNine: presentation."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from pnpgen import scene as sc
from pnpgen.content.schema import text_for
from pnpgen.engine.protocol import CHANCE
from pnpgen.games.fast_alone import puzzle
from pnpgen.games.fast_alone.catalogue import WORDS, header
from pnpgen.games.fast_alone.difficulty import settings
from pnpgen.games.fast_alone.growing_nine.rules import (
    ORIENTATIONS,
    RED,
    WON,
    Move,
    State,
    die_text,
)
from pnpgen.games.fast_alone.growing_nine.solver import exact_figures

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.growing_nine import GrowingNine

RED_FILL = "#f0b4b4"  # the red die


def exact_table(sides: Sequence[GrowingNine], lang: str) -> list[list[str]]:
    """Header, then per side: setups sampled, win rate with the best placement and from a
    random placement (95% intervals), positions the solver searched per setup (mean, max;
    deterministic, unlike times, so rebuilt rulebooks stay byte-identical)."""
    rows = [header(lang, "side", "g9.setups", "g9.winnable_best", "interval", "g9.winnable_random", "interval",
                   "g9.positions")]
    for rules in sides:
        _, seed, _ = settings(rules, rules.data)
        e = exact_figures(rules, int(rules.data["exact"]["setups"]), seed)
        cells = [text_for(rules.side_name, lang), str(e.setups)]
        for wins in (e.best, e.placed):
            low, high = e.interval(wins)
            cells += [f"{wins / e.setups:.1%}", f"{low:.1%}–{high:.1%}"]
        cells.append(WORDS("g9.nodes", lang, mean=f"{e.mean_nodes:,.0f}", max=f"{e.max_nodes:,}"))
        rows.append(cells)
    return rows


# The rulebook's values and tables, and a state described for the referee.


def describe(rules: GrowingNine, state: State) -> str | None:
    lines = [f"{text_for(rules.side_name, 'en')}: {rules.n}x{rules.n}, spawn pairs "
             + ", ".join(f"{rules.cell_name(a)}+{rules.cell_name(b)} ({text_for(rules.symbol[a], 'en')})"
                         for a, b in rules.partner.items() if a < b)]
    if not rules.placed(state):
        rolled = " ".join(die_text(1 + o + (RED if i == 0 else 0)) for i, o in enumerate(state.rolled))
        lines.append(f"Setup: rolled {rolled or 'nothing yet'}")
        if rules.current_player(state) == 0:
            spawns = " ".join(map(rules.cell_name, rules.spawn_cells))
            lines.append(f"Place the red and {rules.start_whites} whites on {spawns}")
        return "\n".join(lines)
    for r, text in enumerate(rules.grid_lines(state.cells)):
        lines.append(f"  {rules.n - r}  " + " ".join(f"{w:>4}" for w in text.split()))
    lines.append("     " + " ".join(f"{c:>4}" for c in "abcdefghi"[:rules.n]))
    lines.append(f"Queue: {' '.join(die_text(1 + o) for o in state.queue) or 'empty'}; turns: {state.turns}")
    if state.end:
        lines.append(f"Game over ({state.end}): {'won' if state.end == WON else 'lost'}")
    else:
        movers = rules.movers(state.cells)
        who = "red" if state.cells[movers[0]] > RED else "white"
        lines.append(f"Must move ({who}): {' '.join(rules.cell_name(c) for c in movers)}; legal: "
                     + ", ".join(rules.format_move(m) for m in rules.legal_moves(state)))
    return "\n".join(lines)


def draw(rules: GrowingNine, state: State, moves: Sequence[Move] = (), lang: str = "en") -> sc.Scene:
    """The board as printed (a..i west to east, 1.. south to north, the spawn symbols),
    each die's top face with the number facing north written above it (the red tinted),
    the queue of waiting whites below; a tumble is an arrow."""
    n, cell = rules.n, 24.0
    grid = sc.Grid(n, n, cell, x=12, y=11)
    row = {i: n - 1 - i // n for i in range(rules.size)}  # cell index -> drawn row (north on top)
    shapes: list[sc.Shape] = [*grid.cells(), *grid.labels(
        cols=list("abcdefghi"[:n]), rows=[str(n - r) for r in range(n)], size=7.5)]
    for c in rules.spawn_cells:
        x, y = grid.at(c % n, row[c])  # the symbol printed in the spawn cell's corner
        shapes += sc.symbol(rules.mark[c], x + 4.5, y + 4.5, 3.4, "#d8d8d8", sc.GREY, 0.5)
    size = cell * 0.56
    for i, v in enumerate(state.cells):
        if v:
            top, north, _ = ORIENTATIONS[(v - 1) % RED]
            x, y = grid.at(i % n, row[i])
            red = v > RED
            shapes += sc.die(x + (cell - size) / 2, y + cell - size - 2.5, size, top, RED_FILL if red else sc.PAPER)
            shapes.append(sc.Label(x + cell / 2, y + 4.2, str(north), 5.5, sc.GREY))
    marks: list[sc.Shape] = [grid.arrow((m.cell % n, row[m.cell]), (m.to % n, row[m.to]))
                             for m in moves if m.kind == "tumble"]
    bottom = grid.y + n * cell + 6
    # below: the queue of waiting whites, or during setup the dice rolled (the red first)
    setup = not state.queue and bool(state.rolled)
    waiting = [ORIENTATIONS[o % RED][0] for o in (state.rolled if setup else state.queue)]
    height = bottom
    for k, top in enumerate(waiting):
        shapes += sc.die(grid.x + k * 13.5, bottom, 11, top, RED_FILL if setup and k == 0 else sc.PAPER)
        height = bottom + 13
    width = max(grid.x + n * cell, grid.x + len(waiting) * 13.5) + 2
    return sc.Scene(width, height + 2, tuple(shapes + marks))


# --- rulebook ------------------------------------------------------------------------
def rulebook_figure(rules: GrowingNine, name: str, lang: str) -> list[sc.Scene]:
    """'setup': the collection's table at the start, on this side's board (setup_figure)."""
    if name != "setup":
        raise KeyError(name)
    return [setup_figure(rules, lang)]


def values(rules: GrowingNine, lang: str) -> dict[str, object]:
    return {
        "exact_setups": int(rules.data["exact"]["setups"]),
        "size": rules.n,
        "whites": rules.whites,
        "start_whites": rules.start_whites,
        "queued": rules.whites - rules.start_whites,
        "spawn_pairs": WORDS("g9.pair_separator", lang).join(
            f"{rules.cell_name(a)}–{rules.cell_name(b)}" for a, b in rules.partner.items() if a < b),
    }


def tables(rules: GrowingNine) -> dict[str, Callable[[str], list[list[str]]]]:
    return {**puzzle.tables(rules), "exact": partial(exact_table, rules.siblings)}


def setup_state(rules: GrowingNine, seed: int = 1) -> State:
    """A board after its setup: the dice rolled and the red and first whites placed on the spawn
    corners, by seeded draws and the first legal placement."""
    rng = random.Random(seed)
    state = rules.initial_state(1)
    while not rules.placed(state):
        if rules.current_player(state) == CHANCE:
            outcomes = rules.chance_outcomes(state)
            move = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            move = rules.legal_moves(state)[0]
        state = rules.apply(state, move)[0]
    return state


def setup_figure(rules: GrowingNine, lang: str) -> sc.Scene:
    """The table at the start of a game, drawn from a setup state: the board sheet with the red
    die and the first whites placed and the other whites waiting below it, the marker, and the
    timer set to the game's minutes; labelled under each part."""
    state = setup_state(rules)
    board = draw(rules, state, (), lang)
    pen = sc.Scene(70, 14, (sc.Rect(0, 3, 54, 8, "#3d5a80", sc.INK, 0.6, radius=2),
                            sc.Rect(54, 4.5, 8, 5, sc.PAPER, sc.INK, 0.6),
                            sc.Polygon(((62, 4.5), (69, 7), (62, 9.5)), sc.INK, sc.INK, 0.4)))
    minutes = int(str(rules.content.data["time_minutes"]))
    timer = sc.Scene(36, 36, (sc.Circle(18, 18, 17, sc.PAPER, sc.INK, 1.0),
                              sc.Label(18, 18, f"{minutes}:00", 9, sc.INK)))
    labels = [WORDS("g9.setup_board", lang, side=text_for(rules.side_name, lang),
                    placed=rules.start_whites, waiting=len(state.queue)),
              WORDS("g9.setup_marker", lang), WORDS("g9.setup_timer", lang, minutes=minutes)]
    return sc.labelled([board, pen, timer], labels, gap=18)
