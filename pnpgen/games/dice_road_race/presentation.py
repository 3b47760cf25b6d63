"""The Dice Road Race for people: the standings as the referee prints them, and the
rulebook's values and tables (words in dice_road_race.words.yaml)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pnpgen import scene as sc
from pnpgen.content.schema import text_for
from pnpgen.examples import load_examples
from pnpgen.games.dice_road_race.config import RaceConfig, Stage
from pnpgen.games.dice_road_race.model import Move, State
from pnpgen.games.dice_road_race.race import RaceReport, stage_lines
from pnpgen.games.dice_road_race.report import describe_race
from pnpgen.words import COMMON, Words

if TYPE_CHECKING:
    from pnpgen.games.dice_road_race.game import StageRace

WORDS = Words.load(Path(__file__).with_name("dice_road_race.words.yaml"))
COURSE_LABEL_W = 120.0  # pt: the course picture's stage names, left of the boards
# the boards' tint per stage type, in the order game.yaml lists the types (a key says which)
CHART_INK = sc.INK  # not a role ink: the diagram tests count table rows by theirs
RETIRED_FILL = "#e4e4e4"  # a retired rider's row in the standings
TYPE_TINTS = ("#dcebd0", "#ead5bd", "#f1e7b8", "#d3e3f1", "#eed6e4", "#e2e2e2")


# Builds on the state files: a worked example's standings come from its race file.


def describe(rules: StageRace, state: State) -> str | None:
    text = describe_race(rules.cfg, rules.report(state))
    live = state.live
    if live is not None and (live.rolls != (0,) * len(live.rolls) or live.retired):
        name = state.race.players[live.turn]
        text += f"\nStage {live.stage} in progress ({live.phase}); {name} to play."
    return text


def draw(rules: StageRace, state: State, moves: Sequence[Move] = (), lang: str = "en") -> sc.Scene | None:
    """The standings after the last stage played, as a small table: the rider who wears
    the leader colour in the next stage has the row in that colour; a road stage in progress
    with a finisher, as the stage so far (_stage_so_far)."""
    live = state.live
    if live is not None and (live.winners_turn or live.retired) and live.phase != "time_trial":
        return _stage_so_far(rules, state, lang)
    if live is not None and live.phase == "time_trial" and any(live.rolls):
        return _time_trial_rounds(rules, state, lang)
    report = rules.report(state)
    if not report.stages:
        return None
    standings = _standings(rules, report, lang)
    last = report.stages[-1]
    if not any(line.ride for line in last.riders) or last.retired or last.dice_after is not None:
        return standings
    results = _time_trial_results(rules, report, lang)  # a time trial just ridden: its times, then the standings
    return sc.Scene(max(results.width, standings.width), results.height + 8 + standings.height,
                    results.shapes + standings.moved(0, results.height + 8))


def _standings(rules: StageRace, report: RaceReport, lang: str) -> sc.Scene:
    """The standings after the last stage, the next leader's row in the leader colour; then
    each retired rider, with no time; and, when the race file gives the dice each rider
    holds, the dice each starts the next stage with (after recovery, or back from retiring)."""
    last = report.stages[-1]
    names, unit = report.race.players, rules.cfg.unit_text(lang)
    dice = last.dice_after
    head = ("rank", "rider", "total", "gap") + (("dice_next",) if dice else ())
    rows = [[WORDS(key, lang) for key in head]]
    fills: dict[int, str] = {}
    for index, st in enumerate(last.standings, start=1):
        gap = "–" if st.rank == 1 else "+" + WORDS("time", lang, value=st.gap, unit=unit)
        rows.append([WORDS("place", lang, n=st.rank), names[st.seat],
                     WORDS("time", lang, value=st.total, unit=unit).replace("-", "−"), gap]
                    + ([str(dice[st.seat])] if dice else []))
        if last.leader == st.seat:
            fills[index] = rules.cfg.leader_swatch
    for seat in last.out:  # retired: no total kept, out of the standings
        fills[len(rows)] = RETIRED_FILL
        rows.append(["–", names[seat], WORDS("retired", lang), ""] + ([str(dice[seat])] if dice else []))
    widths = _fit([46.0, 46.0, 56.0, 50.0] + ([70.0] if dice else []), rows)
    height = 12.0
    shapes = sc.table(0.5, 0.5, rows, widths, height, fills, size=7.2)
    title = WORDS("standings_after", lang, n=last.stage.number)
    shapes = [sc.Label(0.5, 5, title, 7.2, sc.INK, "start"), *(sc.shift(s, 0, 10) for s in shapes)]
    return sc.Scene(sum(widths) + 1, height * len(rows) + 11, tuple(shapes))


def _fit(widths: list[float], rows: list[list[str]], size: float = 7.2) -> list[float]:
    """Column widths grown where a cell's words would run past its column."""
    return [max([w] + [sc.text_width(row[k], size) + 8 for row in rows]) for k, w in enumerate(widths)]


def _time_trial_results(rules: StageRace, report: RaceReport, lang: str) -> sc.Scene:
    """A time trial just ridden: each rider's rolls, pips left over at the finish and stage
    time (rolls × seconds per roll − pips), fastest first, the winner's row highlighted."""
    last = report.stages[-1]
    names, unit = report.race.players, rules.cfg.unit_text(lang)
    rows = [[WORDS(key, lang) for key in ("stage_place", "rider", "rolls", "pips_left", "stage_time")]]
    lines = sorted((line for line in last.riders if line.ride), key=lambda line: (line.place or 0, line.seat))
    for line in lines:
        assert line.ride is not None
        rows.append([WORDS("place", lang, n=line.place), names[line.seat], str(line.ride.rolls),
                     str(line.ride.leftover), WORDS("time", lang, value=line.added, unit=unit)])
    widths, height = _fit([58.0, 40.0, 58.0, 66.0, 60.0], rows), 12.0
    fills = {k + 1: sc.HIGHLIGHT for k, line in enumerate(lines) if line.place == 1}
    shapes = sc.table(0.5, 0.5, rows, widths, height, fills, size=7.2)
    title = WORDS("tt_results", lang, n=last.stage.number)
    shapes = [sc.Label(0.5, 5, title, 7.2, sc.INK, "start"), *(sc.shift(s, 0, 10) for s in shapes)]
    return sc.Scene(sum(widths) + 1, height * len(rows) + 11, tuple(shapes))


def _time_trial_rounds(rules: StageRace, state: State, lang: str) -> sc.Scene:
    """A time trial under way: a chart of who rides in which round, the riders in start
    order (lowest in the standings first), a start every `start_every_rounds` rounds (the
    start round dark, later rounds light), the round being played outlined, and each
    rider's rolls so far."""
    live = state.live
    assert live is not None
    every, names = rules.cfg.tt_start_every, state.race.players
    rounds = max(1 + (len(live.tt_order) - 1) * every, live.tt_round)
    name_w, col, height, top = 44.0, 20.0, 13.0, 26.0
    shapes: list[sc.Shape] = [
        sc.Label(0, 5, WORDS("tt_rounds", lang, n=live.stage), 7.2, sc.INK, "start"),
        sc.Label(name_w - 4, top - 6, WORDS("round", lang), 6.5, sc.GREY, "end")]
    for r in range(1, rounds + 1):
        shapes.append(sc.Label(name_w + (r - 0.5) * col, top - 6, str(r), 6.5, sc.GREY))
    for i, seat in enumerate(live.tt_order):
        y, start = top + i * height, 1 + i * every
        shapes.append(sc.Label(0, y + height / 2, names[seat], 7.2, sc.INK, "start"))
        for r in range(1, rounds + 1):
            fill = sc.ACCENT if r == start else sc.HIGHLIGHT if r > start else sc.PAPER
            shapes.append(sc.Rect(name_w + (r - 1) * col, y, col, height, fill, CHART_INK, 0.4))
        rolls = WORDS("rolls_so_far", lang, n=live.rolls[seat])
        shapes.append(sc.Label(name_w + rounds * col + 6, y + height / 2, rolls, 7, sc.INK, "start"))
    now = name_w + (live.tt_round - 1) * col
    bottom = top + len(live.tt_order) * height
    shapes += [sc.Rect(now, top - 12, col, bottom - top + 12, None, sc.ACCENT, 1.6),
               sc.Label(now + col / 2, bottom + 7, WORDS("now", lang), 6.5, sc.ACCENT)]
    key_y = bottom + 18
    shapes += [sc.Rect(0, key_y - 4, 10, 8, sc.ACCENT, CHART_INK, 0.4),
               sc.Label(13, key_y, WORDS("key_starts", lang), 6.8, sc.INK, "start"),
               sc.Rect(80, key_y - 4, 10, 8, sc.HIGHLIGHT, CHART_INK, 0.4),
               sc.Label(93, key_y, WORDS("key_rides", lang), 6.8, sc.INK, "start")]
    width = name_w + rounds * col + 6 + max(sc.text_width(WORDS("rolls_so_far", lang, n=n), 7) for n in live.rolls)
    return sc.Scene(width, key_y + 7, tuple(shapes))


def _stage_so_far(rules: StageRace, state: State, lang: str) -> sc.Scene:
    """A road stage in progress: each rider who has finished with their stage place and
    stage time (added plus bonus, as the rules give it at the finish), then the riders
    still on the course."""
    live = state.live
    assert live is not None
    stage = rules.cfg.course[live.stage - 1]
    names, unit = state.race.players, rules.cfg.unit_text(lang)
    finished = rules._result(live)
    lines = {line.seat: line for line in stage_lines(rules.cfg, stage, finished, len(names))}
    rows = [[WORDS(key, lang) for key in ("stage_place", "rider", "stage_time")]]
    for seat in finished.finishers:
        line = lines[seat]
        rows.append([WORDS("place", lang, n=line.place), names[seat],
                     WORDS("time", lang, value=line.time, unit=unit).replace("-", "−")])
    rows += [["", names[s], WORDS("riding", lang)] for s in range(len(names)) if live.racing[s]]
    widths, height = [60.0, 46.0, 70.0], 12.0
    shapes = sc.table(0.5, 0.5, rows, widths, height, {k + 1: sc.HIGHLIGHT for k in range(len(finished.finishers))},
                      size=7.2)
    title = WORDS("stage_so_far", lang, n=live.stage)
    shapes = [sc.Label(0.5, 5, title, 7.2, sc.INK, "start"), *(sc.shift(s, 0, 10) for s in shapes)]
    return sc.Scene(sum(widths) + 1, height * len(rows) + 11, tuple(shapes))


def rulebook_figure(rules: StageRace, name: str, lang: str) -> list[sc.Scene]:
    """'setup': the table before stage 1 (setup_figure);
    'course': one row per stage, start to finish (_course_rows)."""
    if name == "setup":
        return setup_figure(rules, lang)
    if name != "course":
        raise KeyError(name)
    return _course_rows(rules, lang)


def _course_rows(rules: StageRace, lang: str) -> list[sc.Scene]:
    """One row per stage, then the key: each stage as the table lays it out, start to finish
    (_stage_row), every row as wide as the longest so the boards line up."""
    longest = max(len(stage.boards) for stage in rules.cfg.course)
    rows = [_stage_row(rules, stage, lang, longest) for stage in rules.cfg.course]
    width = max(row.width for row in rows)
    return [sc.Scene(width, row.height, row.shapes) for row in rows] + [_course_key(rules, lang)]


def _tint(rules: StageRace, stage_type: str) -> str:
    """The boards' tint for a stage type: the palette in the order game.yaml lists the types."""
    return TYPE_TINTS[list(rules.cfg.stage_types).index(stage_type) % len(TYPE_TINTS)]


def _badge(x: float, y: float, number: int, dark: bool) -> list[sc.Shape]:
    """A board's number as printed in its lower right corner: white on black, or black on white."""
    return [sc.Rect(x, y, 11, 10, sc.INK if dark else sc.PAPER, sc.INK, 0.6, radius=1.5),
            sc.Label(x + 5.5, y + 5, str(number), 7, sc.PAPER if dark else sc.INK)]


def _finish(x: float, y: float, h: float) -> list[sc.Shape]:
    """The finish line: a chequered post."""
    return [sc.Rect(x, y + k * h / 4, 5, h / 4, sc.INK if k % 2 else sc.PAPER, sc.INK, 0.4) for k in range(4)]


def _stage_row(rules: StageRace, stage: Stage, lang: str, longest: int) -> sc.Scene:
    """A stage laid out: its number, type (with the type's tint) and total cost on the left;
    the start arrow; its boards end to end in the table's order, tinted by the type, each
    with its number in the lower right corner in the colour printed there (black or white);
    the finish post; under the boards, what the stage's rules add at the finish (bonus
    places, or a time trial's staggered starts) and its note from the course table."""
    cfg, unit = rules.cfg, rules.cfg.unit_text(lang)
    label_w, board_w, board_h, gap, top = COURSE_LABEL_W, 78.0, 26.0, 3.0, 3.0
    tint = _tint(rules, stage.type)
    shapes: list[sc.Shape] = [
        sc.Label(0, top + 5, WORDS("stage_label", lang, n=stage.number), 8.5, sc.INK, "start"),
        sc.Rect(0, top + 12, 8, 8, tint, sc.INK, 0.4),
        sc.Label(11, top + 16, cfg.type_name(stage.type, lang), 7, sc.INK, "start"),
        sc.Label(0, top + 27, WORDS("cost_label", lang, cost=stage.total_cost), 7, sc.GREY, "start"),
        sc.Label(label_w - 13, top + 6, WORDS("start", lang), 6.5, sc.GREY),
        sc.Line(label_w - 24, top + board_h / 2 + 3, label_w - 3, top + board_h / 2 + 3, sc.ACCENT, 1.4,
                arrow=True),
    ]
    x = label_w
    for number, side in stage.boards:
        shapes.append(sc.Rect(x, top, board_w, board_h, tint, sc.INK, 0.8, radius=2))
        shapes.append(sc.Label(x + board_w / 2, top + board_h / 2 - 2, WORDS("board_label", lang, n=number),
                               7, sc.INK))
        shapes += _badge(x + board_w - 13, top + board_h - 12, number, side == "black")
        x += board_w + gap
    shapes += _finish(x + 1, top, board_h)
    shapes.append(sc.Label(x + 10, top + board_h / 2, WORDS("finish", lang), 6.5, sc.GREY, "start"))
    rules_said: list[str] = []
    if not stage.time_trial or cfg.tt_bonus:
        bonus = " / ".join(f"−{b}" for b in cfg.bonus)
        rules_said.append(WORDS("row_bonus", lang, bonus=bonus, unit=unit, places=len(cfg.bonus)))
    if stage.time_trial:
        rules_said.append(WORDS("row_time_trial", lang, every=cfg.tt_start_every))
    else:
        rules_said.append(WORDS("row_extra_round", lang))
    lines = [WORDS("row_sep", lang).join(rules_said)] + ([text_for(stage.note, lang)] if stage.note else [])
    y = top + board_h + 9
    for k, line in enumerate(lines):  # the note, the stage's own rule, stands out on its own line
        shapes.append(sc.Label(label_w, y, line, 6.8, sc.ACCENT if k or stage.time_trial else sc.GREY, "start"))
        y += 10
    width = max(label_w + longest * (board_w + gap) + 40, *(label_w + sc.text_width(s, 6.8) + 4 for s in lines))
    return sc.Scene(width, y - 2, tuple(shapes))


def _course_key(rules: StageRace, lang: str) -> sc.Scene:
    """The key under the course: each stage type's tint, the two colours a board number is
    printed in, the start arrow and the finish post."""
    cfg = rules.cfg
    used = [t for t in cfg.stage_types if any(s.type == t for s in cfg.course)]
    shapes: list[sc.Shape] = [sc.Label(0, 6, WORDS("key", lang), 7.5, sc.INK, "start")]
    x = 0.0
    for stage_type in used:  # first line: the stage types
        name = cfg.type_name(stage_type, lang)
        shapes += [sc.Rect(x, 14, 16, 10, _tint(rules, stage_type), sc.INK, 0.6, radius=1.5),
                   sc.Label(x + 20, 19, name, 7, sc.INK, "start")]
        x += 20 + sc.text_width(name, 7) + 14
    x, y = 0.0, 32.0
    for side, dark in (("black", True), ("white", False)):  # second line: sides, start, finish
        words = WORDS("key_side", lang, side=text_for(cfg.board_sides[side], lang))
        shapes += _badge(x, y, 2, dark) + [sc.Label(x + 15, y + 5, words, 7, sc.INK, "start")]
        x += 15 + sc.text_width(words, 7) + 14
    shapes += [sc.Line(x, y + 5, x + 18, y + 5, sc.ACCENT, 1.4, arrow=True),
               sc.Label(x + 22, y + 5, WORDS("key_start", lang), 7, sc.INK, "start")]
    x += 22 + sc.text_width(WORDS("key_start", lang), 7) + 14
    shapes += _finish(x, y - 1, 12) + [sc.Label(x + 9, y + 5, WORDS("key_finish", lang), 7, sc.INK, "start")]
    x += 9 + sc.text_width(WORDS("key_finish", lang), 7)
    return sc.Scene(max(x, 10.0), y + 14, tuple(shapes))


def rulebook_context(rules: StageRace, lang: str) -> dict[str, object]:
    cfg = rules.cfg
    return {
        "bonus": list(cfg.bonus),
        "added_winners_turn": cfg.added_winners_turn,
        "added_extra_round": cfg.added_extra_round,
        "added_not_finished": cfg.added_not_finished,
        "recover_dice": cfg.recover_dice,
        "max_dice": cfg.max_dice,
        "retire_dice": cfg.retire_dice,
        "tt_seconds_per_roll": cfg.tt_seconds_per_roll,
        "tt_start_every": cfg.tt_start_every,
        "leader_max_players": cfg.leader_max_players,
        "stages": len(cfg.course),
        "unit": cfg.unit_text(lang),
        "start_dice": cfg.model.start_dice,
        "excluded_face": cfg.model.excluded_face,
    }


def rulebook_table(rules: StageRace, name: str, lang: str) -> list[list[str]]:
    if name.startswith("standings/"):
        return _example_standings(rules, name, lang)
    return rulebook_tables(rules.cfg, name, lang)


def _example_standings(rules: StageRace, name: str, lang: str) -> list[list[str]]:
    """'standings/<example id>/<stage>': the standings a worked example's race file gives."""
    parts = name.split("/")
    if len(parts) != 3:
        raise KeyError(name)
    _, example_id, stage = parts
    example = next((e for e in load_examples(rules.content) if e["id"] == example_id), None)
    if example is None or not stage.isdigit():
        raise KeyError(name)
    report = rules.report(rules.from_data(example["state"]))
    if not 1 <= int(stage) <= len(report.stages):
        raise KeyError(name)
    names, unit = report.race.players, rules.cfg.unit_text(lang)
    rows = [[WORDS(key, lang) for key in ("rank", "rider", "total", "gap")]]
    for st in report.stages[int(stage) - 1].standings:
        gap = "-" if st.rank == 1 else "+" + WORDS("time", lang, value=st.gap, unit=unit)
        total = WORDS("time", lang, value=st.total, unit=unit)
        rows.append([WORDS("place", lang, n=st.rank), names[st.seat], total, gap])
    return rows


def setup_figure(rules: StageRace, lang: str, players: int = 4) -> list[sc.Scene]:
    """The table before stage 1, drawn from the initial state: stage 1's boards from start to
    finish; each rider's piece on the start with the dice the state gives them; the leader
    colour's piece left unpicked; and the standings sheet with no time yet. Labelled under
    each part."""
    state = rules.initial_state(players)
    live = state.live
    assert live is not None
    names, size = state.race.players, 12.0
    course = _course_rows(rules, lang)[live.stage - 1]
    pieces: list[sc.Shape] = []  # every rider's piece on the start, at the first board's left end
    for seat, name in enumerate(names):
        pieces += sc.token(COURSE_LABEL_W + 8 + (seat // 2) * 11, 3 + 7 + (seat % 2) * 12, 5, sc.PAPER, name)
    course = sc.Scene(course.width, course.height, course.shapes + tuple(pieces))
    riders: list[sc.Scene] = []
    labels: list[str] = []
    for seat, name in enumerate(names):
        shapes: list[sc.Shape] = [*sc.token(8, 8, 8, sc.PAPER, name)]
        for k in range(live.dice[seat]):  # the rider's dice, a small pile beside the piece
            shapes.append(sc.Rect(20 + k * 4, 4 - k * 1.5 + 6, size, size, sc.PAPER, sc.ROLE_INK["die"], 0.7,
                                  radius=2, role="die"))
        riders.append(sc.Scene(20 + (live.dice[seat] - 1) * 4 + size + 1, 22, tuple(shapes)))
        labels.append(WORDS("setup_rider", lang, name=name, n=live.dice[seat]))
    riders.append(sc.Scene(16, 22, tuple(sc.token(8, 8, 8, rules.cfg.leader_swatch))))
    labels.append(WORDS("setup_leader", lang))
    sheet = _sheet(state, lang)
    return [course, sc.labelled(riders, labels, gap=16), sc.labelled([sheet], [WORDS("setup_sheet", lang)])]


def _sheet(state: State, lang: str) -> sc.Scene:
    """The standings sheet before any stage: every rider listed, no time yet."""
    rows = [[WORDS(key, lang) for key in ("rank", "rider", "total", "gap")]]
    rows += [["", name, "", ""] for name in state.race.players]
    widths, height = [46.0, 46.0, 56.0, 50.0], 12.0
    return sc.Scene(sum(widths) + 1, height * len(rows) + 1, tuple(sc.table(0.5, 0.5, rows, widths, height,
                                                                         size=7.2)))


def rulebook_tables(cfg: RaceConfig, name: str, lang: str) -> list[list[str]]:
    """Tables the rulebook prints, built from the rules data."""

    def time(value: str) -> str:  # 10秒, 10 s
        return WORDS("time", lang, value=value, unit=cfg.unit_text(lang))

    if name == "course":
        rows = [[WORDS(key, lang) for key in ("stage", "type", "boards", "total_cost", "note")]]
        for s in cfg.course:
            boards = COMMON("list_separator", lang).join(
                COMMON("aside", lang, text=b, note=text_for(cfg.board_sides[side], lang)) for b, side in s.boards)
            rows.append([str(s.number), cfg.type_name(s.type, lang), boards, str(s.total_cost),
                         text_for(s.note, lang) if s.note else ""])
        return rows
    if name == "bonus":
        head = [WORDS("stage_place", lang), WORDS("bonus_time", lang)]
        return [head] + [[WORDS("place", lang, n=i + 1), time(f"−{b}")] for i, b in enumerate(cfg.bonus)]
    if name == "time_rules":
        return [
            [WORDS("situation", lang), WORDS("time_header", lang)],
            [WORDS("finished_winners_turn", lang), time(f"+{cfg.added_winners_turn}")],
            [WORDS("finished_extra_round", lang), time(f"+{cfg.added_extra_round}")],
            [WORDS("not_finished", lang), time(f"+{cfg.added_not_finished}")],
            [WORDS("bonus_places", lang), time(" / ".join(f"−{b}" for b in cfg.bonus))],
            [WORDS("time_trial", lang), WORDS("time_trial_time", lang, seconds=cfg.tt_seconds_per_roll)],
            [WORDS("recovery", lang), WORDS("recovery_rule", lang, dice=cfg.recover_dice, max=cfg.max_dice)],
            [WORDS("after_retiring", lang), WORDS("after_retiring_rule", lang, dice=cfg.retire_dice)],
        ]
    if name == "order":  # the quick reference's orders: time-trial starts, ties, the leader colour
        return [
            [WORDS("situation", lang), WORDS("order_header", lang)],
            [WORDS("time_trial", lang), WORDS("tt_order_rule", lang, every=cfg.tt_start_every)],
            [WORDS("level_on_time", lang), WORDS("level_rule", lang)],
            [WORDS("leader_colour", lang), WORDS("leader_rule", lang, players=cfg.leader_max_players)],
        ]
    if name == "model":
        head = [WORDS("stage_type", lang), WORDS("cell_costs", lang)]
        return [head] + [[cfg.type_name(t, lang), ", ".join(map(str, c))] for t, c in cfg.model.cell_costs.items()]
    raise KeyError(name)
