"""`pnpgen build --vendor NAME`: a game's decks as a print-on-demand shop takes them, under
build/<game>/<vendor>/, following the shop's profile (vendors/<name>.yaml).

Each deck is first drawn by the kit one face per page (the card plus the profile
preset's bleed; sRGB for an RGB shop, press CMYK for a CMYK one), in a temporary folder; each page is rasterised
(RGB by PDFium, CMYK by Ghostscript, at twice the resolution and averaged down), scaled so
the card's cut meets the product's cut (a 63 × 88 mm card on a 63.5 × 88.9 mm product:
0.8 % and 1.0 %), and cut to the product's exact pixel size around it. A landscape card on
a portrait product is turned a quarter clockwise. Then, per the profile:

- png: one RGB PNG per card face (copies included) and per back, or one shared back
  when every back is the same picture; 300 ppi recorded, no date, so rebuilds match;
- pdf-x1a: one PDF/X-1a:2003 per deck, each page one CMYK picture with the total ink held
  under the profile's limit (limit_ink), TrimBox and BleedBox, the FOGRA39 output intent,
  sides in the profile's order (back, front, ...).

Decks whose card matches no product of the shop, boards and sheets are left out, each with
a warning naming the shop's products.
"""

from __future__ import annotations

import functools
import hashlib
import io
import tempfile
import zlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from pnpgen.content.game import GameContent
from pnpgen.content.yamlpos import YMap, where
from pnpgen.engine.protocol import Rules
from pnpgen.errors import ContentError, PnpgenError
from pnpgen.output import BuildOptions, BuiltFile, atomic_output
from pnpgen.render.text import TemplateMistake, Templates
from pnpgen.render.vendors import Product, Profile, load_profile
from pnpgen.render.vendors.raster import distinct_pages, limit_ink, rasterise_cmyk, rasterise_rgb

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage
    from reportlab.pdfgen.canvas import Canvas

    from pnpgen.render.kit.deck import Card, Settings
    from pnpgen.render.kit.page import KitJob

S = TypeVar("S")
M = TypeVar("M")

SUPERSAMPLE = 2
MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Fit:
    """How a print-shop page becomes a product picture (all in the card's own orientation)."""

    size: tuple[int, int]  # the picture, px
    scale: tuple[float, float]  # px per mm across and down
    turn: bool  # turn a quarter clockwise at the end (landscape card, portrait product)

    @property
    def dpi(self) -> float:
        """The resolution to rasterise at: SUPERSAMPLE × the larger scale, in dots per inch."""
        return SUPERSAMPLE * max(self.scale) * MM_PER_INCH


EDGE_MM = 1.0  # bleed a deck lacks, up to this, is made by repeating its outermost pixels


def fit(product: Product, upright: bool, profile: Profile, card_mm: tuple[float, float],
        bleed_mm: float, component: YMap) -> tuple[Fit, str | None]:
    """The scale that lays the card's cut on the product's cut, checked: the card's own
    bleed must cover the product's bleed at that scale, or fall short by EDGE_MM at most
    (then the edge is repeated, and a warning says so)."""
    trim = product.trim_mm if upright else product.trim_mm[::-1]
    size = product.size_px if upright else product.size_px[::-1]
    scale = (trim[0] / MM_PER_INCH * profile.ppi / card_mm[0], trim[1] / MM_PER_INCH * profile.ppi / card_mm[1])
    need = max((size[axis] / scale[axis] - card_mm[axis]) / 2 for axis in (0, 1))
    warning = None
    if need > bleed_mm + EDGE_MM:
        raise ContentError(f"{profile.name} needs {need:.2f} mm bleed on these cards for its {product.name}; "
                           f"the deck has {bleed_mm:g} mm (set bleed: or remove it to use the profile's)",
                           **where(component, "bleed" if "bleed" in component else None, value="bleed" in component))
    if need > bleed_mm + 0.01:
        warning = (f"warning: {component['id']}: {profile.name} needs {need:.2f} mm bleed, "
                   f"the deck has {bleed_mm:g} mm; the last {need - bleed_mm:.2f} mm repeat the edge pixels "
                   f"(bleed: {need:.2f} avoids it)")
    return Fit((size[0], size[1]), scale, not upright), warning


def to_product(page: PILImage, page_mm: tuple[float, float], how: Fit) -> PILImage:
    """A rasterised print-shop page as the product's picture: scaled so the cut meets the
    product's cut, cut to its size around the centre (the edge pixels repeated where the
    page's bleed is short), turned if need be."""
    import numpy as np
    from PIL import Image

    scaled = (round(page_mm[0] * how.scale[0]), round(page_mm[1] * how.scale[1]))
    image = page.resize(scaled, Image.Resampling.BOX)
    short = [max(0, how.size[axis] - scaled[axis]) for axis in (0, 1)]
    if any(short):
        pixels = np.asarray(image)
        pad = ((short[1] // 2 + 1, short[1] // 2 + 1), (short[0] // 2 + 1, short[0] // 2 + 1), (0, 0))
        image = Image.fromarray(np.pad(pixels, pad, mode="edge"), mode=image.mode)
        scaled = image.size
    left, top = (scaled[0] - how.size[0]) // 2, (scaled[1] - how.size[1]) // 2
    image = image.crop((left, top, left + how.size[0], top + how.size[1]))
    return image.transpose(Image.Transpose.ROTATE_270) if how.turn else image


def write_png(path: Path, image: PILImage, ppi: int, encoded: dict[int, bytes] | None = None) -> Path:
    """An RGB PNG with its resolution and no date: the same pixels give the same bytes.
    `encoded`: the PNGs made so far, by picture object: a card's copies (the same picture)
    are encoded once and their files written from those bytes."""
    data = encoded.get(id(image)) if encoded is not None else None
    if data is None:
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, format="PNG", dpi=(ppi, ppi), compress_level=6)
        data = buffer.getvalue()
        if encoded is not None:
            encoded[id(image)] = data
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_output(path) as tmp:
        tmp.write_bytes(data)
    return path


PDFX_VERSION = "PDF/X-1a:2003"


def write_pdf_x1a(path: Path, pages: list[PILImage], profile: Profile, product: Product, title: str, author: str,
                  date: str) -> Path:
    """PDF/X-1a:2003 (ISO 15930-4): PDF 1.4, every page one DeviceCMYK picture (no RGB, no
    transparency, no fonts), MediaBox = BleedBox, TrimBox the cut, the press profile as
    GTS_PDFX output intent, GTS_PDFXVersion and /Trapped in the info and the XMP."""
    import pikepdf

    from pnpgen.render.press import CONDITION, CONDITION_TEXT, PROFILE, _pdf_date_to_iso, xmp_packet

    pdf = pikepdf.new()
    digest = hashlib.sha256()
    made: dict[str, object] = {}
    keys: dict[int, str] = {}  # id of a picture object -> its digest: one drawn on many pages is hashed once
    for image in pages:
        width_px, height_px = image.size
        w, h = width_px / profile.ppi * 72, height_px / profile.ppi * 72
        trim_w_px = product.trim_mm[0 if width_px <= height_px else 1] / MM_PER_INCH * profile.ppi
        trim_h_px = product.trim_mm[1 if width_px <= height_px else 0] / MM_PER_INCH * profile.ppi
        bx, by = (width_px - trim_w_px) / 2 / profile.ppi * 72, (height_px - trim_h_px) / 2 / profile.ppi * 72
        key = keys.get(id(image))
        if key is None:
            raw = image.tobytes()
            key = keys[id(image)] = hashlib.sha256(raw).hexdigest()
            if key not in made:  # a picture drawn on several pages (shared backs, copies) is stored once
                made[key] = pdf.make_stream(zlib.compress(raw, 6), Type=pikepdf.Name.XObject,
                                            Subtype=pikepdf.Name.Image, Width=width_px, Height=height_px,
                                            ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8,
                                            Filter=pikepdf.Name.FlateDecode)
        digest.update(key.encode())
        picture = made[key]
        content = pdf.make_stream(f"q {w:.4f} 0 0 {h:.4f} 0 0 cm /Card Do Q".encode("ascii"))
        box = [0, 0, round(w, 4), round(h, 4)]
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=box, BleedBox=box,
            TrimBox=[round(bx, 4), round(by, 4), round(w - bx, 4), round(h - by, 4)],
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Card=picture)), Contents=content)
        pdf.pages.append(pikepdf.Page(page))
    icc = pdf.make_stream(PROFILE.read_bytes())
    icc.N = 4
    icc.Alternate = pikepdf.Name.DeviceCMYK
    pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX, OutputConditionIdentifier=CONDITION,
        OutputCondition=CONDITION_TEXT, RegistryName="http://www.color.org", Info=CONDITION_TEXT,
        DestOutputProfile=icc)])
    info = pdf.docinfo
    info["/Title"] = title
    if author:
        info["/Author"] = author
    info["/Creator"] = "pnpgen"
    info["/Producer"] = "pnpgen"
    info["/CreationDate"] = date
    info["/ModDate"] = date
    info["/Trapped"] = pikepdf.Name("/False")
    info["/GTS_PDFXVersion"] = PDFX_VERSION
    document_id = digest.hexdigest()[:32]
    uuid = f"{document_id[:8]}-{document_id[8:12]}-{document_id[12:16]}-{document_id[16:20]}-{document_id[20:]}"
    iso = _pdf_date_to_iso(date)
    xmp = pdf.make_stream(xmp_packet(title, author, iso, iso, "pnpgen", uuid, version=PDFX_VERSION))
    xmp.Type = pikepdf.Name.Metadata
    xmp.Subtype = pikepdf.Name.XML
    pdf.Root.Metadata = xmp
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_output(path) as tmp:
        pdf.save(tmp, min_version="1.4", force_version="1.4", deterministic_id=True, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable)  # object streams are PDF 1.5
    return path


@functools.cache
def _naming() -> Templates:
    """One sandbox for every file name: each naming text is parsed once."""
    return Templates()


def file_name(profile: Profile, key: str, **values: object) -> str:
    """The file name the profile's `naming[key]` gives for `values` (deck, number), filled in
    by the content sandbox like any template."""
    try:
        return _naming().fill(profile.naming[key], values, {})
    except TemplateMistake as err:
        raise PnpgenError(f"vendor profile {profile.id}: naming: {key}: {err.message}") from None


def kind_of(profile: Profile, what: str) -> str:
    """A BuiltFile kind that README.txt groups by shop: '<what> (vendor: <id>)'."""
    return f"{what} (vendor: {profile.id})"


def export_vendor(content: GameContent, rules: list[Rules[S, M]], options: BuildOptions) -> list[BuiltFile]:
    """Every deck of the game as the shop of `options.vendor` takes it, in every language
    of the build; warnings (as notes) for what the shop cannot make."""
    from pnpgen.render.kit import components, deck, jobs

    assert options.vendor is not None
    profile = load_profile(options.vendor)
    out = options.game_dir(content) / profile.id
    built: list[BuiltFile] = []
    skipped: list[str] = []
    with tempfile.TemporaryDirectory(prefix="pnpgen-vendor-") as tmp:
        shop = replace(options, out=Path(tmp), print_shop=False, guides=False, tts=False, preset=profile.preset,
                       ink_saver=False)  # a shop prints every fill
        for item in components(content):
            if item["type"] != "deck":
                skipped.append(f"{item['id']} ({item['type']})")
                continue
            for job in jobs(content, rules, shop, item):
                s = deck.settings(item, job)
                match = profile.product_for(s.card)
                if match is None:
                    skipped.append(f"{item['id']} ({s.card[0]:g} × {s.card[1]:g} mm cards)")
                    break
                product, upright = match
                how, warning = fit(product, upright, profile, s.card, s.bleed, item)
                cards = deck.expand_cards(item, job)
                source = face_pages(item, job, s, cards, cmyk=profile.colour == "cmyk")
                source.notes.extend([warning] if warning else [])
                stem = job.out_path(str(item["id"])).stem
                page_mm = (s.card[0] + 2 * s.bleed, s.card[1] + 2 * s.bleed)
                built += _write_deck(profile, product, how, source, cards, stem, page_mm, out, content.id)
    built.append(write_upload_notes(profile, out, built, skipped, content.id))
    return built


def write_upload_notes(profile: Profile, out: Path, built: list[BuiltFile], skipped: list[str],
                       game: str) -> BuiltFile:
    """<vendor>/upload.txt: the shop, how to upload, each file made and what was left out
    (also a warning on the build's output)."""
    lines = [f"{profile.name} ({profile.url})", "", profile.upload, "", "Made for this shop:"]
    lines += [f"  {b.path.relative_to(out).as_posix()}: {b.kind.rsplit(' (vendor: ', 1)[0]}" for b in built] \
        or ["  nothing (no deck of this game is one of the shop's products)"]
    notes = []
    if skipped:
        names = "; ".join(p.label() for p in profile.products)
        notes.append(f"warning: {profile.name} makes {names}. Not made for it: {', '.join(skipped)} "
                     "(use their print-shop PDFs, --print-shop)")
        lines += ["", notes[0][len("warning: "):]]
    path = out / "upload.txt"
    out.mkdir(parents=True, exist_ok=True)
    with atomic_output(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return BuiltFile(game, path, 0, kind_of(profile, "how to upload, what was made"), notes)


def face_pages(component: YMap, job: KitJob, s: Settings, cards: list[Card], cmyk: bool) -> BuiltFile:
    """The deck drawn one face per page (the card plus its bleed; front, then back, per
    card) by the kit, into the job's (temporary) folder: in sRGB for a shop that takes RGB,
    so no colour goes through a press profile and back; in press CMYK for one that takes
    CMYK. No cut path or guide is drawn: the pictures hold the art alone."""
    from reportlab.lib.units import mm

    from pnpgen.render.kit import deck
    from pnpgen.render.kit.page import Rect, set_page_boxes, write_pdf

    bleed = s.bleed * mm
    trim = Rect(bleed, bleed, s.card[0] * mm, s.card[1] * mm)
    page = trim.outset(bleed)

    def draw(canvas: Canvas) -> int:
        pages = 0
        for card in cards:
            ctx = deck.element_context(component, job, card, bleed, cmyk=cmyk)
            for layout in (card.front, card.back) if card.back else (card.front,):
                deck.draw_face(canvas, layout, trim, page, ctx)
                set_page_boxes(canvas, trim, page)
                canvas.showPage()
                pages += 1
        return pages

    return write_pdf(job, component, (page.w, page.h), draw, "deck faces", [])


def _pages(cards: list[Card]) -> list[tuple[int, str, int]]:
    """(card number, side, page index in the print-shop PDF): front then back, per card."""
    pages: list[tuple[int, str, int]] = []
    index = 0  # 0-based page index
    for number, card in enumerate(cards, start=1):
        pages.append((number, "front", index))
        index += 1
        if card.back:
            pages.append((number, "back", index))
            index += 1
    return pages


def _write_deck(profile: Profile, product: Product, how: Fit, source: BuiltFile, cards: list[Card], stem: str,
                page_mm: tuple[float, float], out: Path, game: str) -> list[BuiltFile]:
    layout = _pages(cards)
    wanted = [(n, side, i) for n, side, i in layout if side in profile.sides]
    rank = {side: profile.sides.index(side) for side in profile.sides}
    wanted.sort(key=lambda page: (page[0], rank[page[1]]))  # per card, the profile's side order
    size = f"{product.name}, {how.size[0] if not how.turn else how.size[1]}×" \
           f"{how.size[1] if not how.turn else how.size[0]} px"
    same = distinct_pages(source.path)
    needed = sorted({same[index] for _, _, index in wanted})  # 1-based, each distinct page once
    if profile.format == "pdf-x1a":
        pictures: dict[int, PILImage] = {}
        for number, page in zip(needed, rasterise_cmyk(source.path, how.dpi, needed), strict=True):
            picture = to_product(page, page_mm, how)
            pictures[number] = limit_ink(picture, profile.ink_limit) if profile.ink_limit else picture
        import pikepdf

        with pikepdf.open(source.path) as pdf:
            title, author = str(pdf.docinfo.get("/Title", stem)), str(pdf.docinfo.get("/Author", ""))
            date = str(pdf.docinfo.get("/CreationDate", "D:20000101000000+00'00'"))
        path = write_pdf_x1a(out / file_name(profile, "deck", deck=stem),
                             [pictures[same[index]] for _, _, index in wanted], profile, product, title, author, date)
        order = ", ".join(profile.sides)
        return [BuiltFile(game, path, len(wanted),
                          kind_of(profile, f"deck, {len(cards)} cards, {size}, pages {order} …, PDF/X-1a CMYK"),
                          list(source.notes))]
    images = {number: to_product(page, page_mm, how)
              for number, page in zip(needed, rasterise_rgb(source.path, how.dpi, needed), strict=True)}
    backs = [same[i] for _, side, i in wanted if side == "back"]
    shared = len(backs) == len(cards) and len({images[b].tobytes() for b in set(backs)}) == 1
    files: list[BuiltFile] = []
    encoded: dict[int, bytes] = {}  # each distinct picture encoded once (`images` keeps them all alive)
    for number, side, index in wanted:
        if side == "back" and shared:
            continue
        name = file_name(profile, side, deck=stem, number=number)
        path = write_png(out / name, images[same[index]], profile.ppi, encoded)
        files.append(BuiltFile(game, path, 0, kind_of(profile, f"card {side}, {size}, RGB PNG")))
    if shared:
        path = write_png(out / file_name(profile, "shared_back", deck=stem), images[backs[0]], profile.ppi)
        files.append(BuiltFile(game, path, 0, kind_of(profile, f"back of every card, {size}, RGB PNG")))
    if files:
        files[-1].notes.extend(source.notes)
    return files


def vendor_notes(files: list[BuiltFile]) -> list[dict[str, str]]:
    """For README.txt: each shop the build made files for, with how to upload them."""
    seen: list[dict[str, str]] = []
    for built in files:
        if "(vendor: " in built.kind:
            name = built.kind.rsplit("(vendor: ", 1)[1].rstrip(")")
            if all(v["id"] != name for v in seen):
                profile = load_profile(name)
                products = "; ".join(p.label() for p in profile.products)
                seen.append({"id": name, "name": profile.name, "upload": profile.upload, "products": products})
    return seen
