"""The referee's human report of a race file: one block per stage, then the final result."""

from __future__ import annotations

from pnpgen.content.schema import text_for
from pnpgen.games.dice_road_race.config import RaceConfig
from pnpgen.games.dice_road_race.race import RaceReport, Standing


def signed(seconds: int, unit: str) -> str:
    return f"{seconds:+d} {unit}" if seconds else f"0 {unit}"


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append(("  " + "  ".join(cells)).rstrip())
    return lines


def standings_lines(names: tuple[str, ...], standings: list[Standing], unit: str) -> list[str]:
    rows = [["rank", "rider", "total", "gap"]]
    for st in standings:
        gap = "-" if st.gap == 0 and st.rank == 1 else f"+{st.gap} {unit}"
        rows.append([f"{st.rank}.", names[st.seat], f"{st.total} {unit}", gap])
    return _table(rows, {0, 2, 3})


def describe_race(cfg: RaceConfig, report: RaceReport) -> str:
    names = report.race.players
    unit = cfg.unit_text("en")
    out = [f"Stage race, {len(names)} riders in seat order: {', '.join(names)}"]
    if not report.stages:
        out.append("No stage raced yet.")
    for sr in report.stages:
        stage = sr.stage
        boards = ", ".join(f"{b} {text_for(cfg.board_sides[side], 'en')}" for b, side in stage.boards)
        out.append("")
        kind = cfg.type_name(stage.type, "en")
        out.append(f"Stage {stage.number} — {kind} (boards {boards}; total cost {stage.total_cost})")
        rows = [["rider", "place", "added", "bonus", "stage", "why"]]
        for line in sr.riders:
            place = str(line.place) if line.place is not None else "-"
            why = line.why if line.counts else line.why + " (retired: this time is not kept)"
            rows.append([names[line.seat], place, signed(line.added, unit), signed(line.bonus, unit),
                         signed(line.time, unit), why])
        out += _table(rows, {1, 2, 3, 4})
        if sr.retired:
            out.append(f"  Retired: {', '.join(names[s] for s in sr.retired)} — total time lost, out of the standings; "
                       f"back next stage with {cfg.retire_dice} dice")
        out.append(f"  Overall after stage {stage.number}:")
        out += ["  " + line for line in standings_lines(names, sr.standings, unit)]
        if not sr.standings:
            out.append("    (no rider keeps a total)")
        if sr.leader is not None:
            out.append(f"  Leader colour in stage {stage.number + 1}: {names[sr.leader]}")
        elif stage.number < len(cfg.course) and len(names) > cfg.leader_max_players:
            out.append(f"  Leader colour: not used with more than {cfg.leader_max_players} riders")
        if sr.dice_after is not None:
            dice = ", ".join(f"{names[s]} {d}" for s, d in sr.dice_after.items())
            out.append(f"  Dice after recovery: {dice}")
        if sr.tt_stage is not None:
            order = ", ".join(f"{names[s]} (round {r})" for s, r in sr.tt_order)
            out.append(f"  Time trial, stage {sr.tt_stage.number}, start order: {order}")
    final = report.final
    out.append("")
    if not final.complete:
        done = len(report.stages)
        if done < len(cfg.course):
            out.append(f"Race in progress: stage {done + 1} of {len(cfg.course)} is next.")
        return "\n".join(out)
    if report.race.agreed_end and len(report.stages) < len(cfg.course):
        out.append(f"The riders agreed to end the race after stage {len(report.stages)}.")
    out.append("Final classification (ties broken by the final stage's finishing order):")
    out += ["  " + line for line in standings_lines(names, final.classification, unit)]
    for group in final.unsettled:
        level = " and ".join(names[s] for s in group)
        out.append(f"  Stage {len(cfg.course)} tie: {level} are level on time and unranked at the finish; "
                   "play continues until their finishing order is settled (record it under continued).")
    if final.winner is not None:
        out.append(f"Overall winner: {names[final.winner]}")
    elif not final.classification:
        out.append("Every rider has retired: no overall classification.")
    return "\n".join(out)
