"""`build --vendor NAME`: each shop's files read back. The Game Crafter and MakePlayingCards:
every PNG's exact pixels, colour mode and resolution, the card's colour where the card is
(turned for a landscape deck); DriveThruCards: the PDF/X-1a:2003 structure (version,
output intent, GTS_PDFXVersion in info and XMP, boxes, CMYK only, no transparency, no
fonts to embed), its pages in back, front order, and the total ink measured on
Ghostscript's CMYK raster under 240 % where the deck asks for 400 %. Rebuilds are
byte-identical; a profile is data (a new shop is a file)."""

from __future__ import annotations

import hashlib
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from PIL import Image

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.errors import PnpgenError
from pnpgen.output import BuildOptions
from pnpgen.render.vendors import load_profile, read_profile, vendor_names
from tests.conftest import CliRun
from tests.kit_pdf import game_yaml

GAME = game_yaml("shop", "[decks.yaml]", "{ja: 店, en: Shop}")
# Fronts: a colour per card (copies of the first); the back: rich black, 400 % ink asked.
DECKS = """\
- type: deck
  id: spells
  title: Spells
  cards:
    - {name: A, colour: "#d03030", quantity: 2}
    - {name: B, colour: "#3060d0"}
  front:
    - {shape: rect, fill: "{{ colour }}", bleed: true}
    - {text: "{{ name }}", x: 10, y: 10, w: 40, h: 10, size: 12}
  back: [{shape: rect, fill: "cmyk(100, 100, 100, 100)", bleed: true}]
- type: deck
  id: aids
  title: Aids
  landscape: true
  cards: [{name: Aid}]
  front:
    - {shape: rect, fill: "#ffffff", bleed: true}
    - {shape: rect, x: -3, y: -3, w: 94, h: 20, fill: "#10a010"}
- type: deck
  id: tokens
  title: Tokens
  size: {width: 20, height: 20}
  cards: [{name: T}]
  front: [{shape: rect, fill: "#888888", bleed: true}]
"""
HAS_GS = shutil.which("gs") is not None


def write_game(root: Path) -> Path:
    folder = root / "content" / "shop"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "decks.yaml").write_text(textwrap.dedent(DECKS), encoding="utf-8")
    return folder


def build(root: Path, out: Path, vendor: str) -> Path:
    build_game(load_game(root / "content" / "shop"),
               BuildOptions(out=out, content_root=root / "content", langs=("en",), vendor=vendor))
    return out / "shop"


@pytest.fixture(scope="module")
def game_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vendors")
    write_game(root)
    return root


@pytest.fixture(scope="module")
def tgc(game_root: Path) -> Path:
    return build(game_root, game_root / "tgc", "thegamecrafter")


def near(pixel: Any, rgb: tuple[int, int, int], tolerance: int = 12) -> bool:
    return all(abs(int(a) - b) <= tolerance for a, b in zip(pixel[:3], rgb, strict=True))


def test_the_game_crafter_pngs_have_the_poker_template_pixels(tgc: Path) -> None:
    folder = tgc / "thegamecrafter"
    spells = sorted(p.name for p in (folder / "spells").iterdir())
    assert spells == ["001-front.png", "002-front.png", "003-front.png", "back.png"]  # copies have files; one back
    for name in spells:
        with Image.open(folder / "spells" / name) as image:
            assert image.size == (825, 1125) and image.mode == "RGB"
            assert round(image.info["dpi"][0]) == 300
            middle = image.getpixel((412, 900))
            corner = image.getpixel((2, 2))  # the bleed, outside the cut
        colour = {"001": (0xD0, 0x30, 0x30), "002": (0xD0, 0x30, 0x30), "003": (0x30, 0x60, 0xD0)}.get(name[:3])
        if colour:
            assert near(middle, colour) and near(corner, colour)
        else:
            assert max(middle[:3]) < 60  # the black back
    readme = (tgc / "README.txt").read_text(encoding="utf-8")
    assert "thegamecrafter/spells/001-front.png" in readme and "Upload Faces" in readme
    upload = (folder / "upload.txt").read_text(encoding="utf-8")
    assert "Not made for it: tokens (20 × 20 mm cards)" in upload


def test_a_landscape_card_is_turned_onto_the_portrait_product(tgc: Path) -> None:
    with Image.open(tgc / "thegamecrafter" / "aids" / "001-front.png") as image:
        assert image.size == (825, 1125)
        # the green band along the card's top edge is now down its right-hand side
        assert near(image.getpixel((800, 562)), (0x10, 0xA0, 0x10))
        assert near(image.getpixel((100, 562)), (255, 255, 255))


def test_makeplayingcards_pngs_are_822_by_1122(game_root: Path) -> None:
    folder = build(game_root, game_root / "mpc", "makeplayingcards") / "makeplayingcards"
    for path in sorted((folder / "spells").iterdir()):
        with Image.open(path) as image:
            assert (image.size, image.mode) == ((822, 1122), "RGB")
    build_game(load_game(game_root / "content" / "shop"),  # a later build without --vendor: the shop's files go
               BuildOptions(out=game_root / "mpc", content_root=game_root / "content", langs=("en",)))
    assert not folder.exists()


@pytest.fixture(scope="module")
def dtc(game_root: Path) -> Path:
    if not HAS_GS:
        pytest.skip("Ghostscript (gs) is not installed")
    return build(game_root, game_root / "dtc", "drivethrucards") / "drivethrucards" / "spells.pdf"


def test_drivethrucards_deck_is_pdf_x1a(dtc: Path) -> None:
    with pikepdf.open(dtc) as pdf:
        assert pdf.pdf_version == "1.4"
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
        assert str(pdf.docinfo["/Trapped"]) == "/False" and str(pdf.docinfo["/Title"])
        xmp = pdf.Root.Metadata.read_bytes()
        assert b"<pdfxid:GTS_PDFXVersion>PDF/X-1a:2003</pdfxid:GTS_PDFXVersion>" in xmp
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == pikepdf.Name.GTS_PDFX and int(intent.DestOutputProfile.N) == 4
        assert len(pdf.trailer.ID) == 2
        assert "/AcroForm" not in pdf.Root
        for page in pdf.pages:
            assert [float(v) for v in page.MediaBox] == [0, 0, 198, 270]  # 2.75 × 3.75 in
            assert [float(v) for v in page.BleedBox] == [0, 0, 198, 270]
            assert [float(v) for v in page.TrimBox] == [9, 9, 189, 261]  # 1/8 in inside
            resources = page.Resources
            assert "/Font" not in resources and "/ExtGState" not in resources  # nothing to embed, no transparency
            assert "/Group" not in page.obj
            for picture in resources.XObject.values():
                assert picture.ColorSpace == pikepdf.Name.DeviceCMYK and "/SMask" not in picture
                assert (int(picture.Width), int(picture.Height)) == (825, 1125)


def test_drivethrucards_pages_are_back_front_and_ink_stays_under_240(dtc: Path) -> None:
    import numpy as np

    from pnpgen.render.vendors.raster import rasterise_cmyk

    pages = list(rasterise_cmyk(dtc, 72))
    assert len(pages) == 6  # 3 cards (copies included) × back, front
    peak = 0.0
    for number, page in enumerate(pages, start=1):
        ink = np.asarray(page, dtype=np.float64)
        total = ink.sum(axis=2) * 100 / 255
        peak = max(peak, float(total.max()))
        c, m, y, k = (ink[..., i].mean() * 100 / 255 for i in range(4))
        if number % 2:  # back: the rich black, held to the limit by black ink, not more
            assert total.mean() > 230 and k > 95
        else:  # front: red or blue, little black
            assert k < 25 and (m > 60 if number < 6 else c > 60)
    assert 230 < peak <= 240.5


def _limit_every_pixel(image: Image.Image, limit: float) -> Image.Image:
    """limit_ink's arithmetic on every pixel of the image, as it was before it worked on
    the pixels over the limit only: the reference it must match bit for bit."""
    import numpy as np

    ink = np.asarray(image, dtype=np.int32).copy()
    most = int(limit * 255 // 100)
    cmy, k = ink[..., :3], ink[..., 3]
    over = np.maximum(cmy.sum(axis=2) + k - most, 0)
    grey = np.minimum.reduce([cmy.min(axis=2), 255 - k, (over + 1) // 2])
    cmy -= grey[..., None]
    k += grey
    left = np.maximum(most - k, 0)
    sums = cmy.sum(axis=2)
    scale = np.where(sums > left, left / np.maximum(sums, 1), 1.0)
    cmy[...] = np.floor(cmy * scale[..., None])
    return Image.fromarray(ink.astype(np.uint8), mode="CMYK")


@pytest.mark.parametrize("limit", [240, 300, 100, 150])
def test_the_ink_limit_changes_only_pixels_over_it_and_as_every_pixel_would(limit: float) -> None:
    import numpy as np

    from pnpgen.render.vendors.raster import limit_ink, total_ink

    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, (60, 40, 4), dtype=np.uint8)
    pixels[:10] = (255, 255, 255, 255)  # 400 %
    pixels[10:20] = (0, 0, 0, 0)
    pixels[20:25] = (255, 0, 0, 255)  # grey cannot move to a full black
    image = Image.fromarray(pixels, mode="CMYK")
    limited = limit_ink(image, limit)
    assert limited.tobytes() == _limit_every_pixel(image, limit).tobytes()
    under = np.asarray(total_ink(image)) <= int(limit * 255 // 100) * 100 / 255
    assert np.array_equal(np.asarray(limited)[under], pixels[under])  # untouched
    assert float(np.asarray(total_ink(limited)).max()) <= limit + 0.5


def test_rebuilds_are_byte_identical(game_root: Path, tgc: Path, dtc: Path) -> None:
    def digests(folder: Path) -> dict[str, str]:
        return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(folder.rglob("*")) if p.is_file()}

    again = build(game_root, game_root / "tgc2", "thegamecrafter")
    assert digests(again / "thegamecrafter") == digests(tgc / "thegamecrafter")
    again_dtc = build(game_root, game_root / "dtc2", "drivethrucards") / "drivethrucards" / "spells.pdf"
    assert again_dtc.read_bytes() == dtc.read_bytes()


def test_profiles_are_data(tmp_path: Path) -> None:
    assert vendor_names() == ["drivethrucards", "makeplayingcards", "thegamecrafter"]
    assert load_profile("drivethrucards").ink_limit == 240 and load_profile("drivethrucards").sides == ("back", "front")
    source = (Path(load_profile("thegamecrafter").__class__.__module__.replace(".", "/")).parent)
    assert source  # profiles live beside the module, as YAML
    text = (Path(__file__).parents[1] / "pnpgen/render/vendors/makeplayingcards.yaml").read_text(encoding="utf-8")
    new_shop = tmp_path / "myshop.yaml"
    new_shop.write_text(text.replace("822, 1122", "900, 1200"), encoding="utf-8")
    profile = read_profile(new_shop)
    assert profile.id == "myshop" and profile.products[0].size_px == (900, 1200)
    new_shop.write_text(text + "inklimit: 200\n", encoding="utf-8")
    with pytest.raises(PnpgenError, match=r"myshop.yaml: unknown key 'inklimit' \(did you mean 'ink_limit'\?\)"):
        read_profile(new_shop)


def test_file_names_are_templates_filled_in_by_the_content_sandbox(tmp_path: Path) -> None:
    from dataclasses import replace

    from pnpgen.render.text import TemplateRefused
    from pnpgen.render.vendors.export import file_name

    profile = load_profile("thegamecrafter")
    assert file_name(profile, "front", deck="cards-en", number=7) == "cards-en/007-front.png"
    assert file_name(load_profile("drivethrucards"), "deck", deck="cards-ja") == "cards-ja.pdf"
    with pytest.raises(TemplateRefused, match="access to attribute '__class__' is not allowed"):
        file_name(replace(profile, naming={"deck": "{{ deck.__class__ }}.pdf"}), "deck", deck="cards")
    with pytest.raises(PnpgenError, match=r"^vendor profile thegamecrafter: naming: deck: "
                                          r"undefined template variable 'nmber'"):
        file_name(replace(profile, naming={"deck": "{{ nmber }}.pdf"}), "deck", deck="cards")


def test_an_unknown_vendor_is_one_line_exit_2(run_pnpgen: CliRun, tmp_path: Path) -> None:
    code, _, err = run_pnpgen("build", "burning-desire", "--vendor", "thegamecrafters", "--out", str(tmp_path))
    assert code == 2
    assert "unknown vendor 'thegamecrafters' (did you mean 'thegamecrafter'?)" in err and "Traceback" not in err
    assert not any(tmp_path.iterdir())
