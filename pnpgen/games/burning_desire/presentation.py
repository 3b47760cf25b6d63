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
    or a keep keeps are outlined, a score's bonus written over the dice that earn it and its
    sum under them, a refused reroll crossed out in red. Without dice showing: the totals,
    the seat on turn shaded with its points at stake, and each roll of the multiplier dice
    `moves` make with what it leaves, or the multiplier dice crossed out when refused."""
    if state.dice:
        return _draw_dice(rules, state, moves, lang)
    return _draw_totals(rules, state, moves, lang)


def _draw_dice(rules: BurningDesire, state: State, moves: Sequence[Move], lang: str) -> sc.Scene:
    size, gap, top = 20.0, 7.0, 12.0
    marked = _marked(rules, state, moves)
    shapes: list[sc.Shape] = []
    score = next((m for m in moves if m.kind == "score"), None)
    keep = next((m for m in moves if m.kind == "keep"), None)
    refused = keep is not None and _refused(rules, state, keep)
    br = rules.breakdown(state, score.combination) if score is not None else None
    each = rules.cfg.per_die_all if br is not None and br.count == rules.cfg.dice else rules.cfg.per_die
    for i, face in enumerate(state.dice):
        x = i * (size + gap)
        shapes += sc.die(x, top, size, face)
        if i in marked:
            shapes.append(sc.Rect(x - 2.5, top - 2.5, size + 5, size + 5, None, sc.ACCENT, 1.4, radius=size * 0.25))
        if br is not None and br.bonus and i in marked and face == state.bonus:  # this die earns the bonus
            shapes.append(sc.Label(x + size / 2, top - 7, f"+{each}", 7, sc.ACCENT))
        if refused and i not in marked:  # the reroll the rules refuse
            shapes += sc.cross(x, top, size, REFUSED, 1.8, 0.1)
    x = len(state.dice) * (size + gap) + 3 * gap
    if state.bonus:
        shapes += sc.die(x, top, size, state.bonus, fill=BONUS_FILL)
        if keep is not None and keep.bonus:
            shapes.append(sc.Rect(x - 2.5, top - 2.5, size + 5, size + 5, None, sc.ACCENT, 1.4, radius=size * 0.25))
        elif refused:
            shapes += sc.cross(x, top, size, REFUSED, 1.8, 0.1)
        if br is not None and br.doubled:
            shapes.append(sc.Label(x + size / 2, top - 7, f"×{rules.cfg.double_factor}", 7, sc.ACCENT))
        x += size
    else:
        x -= 3 * gap + gap
    y = top + size + 11
    if state.rolls:  # which roll of the turn this is
        shapes.append(sc.Label(0, y, WORDS("roll_of", lang, n=state.rolls, rolls=rules.cfg.rolls), 7, sc.INK, "start"))
        y += 11
    if br is not None and score is not None:
        combo = rules.cfg.combination(score.combination)
        line = WORDS("score_count", lang, name=combo.title(lang) if combo else score.combination, n=br.count,
                     base=br.base)
        if br.bonus:
            line += WORDS("score_bonus", lang, bonus=br.bonus)
        if br.doubled:
            line += WORDS("score_double", lang, f=rules.cfg.double_factor)
        if br.bonus or br.doubled:
            line += WORDS("score_total", lang, points=br.points)
        shapes.append(sc.Label(0, y, line, 7.5, sc.ACCENT, "start"))
        y += 11
    if keep is not None and not refused:
        shapes.append(sc.Label(0, y, WORDS("keep_line", lang), 7.5, sc.ACCENT, "start"))
        y += 11
    if refused:
        why = "no_roll_left" if state.rolls >= rules.cfg.rolls else "refused_keep"
        shapes.append(sc.Label(0, y, "× " + WORDS(why, lang, n=state.rolls + 1), 7.5, REFUSED, "start"))
        y += 11
    return sc.Scene(x + 6, y - 4, tuple(sc.shift(s, 3, 0) for s in shapes))


def _draw_totals(rules: BurningDesire, state: State, moves: Sequence[Move], lang: str) -> sc.Scene:
    size, gap = 20.0, 7.0
    shapes: list[sc.Shape] = []
    widths = (44.0, 44.0, 50.0)
    rows = [[WORDS("seat_header", lang), WORDS("total", lang), WORDS("this_turn", lang)]]
    for seat, total in enumerate(state.scores):
        stake = str(state.points) if seat == state.turn and state.phase in (GAMBLE, MULTIPLY) else ""
        rows.append([WORDS("seat", lang, n=seat + 1), str(total), stake])
    shapes += sc.table(0.5, 0.5, rows, widths, 12.0, {state.turn + 1: sc.HIGHLIGHT}, size=7.2)
    x, height = sum(widths) + 12, 12.0 * len(rows) + 1
    width = sum(widths) + 1
    dice_y = max(0.0, (height - size) / 2 - 6)
    points = state.points
    for m in moves:  # each roll of the multiplier dice: the pair, and what it leaves
        if m.kind != "mult":
            continue
        for k, face in enumerate(m.dice):
            shapes += sc.die(x + k * (size + 4), dice_y, size, face, fill=MULT_FILL, number=True)
        pair = len(m.dice) * (size + 4) - 4
        if 0 in m.dice:
            text, colour = WORDS("mult_zero", lang), REFUSED
            points = 0
        else:
            points *= math.prod(m.dice)
            text = WORDS("mult_result", lang, faces="×".join(map(str, m.dice)), points=points)
            colour = sc.ACCENT
        shapes.append(sc.Label(x, dice_y + size + 9, text, 7, colour, "start"))
        width = x + max(pair, sc.text_width(text, 7))
        x += max(pair, sc.text_width(text, 7)) + 2 * gap
    gamble = next((m for m in moves if m.kind == "gamble"), None)
    refused = gamble is not None and not _may_gamble(rules, state)
    if refused:  # the multiplier dice the rules refuse, crossed out
        for k, d in enumerate(rules.cfg.multipliers):
            dx = x + k * (size + 4)
            shapes += [sc.Rect(dx, dice_y, size, size, MULT_FILL, sc.ROLE_INK["die"], 0.9, radius=size * 0.18,
                               role="die"),
                       sc.Label(dx + size / 2, dice_y + size / 2, d.name, size * 0.55, sc.INK)]
            shapes += sc.cross(dx, dice_y, size, REFUSED, 1.8, 0.1)
        width = x + len(rules.cfg.multipliers) * (size + 4)
    height = max(height, dice_y + size + 14)
    if state.trigger >= 0 and state.phase != OVER:  # who still plays in the final round or the tie-break
        seats = WORDS("alt_separator", lang).join(WORDS("seat", lang, n=t + 1) for t in (state.turn, *state.to_play))
        text = WORDS("tie_left", lang, n=state.tie_round, seats=seats) if state.tie_round else \
            WORDS("final_left", lang, seats=seats)
        height += 11
        shapes.append(sc.Label(0.5, height - 2, text, 7.5, sc.INK, "start"))
    total = state.scores[state.turn] + state.points
    if state.phase == GAMBLE and not moves:  # the decision that comes next
        key = "may_gamble" if _may_gamble(rules, state) else "adds"
        height += 11
        shapes.append(sc.Label(0.5, height - 2, WORDS(key, lang, seat=state.turn + 1, points=state.points,
                                                      total=total), 7.5, sc.INK, "start"))
    for m in moves:  # the decision after scoring: stopping, or a refused gamble (in red)
        if m.kind == "stop":
            text, colour = "→ " + WORDS("chose_stop", lang, seat=state.turn + 1, total=total), sc.ACCENT
        elif m is gamble and refused:
            why = "no_gamble" if state.trigger < 0 and state.points > 0 else "refused_gamble"
            text = "× " + WORDS(why, lang, total=total, threshold=rules.cfg.threshold)
            colour = REFUSED
        else:
            continue
        height += 11
        shapes.append(sc.Label(0.5, height - 2, text, 7.5, colour, "start"))
    return sc.Scene(width, height, tuple(shapes))


def _refused(rules: BurningDesire, state: State, move: Move) -> bool:
    """Whether the rules refuse `move` from `state`."""
    try:
        rules.apply(state, move)
    except Exception:  # noqa: BLE001 - IllegalMove: refused here
        return True
    return False


def _marked(rules: BurningDesire, state: State, moves: Sequence[Move]) -> list[int]:
    """The main dice (indices) the first score or keep of `moves` counts or keeps."""
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
    return marked


def alt_text(rules: BurningDesire, state: State, moves: Sequence[Move] = (), lang: str = "en") -> str | None:
    """What `draw` shows, in words: the dice and the bonus die with the dice the move counts
    or keeps; or the totals, the seat on turn with its stake, and the multiplier dice the
    moves roll."""
    if state.dice:
        text = WORDS("alt_dice", lang, n=len(state.dice), faces=" ".join(map(str, state.dice)))
        if state.bonus:
            text += WORDS("alt_bonus", lang, b=state.bonus)
        marked = _marked(rules, state, moves)
        if marked:
            text += WORDS("alt_marked", lang, faces=" ".join(str(state.dice[i]) for i in marked))
        if any(m.kind == "keep" and m.bonus for m in moves):
            text += WORDS("alt_bonus_kept", lang)
        return text
    totals = WORDS("alt_separator", lang).join(
        WORDS("alt_total", lang, n=seat + 1, total=total) for seat, total in enumerate(state.scores))
    text = WORDS("alt_totals", lang, totals=totals, n=state.turn + 1)
    if state.phase in (GAMBLE, MULTIPLY):
        text += WORDS("alt_stake", lang, points=state.points)
    faces = [f for m in moves if m.kind == "mult" for f in m.dice]
    if faces:
        text += WORDS("alt_mult", lang, faces=" ".join(map(str, faces)))
    return text


def rulebook_figure(rules: BurningDesire, name: str, lang: str) -> list[sc.Scene]:
    """'setup': the table at the start of a three-player game (setup_figure); 'components':
    the dice, each multiplier die unfolded into its faces (components_figure)."""
    if name == "setup":
        return [setup_figure(rules, lang)]
    if name == "components":
        return [components_figure(rules, lang)]
    raise KeyError(name)


def _may_gamble(rules: BurningDesire, state: State) -> bool:
    """Whether the rules allow the multiplier dice from `state` (asked of the rules)."""
    return not _refused(rules, state, rules.parse_move("gamble", state))


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
        sep = WORDS("item_separator", lang)
        return [head] + [[d.name, sep.join(map(str, d.faces))] for d in cfg.multipliers]
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
    names = WORDS("item_separator", lang).join(d.name for d in cfg.multipliers)
    captions = [WORDS("setup_pad", lang, n=state.turn + 1), WORDS("setup_main", lang, n=cfg.dice),
                WORDS("setup_bonus", lang), WORDS("setup_mult", lang, names=names)]
    return sc.labelled([pad, main, bonus, shared], captions, gap=18)


def components_figure(rules: BurningDesire, lang: str) -> sc.Scene:
    """The dice of the game, each group named under it: the main dice, the bonus die, and each
    multiplier die unfolded into its faces (read from the rules, so a new face shows here)."""
    cfg, size, gap = rules.cfg, 20.0, 5.0
    faces = [k % cfg.faces + 1 for k in range(cfg.dice)]
    parts = [sc.Scene(len(faces) * (size + gap) - gap, size, tuple(sc.dice_row(faces, 0, 0, size, gap))),
             sc.Scene(size, size, tuple(sc.die(0, 0, size, 1, fill=BONUS_FILL)))]
    small = 15.0
    for d in cfg.multipliers:
        parts.append(sc.Scene(len(d.faces) * (small + 3) - 3, small,
                              tuple(sc.dice_row(d.faces, 0, 0, small, 3, fill=MULT_FILL, number=True))))
    captions = [WORDS("setup_main", lang, n=cfg.dice), WORDS("setup_bonus", lang)]
    captions += [WORDS("components_mult", lang, name=d.name, n=len(d.faces)) for d in cfg.multipliers]
    return sc.labelled(parts, captions, gap=16)
