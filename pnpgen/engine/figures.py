"""Simulated figures that rulebooks and reports print: what they depend on, and a disk cache.

Simulations are seeded, so their figures depend only on the game folder, the pnpgen code
and the Python version. `fingerprint` hashes all three; `cached` keeps figures on disk
under that hash, so a rebuild reads them back instead of simulating again.
The cache is pnpgen.cache's (`PNPGEN_CACHE=DIR` moves it, `PNPGEN_CACHE=off` turns it off).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnpgen.cache import cache_folder, store

CODE = Path(__file__).resolve().parents[1]  # the pnpgen package


def folder_digest(folder: Path) -> tuple[str, int]:
    """SHA-256 over every file of a folder (names and bytes), and the number of files."""
    digest = hashlib.sha256()
    files = sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
        if folder.is_dir() else []
    for path in files:
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest(), len(files)


@lru_cache(maxsize=16)
def fingerprint(folder: Path) -> str:
    """What seeded figures of a game depend on: its folder, pnpgen's code and Python."""
    parts = [sys.version, folder_digest(folder)[0], folder_digest(CODE)[0]]
    return hashlib.sha256(" ".join(parts).encode()).hexdigest()


def cached(kind: str, folder: Path, key: object, compute: Callable[[], dict[str, Any]],
           valid: Callable[[object], bool]) -> dict[str, Any]:
    """Figures for `key` of the game in `folder`: read back from the cache when a stored
    entry passes `valid`, else computed and stored (a corrupt entry is overwritten)."""
    root = cache_folder()
    path = None
    if root is not None:
        name = hashlib.sha256(f"{fingerprint(folder)} {key}".encode()).hexdigest()[:32]
        path = root / kind / f"{name}.json"
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored = None
        if valid(stored):
            return dict(stored)
    data = compute()
    if path is not None:
        store(path, json.dumps(data).encode())
    return data
