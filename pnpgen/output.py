"""Writing outputs safely: one guard for every command that writes; what a build writes.

- Nothing is ever written into the content folder (`refuse_content_folder`).
- Every file is written to a temporary `.part` beside it and moved into place only when
  complete (`atomic_output`); the temporary's name carries the writer's process id, so the
  next build removes those whose writer died (`clean_stale_parts`, e.g. after kill -9).
- A folder that cannot be written (read-only, full, a file in the way) is a one-line error.
- Dates in outputs come from `SOURCE_DATE_EPOCH` when set (reproducible builds), else a
  fixed date, so the same input always gives the same bytes.
- `BuildOptions` and `BuiltFile` are the build's options and its record of one file
  written; they live here, below everything, so renderers and the build share them
  without importing each other.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pnpgen.errors import BuildError, PnpgenError
from pnpgen.words import LANGS

if TYPE_CHECKING:
    from pnpgen.content.game import GameContent



@dataclass
class BuildOptions:
    out: Path = Path("build")
    langs: tuple[str, ...] = LANGS
    paper: str = "A4"
    guides: bool = False  # proof mode: safe-zone and trim guides drawn
    print_shop: bool = False  # one card per page, CMYK, no annotations
    tts: bool = False  # also Tabletop Simulator card sheets, board images and saved objects (tts/)
    tts_base_url: str | None = None  # where the tts/ files will be hosted; None: file:/// of tts/
    preset: str | None = None  # a printer preset (render/kit/presets.py) for every component
    ink_saver: bool = False  # home files: backgrounds and full-bleed fills off, art kept (render/kit/elements.py)
    content_root: Path = Path("content")

    def game_dir(self, content: GameContent) -> Path:
        return self.out / content.id


@dataclass
class BuiltFile:
    game: str
    path: Path
    pages: int
    kind: str
    notes: list[str] = field(default_factory=list)


PART = re.compile(r"^\..+\.pid(\d+)\.[^.]+\.part$")


def refuse_content_folder(target: Path, content_root: Path, what: str = "output folder") -> None:
    """A one-line error when `target` is the content folder or inside it."""
    out, content = target.resolve(), content_root.resolve()
    if out == content or out.is_relative_to(content):
        raise PnpgenError(f"{what} {target} is inside the content folder {content_root}; choose another")


_recorders: list[list[Path]] = []


@contextlib.contextmanager
def recording_writes() -> Iterator[list[Path]]:
    """Collect the path of every file `atomic_output` puts in place inside the block (a
    build learns exactly what it wrote, previews included, to remove what it no longer makes)."""
    written: list[Path] = []
    _recorders.append(written)
    try:
        yield written
    finally:
        _recorders.remove(written)


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside `path`; move it into place only on success.

    A failed build never leaves a half-written file behind.
    """
    tmp: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.pid{os.getpid()}.", suffix=".part", dir=path.parent)
        os.close(fd)
        tmp = Path(tmp_name)
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs get normal file modes
        os.replace(tmp, path)
        for written in _recorders:
            written.append(path)
    except OSError as err:
        raise BuildError(f"cannot write {path}: {err.strerror or err}") from err
    finally:
        if tmp is not None and tmp.exists():
            tmp.unlink()


def clean_stale_parts(folder: Path) -> list[Path]:
    """Remove temporaries left under `folder` by writers that no longer run (killed builds)."""
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    for part in folder.rglob(".*.part"):
        match = PART.match(part.name)
        if match and _running(int(match.group(1))):
            continue  # another build is writing it right now
        with contextlib.suppress(OSError):
            part.unlink()
            removed.append(part)
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_source_date_epoch() -> int | None:
    """`SOURCE_DATE_EPOCH` (seconds since 1970, read by ReportLab for PDF dates), checked."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) > 253402300799:  # 9999-12-31
        raise PnpgenError(f"SOURCE_DATE_EPOCH '{value}' is not a number of seconds since 1970")
    return int(value)
