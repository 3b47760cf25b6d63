"""Images, SVGs and text fitting with untrusted content: every bad file ends in one line
(exit 2) naming the file, never a traceback; nothing outside the game folder is read or
printed; shrinking text never hangs.

Each case writes real files into a temporary game and builds it through the real CLI.
"""

from __future__ import annotations

import base64
import io
import math
import random
import re
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnpgen.limits import (
    MAX_FONT_PT,
    MAX_IMAGE_BYTES,
    MAX_IMAGE_MEMORY,
    MAX_IMAGE_PIXELS,
    MAX_SHRINK_STEPS,
    MAX_SVG_BYTES,
    MAX_SVG_DEPTH,
    MAX_SVG_ELEMENTS,
    MAX_SVG_TEXT_CHARS,
)
from pnpgen.render.fonts import SANS, setup_fonts
from pnpgen.render.kit import richtext
from pnpgen.render.kit.page import Rect
from tests.conftest import CliRun
from tests.kit_pdf import game_yaml
from tests.sampling import examples

GAME = game_yaml("g", "", players=(1, 2)) + """\
  - type: deck
    id: cards
    title: Cards
    size: poker
    cards:
      - {name: A, big: 1e300, nan: "nan", zero: 0}
    front:
"""
IMAGE = "      - {image: art/a.svg, x: 5, y: 5, w: 50, h: 50}\n"
SECRET = "LEAKED-SECRET-TEXT"
SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="20">'


def svg(*body: str, open_tag: str = SVG_OPEN) -> str:
    return "\n".join([open_tag, '  <rect width="20" height="20" fill="#336699"/>', *(f"  {b}" for b in body),
                      "</svg>\n"])


def png(width: int = 4, height: int = 4, colour: tuple[int, int, int] = (0, 170, 0), kind: str = "PNG") -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format=kind)
    return out.getvalue()


def png_header(width: int, height: int, depth: int = 8, colour: int = 2) -> bytes:
    """A tiny PNG file whose header claims width × height pixels (a decompression bomb)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")


def jpeg_claiming(width: int, height: int, real: int = 16) -> bytes:
    """A whole real × real JPEG whose header then claims width × height: its data ends early."""
    data = bytearray(png(real, real, kind="JPEG"))
    struct.pack_into(">HH", data, data.find(b"\xff\xc0") + 5, height, width)
    return bytes(data)


def data_uri(data: bytes, kind: str = "image/png") -> str:
    return f"data:{kind};base64," + base64.b64encode(data).decode("ascii")


def make_game(root: Path, files: dict[str, str | bytes], front: str = IMAGE) -> Path:
    """A content folder `root/c` with game `g`: one card whose front is `front`."""
    game = root / "c" / "g"
    (game / "art").mkdir(parents=True, exist_ok=True)
    (game / "game.yaml").write_text(GAME + front, encoding="utf-8")
    for name, data in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            target.write_bytes(data)
        else:
            target.write_text(data, encoding="utf-8")
    return root / "c"


def build(run_pnpgen: CliRun, content: Path, out: Path) -> tuple[int, str]:
    code, _out, err = run_pnpgen("build", "g", "-q", "--content", str(content), "--out", str(out), "--lang", "en")
    return code, err


def assert_refused(code: int, err: str, expected: str, out: Path) -> None:
    assert err.splitlines() == [f"error: {expected}"], err
    assert code == 2
    assert "Traceback" not in err
    left = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
    assert left == []  # no PDF, no preview, no .part file


def pdf_streams(pdf: bytes) -> bytes:
    """Every stream of a PDF, decoded where it is ASCII85 and Flate encoded (as ReportLab writes)."""
    out = []
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", pdf, re.DOTALL):
        data = stream.strip()
        try:
            if data.endswith(b"~>"):
                data = base64.a85decode(data[:-2])
            out.append(zlib.decompress(data))
        except (ValueError, zlib.error):
            out.append(stream)
    return b"\n".join(out)


def no_secret_anywhere(out: Path, secret: bytes) -> None:
    for path in out.rglob("*"):
        if path.is_file():
            assert secret not in path.read_bytes(), path


# --- links inside an SVG --------------------------------------------------------------------------

LINK_CASES = {
    # name: (the link, the end of the one-line error)
    "parent": ("../../../outside.png", "image link '../../../outside.png' leaves the game folder"),
    "parent-svg": ("../../../outside.svg", "image link '../../../outside.svg' leaves the game folder"),
    "absolute": ("/etc/outside.png", "image link '/etc/outside.png' is an absolute path: link only to files "
                 "inside the game folder"),
    "file-url": ("file:///etc/outside.png", "image link 'file:///etc/outside.png' is a URL: link only to files "
                 "inside the game folder"),
    "http": ("http://example.com/a.png", "image link 'http://example.com/a.png' is a URL: link only to files "
             "inside the game folder"),
    "other-svg": ("b.svg", "image link 'b.svg' points to another SVG file: draw it as its own image element "
                  "instead"),
    "missing": ("nothing.png", "image link 'nothing.png' points to no file"),
    "not-image": ("notes.txt", "image link 'notes.txt' is not a .png or .jpg file"),
    "svg-data": ("data:image/svg+xml;base64,PHN2Zy8+", "image link 'data:image/svg+xml;base64,PHN2Zy8+' is not a "
                 "base64 PNG or JPEG (the only data: links drawn)"),
}


@pytest.mark.parametrize("case", LINK_CASES)
@pytest.mark.parametrize("element", ["image", "use"])
def test_svg_links_stay_in_the_game_folder(run_pnpgen: CliRun, tmp_path: Path, case: str, element: str) -> None:
    link, message = LINK_CASES[case]
    tag = f'<{element} xlink:href="{link}" width="20" height="20"/>'
    content = make_game(tmp_path, {
        "c/g/art/a.svg": svg(tag), "c/g/art/b.svg": svg(), "c/g/art/notes.txt": "notes",
        "outside.png": png(colour=(250, 10, 200)), "outside.svg": svg(f"<text>{SECRET}</text>"),
    })
    code, err = build(run_pnpgen, content, tmp_path / "out")
    assert_refused(code, err, f"{content}/g/art/a.svg:3: {message}", tmp_path / "out")


def test_a_symlink_out_of_the_game_folder_is_refused(run_pnpgen: CliRun, tmp_path: Path) -> None:
    content = make_game(tmp_path, {"c/g/art/a.svg": svg('<image xlink:href="link.png" width="9" height="9"/>'),
                                   "outside.png": png()})
    (content / "g" / "art" / "link.png").symlink_to(tmp_path / "outside.png")
    code, err = build(run_pnpgen, content, tmp_path / "out")
    assert_refused(code, err, f"{content}/g/art/a.svg:3: image link 'link.png' leaves the game folder",
                   tmp_path / "out")


def test_outside_pixels_and_text_never_reach_any_output(run_pnpgen: CliRun, tmp_path: Path) -> None:
    """A good component beside one whose SVG links outside: the build stops before any file
    is written, and neither the outside text nor the outside image is in anything left."""
    outside = png(colour=(250, 10, 200))
    art = svg('<image xlink:href="../../../outside.png" width="9" height="9"/>',
              '<use xlink:href="../../../outside.svg#t"/>')
    content = make_game(tmp_path, {"c/g/art/a.svg": art, "c/g/art/ok.svg": svg(), "outside.png": outside,
                                   "outside.svg": svg(f'<text id="t" x="2" y="9">{SECRET}</text>')},
                        front="      - {image: art/ok.svg}\n" + IMAGE)
    out = tmp_path / "out"
    code, err = build(run_pnpgen, content, out)
    assert_refused(code, err, f"{content}/g/art/a.svg:3: image link '../../../outside.png' leaves the game folder",
                   out)
    no_secret_anywhere(out, SECRET.encode())
    no_secret_anywhere(out, base64.b64encode(outside)[:40])


def test_svglib_itself_is_rooted_in_the_game_folder(tmp_path: Path) -> None:
    """The second wall: were a link to pass our scan, svglib (reference root = the game
    folder) would still draw nothing from outside it."""
    from lxml import etree

    from pnpgen.render.kit import images

    (tmp_path / "g").mkdir()
    (tmp_path / "outside.png").write_bytes(png())
    (tmp_path / "outside.svg").write_text(svg(f'<text id="t" x="2" y="9">{SECRET}</text>'), encoding="utf-8")
    path = tmp_path / "g" / "a.svg"
    root = etree.fromstring(svg('<image xlink:href="../outside.png" width="9" height="9"/>',
                                '<use xlink:href="../outside.svg#t"/>').encode())
    drawing, _nodes = images._render(root, path, "a.svg", tmp_path / "g")

    def leaves(node: object) -> list[object]:
        children = getattr(node, "contents", None)
        return [node] if children is None else [leaf for child in children for leaf in leaves(child)]

    kinds = {type(leaf).__name__ for leaf in leaves(drawing)}
    assert kinds == {"Rect"}  # the background only: no Image, no String


def test_linked_and_embedded_pictures_inside_the_folder_still_draw(run_pnpgen: CliRun, tmp_path: Path) -> None:
    """Links svglib may follow: a PNG beside the SVG, a base64 PNG, an `#id`; an <a href>
    (never followed) and a public DOCTYPE (never loaded) are fine too."""
    inside = png(6, 6, colour=(12, 34, 56))
    art = svg('<image xlink:href="inside.png" width="9" height="9"/>',
              f'<image xlink:href="{data_uri(png(colour=(1, 2, 3)))}" x="10" width="9" height="9"/>',
              '<use xlink:href="#r" y="10"/>', '<defs><rect id="r" width="4" height="4"/></defs>',
              '<a href="https://example.com/"><circle r="2" cx="15" cy="15"/></a>',
              open_tag='<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "file:///etc/passwd">\n' + SVG_OPEN)
    content = make_game(tmp_path, {"c/g/art/a.svg": art, "c/g/art/inside.png": inside})
    out = tmp_path / "out"
    code, err = build(run_pnpgen, content, out)
    assert (code, err) == (0, "")
    streams = pdf_streams((out / "g" / "cards.pdf").read_bytes())
    assert re.search(rb"BI\s*/W 6 /H 6", streams) and re.search(rb"BI\s*/W 4 /H 4", streams)  # both, inline
    preview = (out / "g" / "preview" / "cards.svg").read_text(encoding="utf-8")
    assert base64.b64encode(inside).decode("ascii") in preview  # the linked PNG, embedded
    no_secret_anywhere(out, b"root:x:0:0")


# --- bad image files ------------------------------------------------------------------------------


def _bad_files(root: Path) -> dict[str, tuple[dict[str, str | bytes], str]]:
    """name: (files, the end of the error after the image's path)."""
    whole = png(64, 64)
    noise = io.BytesIO()
    from PIL import Image

    Image.frombytes("RGB", (64, 64), random.Random(1).randbytes(64 * 64 * 3)).save(noise, format="PNG")
    laughs = ('<?xml version="1.0"?>\n<!DOCTYPE svg [\n <!ENTITY a "aaaaaaaaaa">\n <!ENTITY b "&a;&a;&a;&a;&a;">\n]>\n'
              + svg("<text>&b;</text>"))
    xxe = ('<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
           + svg("<text>&x;</text>"))
    utf16 = ('<?xml version="1.0" encoding="utf-16"?>\n<!DOCTYPE svg [<!ENTITY x "y">]>\n'
             + svg("<text>&x;</text>")).encode("utf-16")
    many = svg(*["<g/>"] * MAX_SVG_ELEMENTS)
    return {
        "malformed-svg": ({"a.svg": SVG_OPEN + "\n<rect>\n</svg>\n"},
                          "a.svg:3: not a well-formed SVG file (Opening and ending tag mismatch: rect line 2 and svg, "
                          "line 3, column 7)"),
        "empty-svg": ({"a.svg": ""}, "a.svg:1: not a well-formed SVG file (Document is empty, line 1, column 1)"),
        "not-svg": ({"a.svg": "<html><body/></html>"}, "a.svg: not an SVG file (its root element is <html>)"),
        "zero-size": ({"a.svg": svg(open_tag='<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0">')},
                      "a.svg: SVG size 0×0 is out of range: give it a width and height (or viewBox) between 0.001 "
                      "and 1,000,000 units"),
        "no-size": ({"a.svg": svg(open_tag='<svg xmlns="http://www.w3.org/2000/svg">')},
                    "a.svg: SVG size 0×0 is out of range: give it a width and height (or viewBox) between 0.001 "
                    "and 1,000,000 units"),
        "negative-size": ({"a.svg": svg(open_tag='<svg xmlns="http://www.w3.org/2000/svg" width="-8" height="8">')},
                          "a.svg: SVG size -6×6 is out of range: give it a width and height (or viewBox) between "
                          "0.001 and 1,000,000 units"),
        "huge-size": ({"a.svg": svg(open_tag='<svg xmlns="http://www.w3.org/2000/svg" width="1e300" height="8">')},
                      "a.svg: SVG size 7.5e+299×6 is out of range: give it a width and height (or viewBox) between "
                      "0.001 and 1,000,000 units"),
        "infinite-size": ({"a.svg": svg(open_tag='<svg xmlns="http://www.w3.org/2000/svg" width="1e999" height="8">')},
                          "a.svg: SVG size inf×6 is out of range: give it a width and height (or viewBox) between "
                          "0.001 and 1,000,000 units"),
        "nan-size": ({"a.svg": svg(open_tag='<svg xmlns="http://www.w3.org/2000/svg" width="nan" height="8">')},
                     "a.svg: SVG size nan×6 is out of range: give it a width and height (or viewBox) between "
                     "0.001 and 1,000,000 units"),
        "entities": ({"a.svg": laughs}, "a.svg: an SVG may not declare XML entities (<!ENTITY>)"),
        "external-entity": ({"a.svg": xxe}, "a.svg: an SVG may not declare XML entities (<!ENTITY>)"),
        "utf16-entities": ({"a.svg": utf16}, "a.svg: an SVG may not declare XML entities (<!ENTITY>)"),
        "too-many-elements": ({"a.svg": many}, f"a.svg: SVG has more than {MAX_SVG_ELEMENTS:,} elements"),
        "data-bomb": ({"a.svg": svg(f'<image xlink:href="{data_uri(png_header(30000, 30000))}"/>')},
                      f"a.svg:3: image of 30000×30000 pixels is over the limit of {MAX_IMAGE_PIXELS:,} pixels"),
        "data-garbage": ({"a.svg": svg(f'<image xlink:href="{data_uri(b"not a picture")}"/>')},
                         "a.svg:3: not a PNG or JPEG image"),
        "linked-truncated": ({"a.svg": svg('<image xlink:href="b.png" width="9" height="9"/>'),
                              "b.png": whole[: len(whole) // 2]},
                             "b.png: not a readable PNG or JPEG image (image file is truncated)"),
        "truncated-png": ({"a.png": noise.getvalue()[:3000]},
                          "a.png: not a readable PNG or JPEG image (image file is truncated)"),
        "text-as-png": ({"a.png": "just some text\n"}, "a.png: not a PNG or JPEG image"),
        "gif-as-png": ({"a.png": png(kind="GIF")}, "a.png: not a PNG or JPEG image"),
        "empty-png": ({"a.png": b""}, "a.png: not a PNG or JPEG image"),
        "giant-png": ({"a.png": png_header(40000, 40000)},
                      f"a.png: image of 40000×40000 pixels is over the limit of {MAX_IMAGE_PIXELS:,} pixels"),
        "jpeg-claims-9999": ({"a.jpg": jpeg_claiming(9999, 9999)},  # 631 bytes built at 1 GB before
                             f"a.jpg: image of 9999×9999 pixels (RGB, 4 bytes a pixel) would take 400 MB decoded, "
                             f"over the limit of {MAX_IMAGE_MEMORY // 10**6} MB"),
        "jpeg-cut-short": ({"a.jpg": jpeg_claiming(2000, 2000)},
                           "a.jpg: JPEG image is cut short or damaged (Corrupt JPEG data: premature end of data "
                           "segment)"),
        "png-16-bit-rgba": ({"a.png": png_header(10000, 10000, depth=16, colour=6)},  # 1.5 GB before
                            "a.png: image of 10000×10000 pixels (RGBA, 16-bit, 8 bytes a pixel) would take "
                            f"800 MB decoded, over the limit of {MAX_IMAGE_MEMORY // 10**6} MB"),
        "svg-huge-text": ({"a.svg": svg("<text>" + "あ" * 3_200_000 + "</text>")},  # Pillow: too many characters
                          f"a.svg:3: SVG text of 3,200,000 characters is over the limit of {MAX_SVG_TEXT_CHARS:,}"),
        "svg-import": ({"a.svg": svg("<style>@import url(other.css); rect {fill: red}</style>")},
                       "a.svg:3: an SVG <style> may not @import other style sheets: put the rules in the SVG"),
        "just-over-png": ({"a.png": png_header(10001, 10000)},
                          f"a.png: image of 10001×10000 pixels is over the limit of {MAX_IMAGE_PIXELS:,} pixels"),
    }


BAD_FILES = list(_bad_files(Path()))


@pytest.mark.parametrize("case", BAD_FILES)
def test_a_bad_image_file_is_one_line(run_pnpgen: CliRun, tmp_path: Path, case: str) -> None:
    files, message = _bad_files(tmp_path)[case]
    name = next(iter(files))
    front = IMAGE.replace("art/a.svg", f"art/{name}")
    content = make_game(tmp_path, {f"c/g/art/{k}": v for k, v in files.items()}, front)
    started = time.process_time()
    code, err = build(run_pnpgen, content, tmp_path / "out")
    assert time.process_time() - started < 20
    assert_refused(code, err, f"{content}/g/art/{message}", tmp_path / "out")


@pytest.mark.parametrize(("name", "limit"), [("a.png", MAX_IMAGE_BYTES), ("a.svg", MAX_SVG_BYTES)])
def test_a_file_over_its_byte_limit_is_refused_unread(run_pnpgen: CliRun, tmp_path: Path, name: str,
                                                      limit: int) -> None:
    content = make_game(tmp_path, {}, IMAGE.replace("art/a.svg", f"art/{name}"))
    with (content / "g" / "art" / name).open("wb") as sparse:
        sparse.truncate(limit + 1)  # a sparse file: no disk used, and never read
    code, err = build(run_pnpgen, content, tmp_path / "out")
    kind = "SVG file" if name.endswith(".svg") else "image file"
    assert_refused(code, err, f"{content}/g/art/{name}: {kind} of {limit + 1:,} bytes is over the limit of "
                              f"{limit:,} bytes", tmp_path / "out")


PATH_CASES = {
    # the image: value -> the end of the error at the element's line
    "art/folder.png": "image 'art/folder.png' is a folder, not a file",
    "art/a.gif": "image 'art/a.gif' must be a .png, .jpg or .svg file",
    "art/none.png": "image not found: art/none.png",
    "../../outside.png": "image '../../outside.png' leaves the game folder",
    "/etc/outside.png": "image '/etc/outside.png' is not relative to the game folder",
    "{root}/outside.png": "image '{said}' is not relative to the game folder",  # it exists
    "art/out.png": "image 'art/out.png' leaves the game folder",  # a symlink
    '"art/\\0.png"': "image 'art/\\0.png' is not a file name",  # a NUL, written as \0
    "'  '": "image '  ' is not a file name",
    "a" * 300 + ".png": "image '" + "a" * 79 + "…' is not a usable file name",  # over 255 bytes
}


@pytest.mark.parametrize("value", PATH_CASES)
def test_a_bad_image_name_points_at_its_line(run_pnpgen: CliRun, tmp_path: Path, value: str) -> None:
    name = value.replace("{root}", str(tmp_path.resolve()))
    content = make_game(tmp_path, {"c/g/art/a.gif": png(kind="GIF"), "c/g/art/folder.png/x.txt": "x",
                                   "outside.png": png()}, IMAGE.replace("art/a.svg", name))
    (content / "g" / "art" / "out.png").symlink_to(tmp_path / "outside.png")
    code, err = build(run_pnpgen, content, tmp_path / "out")
    said = name if len(name) <= 80 else name[:79] + "…"  # a long name is cut in messages
    message = PATH_CASES[value].replace("{said}", said)
    assert_refused(code, err, f"{content}/g/game.yaml:14:17: game g, component cards, card 1 'A' (1): {message}",
                   tmp_path / "out")


# --- numbers and shrinking ------------------------------------------------------------------------

CARD = "game g, component cards, card 1 'A' (1)"
NUMBER_CASES = [
    # (a front element, the value the error points at, the end of the error)
    ("{text: A, size: 1.0e+300, shrink: true}", "1.0e+300",
     "number 1e+300 is too large (the limit is ±2**53)"),  # the YAML loader's own bound comes first
    ("{text: A, size: 1e300, shrink: true}", "1e300",  # a string in YAML 1.1, read as a number
     "front[0].size: 1e+300 pt; the limit is 500 pt"),
    ("{text: A, size: 0}", "0", "front[0].size: 0 pt; must be more than 0 pt"),
    ("{text: A, size: -4, shrink: true}", "-4",
     "front[0].size: -4 pt; must be more than 0 pt"),
    ("{text: A, shrink: true, min_size: 0}", "0}",
     "front[0].min_size: 0 pt; must be more than 0 pt"),
    ("{text: A, leading: 1.0e+3}", "1.0",
     "front[0].leading: 1,000 times the size; the limit is 10 times the size"),
    ("{text: A, padding: -1}", "-1", "front[0].padding: -1 mm; must be 0 mm or more"),
    ("{text: A, w: -5}", "-5", "front[0].w: -5 mm; must be more than 0 mm"),
    ("{image: art/a.svg, h: 0}", "0", "front[0].h: 0 mm; must be more than 0 mm"),
    ("{shape: rect, x: 1e9}", "1e9", "front[0].x: 1,000,000,000 mm; the limit is 5,000 mm"),
    ("{shape: rect, x: '12 mm'}", "'12", "front[0].x: '12 mm' is not a number"),
    ("{shape: line, dash: [0, 0]}", "[", "front[0].dash: dashes are from 0 to 5000 mm, not all 0"),
    ("{table: {rows: [[a]]}, size: 1.0e+15, shrink: true}", "1.0",
     "front[0].size: 1,000,000,000,000,000 pt; the limit is 500 pt"),
    # numbers from a card's fields are checked when drawn, with the card named
    ("{text: A, size: '{{ big }}', shrink: true}", "'", f"{CARD}: size 1e+300 pt; the limit is 500 pt"),
    ("{text: A, size: '{{ nan }}', shrink: true}", "'", f"{CARD}: size nan is not a finite number"),
    ("{shape: rect, w: '{{ zero }}'}", "'", f"{CARD}: w 0 mm; must be more than 0 mm"),
    ("{text: A, x: 70}", "70", f"{CARD}: x 70 mm starts past the end of its 63 mm box"),
]


@pytest.mark.parametrize(("element", "at", "message"), NUMBER_CASES, ids=[c[0] for c in NUMBER_CASES])
def test_out_of_range_numbers_point_at_their_line(run_pnpgen: CliRun, tmp_path: Path, element: str, at: str,
                                                  message: str) -> None:
    content = make_game(tmp_path, {"c/g/art/a.svg": svg()}, f"      - {element}\n")
    started = time.process_time()
    code, err = build(run_pnpgen, content, tmp_path / "out")
    assert time.process_time() - started < 20
    column = 9 + element.index(at, element.index(":") + 1)  # the element's "{" is column 9 of line 14
    assert_refused(code, err, f"{content}/g/game.yaml:14:{column}: {message}", tmp_path / "out")


@pytest.mark.parametrize("size", [".inf", "-.inf", ".nan"])
def test_infinite_and_nan_sizes_end_at_once(run_pnpgen: CliRun, tmp_path: Path, size: str) -> None:
    """Once >20 minutes of shrinking. The YAML loader may refuse these before the layout
    check does: either way one line at the value, exit 2."""
    content = make_game(tmp_path, {}, f"      - {{text: A, size: {size}, shrink: true}}\n")
    started = time.process_time()
    code, err = build(run_pnpgen, content, tmp_path / "out")
    assert time.process_time() - started < 20
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"error: {content}/g/game.yaml:14:")
    assert not list((tmp_path / "out").rglob("*.pdf"))


@pytest.mark.parametrize("size", [math.inf, math.nan, 1e300, -1.0, 0.0, 500.0, 9.0])
@pytest.mark.parametrize("min_size", [1e-300, 0.0, 4.0, math.nan, -math.inf])
def test_shrink_is_bounded_whatever_the_sizes(size: float, min_size: float) -> None:
    """Even unchecked sizes (a direct call) make at most MAX_SHRINK_STEPS attempts."""
    calls: list[float] = []

    def never(at: float) -> None:
        calls.append(at)
        return None

    started = time.process_time()
    assert richtext.shrink_to_fit(never, size, min_size, rounded=True, slack=1e-9) is None
    assert len(calls) <= MAX_SHRINK_STEPS
    assert time.process_time() - started < 0.5


def test_fit_text_with_absurd_sizes_ends_at_once() -> None:
    setup_fonts()
    tokens = richtext.tokenize("a long text " * 200, {})
    for size in (math.inf, math.nan, 1e300):
        started = time.process_time()
        assert richtext.fit_text(tokens, SANS, size, 1.25, Rect(0, 0, 100, 50), True, 4.0) is None
        assert time.process_time() - started < 1


def _linear_fit(tokens: list[richtext.Token], size: float, area: Rect, min_size: float) -> float | None:
    """The step-by-step search the bisection replaced (the reference)."""
    while True:
        lines, fits = richtext.break_lines(tokens, SANS, size, area.w)
        if fits and len(lines) * size * 1.25 <= area.h + 1e-6:
            return size
        if size - 0.25 < min_size - 1e-9:
            return None
        size = round(size - 0.25, 2)


def test_bisection_finds_the_size_the_step_by_step_search_found() -> None:
    setup_fonts()
    rng = random.Random(11)
    words = ["a", "tiny", "word", "incomprehensibilities", "火", "の粉を", "**bold**", "\n", "ダメージを与える。"]
    for _ in range(300):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 60)))
        tokens = richtext.tokenize(text, {})
        area = Rect(0, 0, rng.uniform(5, 200), rng.uniform(5, 200))
        size, min_size = round(rng.uniform(4, 40), rng.choice([0, 1, 2])), rng.choice([1.0, 2.5, 4.0])
        layout = richtext.fit_text(tokens, SANS, size, 1.25, area, True, min_size)
        assert (layout.size if layout else None) == _linear_fit(tokens, size, area, min_size)


def test_shrink_limits_are_what_the_docs_say() -> None:
    assert MAX_FONT_PT == 500 and richtext.SHRINK_SIZES == 2000
    assert math.ceil(math.log2(richtext.SHRINK_SIZES)) + 2 <= MAX_SHRINK_STEPS


# --- good art still renders -----------------------------------------------------------------------


def test_kit_demo_art_still_renders(run_pnpgen: CliRun, repo_root: Path, tmp_path: Path) -> None:
    content = repo_root / "tests" / "fixtures"  # a game folder linked in from outside would be refused
    code, _out, err = run_pnpgen("build", "kit-demo", "-q", "--content", str(content), "--out", str(tmp_path / "out"),
                                 "--lang", "en", "--print-shop")
    assert code == 0  # bolt.png is small: a print-shop file reports it, and nothing else
    assert err.splitlines() == ["warning: spells-print-shop-en.pdf: art/bolt.png prints at "
                                + err.split(" prints at ")[1].split(" ppi")[0]
                                + " ppi (under 300): it will look soft; give it " + err.split("give it ")[1].rstrip()]
    spells = (tmp_path / "out" / "kit-demo" / "spells-en.pdf").read_bytes()
    assert b"/Subtype /Image" in spells  # bolt.png
    assert (tmp_path / "out" / "kit-demo" / "spells-print-shop-en.pdf").stat().st_size > 10_000


def test_svg_text_uses_the_bundled_font_and_svglib_stays_quiet(repo_root: Path, tmp_path: Path) -> None:
    """A font-family is never looked up as a file (nor by fc-match), and svglib's own
    warnings (an old Inkscape, an unknown element) add no line to stderr: a real process,
    as pytest would catch the log records."""
    art = svg('<text x="1" y="12" font-family="../../../../etc/passwd, Comic Sans" font-size="6">Hi</text>',
              '<blink/>',
              open_tag=SVG_OPEN.replace("<svg ", '<svg xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
                                        'inkscape:version="0.48 r9654" '))
    content = make_game(tmp_path, {"c/g/art/a.svg": art})
    done = subprocess.run([sys.executable, "-m", "pnpgen", "build", "g", "-q", "--content", str(content), "--out",
                           str(tmp_path / "out"), "--lang", "en"], cwd=repo_root, capture_output=True, text=True,
                          timeout=120, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    pdf = (tmp_path / "out" / "g" / "cards.pdf").read_bytes()
    fonts = set(re.findall(rb"/BaseFont /(?:[A-Z]{6}\+)?([\w-]+)", pdf))
    assert fonts == {SANS.encode()}


# --- previews -------------------------------------------------------------------------------------


def test_a_huge_preview_is_drawn_smaller(tmp_path: Path) -> None:
    from PIL import Image

    from pnpgen.limits import MAX_PREVIEW_PIXELS
    from pnpgen.render.kit import preview

    side = 5000 * 72 / 25.4  # a 5 m board, in points
    sheet = preview.PreviewSheet(side, side, [preview.Tile(preview.Recorder(side, side), 0, 0, "board")])
    started = time.process_time()
    preview.write_png(sheet, tmp_path / "board.png", dpi=72)
    assert time.process_time() - started < 30
    with Image.open(tmp_path / "board.png") as png_file:
        assert png_file.width * png_file.height <= MAX_PREVIEW_PIXELS
    sheet_png = preview.contact_sheet([tmp_path / "board.svg"] * 8, tmp_path / "contact.png")
    with Image.open(sheet_png) as contact:
        assert contact.width * contact.height <= MAX_PREVIEW_PIXELS * 1.1  # plus the labels and gaps


def test_a_preview_embeds_each_picture_once_within_a_budget(run_pnpgen: CliRun, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """One picture on many cards is one copy in the preview SVG; past the budget of picture
    bytes (MAX_IMAGE_BYTES; lowered here) a grey box stands in."""
    from pnpgen.render.kit import preview

    p, q = png(5, 5, colour=(9, 9, 9)), png(7, 7, colour=(8, 8, 8))
    front = "      - {image: 'art/{{ art }}'}\n"
    content = make_game(tmp_path, {"c/g/art/p.png": p, "c/g/art/q.png": q}, front)
    game = content / "g" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        '      - {name: A, big: 1e300, nan: "nan", zero: 0}',
        "      - {name: A, art: p.png}\n      - {name: B, art: p.png}\n      - {name: C, art: q.png}\n"
        "      - {name: D, art: p.png}"), encoding="utf-8")
    monkeypatch.setattr(preview, "MAX_IMAGE_BYTES", len(p) + 10)
    code, err = build(run_pnpgen, content, tmp_path / "out")
    assert (code, err) == (0, "")
    text = (tmp_path / "out" / "g" / "preview" / "cards.svg").read_text(encoding="utf-8")
    assert text.count(base64.b64encode(p).decode("ascii")) == 1 and text.count('xlink:href="#picture0"') == 3
    assert base64.b64encode(q).decode("ascii") not in text and 'fill="#dddddd"' in text


def test_png_jpeg_and_linked_svg_in_print_shop_files(run_pnpgen: CliRun, tmp_path: Path) -> None:
    art = svg('<image xlink:href="inside.png" width="9" height="9"/>',
              f'<image xlink:href="{data_uri(png(kind="JPEG"), "image/jpeg")}" x="10" width="9" height="9"/>')
    front = ("      - {image: art/a.svg, x: 5, y: 5, w: 20, h: 20}\n"
             "      - {image: art/b.jpg, x: 5, y: 30, w: 20, h: 20}\n"
             "      - {image: art/inside.png, x: 30, y: 30, w: 20, h: 20, fit: cover}\n")
    content = make_game(tmp_path, {"c/g/art/a.svg": art, "c/g/art/inside.png": png(6, 6),
                                   "c/g/art/b.jpg": png(8, 8, kind="JPEG")}, front)
    out = tmp_path / "out"
    code, _out, err = run_pnpgen("build", "g", "-q", "--content", str(content), "--out", str(out), "--lang", "en",
                                 "--print-shop")
    assert code == 0 and all(" ppi (under 300)" in line for line in err.splitlines()), err  # tiny test pictures
    pdf = (out / "g" / "cards-print-shop.pdf").read_bytes()
    inline = re.findall(rb"BI\s*/W \d+ /H \d+ /BPC 8 /CS /(\w+)", pdf_streams(pdf))
    assert inline == [b"DeviceCMYK", b"DeviceCMYK"]  # the SVG's linked PNG and its data: JPEG
    assert pdf.count(b"/ColorSpace /DeviceCMYK") == 2 and b"/DeviceRGB" not in pdf  # b.jpg and inside.png
    assert (out / "g" / "preview" / "cards.png").is_file()


# --- random SVGs and PNGs -------------------------------------------------------------------------

NUMBERS = ["0", "-1", "1e300", "-1e300", "nan", "inf", "1e-300", "5", "50%", "3em", "", "abc", "1e999", "10 10"]
SHAPES = [
    '<rect x="{0}" y="{1}" width="{2}" height="{3}" rx="{4}" stroke-width="{5}" transform="scale({6}) rotate({7})"/>',
    '<circle cx="{0}" cy="{1}" r="{2}" opacity="{3}"/>',
    '<line x1="{0}" y1="{1}" x2="{2}" y2="{3}" stroke="red" stroke-width="{4}" stroke-dasharray="{5} {6}"/>',
    '<path d="M{0} {1} L{2} {3} C{4} {5} {6} {7} {0} {1} A{2} {3} {4} 1 0 {5} {6} Z"/>',
    '<text x="{0}" y="{1}" font-size="{2}" text-anchor="middle">hé日<tspan dx="{3}">x</tspan></text>',
    '<image xlink:href="p.png" x="{0}" width="{1}" height="{2}" preserveAspectRatio="none"/>',
    '<svg x="{0}" width="{1}" height="{2}" viewBox="{3} {4} {5} {6}"><circle r="2"/></svg>',
    '<linearGradient id="g" x1="{0}" gradientTransform="scale({1})"><stop offset="{2}" stop-color="red"/>'
    '</linearGradient><rect fill="url(#g)" width="{3}" height="{4}"/>',
    '<clipPath id="c"><rect width="{0}" height="{1}"/></clipPath><rect clip-path="url(#c)" width="{2}" height="{3}"/>',
    '<g transform="translate({0}) skewX({1})"><use xlink:href="#r" x="{2}"/><rect id="r" width="{3}" height="1"/></g>',
]


@settings(max_examples=examples(60, 20), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shapes=st.lists(st.tuples(st.sampled_from(SHAPES), st.lists(st.sampled_from(NUMBERS), min_size=8,
                                                                      max_size=8)), min_size=1, max_size=5),
       size=st.tuples(st.sampled_from(NUMBERS), st.sampled_from(NUMBERS)))
def test_random_svgs_never_crash_a_pdf_or_a_preview(tmp_path: Path, shapes: list[tuple[str, list[str]]],
                                                    size: tuple[str, str]) -> None:
    from reportlab.graphics import renderPDF

    from pnpgen.errors import BuildError
    from pnpgen.render.kit import images, preview

    if not (tmp_path / "p.png").exists():
        (tmp_path / "p.png").write_bytes(png())
    body = "".join(shape.format(*values) for shape, values in shapes)
    path = tmp_path / f"a{abs(hash(body)) % 10**9}.svg"
    path.write_text(SVG_OPEN.replace('width="20" height="20"', f'width="{size[0]}" height="{size[1]}"') + body
                    + "</svg>", encoding="utf-8")
    started = time.process_time()
    try:
        image = images.check_image(path, path.name, tmp_path)
    except BuildError as error:
        assert "\n" not in str(error)
        return
    recording = preview.Recorder(100, 100)
    recording.draw_image_file(image, 0, 0, 100, 100)
    renderPDF.draw(image.drawing, preview.Recorder(100, 100), 0, 0)
    preview.write_png(preview.PreviewSheet(120, 120, [preview.Tile(recording, 0, 0)]), tmp_path / "p.png.png")
    assert time.process_time() - started < 10


@pytest.mark.parametrize("gradient", [
    '<linearGradient id="g"><stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/>'
    '</linearGradient>',
    '<radialGradient id="g"><stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/>'
    '</radialGradient>'])
def test_a_gradient_previews_as_its_mean_colour(tmp_path: Path, gradient: str) -> None:
    """svglib 2.3.2 paints gradients straight onto the canvas; the preview's recorder once had
    no such call (AttributeError, found by the random-SVG fuzzer)."""
    from reportlab.graphics import renderPDF

    from pnpgen.render.kit import images, preview

    path = tmp_path / "g.svg"
    path.write_text(SVG_OPEN + f'<defs>{gradient}</defs><rect fill="url(#g)" width="20" height="20"/></svg>',
                    encoding="utf-8")
    image = images.check_image(path, path.name, tmp_path)
    recording = preview.Recorder(100, 100)
    renderPDF.draw(image.drawing, recording, 0, 0)
    fills = [op.fill for op in recording.ops if isinstance(op, preview.PathOp) and op.fill is not None]
    assert (0.5, 0.0, 0.5) in fills


@settings(max_examples=examples(60, 20), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)), min_size=1, max_size=6),
       kind=st.sampled_from(["PNG", "JPEG"]), end=st.integers(8, 2000))
def test_damaged_pictures_are_one_line_or_whole(tmp_path: Path, cuts: list[tuple[int, int]], kind: str,
                                                end: int) -> None:
    from pnpgen.errors import BuildError
    from pnpgen.render.kit import images

    data = bytearray(png(24, 24, colour=(10, 200, 30), kind=kind))
    for at, value in cuts:
        data[at % len(data)] = value
    path = tmp_path / f"a{abs(hash(bytes(data[:end]))) % 10**9}.png"
    path.write_bytes(bytes(data[:end]))
    try:
        image = images.check_image(path, path.name, tmp_path)
    except BuildError as error:
        assert "\n" not in str(error)
        return
    assert images.cmyk_image(image).getSize() == (image.width, image.height)  # decodes again, whole


# What a PNG header may claim: (bit depth, colour type) -> bytes a decoded pixel takes.
PNG_KINDS = {(1, 0): 1, (8, 0): 1, (16, 0): 2, (8, 2): 4, (16, 2): 6, (8, 3): 1, (8, 4): 4, (16, 4): 4,
             (8, 6): 4, (16, 6): 8}
CLAIMS = [(16, 16), (64, 64), (1500, 1500), (7000, 7000), (9999, 9999), (10000, 10000), (40000, 40000),
          (65535, 1), (1, 65535)]


@settings(max_examples=examples(40, 15), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(claim=st.sampled_from(CLAIMS), kind=st.sampled_from(sorted(PNG_KINDS)), jpeg=st.booleans())
def test_claimed_sizes_are_judged_before_decoding(tmp_path: Path, claim: tuple[int, int], kind: tuple[int, int],
                                                  jpeg: bool) -> None:
    """A header claiming any size, depth and colour: over a budget is refused before a pixel
    is decoded (memory stays small); within it, data that ends early is refused."""
    import tracemalloc

    from pnpgen.errors import BuildError
    from pnpgen.render.kit import images

    width, height = claim
    each = 4 if jpeg else PNG_KINDS[kind]
    if width * height <= MAX_IMAGE_PIXELS and 64 * 64 < width * height * each <= MAX_IMAGE_MEMORY:
        return  # a big picture within every budget: decoding it is allowed (and slow); not fuzzed here
    path = tmp_path / f"a{width}x{height}-{kind[0]}-{kind[1]}.{'jpg' if jpeg else 'png'}"
    path.write_bytes(jpeg_claiming(width, height) if jpeg else png_header(width, height, *kind))
    tracemalloc.start()
    try:
        images.check_image(path, path.name, tmp_path)
        outcome = "whole"
    except BuildError as error:
        outcome = str(error)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < 20_000_000  # nothing near the claimed size was decoded
    if width * height > MAX_IMAGE_PIXELS:
        assert "pixels is over the limit" in outcome
    elif width * height * each > MAX_IMAGE_MEMORY:
        assert f"over the limit of {MAX_IMAGE_MEMORY // 10**6} MB" in outcome
    elif (width, height) != (16, 16) or not jpeg:
        assert "cut short" in outcome or "truncated" in outcome, outcome  # the data ends early
    else:
        assert outcome == "whole"


# --- work that grows with copies ------------------------------------------------------------------


TOO_MANY = f"SVG draws more than {MAX_SVG_ELEMENTS:,} elements (copies by <use> included)"
TOO_DEEP = f"SVG nests deeper than {MAX_SVG_DEPTH} levels (copies by <use> included)"
CHAIN = "".join(f'<g id="l{i}"><use xlink:href="#l{i - 1}"/></g>' for i in range(1, 400))


@pytest.mark.parametrize(("body", "message"), [
    ('<defs><g id="a">' + '<rect width="1" height="1"/>' * 500 + "</g></defs>" + '<use xlink:href="#a"/>' * 5000,
     TOO_MANY),
    ('<defs><g id="l0"><rect width="1" height="1"/></g>' + CHAIN + '</defs><use xlink:href="#l399"/>', TOO_DEEP),
    ("<g>" * 250 + "<rect/>" + "</g>" * 250, TOO_DEEP),
])
def test_use_bombs_and_deep_nesting_end_in_seconds(run_pnpgen: CliRun, tmp_path: Path, body: str,
                                                   message: str) -> None:
    """Once >5 minutes (5,000 copies of 500 shapes); a deep drawing broke the print-shop copy."""
    content = make_game(tmp_path, {"c/g/art/a.svg": svg(body)})
    started = time.process_time()
    code, err = build(run_pnpgen, content, tmp_path / "out")
    assert time.process_time() - started < 15
    assert_refused(code, err, f"{content}/g/art/a.svg: {message}", tmp_path / "out")


def test_svg_art_is_drawn_once_per_pdf(run_pnpgen: CliRun, tmp_path: Path) -> None:
    """Every card places one form: the drawing's work does not grow with the cards."""
    content = make_game(tmp_path, {"c/g/art/a.svg": svg('<circle cx="9" cy="9" r="4" fill="#ff0000"/>')})
    game = content / "g" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("zero: 0}", "zero: 0, quantity: 12}"), encoding="utf-8")
    code, err = build(run_pnpgen, content, tmp_path / "out")
    assert (code, err) == (0, "")
    pdf = (tmp_path / "out" / "g" / "cards.pdf").read_bytes()
    streams = pdf_streams(pdf)
    assert streams.count(b"pnpgenImage0 Do") == 12 and b"pnpgenImage1" not in streams
    assert streams.count(b"1 0 0 rg") == 1  # the red circle's colour: drawn once, in the form


def test_a_preview_spends_a_budget_on_svg_shapes(tmp_path: Path) -> None:
    from pnpgen.render.kit import images, preview

    (tmp_path / "a.svg").write_text(svg(*['<rect width="2" height="2"/>'] * 8), encoding="utf-8")
    image = images.check_image(tmp_path / "a.svg", "a.svg", tmp_path)
    budget = [image.nodes + 3]
    first, second = preview.Recorder(50, 50, budget), preview.Recorder(50, 50, budget)
    first.draw_image_file(image, 0, 0, 50, 50)
    second.draw_image_file(image, 0, 0, 50, 50)
    assert len(first.ops) == 9 and budget == [3]  # the background and 8 squares
    assert len(second.ops) == 1 and second.ops[0].fill == (0.87, 0.87, 0.87)  # a grey box
