"""Sealed Typst compiles: every rulebook and companion PDF is set by Typst (the PyPI `typst`
binding, pinned in pyproject), under these rules:

- the compile root is a fresh temporary folder holding only the files we generated (our
  template, the book as JSON, the diagrams as SVG); nothing is linked, so nothing outside it
  can be read (Typst refuses paths that leave the root);
- package imports (`@preview/…`, `@local/…`) are refused before Typst runs, and the package
  folders Typst would use point into the empty root;
- only the bundled fonts (pnpgen/fonts) exist for Typst: no system or embedded fonts;
- the PDF's date is SOURCE_DATE_EPOCH, else the fixed 2000-01-01 every pnpgen PDF carries;
- the compile runs in a child process that is killed after TYPESET_SECONDS, with one line.

Content never becomes Typst markup: the template reads the book from JSON and inserts every
text as a string (rulebook/layout.py builds the JSON, rulebook/book.typ sets it).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from pnpgen.errors import BuildError
from pnpgen.output import check_source_date_epoch
from pnpgen.render.fonts import FONT_DIR

FIXED_DATE = 946684800  # 2000-01-01T00:00:00Z, the date of every pnpgen PDF without SOURCE_DATE_EPOCH
TYPESET_SECONDS = 120.0  # one book; the largest (Fast Alone, 40 pages) takes about a second
_PACKAGE = re.compile(r"""["']@[A-Za-z0-9_-]+/""")  # a package spec: "@preview/name:1.0.0"
CHILD = Path(__file__).with_name("typst_child.py")


class TypesetError(BuildError):
    """Typst refused or did not finish a document (one line)."""


def timestamp() -> int:
    epoch = check_source_date_epoch()
    return FIXED_DATE if epoch is None else epoch


def compile_pdf(files: dict[str, bytes], main: str = "main.typ", timeout: float | None = None) -> bytes:
    """The PDF Typst sets from `files` (name -> bytes, `main` among them), PDF/UA-1 requested,
    in a sealed root (module docstring). TypesetError with one line when Typst refuses it or
    it runs past `timeout` seconds (TYPESET_SECONDS)."""
    for name, data in files.items():
        if name.endswith(".typ") and _PACKAGE.search(data.decode("utf-8", "replace")):
            raise TypesetError(f"Typst package imports are refused ({name})")
    with tempfile.TemporaryDirectory(prefix="pnpgen-typst-") as tmp:
        root = Path(tmp) / "root"
        root.mkdir()
        for name, data in files.items():
            if "/" in name or "\\" in name or name.startswith("."):
                raise TypesetError(f"not a plain file name: {name!r}")
            (root / name).write_bytes(data)
        out = Path(tmp) / "out.pdf"
        # the child runs typst_child.py as a plain script: it imports the typst binding alone,
        # not pnpgen (a tenth of a second per document)
        command = [sys.executable, str(CHILD), str(root), main, str(out), str(timestamp()), str(FONT_DIR)]
        env = {k: v for k, v in os.environ.items() if not k.startswith("TYPST")}
        env["TYPST_PACKAGE_PATH"] = env["TYPST_PACKAGE_CACHE_PATH"] = str(root / "packages")
        limit = TYPESET_SECONDS if timeout is None else timeout
        try:
            done = subprocess.run(command, capture_output=True, timeout=limit, env=env, check=False)
        except subprocess.TimeoutExpired:
            raise TypesetError(f"typesetting stopped after {limit:g} s (a runaway document)") from None
        if done.returncode != 0:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise TypesetError(f"Typst: {lines[-1] if lines else f'exit code {done.returncode}'}")
        return out.read_bytes()
