"""Print-shop files read back as a preflight would: PDF/X-4 structure (output intent with
the embedded press profile, GTS_PDFXVersion, XMP agreeing with the document info, PDF
1.6), page boxes, CMYK only, embedded fonts; transparent pictures kept transparent;
pictures under 300 ppi reported; rebuilds byte-identical."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from pnpgen.render.press import PROFILE
from tests.conftest import ROOT, CliRun
from tests.kit_pdf import game_yaml

DEMO = ROOT / "tests" / "fixtures" / "kit-demo"
MM = 72 / 25.4
RGB = re.compile(rb"(?<![A-Za-z])(rg|RG)(?![A-Za-z])|/DeviceRGB")


@pytest.fixture(scope="module")
def shop(kit_demo_print_shop: Path) -> Path:
    return kit_demo_print_shop


def shop_files(folder: Path) -> list[Path]:
    files = sorted(folder.glob("*-print-shop*.pdf"))
    assert len(files) >= 10  # decks, boards and sheets, both languages
    return files


def forms_and_pages(reader: PdfReader) -> list[tuple[bytes, dict]]:  # type: ignore[type-arg]
    """Every content stream (pages and the forms they use), with its resources."""
    found = []
    seen: set[int] = set()

    def walk(data: bytes, resources: dict) -> None:  # type: ignore[type-arg]
        found.append((data, resources))
        for xobject in (resources.get("/XObject") or {}).values():
            ref = getattr(xobject, "idnum", None)
            obj = xobject.get_object()
            if ref in seen:
                continue
            seen.add(ref)
            if obj.get("/Subtype") == "/Form":
                walk(obj.get_data(), obj.get("/Resources", {}).get_object() if "/Resources" in obj else {})
            else:
                found.append((b"", {"image": obj}))

    for page in reader.pages:
        walk(page.get_contents().get_data(), page.get("/Resources", {}).get_object())
    return found


def test_every_print_shop_file_is_pdfx4(shop: Path) -> None:
    profile = PROFILE.read_bytes()
    for path in shop_files(shop):
        data = path.read_bytes()
        assert data.startswith(b"%PDF-1.6"), path.name  # PDF/X-4: PDF 1.6
        reader = PdfReader(path)
        root = reader.trailer["/Root"]
        intents = root["/OutputIntents"]
        assert len(intents) == 1, path.name
        intent = intents[0].get_object()
        assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
        icc = intent["/DestOutputProfile"].get_object()
        assert icc["/N"] == 4 and icc.get_data() == profile  # the press profile, embedded whole
        assert icc.get_data()[16:20] == b"CMYK" and icc.get_data()[12:16] == b"prtr"
        info = reader.metadata
        assert info["/GTS_PDFXVersion"] == "PDF/X-4" and info["/Trapped"] == "/False"
        assert info["/Title"].startswith(("Kit Demo: ", "キット見本: ")) and info.get("/Author") != "anonymous"
        xmp = root["/Metadata"].get_object().get_data().decode("utf-8")
        assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
        assert "<pdf:Trapped>False</pdf:Trapped>" in xmp and "<xmpMM:RenditionClass>default<" in xmp
        assert info["/Title"].replace("&", "&amp;") in xmp
        created = str(info["/CreationDate"])  # D:YYYYMMDDHHmmSS...
        assert f"<xmp:CreateDate>{created[2:6]}-{created[6:8]}-{created[8:10]}T" in xmp
        for number, page in enumerate(reader.pages):  # TrimBox ⊆ BleedBox ⊆ MediaBox, on every page
            media = [float(v) for v in page.mediabox]
            bleed = [float(v) for v in page.bleedbox]
            trim = [float(v) for v in page.trimbox]
            assert "/TrimBox" in page and "/BleedBox" in page, (path.name, number)
            assert media[0] <= bleed[0] <= trim[0] and trim[2] <= bleed[2] <= media[2], (path.name, number)
            assert media[1] <= bleed[1] <= trim[1] and trim[3] <= bleed[3] <= media[3], (path.name, number)


def test_print_shop_files_are_cmyk_only_with_embedded_fonts(shop: Path) -> None:
    for path in shop_files(shop):
        reader = PdfReader(path)
        for data, resources in forms_and_pages(reader):
            assert not RGB.search(data), path.name
            image = resources.get("image")
            if image is not None:
                assert image.get("/ColorSpace") in ("/DeviceCMYK", "/DeviceGray"), path.name
            for font in (resources.get("/Font") or {}).values():
                font = font.get_object()
                descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
                descriptor = descendant["/FontDescriptor"].get_object()
                assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), path.name
        inline = b"".join(d for d, _ in forms_and_pages(reader))
        assert b"/CS /RGB" not in inline and b"/CS /DeviceRGB" not in inline


def test_print_shop_files_have_nothing_pdfx4_forbids(shop: Path) -> None:
    """What a PDF/X-4 preflight (ISO 15930-7) refuses and a reader can see: encryption, a
    missing file ID, annotations or actions (JavaScript), transfer functions and halftones,
    RGB colour spaces in resources or transparency groups, and an ICC profile that is not a
    CMYK output profile. No PDF/X validator is installable here (veraPDF checks PDF/A and
    PDF/UA only, and is not packaged), so this is the check."""
    for path in shop_files(shop):
        reader = PdfReader(path)
        trailer = reader.trailer
        assert "/Encrypt" not in trailer and len(trailer["/ID"]) == 2, path.name
        root = trailer["/Root"]
        assert not {"/AA", "/OpenAction", "/AcroForm"} & set(root), path.name
        assert "/JavaScript" not in (root.get("/Names") or {}), path.name
        info = reader.metadata
        assert info["/Title"] and info["/CreationDate"] and info["/ModDate"], path.name
        for page in reader.pages:
            assert "/Annots" not in page and "/AA" not in page, path.name
            group = page.get("/Group")
            if group is not None:
                assert group.get_object().get("/CS") not in ("/DeviceRGB", "/CalRGB"), path.name
        for _data, resources in forms_and_pages(reader):
            for state in (resources.get("/ExtGState") or {}).values():
                state = state.get_object()
                assert not {"/TR", "/HT", "/HTP"} & set(state), path.name
                assert state.get("/TR2", "/Default") == "/Default", path.name
            for space in (resources.get("/ColorSpace") or {}).values():
                space = space.get_object()
                family = space[0] if isinstance(space, list) else space
                assert family not in ("/DeviceRGB", "/CalRGB", "/Lab"), path.name
                if family == "/ICCBased":
                    assert space[1].get_object()["/N"] == 4, path.name


def test_card_boxes_in_mm(shop: Path) -> None:
    reader = PdfReader(shop / "spells-print-shop-en.pdf")
    page = reader.pages[0]
    trim = [round(float(v) / MM, 2) for v in page.trimbox]
    bleed = [round(float(v) / MM, 2) for v in page.bleedbox]
    assert trim == [3.0, 3.0, 66.0, 91.0] and bleed == [0.0, 0.0, 69.0, 94.0]  # 63×88 + 3 mm


def test_home_files_carry_no_output_intent(shop: Path) -> None:
    reader = PdfReader(shop / "spells-en.pdf")
    assert "/OutputIntents" not in reader.trailer["/Root"]


def test_print_shop_rebuild_is_byte_identical(shop: Path, kit_demo_print_shop_rebuilt: Path) -> None:
    assert kit_demo_print_shop_rebuilt != shop  # the same build made again, into another folder
    for path in shop_files(shop):
        assert (kit_demo_print_shop_rebuilt / path.name).read_bytes() == path.read_bytes(), path.name


GAME = game_yaml("g", "", players=(1, 2)) + """\
  - type: deck
    id: cards
    title: Cards
    size: poker
    cards:
      - {name: A}
    front:
      - {image: art/small.png, x: 0, y: 0, w: 63, h: 88}
    back:
      - {shape: rect, x: 0, y: 0, w: 63, h: 88, fill: "#204080"}
      - {image: art/logo.png, x: 10, y: 20, w: 43, h: 43}
"""


def _png(size: int, alpha: bool) -> bytes:
    from PIL import Image, ImageDraw

    picture = Image.new("RGBA" if alpha else "RGB", (size, size), (0, 0, 0, 0) if alpha else (200, 40, 40))
    ImageDraw.Draw(picture).ellipse((size // 4, size // 4, 3 * size // 4, 3 * size // 4), fill=(250, 200, 0, 255))
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()


def test_transparent_png_keeps_its_transparency_and_low_ppi_is_reported(run_pnpgen: CliRun, tmp_path: Path) -> None:
    game = tmp_path / "c" / "g"
    (game / "art").mkdir(parents=True)
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    (game / "art" / "logo.png").write_bytes(_png(600, alpha=True))  # 600 px over 43 mm: 354 ppi
    (game / "art" / "small.png").write_bytes(_png(120, alpha=False))  # 120 px over 63 mm: 48 ppi
    code, _out, err = run_pnpgen("build", "g", "-q", "--content", str(tmp_path / "c"), "--out",
                                 str(tmp_path / "out"), "--print-shop")
    assert code == 0
    lines = err.splitlines()
    assert lines == ["warning: cards-print-shop.pdf: art/small.png prints at 48 ppi (under 300): it will look "
                     "soft; give it 6.2× the pixels"], err
    reader = PdfReader(tmp_path / "out" / "g" / "cards-print-shop.pdf")
    images = [r["image"] for _, r in forms_and_pages(reader) if "image" in r]
    logo = [i for i in images if i["/Width"] == 600]
    assert logo and logo[0]["/ColorSpace"] == "/DeviceCMYK" and "/SMask" in logo[0]  # no white square
    mask = logo[0]["/SMask"].get_object()
    assert mask["/ColorSpace"] == "/DeviceGray" and min(mask.get_data()) == 0
    ops = [op for _, op in ContentStream(reader.pages[1].get_contents(), reader).operations]
    assert b"Do" in ops


def test_rulebook_pages_carry_trim_and_bleed_boxes(tmp_path: Path) -> None:
    game = ROOT / "content" / "routou-dice"
    build_game(load_game(game), BuildOptions(out=tmp_path, langs=("en",), content_root=game.parent))
    reader = PdfReader(tmp_path / "routou-dice" / "rulebook-en.pdf")
    for page in reader.pages:
        assert "/TrimBox" in page and "/BleedBox" in page
        assert [round(float(v) / MM, 2) for v in page.trimbox] == [0.0, 0.0, 210.0, 297.0]


HARBOUR = ROOT / "tests" / "fixtures" / "harbour"


def test_author_title_and_date_come_from_the_yaml_and_source_date_epoch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01 00:00:00 UTC
    builds = []
    for run in ("a", "b"):
        build_game(load_game(HARBOUR), BuildOptions(out=tmp_path / run, langs=("en",), print_shop=True,
                                                    content_root=HARBOUR.parent))
        builds.append(tmp_path / run / "harbour")
    for name in ("harbour-en.pdf", "harbour-print-shop-en.pdf"):
        reader = PdfReader(builds[0] / name)
        info = reader.metadata
        assert info["/Author"] == "Kit Demo Studio", name  # game.yaml author:, not "anonymous"
        assert info["/Title"] == "Harbour Night: Harbour Night cards", name
        assert str(info["/CreationDate"]).startswith("D:20260101000000"), name
        assert (builds[0] / name).read_bytes() == (builds[1] / name).read_bytes(), name  # byte-identical
    xmp = PdfReader(builds[0] / "harbour-print-shop-en.pdf").trailer["/Root"]["/Metadata"].get_object()
    text = xmp.get_data().decode("utf-8")
    assert "<rdf:li>Kit Demo Studio</rdf:li>" in text and "<xmp:CreateDate>2026-01-01T00:00:00+00:00<" in text
