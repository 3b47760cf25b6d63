"""The child process of a sealed Typst compile (typeset.py), run as a plain script so that it
imports the typst binding and nothing of pnpgen:

    python typst_child.py ROOT MAIN OUT TIMESTAMP FONT_DIR

Compiles ROOT/MAIN with ROOT as the project root, only the fonts in FONT_DIR, PDF/UA-1
requested and the given timestamp; writes OUT, or prints one line and exits 3."""

from __future__ import annotations

import re
import sys
from pathlib import Path


def main(root: str, main_file: str, out: str, stamp: str, font_dir: str) -> int:
    import typst

    packages = str(Path(root) / "packages")  # does not exist: no package resolves
    fonts = typst.Fonts(include_system_fonts=False, include_embedded_fonts=False, font_paths=[font_dir])
    try:
        pdf = typst.compile(str(Path(root) / main_file), root=root, font_paths=fonts,  # type: ignore[call-overload]
                            pdf_standards=["ua-1"], timestamp=int(stamp), package_path=packages,
                            package_cache_path=packages)
    except typst.TypstError as err:
        # the error's first location: "┌─ main.typ:12:3" in Typst's diagnostic
        found = re.search(r"error:.*?┌─ (\S+)", str(err.diagnostic or ""), re.S)
        where = f" (at {found[1].rsplit('/', 1)[-1]})" if found else ""
        print(f"{err.message}{where}".replace("\n", " "), file=sys.stderr)
        return 3
    Path(out).write_bytes(pdf)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:6]))
