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
from pnpgen.games.dice_road_race.report import describe_race
from pnpgen.words import Words

if TYPE_CHECKING:
    from pnpgen.games.dice_road_race.game import StageRace

WORDS = Words.load(Path(__file__).with_name("dice_road_race.words.yaml"))


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
    the leader colour in the next stage has the row in that colour."""
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


def rulebook_figure(rules: StageRace, name: str, lang: str) -> list[sc.Scene]:
    """'course': one row per stage, start to finish: the stage's number, type and total cost,
    then its boards laid end to end as the table lists them, each with its number in the
    lower right corner on the colour printed there (black or white), a flag at the finish."""
    if name != "course":
        raise KeyError(name)
    rows: list[sc.Scene] = []
    label_w, board_w, board_h, gap = 120.0, 78.0, 26.0, 3.0
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
