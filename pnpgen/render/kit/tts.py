"""Tabletop Simulator export (`pnpgen build --tts`): card sheets, board images and saved
objects, under build/<game>/tts/. Format and hosting: docs/tts.md.

A deck becomes face sheets in TTS's grid format (up to 10 columns × 7 rows; the last slot
of every sheet holds the "hidden" image TTS shows for a card nobody may see, here the
back), a back image (one shared back) or back sheets (backs that differ per card), and a
saved object: {"SaveName", "ObjectStates": [{"Name": "Deck", "DeckIDs", "CustomDeck",
"ContainedObjects": [Card, ...]}]}. Each sheet is one CustomDeck entry, keyed by its deck
id; a card's CardID is deck id × 100 + its slot. Copies that print the same pixels share
one slot, so a deck of 54 cards in three kinds takes one small sheet. A board becomes one
image and a Custom_Board saved object.

Faces are drawn by the preview recorder (preview.py) and rasterised with Pillow, cut at
the trim (no bleed), in RGB; PNGs are written without dates, so a rebuild is
byte-identical.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
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


def grid_for(cards: int) -> tuple[int, int]:
    """Columns and rows of a sheet holding `cards` cards and the hidden slot after them."""
    slots = cards + 1
    columns = min(COLUMNS, slots)
    return columns, math.ceil(slots / columns)


def check_base_url(url: str) -> str:
    """--tts-base-url: an http(s) or file URL, ending in '/'."""
    if not url.startswith(("http://", "https://", "file:///")) or any(c.isspace() for c in url):
        raise BuildError(f"--tts-base-url '{url}' must be an http://, https:// or file:/// URL without spaces")
    return url if url.endswith("/") else url + "/"


@dataclass
class DeckIds:
    """Deck ids handed out in build order (1, 2, ...), one per sheet, so that the decks of
    one game never share an id when they lie on the same table."""

    next: int = 1

    def take(self) -> int:
        self.next += 1
        return self.next - 1


@dataclass
class Sheet:
    """One sheet being filled: the card images in slot order."""

    ident: int
    faces: list[Any] = field(default_factory=list)
    backs: list[Any] = field(default_factory=list)


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


def saved_object(name: str, objects: list[dict[str, Any]]) -> dict[str, Any]:
    """A TTS saved object: a save file with one object (its outer fields left empty)."""
    return {"SaveName": name, "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
            "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "TabStates": {},
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ObjectStates": objects}


def write_json(path: Path, data: dict[str, Any]) -> Path:
    with atomic_output(path) as tmp:
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_png(path: Path, image: Any) -> Path:
    """RGB PNG with no text chunks (no dates): the same pixels give the same bytes."""
    with atomic_output(path) as tmp:
        image.convert("RGB").save(tmp, format="PNG", compress_level=6)
    return path


def raster(width_pt: float, height_pt: float, size: tuple[int, int], draw: Any) -> Any:
    """What `draw(recorder)` draws on a width×height pt area, as a Pillow image of `size` px:
    drawn at SUPERSAMPLE times the size (within MAX_PREVIEW_PIXELS) and scaled down, so
    edges are smooth."""
    from PIL import Image

    rec = Recorder(width_pt, height_pt)
    draw(rec)
    factor = SUPERSAMPLE if SUPERSAMPLE ** 2 * size[0] * size[1] <= MAX_PREVIEW_PIXELS else 1  # a big board: 1×
    image = to_image(rec, factor * size[0] / width_pt)
    return image.resize(size, Image.Resampling.BOX)  # each pixel the mean of the 2×2 it covers


def plain_back(size: tuple[int, int], title: str) -> Any:
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


def compose(images: Sequence[Any], hidden: Any, size: tuple[int, int]) -> tuple[Any, int, int]:
    """A sheet: `images` row by row, `hidden` in the last slot; white elsewhere."""
    from PIL import Image

    columns, rows = grid_for(len(images))
    sheet = Image.new("RGB", (columns * size[0], rows * size[1]), "white")
    for slot, image in enumerate([*images] + [None] * (columns * rows - 1 - len(images)) + [hidden]):
        if image is not None:
            sheet.paste(image, ((slot % columns) * size[0], (slot // columns) * size[1]))
    return sheet, columns, rows


# --- decks ----------------------------------------------------------------------------------


def export_deck(component: YMap, job: KitJob, ids: DeckIds) -> list[BuiltFile]:
    """tts/<id>[-<lang>]-faces-<n>.png, -back.png or -backs-<n>.png, and <id>[-<lang>].json."""
    s = deck.settings(component, job)
    cards = deck.expand_cards(component, job)
    size = card_pixels(s.card, grid_for(min(len(cards), COLUMNS * ROWS - 1)))  # copies may share slots: room spare
    w, h = s.card[0] * mm, s.card[1] * mm
    trim = Rect(0, 0, w, h)
    back = list(cards[0].back)  # each card's layouts were chosen by expand_cards (per type, or the deck's one)
    unique_backs = bool(back) and not deck.shared_back(cards, job)
    stem = job.out_path(str(component["id"])).stem
    title = job.text(component["title"])

    def face(layout: Sequence[Any], card: deck.Card) -> Any:
        ctx = deck.element_context(component, job, card, s.bleed * mm)
        return raster(w, h, size, lambda rec: draw_elements(rec, layout, trim, ctx))

    shared_back = face(back, cards[0]) if back and not unique_backs else plain_back(size, title)
    out = folder(job)
    files: list[BuiltFile] = []
    back_path = out / f"{stem}-back.png"
    if not unique_backs:
        write_png(back_path, shared_back)
        files.append(BuiltFile(job.content.id, back_path, 0, "deck back (Tabletop Simulator)"))
    entries: dict[str, dict[str, Any]] = {}

    def finish(sheet: Sheet) -> None:
        """Write a full (or the last) sheet and record its CustomDeck entry."""
        number = len(entries) + 1
        image, columns, rows = compose(sheet.faces, shared_back, size)
        faces_path = write_png(out / f"{stem}-faces-{number}.png", image)
        files.append(BuiltFile(job.content.id, faces_path, 0, f"deck faces (Tabletop Simulator), {columns}×{rows}"))
        backs_path = back_path
        if unique_backs:
            image, _, _ = compose(sheet.backs, plain_back(size, title), size)
            backs_path = write_png(out / f"{stem}-backs-{number}.png", image)
            files.append(BuiltFile(job.content.id, backs_path, 0, f"deck backs (Tabletop Simulator), {columns}×{rows}"))
        entries[str(sheet.ident)] = {
            "FaceURL": url(job, faces_path),
            "BackURL": url(job, backs_path),
            "NumWidth": columns,
            "NumHeight": rows,
            "BackIsHidden": True,  # a hidden card shows its back (the last slot holds it too)
            "UniqueBack": unique_backs,
            "Type": 0,  # rounded rectangle
        }

    sheet: Sheet | None = None
    slots: dict[bytes, int] = {}  # card pixels' digest -> CardID (deck id × 100 + slot)
    card_ids: list[int] = []
    for card in cards:
        front = face(card.front, card)
        rear = face(card.back, card) if unique_backs else None
        digest = hashlib.sha256(front.tobytes() + (rear.tobytes() if rear is not None else b"")).digest()
        if digest not in slots:
            if sheet is None or len(sheet.faces) == COLUMNS * ROWS - 1:
                if sheet is not None:
                    finish(sheet)  # full: written now, so memory holds one sheet at most
                sheet = Sheet(ids.take())
            slots[digest] = sheet.ident * 100 + len(sheet.faces)
            sheet.faces.append(front)
            if rear is not None:
                sheet.backs.append(rear)
        card_ids.append(slots[digest])
    if sheet is not None:
        finish(sheet)
    scale = round(s.card[0] / POKER_WIDTH, 4)
    sideways = s.card[0] > s.card[1]
    name_field = component.get("name_field")
    contained = []
    for number, (card, card_id) in enumerate(zip(cards, card_ids, strict=True)):
        contained.append({
            "GUID": guid(job.content.id, stem, str(number)),
            "Name": "Card",
            "Transform": transform(scale),
            "Nickname": deck._card_title(card.fields, name_field, job) or f"{title} {number + 1}",
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
    json_path = write_json(out / f"{stem}.json", saved_object(title, [obj]))
    files.append(BuiltFile(job.content.id, json_path, 0,
                           f"deck saved object (Tabletop Simulator), {len(cards)} cards on {len(entries)} "
                           f"sheet{'s' if len(entries) != 1 else ''}"))
    return files


# --- boards ---------------------------------------------------------------------------------


def export_board(component: YMap, job: KitJob) -> list[BuiltFile]:
    """tts/<id>[-<lang>].png (the whole board, untiled, at the trim) and its Custom_Board."""
    plan, ctx = board.plan_board(component, job)
    w_mm, h_mm = plan.layout.width, plan.layout.height
    px_per_mm = min(BOARD_PX_PER_MM, SHEET_SIDE / max(w_mm, h_mm))
    size = (max(1, round(w_mm * px_per_mm)), max(1, round(h_mm * px_per_mm)))
    w, h = w_mm * mm, h_mm * mm
    image = raster(w, h, size, lambda rec: board.draw_board(rec, Frame(0, h), component, plan.layout,
                                                            plan.stack, ctx))
    stem = job.out_path(str(component["id"])).stem
    title = job.text(component["title"])
    png = write_png(folder(job) / f"{stem}.png", image)
    obj = {"GUID": guid(job.content.id, stem), "Name": "Custom_Board", "Transform": transform(face_down=False),
           "Nickname": title, "Description": "", "Locked": False,
           "CustomImage": {"ImageURL": url(job, png), "ImageSecondaryURL": "", "WidthScale": 0.0}}
    json_path = write_json(folder(job) / f"{stem}.json", saved_object(title, [obj]))
    return [BuiltFile(job.content.id, png, 0, f"board image (Tabletop Simulator), {size[0]}×{size[1]} px"),
            BuiltFile(job.content.id, json_path, 0, "board saved object (Tabletop Simulator)")]


EXPORTS = {"deck", "board"}


def export(component: YMap, job: KitJob, ids: DeckIds) -> list[BuiltFile]:
    """A component's TTS files (decks and boards; sheets have none)."""
    kind = component["type"]
    if kind == "deck":
        return export_deck(component, job, ids)
    if kind == "board":
        return export_board(component, job)
    return []
