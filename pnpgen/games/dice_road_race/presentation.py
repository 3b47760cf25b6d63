"""The Dice Road Race for people: the standings as the referee prints them, and the
rulebook's values and tables (words in dice_road_race.words.yaml)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pnpgen import scene as sc
from pnpgen.content.schema import text_for
from pnpgen.examples import load_examples
from pnpgen.games.dice_road_race.config import RaceConfig
from pnpgen.games.dice_road_race.model import Move, State
from pnpgen.games.dice_road_race.race import stage_lines
from pnpgen.games.dice_road_race.report import describe_race
from pnpgen.words import Words

if TYPE_CHECKING:
    from pnpgen.games.dice_road_race.game import StageRace

WORDS = Words.load(Path(__file__).with_name("dice_road_race.words.yaml"))
COURSE_LABEL_W = 120.0  # pt: the course picture's stage names, left of the boards


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
    report = rules.report(state)
    if not report.stages:
        return None
    last = report.stages[-1]
    names, unit = report.race.players, rules.cfg.unit_text(lang)
    rows = [[WORDS(key, lang) for key in ("rank", "rider", "total", "gap")]]
    fills: dict[int, str] = {}
    for index, st in enumerate(last.standings, start=1):
        gap = "–" if st.rank == 1 else "+" + WORDS("time", lang, value=st.gap, unit=unit)
        rows.append([WORDS("place", lang, n=st.rank), names[st.seat],
                     WORDS("time", lang, value=st.total, unit=unit).replace("-", "−"), gap])
        if last.leader == st.seat:
            fills[index] = rules.cfg.leader_swatch
    widths = [46.0, 46.0, 56.0, 50.0]
    height = 12.0
    shapes = sc.table(0.5, 0.5, rows, widths, height, fills, size=7.2)
    return sc.Scene(sum(widths) + 1, height * len(rows) + 1, tuple(shapes))


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
    """One row per stage, start to finish: the stage's number, type and total cost, then its
    boards laid end to end as the table lists them, each with its number in the lower right
    corner on the colour printed there (black or white), a flag at the finish."""
    rows: list[sc.Scene] = []
    label_w, board_w, board_h, gap = COURSE_LABEL_W, 78.0, 26.0, 3.0
    for stage in rules.cfg.course:
        shapes: list[sc.Shape] = [
            sc.Label(0, 9, WORDS("stage_label", lang, n=stage.number), 8.5, sc.INK, "start"),
            sc.Label(0, 20, f"{rules.cfg.type_name(stage.type, lang)} · "
                     + WORDS("cost_label", lang, cost=stage.total_cost), 7, sc.GREY, "start")]
        x = label_w
        shapes.append(sc.Label(x - 4, board_h / 2 + 3, WORDS("start", lang), 6.5, sc.GREY, "end"))
        for number, side in stage.boards:
            dark = side == "black"
            shapes.append(sc.Rect(x, 3, board_w, board_h, "#eef3e8", sc.INK, 0.8, radius=2))
            shapes.append(sc.Label(x + board_w / 2, 3 + board_h / 2, WORDS("board_label", lang, n=number),
                                   7, sc.GREY))
            bx, by = x + board_w - 13, 3 + board_h - 12
            shapes.append(sc.Rect(bx, by, 11, 10, sc.INK if dark else sc.PAPER, sc.INK, 0.6, radius=1.5))
            shapes.append(sc.Label(bx + 5.5, by + 5, str(number), 7, sc.PAPER if dark else sc.INK))
            x += board_w + gap
        for k in range(4):  # the finish: a chequered post
            shapes.append(sc.Rect(x + 1, 3 + k * board_h / 4, 5, board_h / 4, sc.INK if k % 2 else sc.PAPER,
                                  sc.INK, 0.4))
        shapes.append(sc.Label(x + 10, board_h / 2 + 3, WORDS("finish", lang), 6.5, sc.GREY, "start"))
        note = text_for(stage.note, lang) if stage.note else ""
        if note:
            shapes.append(sc.Label(label_w, board_h + 12, note, 6.5, sc.GREY, "start"))
        rows.append(sc.Scene(x + 40, board_h + (16 if note else 8), tuple(shapes)))
    return rows


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
    unit = ("" if lang == "ja" else " ") + cfg.unit_text(lang)  # 10秒, 10 s
    if name == "course":
        rows = [[WORDS(key, lang) for key in ("stage", "type", "boards", "total_cost", "note")]]
        for s in cfg.course:
            boards = ("、" if lang == "ja" else ", ").join(
                f"{b}（{text_for(cfg.board_sides[side], lang)}）" if lang == "ja"
                else f"{b} ({text_for(cfg.board_sides[side], lang)})" for b, side in s.boards)
            rows.append([str(s.number), cfg.type_name(s.type, lang), boards, str(s.total_cost),
                         text_for(s.note, lang) if s.note else ""])
        return rows
    if name == "bonus":
        head = [WORDS("stage_place", lang), WORDS("bonus_time", lang)]
        return [head] + [[WORDS("place", lang, n=i + 1), f"−{b}{unit}"] for i, b in enumerate(cfg.bonus)]
    if name == "time_rules":
        return [
            [WORDS("situation", lang), WORDS("time_header", lang)],
            [WORDS("finished_winners_turn", lang), f"+{cfg.added_winners_turn}{unit}"],
            [WORDS("finished_extra_round", lang), f"+{cfg.added_extra_round}{unit}"],
            [WORDS("not_finished", lang), f"+{cfg.added_not_finished}{unit}"],
            [WORDS("bonus_places", lang), " / ".join(f"−{b}" for b in cfg.bonus) + unit],
            [WORDS("time_trial", lang), WORDS("time_trial_time", lang, seconds=cfg.tt_seconds_per_roll)],
            [WORDS("recovery", lang), WORDS("recovery_rule", lang, dice=cfg.recover_dice, max=cfg.max_dice)],
            [WORDS("after_retiring", lang), WORDS("after_retiring_rule", lang, dice=cfg.retire_dice)],
        ]
    if name == "model":
        head = [WORDS("stage_type", lang), WORDS("cell_costs", lang)]
        return [head] + [[cfg.type_name(t, lang), ", ".join(map(str, c))] for t, c in cfg.model.cell_costs.items()]
    raise KeyError(name)
