"""Burning Desire for people: the referee's report and the rulebook's values and tables."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from pnpgen import scene as sc
from pnpgen.games.burning_desire.state import CHOOSE, GAMBLE, MULTIPLY, OVER, Move, State
from pnpgen.words import Words

if TYPE_CHECKING:
    from pnpgen.games.burning_desire.game import BurningDesire

BONUS_FILL = "#f3c4c4"  # the bonus die, tinted apart from the white main dice
MULT_FILL = "#d9e4f2"  # multiplier dice
WORDS = Words.load(Path(__file__).with_name("burning_desire.words.yaml"))


REFUSED = "#c0392b"  # a refused decision's mark


# Builds on the analysis: the rulebook quotes the optimal turn's expected score.


def describe(rules: BurningDesire, state: State) -> str | None:
    """The referee's report: totals, the phase, and what each combination would score now."""
    lines = ["Totals: " + ", ".join(f"seat {i + 1} {v}" for i, v in enumerate(state.scores))]
    if state.trigger >= 0:
        rest = ", ".join(str(s + 1) for s in state.to_play) or "none"
        kind = f"tie-break round {state.tie_round}" if state.tie_round else "final round"
        lines.append(f"{kind.capitalize()} (started by seat {state.trigger + 1}); still to play after "
                     f"this turn: {rest}")
    if state.phase == OVER:
        winners = ", ".join(str(w + 1) for w in state.winners)
        return "\n".join(lines + [f"Game over ({state.end}): seat {winners} wins"])
    lines.append(f"Seat {state.turn + 1} to play, phase {state.phase}")
    if state.phase == CHOOSE:
        lines.append(f"Roll {state.rolls} of {rules.cfg.rolls}: {' '.join(map(str, state.dice))}, "
                     f"bonus die {state.bonus}")
        for combo in rules.cfg.combinations:
            br = rules.breakdown(state, combo.id)
            lines.append(f"  score {combo.id}: {br.points} (base {br.base}, bonus {br.bonus}"
                         f"{', doubled' if br.doubled else ''})")
    if state.phase in (GAMBLE, MULTIPLY):
        allowed = "allowed" if rules.gamble_allowed(state) else "not allowed"
        lines.append(f"{state.points} points at stake on \"{state.combination}\"; multiplier dice {allowed}")
    return "\n".join(lines)


def draw(rules: BurningDesire, state: State, moves: Sequence[Move] = (), lang: str = "en") -> sc.Scene:
    """The main dice and, apart, the bonus die (tinted) as faces; the dice a score counts
    or a keep keeps are outlined. Without dice showing: the totals, the seat on turn
    shaded with its points at stake, and the multiplier dice `moves` roll."""
    size, gap = 20.0, 7.0
    marked: list[int] = []
    for m in moves:
        if m.kind == "score":
            combo = rules.cfg.combination(m.combination)
            marked = [i for i, d in enumerate(state.dice) if combo is not None and d in combo.faces]
        elif m.kind == "keep":
            left = list(m.dice)
            for i, d in enumerate(state.dice):
                if d in left:
                    left.remove(d)
                    marked.append(i)
        if marked:
            break
    shapes: list[sc.Shape] = []
    if state.dice:
        for i, face in enumerate(state.dice):
            shapes += sc.die(i * (size + gap), 0, size, face)
            if i in marked:
                shapes.append(sc.Rect(i * (size + gap) - 2.5, -2.5, size + 5, size + 5, None, sc.ACCENT, 1.4,
                                      radius=size * 0.25))
        x = len(state.dice) * (size + gap) + 3 * gap
        if state.bonus:
            shapes += sc.die(x, 0, size, state.bonus, fill=BONUS_FILL)
            bonus_kept = any(m.kind == "keep" and m.bonus for m in moves)
            if bonus_kept:
                shapes.append(sc.Rect(x - 2.5, -2.5, size + 5, size + 5, None, sc.ACCENT, 1.4, radius=size * 0.25))
            x += size
        else:
            x -= 3 * gap + gap
        if state.rolls:  # which roll of the turn this is
            shapes.append(sc.Label(0, size + 11, WORDS("roll_of", lang, n=state.rolls, rolls=rules.cfg.rolls),
                                   7, sc.INK, "start"))
        return sc.Scene(x + 3, size + (17 if state.rolls else 3), tuple(sc.shift(s, 3, 3) for s in shapes))
    # no dice showing: the totals, the seat on turn shaded with the points at stake, and
    # the multiplier dice the moves roll beside them
    widths = (44.0, 44.0, 50.0)
    rows = [[WORDS("seat_header", lang), WORDS("total", lang), WORDS("this_turn", lang)]]
    for seat, total in enumerate(state.scores):
        stake = str(state.points) if seat == state.turn and state.phase in (GAMBLE, MULTIPLY) else ""
        rows.append([WORDS("seat", lang, n=seat + 1), str(total), stake])
    shapes += sc.table(0.5, 0.5, rows, widths, 12.0, {state.turn + 1: sc.HIGHLIGHT}, size=7.2)
    x, height = sum(widths) + 12, 12.0 * len(rows) + 1
    faces = [f for m in moves if m.kind == "mult" for f in m.dice]
    for i, face in enumerate(faces):
        shapes += sc.die(x + i * (size + gap), (height - size) / 2, size, face, fill=MULT_FILL, number=True)
    width = x + len(faces) * (size + gap) if faces else sum(widths) + 1
    height = max(height, size + 2)
    for m in moves:  # the decision after scoring: stop, or gamble (refused in red)
        if m.kind in ("stop", "gamble"):
            refused = m.kind == "gamble" and not _may_gamble(rules, state)
            total = state.scores[state.turn] + state.points
            text = WORDS(f"chose_{m.kind}", lang, seat=state.turn + 1, total=total)
            height += 11
            shapes.append(sc.Label(0.5, height - 2, ("× " if refused else "→ ") + text, 7,
                                   REFUSED if refused else sc.ACCENT, "start"))
    return sc.Scene(width, height, tuple(shapes))


def rulebook_figure(rules: BurningDesire, name: str, lang: str) -> list[sc.Scene]:
    """'setup': the table at the start of a three-player game (setup_figure)."""
    if name != "setup":
        raise KeyError(name)
    return [setup_figure(rules, lang)]


def _may_gamble(rules: BurningDesire, state: State) -> bool:
    """Whether the rules allow the multiplier dice from `state` (asked of the rules)."""
    try:
        rules.apply(state, rules.parse_move("gamble", state))
    except Exception:  # noqa: BLE001 - IllegalMove: the gamble is refused here
        return False
    return True


def rulebook_context(rules: BurningDesire, lang: str) -> dict[str, object]:
    cfg = rules.cfg
    ev = rules.solver.ev
    outcomes = rules._mult_outcomes()
    survive = sum((p for m, p in outcomes if 0 not in m.dice), Fraction(0))
    factor = sum((p * math.prod(m.dice) for m, p in outcomes), Fraction(0))
    return {
        "threshold": cfg.threshold,
        "rolls_per_turn": cfg.rolls,
        "rerolls": cfg.rolls - 1,
        "main_dice": cfg.dice,
        "main_faces": cfg.faces,
        "bonus_faces": cfg.bonus_faces,
        "bonus_per_die": cfg.per_die,
        "bonus_all_counted": cfg.per_die_all,
        "double_factor": cfg.double_factor,
        "multiplier_dice": [{"name": d.name, "faces": list(d.faces)} for d in cfg.multipliers],
        "multiplier_faces": [", ".join(map(str, d.faces)) for d in cfg.multipliers],
        "combinations": [c.title(lang) for c in cfg.combinations],
        "tie_break_rounds": rules.tie_break_cap,
        "players_min": rules.min_players,
        "players_max": rules.max_players,
        "multiplier_survive": survive,
        "multiplier_survive_text": f"{survive.numerator}/{survive.denominator}",
        "multiplier_expected_factor": factor,  # expected multiplier of one gamble (zeros included)
        "multiplier_expected_factor_text": f"{float(factor):.2f}",
        "optimal_turn_ev": ev,
        "optimal_turn_ev_float": float(ev),
        "optimal_turn_ev_text": f"{float(ev):.2f}",
    }


def rulebook_table(rules: BurningDesire, name: str, lang: str) -> list[list[str]]:
    cfg = rules.cfg
    if name == "scores":
        head = [WORDS("combination_header", lang)] + [
            WORDS("dice_one" if k == 1 else "dice_many", lang, k=k) for k in range(1, cfg.dice + 1)]
        return [head] + [[c.title(lang), *map(str, c.points)] for c in cfg.combinations]
    if name == "multipliers":
        head = [WORDS("multiplier_die", lang), WORDS("faces", lang)]
        return [head] + [[d.name, ", ".join(map(str, d.faces))] for d in cfg.multipliers]
    raise KeyError(name)


def setup_figure(rules: BurningDesire, lang: str, players: int = 3) -> sc.Scene:
    """The table at the start, drawn from the game's initial state: the score pad with every
    total at 0 and the first seat shaded, the main dice and the bonus die the first player
    holds, and the multiplier dice within everyone's reach, each group labelled under it."""
    cfg, size, gap = rules.cfg, 20.0, 5.0
    state = rules.initial_state(players)
    pad = draw(rules, state, (), lang)
    faces = [k % cfg.faces + 1 for k in range(cfg.dice)]
    main = sc.Scene(len(faces) * (size + gap) - gap, size, tuple(sc.dice_row(faces, 0, 0, size, gap)))
    bonus = sc.Scene(size, size, tuple(sc.die(0, 0, size, 1, fill=BONUS_FILL)))
    mult: list[sc.Shape] = []
    for k, d in enumerate(cfg.multipliers):  # a multiplier die carries its name, its faces are in the table
        x = k * (size + gap)
        mult += [sc.Rect(x, 0, size, size, MULT_FILL, sc.ROLE_INK["die"], 0.9, radius=size * 0.18, role="die"),
                 sc.Label(x + size / 2, size / 2, d.name, size * 0.55, sc.INK)]
    shared = sc.Scene(len(cfg.multipliers) * (size + gap) - gap, size, tuple(mult))
    names = ("・" if lang == "ja" else ", ").join(d.name for d in cfg.multipliers)
    captions = [WORDS("setup_pad", lang, n=state.turn + 1), WORDS("setup_main", lang, n=cfg.dice),
                WORDS("setup_bonus", lang), WORDS("setup_mult", lang, names=names)]
    return sc.labelled([pad, main, bonus, shared], captions, gap=18)
