"""Dungeon War positions as pictures (pnpgen.scene): the placed dungeon cards, square by
square, with the same terrain fills, patterns, walls and marks as the printed cards, the
pieces as tokens in their team's colour AND shape, and a move drawn on top.

The look is read from the print kit's component files (components/dungeon-cards.yaml:
the `squares` element's `codes` and `wall_kinds`; components/pieces.yaml: each team's
colour, ink and mark), so a designer who recolours a card or a team sees it here too.
Only public facts are drawn: the board, never hands, trap slots or decks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpgen import scene as sc
from pnpgen.content.yamlpos import load_yaml
from pnpgen.engine.protocol import CHANCE
from pnpgen.words import Words

from . import movement
from .notation import COLUMNS
from .state import Move, State

if TYPE_CHECKING:
    from .model import DungeonWarRules

CELL = 22.0  # points per square
CARD_MM = 21.0  # a printed square (components/dungeon-cards.yaml): pattern gaps scale from it
CARD_EDGE = "#4a3f2c"
FALLBACK_FILL = "#e8dcc2"
MARKS = {"●": "circle", "■": "square", "▲": "triangle", "◆": "diamond", "○": "circle"}
KING_RING = "#d4a017"  # a King Dragon's crown ring
REFUSED = "#c0392b"  # a move the rules refuse
LEGEND_WIDTH = 200.0  # the seats' lines under a picture wrap at this width (two pictures side by side fit a page)
WORDS = Words.load(Path(__file__).with_name("dungeon_war.words.yaml"))


@dataclass(frozen=True)
class Team:
    colour: str
    ink: str
    mark: str  # circle, square, triangle, diamond
    letter: dict[str, str]
    codes: dict[str, str] = field(default_factory=dict)  # piece name -> letter on the token (neutral: by lang)


@dataclass(frozen=True)
class Look:
    codes: dict[str, dict[str, Any]]  # terrain code -> fill, pattern, mark, glyph...
    walls: dict[str, dict[str, Any]]  # wall, cracked
    teams: tuple[Team, ...]
    neutral: Team | None


def _component(content: Any, name: str) -> list[Any]:
    try:
        data = load_yaml(content.path(f"components/{name}"))
    except Exception:  # noqa: BLE001 - a game without the print kit still draws, in plain colours
        return []
    return data if isinstance(data, list) else []


def _text(value: Any, lang: str) -> str:
    return str(value.get(lang, value.get("en", ""))) if isinstance(value, dict) else str(value)


def load_look(content: Any, names: dict[str, str]) -> Look:
    """The print kit's colours; `names` maps a piece's printed name (en) to the engine's."""
    codes: dict[str, dict[str, Any]] = {}
    walls: dict[str, dict[str, Any]] = {}
    for deck in _component(content, "dungeon-cards.yaml"):
        for layout in (deck.get("layouts") or {}).values():
            for element in layout if isinstance(layout, list) else []:
                if isinstance(element, dict) and "squares" in element:
                    codes = dict(element.get("codes") or {})
                    walls = dict(element.get("wall_kinds") or {})
    teams: list[Team] = []
    neutral: Team | None = None
    for deck in _component(content, "pieces.yaml"):
        if deck.get("id") != "pieces":
            continue
        for card in deck.get("cards") or []:
            team = _text(card.get("team"), "en")
            piece = names.get(_text(card.get("piece"), "en").lower(), "")
            code = card.get("code")
            if team == "N":
                if neutral is None:
                    neutral = Team(str(card["colour"]), str(card.get("ink", "#ffffff")), "circle",
                                   dict(card.get("team") or {}), {})
                if piece:
                    for lang in ("en", "ja"):
                        neutral.codes[f"{piece}:{lang}"] = _text(code, lang)
                continue
            if not teams or teams[-1].colour != card["colour"]:
                teams.append(Team(str(card["colour"]), str(card.get("ink", "#ffffff")),
                                  MARKS.get(str(card.get("mark")), "circle"), dict(card.get("team") or {}), {}))
            if piece:
                teams[-1].codes[piece] = _text(code, "en")
    return Look(codes, walls, tuple(teams), neutral)


# --- terrain patterns, drawn inside one square ------------------------------------------------
def _clip(x: float, y: float, s: float, x1: float, y1: float, x2: float, y2: float) -> sc.Line | None:
    """The part of the segment (x1, y1)-(x2, y2) inside the square at (x, y) of side s."""
    t0, t1 = 0.0, 1.0
    dx, dy = x2 - x1, y2 - y1
    for p, q in ((-dx, x1 - x), (dx, x + s - x1), (-dy, y1 - y), (dy, y + s - y1)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    if t0 >= t1:
        return None
    return sc.Line(x1 + dx * t0, y1 + dy * t0, x1 + dx * t1, y1 + dy * t1, "", 0.5)


def pattern(kind: str, x: float, y: float, s: float, gap: float, colour: str) -> list[sc.Shape]:
    """The printed card's pattern (lines, waves, dots, crosshatch, checks, columns, diagonal, grid)."""
    out: list[sc.Shape] = []
    n = max(2, round(s / gap))
    step = s / n
    segments: list[tuple[float, float, float, float]] = []
    if kind in ("lines", "grid"):
        segments += [(x, y + step * (k + 0.5), x + s, y + step * (k + 0.5)) for k in range(n)]
    if kind in ("columns", "grid"):
        segments += [(x + step * (k + 0.5), y, x + step * (k + 0.5), y + s) for k in range(n)]
    if kind in ("diagonal", "crosshatch"):
        segments += [(x + step * k - s, y + s, x + step * k, y) for k in range(1, 2 * n)]
    if kind == "crosshatch":
        segments += [(x + step * k - s, y, x + step * k, y + s) for k in range(1, 2 * n)]
    for seg in segments:
        line = _clip(x, y, s, *seg)
        if line is not None:
            out.append(sc.Line(line.x1, line.y1, line.x2, line.y2, colour, 0.5))
    if kind == "waves":
        amp = step * 0.22
        for k in range(n):
            base = y + step * (k + 0.5)
            points = [(x + s * i / 12, base + amp * math.sin(i * math.pi / 3)) for i in range(13)]
            out += [sc.Line(a[0], a[1], b[0], b[1], colour, 0.6) for a, b in zip(points, points[1:], strict=False)]
    if kind == "dots":
        out += [sc.Circle(x + step * (i + 0.5), y + step * (j + 0.5), max(0.5, step * 0.14), colour)
                for j in range(n) for i in range(n)]
    if kind == "checks":
        out += [sc.Rect(x + step * i, y + step * j, step, step, colour, None, 0)
                for j in range(n) for i in range(n) if (i + j) % 2 == 0]
    return out


# --- the picture ------------------------------------------------------------------------------
@dataclass
class Marks:
    """What the moves mark: squares outlined, routes, dashed lines (warps, shots), fights, spots."""

    squares: list[tuple[int, int]] = field(default_factory=list)
    routes: list[list[tuple[int, int]]] = field(default_factory=list)
    jumps: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)
    fights: list[tuple[int, int]] = field(default_factory=list)
    spots: list[tuple[int, int]] = field(default_factory=list)
    refused: list[tuple[int, int]] = field(default_factory=list)  # where a move the rules refuse ends


def _sq(move: Move, i: int) -> tuple[int, int]:
    return int(move[i]), int(move[i + 1])


def _pairs(values: Sequence[Any]) -> list[tuple[int, int]]:
    return [(int(values[i]), int(values[i + 1])) for i in range(0, len(values) - 1, 2)]


def marks_of(game: DungeonWarRules, state: State, moves: Sequence[Move]) -> Marks:
    """The marks of `moves`, each applied in turn from `state` (a move that cannot be applied
    is still marked, from the squares it names)."""
    m = Marks()
    for move in moves:
        head = move[0]
        occ = game.occupants(state)
        if head in ("move", "go"):
            src = _sq(move, 1) if head == "move" else (int(state.pending[0]), int(state.pending[1])) \
                if len(state.pending) >= 2 else None
            rest = move[3:] if head == "move" else move[1:]
            if src is not None:
                path = [src]
                try:
                    name = occ[src][1] if head == "move" else "knight"
                    limit = game.kind(state, state.seat, name).move.plus if head == "move" else int(state.pending[3])
                    path += list(movement.path_of(game, state, src, tuple(rest), name, limit))
                except Exception:  # noqa: BLE001 - an illegal move: its named squares only
                    path += _pairs(rest[2:]) or [(int(rest[0]), int(rest[1]))]
                m.routes.append(path)
                m.squares += [path[0], path[-1]]
                there = occ.get(path[-1])
                if there is not None and path[-1] != src and (there[0] >= 0 or there[1] == "tentacle"):
                    m.fights.append(path[-1])
        elif head in ("roll", "dash"):
            m.squares.append(_sq(move, 1))
        elif head in ("warp", "block", "fence"):
            m.jumps.append((_sq(move, 1), _sq(move, 3)))
            m.squares += [_sq(move, 1), _sq(move, 3)]
        elif head == "shoot" or (head == "use" and len(move) > 4):
            m.jumps.append((_sq(move, 1), _sq(move, 4)))
            m.squares.append(_sq(move, 1))
            m.fights.append(_sq(move, 4))
        elif head in ("place", "summon"):
            m.squares.append(_sq(move, 2))
        elif head in ("put", "revive"):
            m.squares.append(_sq(move, 1))
        elif head == "make":
            m.squares.append(_sq(move, 1))
            m.spots.append(_sq(move, 3))
        elif head == "remake":
            m.spots.append(_sq(move, 1))
        elif head == "shot" and state.phase == "shot" and len(state.pending) >= 5:
            src, aim = (int(state.pending[0]), int(state.pending[1])), (int(state.pending[3]), int(state.pending[4]))
            m.jumps.append((src, aim))
            m.squares.append(src)
            m.fights.append(aim)
        elif head in ("ambush", "pass") and state.phase == "ambush" and len(state.pending) >= 4:
            m.squares.append((int(state.pending[0]), int(state.pending[1])))
            m.fights.append((int(state.pending[2]), int(state.pending[3])))
        elif head == "fight" and len(state.pending) >= 4:
            m.fights.append((int(state.pending[2]), int(state.pending[3])))
        try:
            state = game.apply(state, move)[0]
        except Exception:  # noqa: BLE001 - an illegal move: marked where it ends, the rest from what it names
            if m.routes and head in ("move", "go"):
                m.refused.append(m.routes[-1][-1])
            elif m.squares:
                m.refused.append(m.squares[-1])
    return m


def draw(game: DungeonWarRules, look: Look, state: State, moves: Sequence[Move] = (), lang: str = "en",
         whole: bool = False) -> sc.Scene:
    """The placed cards (with `whole`, every card spot of the grid, empty ones dashed), their
    coordinates as the notation writes them, the pieces, and the marks of `moves`."""
    cfg = game.cfg
    dungeon = game.dungeon(state)
    marks = marks_of(game, state, moves)
    marks = _inside(marks, cfg.height, cfg.width)
    named = [*marks.squares, *marks.fights, *(sq for path in marks.routes for sq in path),
             *(sq for pair in marks.jumps for sq in pair)]
    spots = ({(cr, cc) for cr, cc, _, _ in state.cards} | set(marks.spots)
             | {(r // cfg.card_rows, c // cfg.card_columns) for r, c in named})
    if whole or not spots:
        spots |= {(r, c) for r in range(cfg.rows) for c in range(cfg.columns)}
    r0, r1 = min(r for r, _ in spots), max(r for r, _ in spots)
    c0, c1 = min(c for _, c in spots), max(c for _, c in spots)
    rows, cols = (r1 - r0 + 1) * cfg.card_rows, (c1 - c0 + 1) * cfg.card_columns
    top_r, left_c = r0 * cfg.card_rows, c0 * cfg.card_columns
    grid = sc.Grid(cols, rows, CELL, 14.0, 12.0)

    def cell(square: tuple[int, int]) -> tuple[int, int]:  # (col, row) in the grid
        return square[1] - left_c, square[0] - top_r

    shapes: list[sc.Shape] = []
    shapes += grid.labels([COLUMNS[left_c + c] for c in range(cols)], [str(top_r + r + 1) for r in range(rows)])
    placed = {(cr, cc) for cr, cc, _, _ in state.cards}
    for cr in range(r0, r1 + 1):  # empty spots in range: a dashed outline
        for cc in range(c0, c1 + 1):
            if (cr, cc) not in placed:
                x, y = grid.at(cc * cfg.card_columns - left_c, cr * cfg.card_rows - top_r)
                w, h = cfg.card_columns * CELL, cfg.card_rows * CELL
                for edge_line in ((x, y, x + w, y), (x, y + h, x + w, y + h), (x, y, x, y + h),
                                  (x + w, y, x + w, y + h)):
                    shapes += dashed(*edge_line, 2.0, 2.0, sc.GREY, 0.5)
    warp_letters = _warp_letters(game, state)
    for square, code in sorted(dungeon.terrain.items()):
        x, y = grid.at(*cell(square))
        style = look.codes.get(code, {})
        shapes.append(sc.Rect(x, y, CELL, CELL, str(style.get("fill", FALLBACK_FILL))[:7], None, 0))
        if style.get("pattern"):
            gap = float(style.get("pattern_gap", 3.5)) * CELL / CARD_MM
            shapes += pattern(str(style["pattern"]), x, y, CELL, gap, str(style.get("pattern_color", sc.GREY))[:7])
        shapes += _mark(style, x + CELL / 2, y + CELL / 2, warp_letters.get(square, ""))
        shapes.append(sc.Rect(x, y, CELL, CELL, None, sc.ROLE_INK["cell"], 0.3, role="cell"))
    for edge, kind in sorted(dungeon.walls.items(), key=lambda e: sorted(e[0])):
        a, b = sorted(edge)
        style = look.walls.get("cracked" if kind == "cracked_wall" else "wall", {})
        colour, width = str(style.get("stroke", sc.INK))[:7], float(style.get("width", 1.6)) * 1.2
        (ac, ar), (bc, br) = cell(a), cell(b)
        x, y = grid.at(max(ac, bc), max(ar, br))
        line = (x, y, x + CELL, y) if ar != br else (x, y, x, y + CELL)
        dash = style.get("dash") or ((2.2, 1.2) if kind == "cracked_wall" else None)
        if dash:  # drawn as segments: every renderer (the preview PNG too) shows the gaps
            k = CELL / CARD_MM
            shapes += dashed(*line, float(dash[0]) * k, float(dash[1]) * k, colour, width)
        else:
            shapes.append(sc.Line(*line, colour, width))
    for cr, cc, _, flipped in state.cards:
        x, y = grid.at(cc * cfg.card_columns - left_c, cr * cfg.card_rows - top_r)
        shapes.append(sc.Rect(x, y, cfg.card_columns * CELL, cfg.card_rows * CELL, None, CARD_EDGE, 1.1))
        if flipped:
            shapes.append(sc.Label(x + 3.5, y + 3.5, "~", 6, CARD_EDGE))
    for cr, cc in marks.spots:
        x, y = grid.at(cc * cfg.card_columns - left_c, cr * cfg.card_rows - top_r)
        w, h = cfg.card_columns * CELL, cfg.card_rows * CELL
        shapes.append(sc.Rect(x + 1, y + 1, w - 2, h - 2, None, sc.ACCENT, 1.6))
    for r, c, owner, name in state.board:
        cx, cy = grid.centre(*cell((r, c)))
        shapes += piece(look, owner, name, cx, cy, lang)
        style = look.codes.get(dungeon.terrain.get((r, c), ""), {})
        if style.get("mark") in ("diamond", "circle"):  # the square's mark, still seen beside the piece
            x, y = grid.at(*cell((r, c)))
            shapes += sc.symbol(str(style["mark"]), x + CELL * 0.16, y + CELL * 0.84, CELL * 0.15,
                                str(style.get("mark_color", "#ffffff"))[:7], sc.INK, 0.5)
    for path in marks.routes:
        cells = [cell(sq) for sq in path]
        shapes += grid.route(cells) if len(cells) > 1 else []
    for a, b in marks.jumps:
        (x1, y1), (x2, y2) = grid.centre(*cell(a)), grid.centre(*cell(b))
        jump = sc.arrow(x1, y1, x2, y2, sc.ACCENT, 1.4, shorten=CELL * 0.3)
        shapes.append(replace(jump, dash=True))
    for square in marks.squares:
        shapes.append(grid.highlight(*cell(square)))
    for square in marks.fights:
        x, y = grid.at(*cell(square))
        shapes += sc.symbol("star", x + CELL * 0.82, y + CELL * 0.18, CELL * 0.2, sc.ACCENT, sc.PAPER, 0.5)
    for square in marks.refused:  # a move the rules refuse: a red cross where it would end
        x, y = grid.at(*cell(square))
        shapes += sc.cross(x, y, CELL, REFUSED, 2.2, 0.12)
    height = grid.y + rows * CELL
    legend = _legend(game, look, state, 0.0, height + 8, lang, max(grid.x + cols * CELL + 2, LEGEND_WIDTH))
    shapes += legend
    labels = [s for s in legend if isinstance(s, sc.Label)]
    width = max([grid.x + cols * CELL + 2] + [s.x + sc.text_width(s.text, s.size) + 2 for s in labels])
    return sc.Scene(width, max(s.y for s in labels) + 6, tuple(shapes))


def _inside(m: Marks, height: int, width: int) -> Marks:
    """The marks on squares of the card grid (a refused move may name one off it)."""
    def ok(sq: tuple[int, int]) -> bool:
        return 0 <= sq[0] < height and 0 <= sq[1] < width

    return Marks([sq for sq in m.squares if ok(sq)], [p for p in m.routes if all(map(ok, p))],
                 [j for j in m.jumps if ok(j[0]) and ok(j[1])], [sq for sq in m.fights if ok(sq)], m.spots,
                 [sq for sq in m.refused if ok(sq)])


def dashed(x1: float, y1: float, x2: float, y2: float, on: float, off: float, colour: str,
           width: float) -> list[sc.Shape]:
    """A dashed line as its dashes, starting and ending with one."""
    length = math.hypot(x2 - x1, y2 - y1)
    n = max(1, round((length + off) / (on + off)))
    on = (length - (n - 1) * off) / n if n > 1 else length
    ux, uy = (x2 - x1) / (length or 1), (y2 - y1) / (length or 1)
    out: list[sc.Shape] = []
    for i in range(n):
        a = i * (on + off)
        out.append(sc.Line(x1 + ux * a, y1 + uy * a, x1 + ux * (a + on), y1 + uy * (a + on), colour, width))
    return out


def _warp_letters(game: DungeonWarRules, state: State) -> dict[tuple[int, int], str]:
    out: dict[tuple[int, int], str] = {}
    dungeon = game.dungeon(state)
    for cr, cc, index, _ in state.cards:
        layout = game.cfg.stairs_card if index < 0 else game.cfg.layouts[index]
        if layout.warp:
            for square in dungeon.squares_of((cr, cc)):
                if game.cfg.terrain.get(dungeon.terrain[square], {}).get("warp"):
                    out[square] = layout.warp
    return out


def _mark(style: dict[str, Any], x: float, y: float, letter: str) -> list[sc.Shape]:
    """The card's mark on a square: a crystal's diamond, a graveyard's cross, a warp's ring and letter."""
    kind = style.get("mark")
    out: list[sc.Shape] = []
    colour = str(style.get("mark_color", "#ffffff"))[:7]
    if kind == "diamond":
        out += sc.symbol("diamond", x, y, CELL * 0.34, colour, sc.INK, 0.7)
        out += sc.symbol("diamond", x, y, CELL * 0.16, sc.PAPER, None, 0)
    elif kind == "cross":
        arm = CELL * 0.3
        out += [sc.Line(x, y - arm, x, y + arm, sc.INK, 1.6), sc.Line(x - arm * 0.6, y - arm * 0.35,
                                                                      x + arm * 0.6, y - arm * 0.35, sc.INK, 1.6)]
    elif kind == "circle":
        out.append(sc.Circle(x, y, CELL * 0.34, colour, sc.INK, 0.6))
    if letter:
        out.append(sc.Label(x, y, letter, CELL * 0.42, sc.INK))
    return out


def piece(look: Look, owner: int, name: str, x: float, y: float, lang: str) -> list[sc.Shape]:
    """A token: the team's colour, the piece's letter, and the team's shape in a badge; a King
    Dragon larger, with a ring; a neutral piece a grey rounded square."""
    if owner < 0:
        team = look.neutral or Team("#8a8a8a", "#ffffff", "circle", {}, {})
        letter = team.codes.get(f"{name}:{lang}") or team.codes.get(f"{name}:en") or name[:1].upper()
        r = CELL * 0.34
        fill = "#555555" if name in ("block", "fence") else team.colour
        return [sc.Rect(x - r, y - r, 2 * r, 2 * r, fill, sc.INK, 0.6, radius=r * 0.35, role="piece"),
                sc.Label(x, y, letter, r * 1.05, team.ink)]
    team = look.teams[owner] if owner < len(look.teams) else Team(sc.GREY, "#ffffff", "circle", {}, {})
    letter = team.codes.get(name) or name[:1].upper()
    king = name == "king"
    r = CELL * (0.44 if king else 0.36)
    out: list[sc.Shape] = []
    if king:
        out.append(sc.Circle(x, y, r + 1.2, KING_RING, sc.INK, 0.6))
    out.append(sc.Rect(x - r, y - r, 2 * r, 2 * r, team.colour, sc.INK, 0.7, radius=r, role="piece"))
    out.append(sc.Label(x - r * 0.12, y + r * 0.05, letter, r * (1.15 if king else 1.0), team.ink))
    out += sc.symbol(team.mark, x + r * 0.62, y - r * 0.62, r * 0.36, sc.PAPER, sc.INK, 0.5)
    return out


def _seats(state: State, look: Look) -> range:
    return range(min(state.players, len(look.teams)))


def _legend(game: DungeonWarRules, look: Look, state: State, x: float, y: float, lang: str,
            width: float = 200.0) -> list[sc.Shape]:
    """One entry a seat, its lines kept within `width`: its colour and mark, and what its play
    sheet shows everyone: gold, fatigue, the slimes' element and the face-up equipment (never
    the face-down traps); the seat on turn with its AP left."""
    out: list[sc.Shape] = []
    cfg = game.cfg
    size, step = 6.5, 9.5
    for seat in _seats(state, look):
        team = look.teams[seat]
        out.append(sc.Circle(x + 8, y, 5, team.colour, sc.INK, 0.5))
        out += sc.symbol(team.mark, x + 8, y, 2.6, sc.PAPER, sc.INK, 0.4)
        letter = _text(team.letter, lang)
        name_key = f"team_{_text(team.letter, 'en')}"
        line = WORDS("seat", lang, n=seat + 1, team=WORDS(name_key, lang) if name_key in WORDS else letter,
                     letter=letter)
        items: list[str] = []
        if state.round > 0:  # during setup the sheets are blank
            if seat == state.seat and state.phase not in ("over", "deal", "place"):
                line += WORDS("on_turn", lang, ap=state.ap)
            items = [f"{state.gold[seat]}G", WORDS("fatigue", lang, n=state.fatigue[seat])]
            if seat < len(state.element):
                items.append(WORDS("slimes", lang, element=WORDS(cfg.cycle[state.element[seat]], lang)))
            crystals = game.crystals(state, seat)
            if crystals or state.kings_beaten[seat]:
                items.append(WORDS("crystals", lang, n=crystals))
            if state.kings_beaten[seat]:
                items.append(WORDS("kings_beaten", lang, n=state.kings_beaten[seat]))
            if seat in state.fallen:
                items = [WORDS("fallen", lang)]
            equip = state.equip[seat] if seat < len(state.equip) and seat not in state.fallen else ()
            items += [cfg.war_cards[i].title(lang) for slot, i in equip if slot != "trap"]
        sep = WORDS("sheet_sep", lang)
        for k, item in enumerate(items):
            joint = WORDS("sheet_open", lang) if k == 0 else sep
            if sc.text_width(line + joint + item, size) > width - 16 and k:  # carry on below
                out.append(sc.Label(x + 16, y, line + sep.rstrip(), size, sc.INK, "start"))
                y += step
                line = item
            else:
                line += joint + item
        out.append(sc.Label(x + 16, y, line, size, sc.INK, "start"))
        y += step + 2.5
    return out


def setup_state(game: DungeonWarRules, players: int, seed: int = 1) -> State:
    """A starting table: the setup dealt and the first pieces placed, by seeded choices."""
    import random

    rng = random.Random(seed)
    state = game.initial_state(players)
    for _ in range(200):
        if state.phase not in ("deal", "place"):
            break
        if game.current_player(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            move = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            move = rng.choice(game.legal_moves(state))
        state = game.apply(state, move)[0]
    return state


def key(game: DungeonWarRules, look: Look, lang: str) -> list[sc.Scene]:
    """The key to the pictures, in rows a page may break between: each army piece's token and
    letter with its name, the neutral pieces, every terrain square as printed, and the walls."""
    def row(title: str, items: list[tuple[list[sc.Shape], str]], per_row: int = 4) -> sc.Scene:
        width = 520.0 / per_row
        shapes: list[sc.Shape] = [sc.Label(0, 6, title, 8, sc.INK, "start")]
        lines = (len(items) + per_row - 1) // per_row
        for k, (token, text) in enumerate(items):
            x, y = (k % per_row) * width, 14 + (k // per_row) * (CELL + 6)
            shapes += [sc.shift(s, x, y) for s in token]
            shapes.append(sc.Label(x + CELL + 6, y + CELL / 2, text, 7.5, sc.INK, "start"))
        return sc.Scene(per_row * width, 14 + lines * (CELL + 6), tuple(shapes))

    army = [(piece(look, 0, name, CELL / 2, CELL / 2, lang),
             f"{look.teams[0].codes.get(name, name[:1].upper()) if look.teams else ''} {WORDS(name, lang)}")
            for name in ARMY_ORDER]
    neutral = [(piece(look, -1, name, CELL / 2, CELL / 2, lang), WORDS(name, lang)) for name in NEUTRAL_ORDER]
    terrain = []
    for code, spec in game.cfg.terrain.items():
        style = look.codes.get(code, {})
        shapes: list[sc.Shape] = [sc.Rect(0, 0, CELL, CELL, str(style.get("fill", FALLBACK_FILL))[:7], None, 0)]
        if style.get("pattern"):
            gap = float(style.get("pattern_gap", 3.5)) * CELL / CARD_MM
            shapes += pattern(str(style["pattern"]), 0, 0, CELL, gap, str(style.get("pattern_color", sc.GREY))[:7])
        shapes += _mark(style, CELL / 2, CELL / 2, "A" if spec.get("warp") else "")
        shapes.append(sc.Rect(0, 0, CELL, CELL, None, sc.ROLE_INK["cell"], 0.3, role="cell"))
        name = str(spec.get("name", code))
        terrain.append((shapes, WORDS(name, lang) if name in WORDS else name.replace("_", " ")))
    walls = []
    for kind in ("wall", "cracked_wall"):
        style = look.walls.get("cracked" if kind == "cracked_wall" else "wall", {})
        colour, width = str(style.get("stroke", sc.INK))[:7], float(style.get("width", 1.6)) * 1.2
        dash = style.get("dash") or ((2.2, 1.2) if kind == "cracked_wall" else None)
        base: list[sc.Shape] = [sc.Rect(0, 0, CELL, CELL, FALLBACK_FILL, sc.ROLE_INK["cell"], 0.3, role="cell")]
        if dash:
            k = CELL / CARD_MM
            base += dashed(CELL, 0, CELL, CELL, float(dash[0]) * k, float(dash[1]) * k, colour, width)
        else:
            base.append(sc.Line(CELL, 0, CELL, CELL, colour, width))
        walls.append((base, WORDS(kind, lang)))
    walls += marks_key(look, lang)
    return [row(WORDS("key_pieces", lang), army), row(WORDS("key_neutral", lang), neutral),
            row(WORDS("key_terrain", lang), terrain), row(WORDS("key_marks", lang), walls, 3)]


def marks_key(look: Look, lang: str) -> list[tuple[list[sc.Shape], str]]:
    """The marks a picture puts on a square: a seat's badge, a move's path, a fight, a refused move."""
    floor: list[sc.Shape] = [sc.Rect(0, 0, CELL, CELL, FALLBACK_FILL, sc.ROLE_INK["cell"], 0.3, role="cell")]
    team = look.teams[0] if look.teams else Team(sc.GREY, "#ffffff", "circle", {}, {})
    badge: list[sc.Shape] = [sc.Circle(CELL / 2, CELL / 2, 6, team.colour, sc.INK, 0.5),
                             *sc.symbol(team.mark, CELL / 2, CELL / 2, 3.2, sc.PAPER, sc.INK, 0.4)]
    path: list[sc.Shape] = [*floor, sc.Rect(1, 1, CELL - 2, CELL - 2, None, sc.ACCENT, 1.4),
                            sc.arrow(2, CELL / 2, CELL - 3, CELL / 2, sc.ACCENT, 1.4)]
    fight: list[sc.Shape] = [*floor, *sc.symbol("star", CELL / 2, CELL / 2, CELL * 0.3, sc.ACCENT, sc.PAPER, 0.5)]
    refused: list[sc.Shape] = [*floor, *sc.cross(0, 0, CELL, REFUSED, 2.2, 0.12)]
    turned: list[sc.Shape] = [*floor, sc.Label(3.5, 3.5, "~", 6, CARD_EDGE)]
    return [(badge, WORDS("mark_seat", lang)), (path, WORDS("mark_move", lang)),
            (fight, WORDS("mark_fight", lang)), (refused, WORDS("mark_refused", lang)),
            (turned, WORDS("mark_turned", lang))]


ARMY_ORDER = ("king", "dragon", "golem", "knight", "magician", "slime")
NEUTRAL_ORDER = ("chest", "coin", "tentacle", "block", "fence")
