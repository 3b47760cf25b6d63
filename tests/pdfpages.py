"""PDF pages as pdfplumber reads them, parsed once per test session.

pdfplumber (pdfminer) takes seconds per book, and many tests read the same books: `pages(pdf)`
parses a PDF once and keeps each page's objects (chars, rects, curves, lines, images, with
pdfplumber's keys and values) in memory for this process (until the test module ends) and,
for the PDFs the session's workers share (conftest's `shared_once` builds: the rulebooks), in
a pickle in the session's shared folder (conftest sets it; a lock per PDF, so pytest-xdist's
workers parse different books at once and wait for the same one). A PDF is known by its
bytes: a rebuilt file is read anew. `texts(pdf)` does the same for pypdf's text of each page.

`Page` offers what the tests use of pdfplumber's Page, computed the same way from the same
objects: `extract_text` and `extract_text_lines` with pdfplumber.utils and the layout
parameters pdfplumber's Page passes (its bbox, width and height), `edges` with its
line/rect/curve-to-edge functions.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, TypeVar

import pdfplumber
from filelock import FileLock
from pdfplumber import utils
from pdfplumber.page import tuplify_list_kwargs
from pypdf import PdfReader

Obj = dict[str, Any]
Box = tuple[float, float, float, float]

_folder: Path | None = None  # the session's shared folder for the pickles (None: memory only)
_memory: dict[str, Any] = {}  # kind and digest of the PDF's bytes -> what was read
_digests: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) -> digest


def share(folder: Path | str) -> None:
    """Keep the parsed pages in `folder` (shared by the session's workers) from now on."""
    global _folder
    _folder = Path(folder)
    _folder.mkdir(parents=True, exist_ok=True)


def forget() -> None:
    """Drop what this process holds in memory (the pickles stay for the session)."""
    _memory.clear()
    _digests.clear()


@dataclass
class Page:
    """One page's objects as pdfplumber's Page gives them (an uncropped page)."""

    page_number: int
    bbox: Box
    mediabox: Box
    trimbox: Box | None  # pdfplumber's, when the page has a TrimBox
    objects: dict[str, list[Obj]]
    _textmaps: dict[tuple[tuple[str, Any], ...], Any] = field(default_factory=dict, repr=False, compare=False)
    _edges: list[Obj] | None = field(default=None, repr=False, compare=False)

    @property
    def width(self) -> float:
        return self.bbox[2] - self.bbox[0]

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]

    @property
    def chars(self) -> list[Obj]:
        return self.objects.get("char", [])

    @property
    def rects(self) -> list[Obj]:
        return self.objects.get("rect", [])

    @property
    def curves(self) -> list[Obj]:
        return self.objects.get("curve", [])

    @property
    def lines(self) -> list[Obj]:
        return self.objects.get("line", [])

    @property
    def images(self) -> list[Obj]:
        return self.objects.get("image", [])

    @property
    def edges(self) -> list[Obj]:
        """pdfplumber's Page.edges: line edges, then rect edges, then curve edges."""
        if self._edges is None:
            self._edges = [*map(utils.line_to_edge, self.lines),
                           *chain.from_iterable(map(utils.rect_to_edges, self.rects)),
                           *chain.from_iterable(map(utils.curve_to_edges, self.curves))]
        return self._edges

    def textmap(self, **kwargs: Any) -> Any:
        """pdfplumber's Page._get_textmap, cached per set of arguments."""
        key = tuple(sorted(tuplify_list_kwargs(kwargs).items()))
        if key not in self._textmaps:
            defaults: dict[str, Any] = {"layout_bbox": self.bbox}
            if "layout_width_chars" not in kwargs:
                defaults["layout_width"] = self.width
            if "layout_height_chars" not in kwargs:
                defaults["layout_height"] = self.height
            self._textmaps[key] = utils.chars_to_textmap(self.chars, **{**defaults, **dict(key)})
        return self._textmaps[key]

    def extract_text(self, **kwargs: Any) -> str:
        return str(self.textmap(**kwargs).as_string)

    def extract_text_lines(self, strip: bool = True, return_chars: bool = True, **kwargs: Any) -> list[Obj]:
        return list(self.textmap(**kwargs).extract_text_lines(strip=strip, return_chars=return_chars))

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_textmaps": {}, "_edges": None}  # derived: recomputed on demand


KINDS = ("char", "rect", "curve", "line", "image")


def parse(data: bytes) -> tuple[Page, ...]:
    """Every page of the PDF, read by pdfplumber."""
    out = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            objects = {kind: page.objects.get(kind, []) for kind in KINDS}
            # an image's stream is pdfminer's (not picklable); its box and attributes are kept
            objects["image"] = [{k: v for k, v in image.items() if k != "stream"} for image in objects["image"]]
            trim = getattr(page, "trimbox", None)
            out.append(Page(page.page_number, tuple(page.bbox), tuple(page.mediabox),  # type: ignore[arg-type]
                            tuple(trim) if trim is not None else None, objects))  # type: ignore[arg-type]
    return tuple(out)


def digest(source: Path | str | bytes) -> tuple[str, bytes | None]:
    """The PDF's digest (and its bytes when they had to be read)."""
    if isinstance(source, bytes):
        return hashlib.sha256(source).hexdigest(), source
    stat = os.stat(source)
    known = (str(source), stat.st_size, stat.st_mtime_ns)
    if known in _digests:
        return _digests[known], None
    data = Path(source).read_bytes()
    _digests[known] = hashlib.sha256(data).hexdigest()
    return _digests[known], data


T = TypeVar("T")


def shared(source: Path | str | bytes) -> bool:
    """Is the PDF one the session's workers share, built by conftest's `shared_once` (in a
    `shared-*` folder beside this cache)? Only those are worth a pickle on disk; a PDF a test
    module built for itself is parsed once in this process's memory."""
    if _folder is None or isinstance(source, bytes):
        return False
    try:
        inside = Path(source).resolve().relative_to(_folder.resolve().parent)
    except ValueError:
        return False
    return inside.parts[0].startswith("shared-")


def _once(kind: str, source: Path | str | bytes, compute: Callable[[bytes], T]) -> T:
    """`compute(the PDF's bytes)`, once per test session for each PDF (by its bytes) and kind."""
    key, data = digest(source)
    key = f"{kind}-{key}"
    if key in _memory:
        return _memory[key]  # type: ignore[no-any-return]

    def read() -> bytes:
        return data if data is not None else Path(source).read_bytes()  # type: ignore[arg-type]

    if not shared(source):
        found = compute(read())
    else:
        assert _folder is not None
        stored = _folder / f"{key}.pickle"
        with FileLock(str(stored) + ".lock"):
            if stored.exists():
                found = pickle.loads(stored.read_bytes())
            else:
                found = compute(read())
                stored.with_suffix(".part").write_bytes(pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL))
                stored.with_suffix(".part").replace(stored)
    _memory[key] = found
    return found


def pages(source: Path | str | bytes) -> tuple[Page, ...]:
    """The PDF's pages as pdfplumber reads them (a file's path, or its bytes), parsed once
    per test session."""
    return _once("pdfplumber", source, parse)


Run = tuple[str, tuple[float, ...], float]  # a text's string, the fill colour set before it, its font size
PageText = tuple[str, tuple[Run, ...], dict[tuple[float, ...], int]]
PAINT_STROKE = (b"S", b"s", b"B", b"b", b"B*", b"b*")


def read_texts(data: bytes) -> tuple[PageText, ...]:
    """Each page's text as pypdf's `extract_text()` gives it; the runs of text it met, each
    with the last 3-component fill colour (rg, sc, scn) set before it, rounded to 0.001; and
    how many paths the page's own content stream (not the forms it places) strokes in each
    colour (RG, G, or SC/SCN with 3 or 1 components; q/Q save and restore it), rounded the same.
    One pass of pypdf over each page."""
    out = []
    for page in PdfReader(io.BytesIO(data)).pages:
        fill: list[tuple[float, ...]] = [()]
        runs: list[Run] = []
        stroke: list[tuple[float, ...]] = [()]
        saved: list[tuple[float, ...]] = []
        depth = [0]  # inside a form XObject the page places (Do): not the page's own stream
        strokes: dict[tuple[float, ...], int] = {}

        def before(op: bytes, args: list[Any], cm: Any, tm: Any, fill: list[tuple[float, ...]] = fill,
                   stroke: list[tuple[float, ...]] = stroke, saved: list[tuple[float, ...]] = saved,
                   depth: list[int] = depth, strokes: dict[tuple[float, ...], int] = strokes) -> None:
            if op in (b"rg", b"sc", b"scn") and len(args) == 3:
                fill[0] = tuple(round(float(v), 3) for v in args)
            if op == b"Do":
                depth[0] += 1
            if depth[0]:
                return
            if op == b"q":
                saved.append(stroke[0])
            elif op == b"Q":
                stroke[0] = saved.pop() if saved else ()
            elif op in (b"RG", b"SC", b"SCN") and len(args) == 3:
                stroke[0] = tuple(round(float(v), 3) for v in args)
            elif op in (b"G", b"SC", b"SCN") and len(args) == 1:
                stroke[0] = (round(float(args[0]), 3),) * 3
            elif op in PAINT_STROKE:
                strokes[stroke[0]] = strokes.get(stroke[0], 0) + 1

        def after(op: bytes, args: list[Any], cm: Any, tm: Any, depth: list[int] = depth) -> None:
            if op == b"Do":
                depth[0] -= 1

        def text(t: str, cm: Any, tm: Any, font: Any, size: Any, fill: list[tuple[float, ...]] = fill,
                 runs: list[Run] = runs) -> None:
            runs.append((t, fill[0], float(size)))

        plain = page.extract_text(visitor_operand_before=before, visitor_operand_after=after, visitor_text=text)
        out.append((plain, tuple(runs), strokes))
    return tuple(out)


def texts(source: Path | str | bytes) -> tuple[PageText, ...]:
    """`read_texts` of the PDF, once per test session."""
    return _once("pypdf-text", source, read_texts)
