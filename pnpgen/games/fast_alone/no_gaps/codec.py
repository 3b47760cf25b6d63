"""NoGapsRules: codec."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpgen.content.schema import Schema
from pnpgen.engine.state_data import checked, read_state_data, read_word
from pnpgen.errors import BadMove
from pnpgen.games.fast_alone.no_gaps.rules import (
    ENDS,
    NO_DICE,
    NO_REROLLS,
    OVER,
    PLAY,
    REROLL,
    ROLL,
    WON,
    State,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.no_gaps import NoGaps

STATE_SCHEMA: Schema = {
    "drawn": [str],
    "dice?": [int],
    "set_aside": int,
    "removed": int,
    "rerolls_used": int,
    "phase": str,
    "end?": str,
    "note?": str,
}


# State files: what a NoGapsRules state file holds, and its invariants.
# --- state files ---------------------------------------------------------------------
def to_data(rules: NoGaps, state: State) -> dict[str, object]:
    data: dict[str, object] = {
        "drawn": [f"{rules.tiles[i].id} {rules.cells_text(m)}" for i, m in state.drawn],
    }
    if state.hand:
        data["dice"] = list(state.hand)
    data.update(set_aside=state.aside, removed=state.removed, rerolls_used=state.rerolls, phase=state.phase)
    if state.end:
        data["end"] = state.end
    return data


def from_data(rules: NoGaps, data: Any) -> State:
    bad = read_state_data(data, STATE_SCHEMA)

    drawn = []
    left = [t.count for t in rules.tiles]
    filled = 0
    items = data["drawn"]
    for n, item in enumerate(items):
        words = item.split()
        if not words or words[0] not in rules.by_id:
            raise bad(f"drawn[{n}]: '{item}' should be a tile id then its cells "
                      f"(tiles: {', '.join(t.id for t in rules.tiles)})", items, n)
        index = rules.by_id[words[0]]
        try:
            mask = rules.parse_cells(item, words[1:])
        except BadMove as err:
            raise bad(f"drawn[{n}]: {err.message}", items, n) from None
        if (index, mask) not in rules.mask_tile:
            raise bad(f"drawn[{n}]: cells {rules.cells_text(mask)} are not the {words[0]} shape", items, n)
        if mask & filled:
            raise bad(f"drawn[{n}]: {rules.cells_text(mask & filled)} already drawn by an earlier tile",
                      items, n)
        left[index] -= 1
        if left[index] < 0:
            raise bad(f"drawn[{n}]: the chart has only {rules.tiles[index].count} {words[0]} tile(s)",
                      items, n)
        filled |= mask
        drawn.append((index, mask))
    hand = data.get("dice") or []
    for i, face in enumerate(hand):
        if not 1 <= face <= rules.faces:
            raise bad(f"dice[{i}]: {face} is not a face 1–{rules.faces}", hand, i)
    phase = data["phase"]
    if phase not in (ROLL, PLAY, REROLL, OVER):
        raise bad(f"phase: '{phase}' is not one of {ROLL}, {PLAY}, {REROLL}, {OVER}", data, "phase")
    end = read_word(data, "end", ENDS)
    state = State(filled, tuple(drawn), tuple(left), tuple(sorted(hand)), int(data["set_aside"]),
                  int(data["removed"]), int(data["rerolls_used"]), phase, end)
    return checked(rules, state, data)


def example_state(rules: NoGaps) -> State:
    """Early in a game: two tiles drawn, dice 1 3 5 in hand."""
    return rules.from_data({"drawn": ["O4 a1 b1 a2 b2", "D c1 d1"], "dice": [1, 3, 5], "set_aside": 3,
                           "removed": 0, "rerolls_used": 0, "phase": PLAY})


# --- checks and analysis -------------------------------------------------------------
def check(rules: NoGaps, state: State) -> list[str]:
    problems = []
    dice = len(state.hand) + state.aside + state.removed
    if dice != rules.count:
        problems.append(f"dice: {len(state.hand)} in hand, {state.aside} set aside and {state.removed} "
                        f"removed make {dice}, the game has {rules.count}")
    if any(d in rules.blank for d in state.hand):
        problems.append("dice: a blank face is never kept in hand (it is set aside)")
    if not 0 <= state.rerolls <= rules.max_rerolls:
        problems.append(f"rerolls_used is {state.rerolls}; the board has {rules.max_rerolls} reroll boxes")
    if state.aside < 0 or state.removed < 0:
        problems.append("set_aside and removed cannot be negative")
    if any(n < 0 for n in state.left):
        problems.append("a tile is drawn more often than the chart offers it")
    if state.phase == PLAY:
        if not state.hand:
            problems.append("phase play needs dice in hand")
        unusable = [d for d in state.hand if not rules.fits(state.filled, state.left, d)]
        if unusable:
            problems.append(f"dice: no tile fits for {unusable[0]}, so that die has left the game")
    elif state.hand and state.end != WON:  # the tile that fills the grid wins at once (NG-6)
        problems.append(f"phase {state.phase} with dice in hand")
    if state.phase == ROLL and not state.aside:
        problems.append("phase roll with no dice to roll")
    if state.phase == REROLL and (not state.aside or state.rerolls >= rules.max_rerolls):
        problems.append("phase reroll needs dice set aside and a reroll box left")
    full = state.filled == rules.full
    if full and state.end != WON:
        problems.append("the grid is full, so the game is won (end ng_won)")
    if state.phase == OVER:
        if state.end == WON and not full:
            problems.append("end is ng_won, but the grid has empty cells")
        if state.end == NO_DICE and state.aside:
            problems.append("end is ng_no_dice, but dice are set aside to roll")
        if state.end == NO_REROLLS and state.rerolls < rules.max_rerolls:
            problems.append("end is ng_no_rerolls, but a reroll box is left")
        if not state.end:
            problems.append("phase over needs an end")
    elif state.end:
        problems.append(f"end {state.end} needs phase over")
    return problems
