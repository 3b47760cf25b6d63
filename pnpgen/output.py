"""Writing outputs safely: one guard for every command that writes; what a build writes.

- Nothing is ever written into the content folder (`refuse_content_folder`).
- Every file is written to a temporary `.part` beside it and moved into place only when
  complete (`atomic_output`); the temporary's name carries the writer's process id, so the
  next build removes those whose writer died (`clean_stale_parts`, e.g. after kill -9).
- A folder that cannot be written (read-only, full, a file in the way) is a one-line error.
- One build at a time per game output folder (`build_lock`): a second is refused.
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


class OutputError(BuildError):
    """The output folder cannot be written (a full disk, no permission): it stops the whole
    build at once, where a component's own problem stops only that component."""


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
    vendor: str | None = None  # also the files a print-on-demand shop takes (render/vendors/, --vendor)
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
        raise OutputError(f"cannot write {path}: {err.strerror or err}") from err
    finally:
        if tmp is not None and tmp.exists():
            tmp.unlink()


WRITING = re.compile(r"^\.pnpgen-writing\.pid(\d+)$")


@contextlib.contextmanager
def build_lock(folder: Path) -> Iterator[None]:
    """Hold `folder` for one build: another build of the same game into the same output
    folder at the same time would remove the files this one writes (each removes what it
    does not make) and leave a README listing missing files. It is refused, not queued:
    run after this one, it would remove this one's files anyway.

    The lock is flock on the folder itself (the kernel drops it when the build ends, however
    it ends); `.pnpgen-writing.pid<N>` names the holder while it builds."""
    import fcntl

    created = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as err:
        raise OutputError(f"cannot write {folder}/: {err.strerror or err}") from err
    marker = folder / f".pnpgen-writing.pid{os.getpid()}"
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pids = sorted(m.group(1) for p in folder.iterdir() if (m := WRITING.match(p.name)))
            holder = f" (pid {', '.join(pids)})" if pids else ""
            raise BuildError(f"another build is writing {folder}/{holder}; wait for it to end, or build into "
                             "another --out") from None
        for old in folder.iterdir():  # left by a build that was killed
            if WRITING.match(old.name):
                with contextlib.suppress(OSError):
                    old.unlink()
        try:
            marker.touch()
        except OSError as err:
            raise OutputError(f"cannot write {marker}: {err.strerror or err}") from err
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                marker.unlink()
            if created:
                with contextlib.suppress(OSError):
                    folder.rmdir()  # only when the build wrote nothing
    finally:
        os.close(fd)  # and with it the lock


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
