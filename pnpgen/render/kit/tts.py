"""Tabletop Simulator export (`pnpgen build --tts`): card sheets, standees, tokens, board
and sheet images and saved objects, under build/<game>/tts/. Format and hosting: docs/tts.md.

A deck of cards becomes face sheets in TTS's grid format (up to 10 columns × 7 rows, the
grid giving each card the most pixels within 4096 px; the last slot of every sheet holds
the "hidden" image TTS shows for a card nobody may see, here the back), a back image (one
shared back) or back sheets (backs that differ per card), and a saved object:
{"SaveName", "ObjectStates": [{"Name": "Deck", "DeckIDs", "CustomDeck",
"ContainedObjects": [Card, ...]}]}. Each sheet is one CustomDeck entry, keyed by its deck
id; a card's CardID is deck id × 100 + its slot. Copies that draw the same share one slot,
so a deck of 54 cards in three kinds takes one small sheet. A deck of fold-over pieces
becomes Figurine_Custom standees, one of round markers Custom_Token tokens, cut out on
transparency, in a Bag (piece_kind). A board becomes a Custom_Board, a sheet a
Custom_Tile; table.json holds them all. Objects are named from content (card_name).

Faces are drawn by the preview recorder (preview.py) and rasterised with Pillow, cut at
the trim (no bleed), in RGB (RGBA for cut-outs); PNGs are written without dates, so a
rebuild is byte-identical.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from reportlab.lib.units import mm

from pnpgen.content.yamlpos import YMap
from pnpgen.errors import BuildError
from pnpgen.limits import MAX_PREVIEW_PIXELS
from pnpgen.output import BuiltFile, atomic_output
from pnpgen.render.kit import board, deck
from pnpgen.render.kit.elements import draw_elements
from pnpgen.render.kit.page import KitJob, Rect
from pnpgen.render.kit.preview import Recorder, to_image
from pnpgen.render.kit.tiling import Frame

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

COLUMNS, ROWS = 10, 7  # the largest grid TTS cuts a sheet into
SHEET_SIDE = 4096  # px: TTS's knowledge base recommends deck sheets 4096 wide, images under 4096 a side
MAX_PX_PER_MM = 300 / 25.4  # 300 ppi: a small deck's cards need no more
BOARD_PX_PER_MM = 10.0  # 254 ppi, less for a board over 409.6 mm (its longest side stays SHEET_SIDE)
SUPERSAMPLE = 2  # faces are drawn at twice the size and scaled down: Pillow's shapes have no anti-aliasing
POKER_WIDTH = 63.0  # mm: a card this wide gets TTS scale 1.0
FOLDER = "tts"  # under build/<game>/


def card_pixels(card_mm: tuple[float, float], grid: tuple[int, int] = (COLUMNS, ROWS)) -> tuple[int, int]:
    """A card's size in pixels: at most MAX_PX_PER_MM (300 ppi), and small enough that a
    sheet of `grid` cards fits SHEET_SIDE×SHEET_SIDE (poker 63×88 mm on a full 10×7
    sheet: 409×571 px, about 165 ppi)."""
    w, h = card_mm
    scale = min(MAX_PX_PER_MM, SHEET_SIDE / grid[0] / w, SHEET_SIDE / grid[1] / h)  # px per mm
    width = max(1, math.floor(w * scale))
    return width, max(1, min(SHEET_SIDE // grid[1], round(h * width / w)))


def grid_for(cards: int, card_mm: tuple[float, float] = (63.0, 88.0)) -> tuple[int, int]:
    """Columns and rows of a sheet holding `cards` cards and the hidden slot after them:
    of every grid up to COLUMNS × ROWS with room for them, the one that gives each card the
    most pixels (card_pixels), then the one with the fewest empty slots. A 16-card poker
    deck: 5 × 4, 733 × 1023 px a card (10 × 2 gave 409 × 571)."""
    slots = min(cards, COLUMNS * ROWS - 1) + 1
    best: tuple[tuple[int, int, int], tuple[int, int]] | None = None
    for rows in range(1, ROWS + 1):
        for columns in range(1, COLUMNS + 1):
            if columns * rows < slots:
                continue
            w, h = card_pixels(card_mm, (columns, rows))
            key = (w * h, -(columns * rows), columns)
            if best is None or key > best[0]:
                best = (key, (columns, rows))
    assert best is not None
    return best[1]


def check_base_url(url: str) -> str:
    """--tts-base-url: an http(s) or file URL, ending in '/'."""
    if not url.startswith(("http://", "https://", "file:///")) or any(c.isspace() for c in url):
        raise BuildError(f"--tts-base-url '{url}' must be an http://, https:// or file:/// URL without spaces")
    return url if url.endswith("/") else url + "/"


@dataclass
class DeckIds:
    """Deck ids handed out in build order (1, 2, ...), one per sheet, so that the decks of
    one game never share an id when they lie on the same table; and the objects made so
    far, laid on one table by write_table."""

    next: int = 1
    objects: list[dict[str, Any]] = field(default_factory=list)  # every object made, for the table save

    def take(self) -> int:
        self.next += 1
        return self.next - 1


@dataclass
class Sheet:
    """One sheet being filled: the card images in slot order."""

    ident: int
    faces: list[PILImage] = field(default_factory=list)
    backs: list[PILImage] = field(default_factory=list)


def folder(job: KitJob) -> Path:
    return job.game_dir / FOLDER


def url(job: KitJob, path: Path) -> str:
    """Where TTS fetches a file: --tts-base-url + its name, else its file:/// URL."""
    base = job.options.tts_base_url
    base = check_base_url(base) if base else folder(job).resolve().as_uri() + "/"
    return base + quote(path.name)


def guid(*parts: str) -> str:
    """A stable 6-hex-digit GUID (TTS's form) from names: the same input gives the same file."""
    return hashlib.sha1("/".join(parts).encode("utf-8")).hexdigest()[:6]


def transform(scale: float = 1.0, face_down: bool = True) -> dict[str, float]:
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def saved_object(name: str, objects: list[dict[str, Any]]) -> dict[str, object]:
    """A TTS saved object: a save file with one object (its outer fields left empty)."""
    return {"SaveName": name, "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
            "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "TabStates": {},
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ObjectStates": objects}


def write_json(path: Path, data: dict[str, Any]) -> Path:
    with atomic_output(path) as tmp:
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_png(path: Path, image: PILImage) -> Path:
    """RGB PNG with no text chunks (no dates): the same pixels give the same bytes."""
    with atomic_output(path) as tmp:
        image.convert("RGB").save(tmp, format="PNG", compress_level=6)
    return path


def recording(width_pt: float, height_pt: float, draw: Callable[..., object]) -> Recorder:
    """What `draw(recorder)` draws on a width×height pt area, recorded (not yet pixels)."""
    rec = Recorder(width_pt, height_pt)
    draw(rec)
    return rec


FLOAT = re.compile(r"-?\d+\.\d{5,}(?:e-?\d+)?")


def digest(*recs: Recorder | None) -> bytes:
    """The same drawing gives the same digest, at any size: copies share a slot.
    Coordinates count to 1/10,000 pt (text placed twice may differ in the 14th digit)."""
    text = repr([rec.ops if rec is not None else None for rec in recs])
    return hashlib.sha256(FLOAT.sub(lambda m: f"{float(m.group()):.4f}", text).encode()).digest()


def pixels(rec: Recorder, size: tuple[int, int]) -> PILImage:
    """A recording as a Pillow image of `size` px: drawn at SUPERSAMPLE times the size
    (within MAX_PREVIEW_PIXELS) and scaled down, so edges are smooth."""
    from PIL import Image

    factor = SUPERSAMPLE if SUPERSAMPLE ** 2 * size[0] * size[1] <= MAX_PREVIEW_PIXELS else 1  # a big board: 1×
    image = to_image(rec, factor * size[0] / rec.width)
    return image.resize(size, Image.Resampling.BOX)  # each pixel the mean of the 2×2 it covers


def raster(width_pt: float, height_pt: float, size: tuple[int, int], draw: Callable[..., object]) -> PILImage:
    """What `draw(recorder)` draws on a width×height pt area, as a Pillow image of `size` px."""
    return pixels(recording(width_pt, height_pt, draw), size)


def plain_back(size: tuple[int, int], title: str) -> PILImage:
    """The back of a deck that has none: light grey, framed, its title in the middle."""
    from PIL import Image, ImageDraw

    from pnpgen.render.fonts import SANS
    from pnpgen.render.kit.preview import _font

    image = Image.new("RGB", size, (224, 224, 224))
    draw = ImageDraw.Draw(image)
    edge = max(2, size[0] // 40)
    draw.rectangle((edge, edge, size[0] - 1 - edge, size[1] - 1 - edge), outline=(120, 120, 120), width=edge // 2 + 1)
    font = _font(SANS, max(8, size[0] // 12))
    draw.text((size[0] / 2, size[1] / 2), title[:40], font=font, fill=(80, 80, 80), anchor="mm")
    return image


def compose(images: Sequence[PILImage], hidden: PILImage, size: tuple[int, int], grid: tuple[int, int]
            ) -> tuple[PILImage, int, int]:
    """A sheet: `images` row by row on a `grid`, `hidden` in the last slot; white elsewhere."""
    from PIL import Image

    columns, rows = grid
    sheet = Image.new("RGB", (columns * size[0], rows * size[1]), "white")
    for slot, image in enumerate([*images] + [None] * (columns * rows - 1 - len(images)) + [hidden]):
        if image is not None:
            sheet.paste(image, ((slot % columns) * size[0], (slot // columns) * size[1]))
    return sheet, columns, rows


# --- names ----------------------------------------------------------------------------------


def plain(text: str) -> str:
    """A title as TTS shows it: the words, without `**` or `[#colour]` markup."""
    from pnpgen.render.markup import scan

    return " ".join("".join(run.text if run.kind == "text" else " " for run in scan(text, {})).split())


SKIP_FIELDS = {"copy", "index", "quantity", "count"}


def card_name(card: deck.Card, component: YMap, job: KitJob, title: str, number: int) -> str:
    """A card's or piece's name from content: its `name_field` (or name, title, id), else
    the short printed fields that are not colours, in their order ('B King Dragon'), else
    '<deck> <n>'."""
    named = deck._card_title(card.fields, component.get("name_field"), job)
    if named:
        return named
    printed = repr(list(card.front)) + repr(list(card.back))
    parts = []
    for key, value in card.fields.items():
        if key in SKIP_FIELDS or "{{ " + key not in printed and "{{" + key not in printed:
            continue
        text = job.text(value) if isinstance(value, str | dict | int | float) else ""
        text = plain(text)
        if text and not text.startswith("#") and len(text) <= 30 and text not in parts:
            parts.append(text)
    return " ".join(parts) or f"{title} {number}"


# --- what a deck becomes ----------------------------------------------------------------------


def rect_of(element: object) -> tuple[float, float, float, float] | None:
    """x, y, w, h (mm) of a rectangle element with all four given, else None."""
    if not isinstance(element, dict) or element.get("shape") not in ("rect", "circle") or element.get("bleed"):
        return None
    try:
        return tuple(float(element[k]) for k in ("x", "y", "w", "h"))  # type: ignore[return-value]
    except (KeyError, TypeError, ValueError):
        return None


def piece_kind(layout: Sequence[Any], card_mm: tuple[float, float]) -> tuple[str, Any]:
    """What a deck's card is on a table, from its front layout:
    - 'standee': a fold-over piece (elements drawn upside_down): its largest upright and
      largest upside-down rectangles are the two faces (Figurine_Custom);
    - 'token': a circle filling most of a square card (a marker): a round Custom_Token;
    - 'card' otherwise."""
    upright = [r for e in layout if (r := rect_of(e)) and e.get("shape") == "rect" and not e.get("upside_down")]
    turned = [r for e in layout if (r := rect_of(e)) and e.get("shape") == "rect" and e.get("upside_down")]
    if upright and turned:
        return "standee", (max(upright, key=lambda r: r[2] * r[3]), max(turned, key=lambda r: r[2] * r[3]))
    w, h = card_mm
    circles = [r for e in layout if (r := rect_of(e)) and e.get("shape") == "circle"]
    if abs(w - h) < 0.01 and any(min(r[2], r[3]) >= 0.8 * w for r in circles):
        return "token", max(circles, key=lambda r: r[2])
    return "card", None


# --- decks ----------------------------------------------------------------------------------


def export_deck(component: YMap, job: KitJob, ids: DeckIds) -> list[BuiltFile]:
    """tts/<id>[-<lang>]-faces-<n>.png, -back.png or -backs-<n>.png, and <id>[-<lang>].json;
    a deck of standees or tokens goes to export_pieces."""
    s = deck.settings(component, job)
    cards = deck.expand_cards(component, job)
    kind, shape = piece_kind(list(cards[0].front), s.card) if cards else ("card", None)
    if kind != "card":
        return export_pieces(component, job, ids, kind, shape, cards)
    w, h = s.card[0] * mm, s.card[1] * mm
    trim = Rect(0, 0, w, h)
    back = list(cards[0].back)  # each card's layouts were chosen by expand_cards (per type, or the deck's one)
    unique_backs = bool(back) and not deck.shared_back(cards, job)
    stem = job.out_path(str(component["id"])).stem
    title = plain(job.text(component["title"]))

    def face(layout: Sequence[object], card: deck.Card) -> Recorder:
        ctx = deck.element_context(component, job, card, s.bleed * mm)
        return recording(w, h, lambda rec: draw_elements(rec, layout, trim, ctx))

    # pass 1: each card recorded, copies that draw the same found (no pixels yet)
    distinct: dict[bytes, int] = {}  # digest -> index in `kinds`
    kinds: list[tuple[Recorder, Recorder | None]] = []
    order: list[int] = []
    for card in cards:
        front = face(card.front, card)
        rear = face(card.back, card) if unique_backs else None
        key = digest(front, rear)
        if key not in distinct:
            distinct[key] = len(kinds)
            kinds.append((front, rear))
        order.append(distinct[key])
    per_sheet = COLUMNS * ROWS - 1
    chunks = [kinds[i:i + per_sheet] for i in range(0, len(kinds), per_sheet)]
    grids = [grid_for(len(chunk), s.card) for chunk in chunks]
    sizes = [card_pixels(s.card, grid) for grid in grids]
    back_rec = face(back, cards[0]) if back and not unique_backs else None
    shared_back = pixels(back_rec, sizes[0]) if back_rec is not None else plain_back(sizes[0], title)
    out = folder(job)
    files: list[BuiltFile] = []
    back_path = out / f"{stem}-back.png"
    if not unique_backs:
        write_png(back_path, shared_back)
        files.append(BuiltFile(job.content.id, back_path, 0, "deck back (Tabletop Simulator)"))
    entries: dict[str, dict[str, Any]] = {}
    slot_ids: list[int] = []
    # pass 2: a sheet at a time, each at the grid that gives its cards the most pixels
    for chunk, grid, size in zip(chunks, grids, sizes, strict=True):
        ident = ids.take()
        number = len(entries) + 1
        hidden = shared_back.resize(size) if shared_back.size != size else shared_back
        image, columns, rows = compose([pixels(f, size) for f, _ in chunk], hidden, size, grid)
        faces_path = write_png(out / f"{stem}-faces-{number}.png", image)
        files.append(BuiltFile(job.content.id, faces_path, 0,
                               f"deck faces (Tabletop Simulator), {columns}×{rows}, {size[0]}×{size[1]} px a card"))
        backs_path = back_path
        if unique_backs:
            image, _, _ = compose([pixels(r, size) for _, r in chunk if r is not None], plain_back(size, title), size,
                                  grid)
            backs_path = write_png(out / f"{stem}-backs-{number}.png", image)
            files.append(BuiltFile(job.content.id, backs_path, 0, f"deck backs (Tabletop Simulator), {columns}×{rows}"))
        entries[str(ident)] = {
            "FaceURL": url(job, faces_path),
            "BackURL": url(job, backs_path),
            "NumWidth": columns,
            "NumHeight": rows,
            "BackIsHidden": True,  # a hidden card shows its back (the last slot holds it too)
            "UniqueBack": unique_backs,
            "Type": 0,  # rounded rectangle
        }
        slot_ids += [ident * 100 + slot for slot in range(len(chunk))]
    card_ids = [slot_ids[index] for index in order]
    scale = round(s.card[0] / POKER_WIDTH, 4)
    sideways = s.card[0] > s.card[1]
    contained = []
    for number, (card, card_id) in enumerate(zip(cards, card_ids, strict=True)):
        contained.append({
            "GUID": guid(job.content.id, stem, str(number)),
            "Name": "Card",
            "Transform": transform(scale),
            "Nickname": card_name(card, component, job, title, number + 1),
            "Description": "",
            "CardID": card_id,
            "SidewaysCard": sideways,
            "CustomDeck": {str(card_id // 100): entries[str(card_id // 100)]},
        })
    if len(contained) == 1:  # TTS has no deck of one: the card alone
        obj = {**contained[0], "Nickname": contained[0]["Nickname"] or title}
    else:
        obj = {"GUID": guid(job.content.id, stem), "Name": "Deck", "Transform": transform(scale), "Nickname": title,
               "Description": "", "SidewaysCard": sideways, "DeckIDs": card_ids, "CustomDeck": entries,
               "ContainedObjects": contained}
    ids.objects.append(obj)
    json_path = write_json(out / f"{stem}.json", saved_object(title, [obj]))
    files.append(BuiltFile(job.content.id, json_path, 0,
                           f"deck saved object (Tabletop Simulator), {len(cards)} cards on {len(entries)} "
                           f"sheet{'s' if len(entries) != 1 else ''}"))
    return files


# --- standees and tokens --------------------------------------------------------------------


def cut_out(rec: Recorder, size: tuple[int, int], box: tuple[float, float, float, float], round_: bool,
            turned: bool = False) -> PILImage:
    """The part `box` (x, y, w, h mm from the card's top-left) of a recorded face as an RGBA
    picture of `size`: transparent outside it (and outside its circle for a round token);
    `turned`: the part was drawn upside down, so it is turned back."""
    from PIL import Image, ImageDraw

    whole = (round(size[0] * rec.width / (box[2] * mm)), round(size[1] * rec.height / (box[3] * mm)))
    image = pixels(rec, whole)
    left, top = round(box[0] * mm / rec.width * whole[0]), round(box[1] * mm / rec.height * whole[1])
    part = image.crop((left, top, left + size[0], top + size[1])).convert("RGBA")
    if round_:
        mask = Image.new("L", (size[0] * 4, size[1] * 4), 0)
        ImageDraw.Draw(mask).ellipse((0, 0, size[0] * 4 - 1, size[1] * 4 - 1), fill=255)
        part.putalpha(mask.resize(size, Image.Resampling.BOX))  # a smooth edge
    return part.transpose(Image.Transpose.ROTATE_180) if turned else part


def write_rgba(path: Path, image: PILImage) -> Path:
    """An RGBA PNG (transparency is the cut-out) with no text chunks."""
    with atomic_output(path) as tmp:
        image.save(tmp, format="PNG", compress_level=6)
    return path


PIECE_PX_PER_MM = 20.0  # 508 ppi: a piece is small on the screen but close to the camera
TOKEN = {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}


def export_pieces(component: YMap, job: KitJob, ids: DeckIds, kind: str, shape: Any,
                  cards: list[deck.Card]) -> list[BuiltFile]:
    """Standees (Figurine_Custom: front and back faces cut from a fold-over piece) or round
    tokens (Custom_Token cut out along the circle), one image per distinct piece and one
    object per copy, named from content, in a Bag named after the deck."""
    s = deck.settings(component, job)
    w, h = s.card[0] * mm, s.card[1] * mm
    trim = Rect(0, 0, w, h)
    stem = job.out_path(str(component["id"])).stem
    title = plain(job.text(component["title"]))
    out = folder(job)
    files: list[BuiltFile] = []
    made: dict[bytes, tuple[str, str]] = {}
    objects = []
    boxes: tuple[Any, ...] = shape if kind == "standee" else (shape,)
    size = (round(boxes[0][2] * PIECE_PX_PER_MM), round(boxes[0][3] * PIECE_PX_PER_MM))
    for number, card in enumerate(cards, start=1):
        ctx = deck.element_context(component, job, card, s.bleed * mm)
        rec = recording(w, h, lambda r, c=card, x=ctx: draw_elements(r, list(c.front), trim, x))
        key = digest(rec)
        if key not in made:
            index = len(made) + 1
            front = write_rgba(out / f"{stem}-{index}.png", cut_out(rec, size, boxes[0], kind == "token"))
            files.append(BuiltFile(job.content.id, front, 0, f"{kind} picture (Tabletop Simulator), "
                                   f"{size[0]}×{size[1]} px, transparent outside"))
            back = ""
            if kind == "standee":
                rear = write_rgba(out / f"{stem}-{index}-back.png", cut_out(rec, size, boxes[1], False, turned=True))
                files.append(BuiltFile(job.content.id, rear, 0, f"standee back (Tabletop Simulator), "
                                       f"{size[0]}×{size[1]} px"))
                back = url(job, rear)
            made[key] = (url(job, front), back)
        front_url, back_url = made[key]
        scale = round(boxes[0][2] / POKER_WIDTH, 4)  # as cards: the width over 63 mm
        image = {"ImageURL": front_url, "ImageSecondaryURL": back_url, "WidthScale": 0.0}
        if kind == "token":
            image["CustomToken"] = dict(TOKEN)
        objects.append({"GUID": guid(job.content.id, stem, str(number)),
                        "Name": "Figurine_Custom" if kind == "standee" else "Custom_Token",
                        "Transform": transform(scale, face_down=False),
                        "Nickname": card_name(card, component, job, title, number), "Description": "",
                        "CustomImage": image})
    bag = {"GUID": guid(job.content.id, stem), "Name": "Bag", "Transform": transform(face_down=False),
           "Nickname": title, "Description": f"{len(objects)} {kind}s", "ContainedObjects": objects}
    ids.objects.append(bag)
    json_path = write_json(out / f"{stem}.json", saved_object(title, [bag]))
    files.append(BuiltFile(job.content.id, json_path, 0, f"{kind}s saved object (Tabletop Simulator), "
                           f"{len(objects)} in a bag, {len(made)} different"))
    return files


# --- boards and sheets ----------------------------------------------------------------------


def export_board(component: YMap, job: KitJob, ids: DeckIds) -> list[BuiltFile]:
    """tts/<id>[-<lang>].png (the whole board, untiled, at the trim) and its Custom_Board."""
    plan, ctx = board.plan_board(component, job)
    w_mm, h_mm = plan.layout.width, plan.layout.height
    px_per_mm = min(BOARD_PX_PER_MM, SHEET_SIDE / max(w_mm, h_mm))
    size = (max(1, round(w_mm * px_per_mm)), max(1, round(h_mm * px_per_mm)))
    w, h = w_mm * mm, h_mm * mm
    image = raster(w, h, size, lambda rec: board.draw_board(rec, Frame(0, h), component, plan.layout,
                                                            plan.stack, ctx))
    stem = job.out_path(str(component["id"])).stem
    title = plain(job.text(component["title"]))
    png = write_png(folder(job) / f"{stem}.png", image)
    obj = {"GUID": guid(job.content.id, stem), "Name": "Custom_Board", "Transform": transform(face_down=False),
           "Nickname": title, "Description": "", "Locked": False,
           "CustomImage": {"ImageURL": url(job, png), "ImageSecondaryURL": "", "WidthScale": 0.0}}
    ids.objects.append(obj)
    json_path = write_json(folder(job) / f"{stem}.json", saved_object(title, [obj]))
    return [BuiltFile(job.content.id, png, 0, f"board image (Tabletop Simulator), {size[0]}×{size[1]} px"),
            BuiltFile(job.content.id, json_path, 0, "board saved object (Tabletop Simulator)")]


TILE = {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": True}  # a thin rectangle


def export_sheet(component: YMap, job: KitJob, ids: DeckIds) -> list[BuiltFile]:
    """tts/<id>[-<lang>].png (one copy of a play sheet, summary or score sheet, at the trim)
    and a Custom_Tile lying on the table, named by its title."""
    from pnpgen.render.kit import sheet

    plan, ctx = sheet.plan_sheet(component, job)
    trim = plan.trims[0]
    w_mm, h_mm = trim.w / mm, trim.h / mm
    px_per_mm = min(BOARD_PX_PER_MM, SHEET_SIDE / max(w_mm, h_mm))
    size = (max(1, round(w_mm * px_per_mm)), max(1, round(h_mm * px_per_mm)))
    image = raster(trim.w, trim.h, size, lambda rec: sheet.draw_sheet(rec, Rect(0, 0, trim.w, trim.h), plan, ctx))
    stem = job.out_path(str(component["id"])).stem
    title = plain(job.text(component["title"]))
    png = write_png(folder(job) / f"{stem}.png", image)
    scale = round(w_mm / POKER_WIDTH, 4)
    obj = {"GUID": guid(job.content.id, stem), "Name": "Custom_Tile", "Transform": transform(scale, face_down=False),
           "Nickname": title, "Description": "",
           "CustomImage": {"ImageURL": url(job, png), "ImageSecondaryURL": "", "WidthScale": 0.0,
                           "CustomTile": dict(TILE)}}
    ids.objects.append(obj)
    json_path = write_json(folder(job) / f"{stem}.json", saved_object(title, [obj]))
    return [BuiltFile(job.content.id, png, 0, f"sheet image (Tabletop Simulator), {size[0]}×{size[1]} px"),
            BuiltFile(job.content.id, json_path, 0, "sheet saved object, a tile (Tabletop Simulator)")]


def export(component: YMap, job: KitJob, ids: DeckIds) -> list[BuiltFile]:
    """A component's TTS files: decks (cards, standees or tokens), boards, sheets (tiles)."""
    kind = component["type"]
    if kind == "deck":
        return export_deck(component, job, ids)
    if kind == "board":
        return export_board(component, job, ids)
    if kind == "sheet":
        return export_sheet(component, job, ids)
    return []


# --- the whole table ------------------------------------------------------------------------

SPACING = 6.0  # TTS units between objects laid out on the table
PER_ROW = 6


def write_table(game_dir: Path, title: str, game_id: str, ids: DeckIds,
                base_url: str | None = None) -> list[BuiltFile]:
    """tts/table.json: every object of the game in one saved object, laid out in rows of
    PER_ROW, SPACING apart, to spawn at once (docs/tts.md); with a base URL, the pictures
    packed for TTS's local mod folder too (pack_for_mods)."""
    if not ids.objects:
        return []
    placed = []
    for index, obj in enumerate(ids.objects):
        moved = json.loads(json.dumps(obj))  # a copy
        moved["Transform"]["posX"] = round((index % PER_ROW - (PER_ROW - 1) / 2) * SPACING, 3)
        moved["Transform"]["posZ"] = round(-(index // PER_ROW) * SPACING, 3)
        placed.append(moved)
    path = write_json(game_dir / FOLDER / "table.json", saved_object(title, placed))
    built = [BuiltFile(game_id, path, 0, f"the whole game, {len(placed)} objects (Tabletop Simulator)")]
    if base_url is not None:
        built += pack_for_mods(game_dir / FOLDER, check_base_url(base_url), placed, game_id)
    return built


URL_KEYS = ("FaceURL", "BackURL", "ImageURL", "ImageSecondaryURL")


def cache_name(address: str) -> str:
    """The name TTS gives a downloaded file in its cache (Mods/Images): the URL with every
    character that is not a letter or digit left out, then the extension."""
    return re.sub(r"[\W_]", "", address, flags=re.ASCII) + ".png"


def pack_for_mods(out: Path, base_url: str, objects: list[dict[str, Any]], game_id: str) -> list[BuiltFile]:
    """tts/Mods/Images/<cache name>.png: each picture under the name TTS's cache gives its
    URL. Copied into the TTS data folder, the game loads from it without downloading
    (before the pictures are hosted, or offline); once they are hosted at the base URL,
    every other player's TTS downloads them as usual."""
    from urllib.parse import unquote

    addresses: list[str] = []

    def collect(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in URL_KEYS and isinstance(value, str) and value.startswith(base_url) and value not in addresses:
                    addresses.append(value)
                else:
                    collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(objects)
    built = []
    for address in addresses:
        source = out / unquote(address[len(base_url):])
        if not source.is_file():
            continue
        target = out / "Mods" / "Images" / cache_name(address)
        target.parent.mkdir(parents=True, exist_ok=True)
        with atomic_output(target) as tmp:
            tmp.write_bytes(source.read_bytes())
        built.append(BuiltFile(game_id, target, 0, f"{source.name} under its TTS cache name (Tabletop Simulator)"))
    return built
