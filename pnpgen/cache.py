"""pnpgen's disk cache (default ~/.cache/pnpgen; `PNPGEN_CACHE=DIR` moves it, `PNPGEN_CACHE=off`
turns it off): simulated figures (pnpgen.engine.figures) and parsed YAML files (kept per
file, so the cache holds at most one entry for each file read). Nothing in it is needed:
a missing, stale or unreadable entry is computed again."""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
ENTRIES_KEPT = 1000  # per kind of per-file entry; past it, the older half is removed


def cache_folder() -> Path | None:
    setting = os.environ.get("PNPGEN_CACHE", "")
    if setting.lower() == "off":
        return None
    return Path(setting) if setting else Path.home() / ".cache" / "pnpgen"


def store(path: Path, data: bytes) -> None:
    """Write an entry atomically; a cache that cannot be written is no cache, no harm."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_bytes(data)
        part.replace(path)
    except OSError:
        pass


def per_file(kind: str, name: str, key: bytes, compute: Callable[[], T]) -> T:
    """`compute()` for the file called `name` in the state `key` (a digest of everything the
    result depends on), read back from the cache while `key` is unchanged. Each file has one
    entry, replaced when its key changes."""
    root = cache_folder()
    if root is None:
        return compute()
    path = root / kind / f"{hashlib.blake2b(name.encode(), digest_size=16).hexdigest()}.pickle"
    try:
        data = path.read_bytes()
        if data.startswith(key):
            found: T = pickle.loads(data[len(key):])  # noqa: S301 - written below by this code only
            return found
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError, TypeError):
        pass
    result = compute()
    store(path, key + pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    _prune(path.parent)
    return result


def _prune(folder: Path) -> None:
    """Keep a folder of per-file entries to ENTRIES_KEPT: the older half goes when it is full."""
    try:
        entries = list(folder.iterdir())
        if len(entries) <= ENTRIES_KEPT:
            return
        entries.sort(key=lambda entry: entry.stat().st_mtime_ns)
        for entry in entries[:len(entries) - ENTRIES_KEPT // 2]:
            entry.unlink(missing_ok=True)
    except OSError:
        pass
