"""Safe YAML loading that remembers where every key and item came from.

Mappings load as `YMap` and sequences as `YList`; both are plain dict/list
subclasses carrying the file name and the line/column of each key or item, so
any later check can report `file:line:col: problem`.

Files are untrusted: the loader is PyYAML's SafeLoader (no Python tags) and bounds what
one file can make large (pnpgen.limits): its size, nesting depth, the values aliases
expand to, string lengths and numbers; only regular files are read.

Parsing (pnpgen.content.yamlparse, with libyaml where it reads a text as PyYAML does) is
done once per file while the file and the parser stay unchanged: pnpgen's cache
(pnpgen.cache) keeps the result, so `pnpgen referee` and `pnpgen list` usually start
without importing PyYAML at all.
"""

from __future__ import annotations

import hashlib
import stat
import sys
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from pnpgen import limits
from pnpgen.cache import per_file
from pnpgen.content.located import Position, Where, YList, YMap  # noqa: F401 - where they are loaded
from pnpgen.errors import ContentError


def read_text(path: Path, limit: int, what: str = "file") -> str:
    """A regular file's UTF-8 text, refused when larger than `limit` bytes (never read past it)."""
    name = str(path)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise ContentError(f"is a folder, not a {what}", name)
        if not stat.S_ISREG(info.st_mode):
            raise ContentError(f"not a regular file (a device or pipe cannot be a {what})", name)
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise ContentError("file not found", name) from None
    except OSError as err:
        raise ContentError(f"cannot read: {err.strerror or err}", name) from None
    if len(data) > limit:
        raise ContentError(f"larger than {limit:,} bytes (the limit for a {what})", name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ContentError(f"not UTF-8 text (byte 0x{data[err.start]:02x})", name, line) from None


def load_yaml(path: str | Path, text: str | None = None, limit: int = limits.MAX_YAML_BYTES,
              what: str = "YAML file") -> Any:
    """Load one YAML file safely; malformed YAML becomes a one-line ContentError. A file
    read here is parsed once while it and this loader stay unchanged: later loads read the
    result back from pnpgen's cache (errors are never kept)."""
    path = Path(path)
    name = str(path)
    if text is None:
        text = read_text(path, limit, what)
        key = _loader_digest() + hashlib.blake2b(text.encode("utf-8"), digest_size=32).digest()
        return per_file("yaml", name, key, lambda: _parse(name, text))
    return _parse(name, text)


def _parse(name: str, text: str) -> object:
    from pnpgen.content.yamlparse import parse

    return parse(name, text)


@lru_cache(maxsize=1)
def _loader_digest() -> bytes:
    """What a parsed file depends on besides its text: these loaders, the budgets, PyYAML, Python."""
    digest = hashlib.blake2b(digest_size=32)
    here = Path(__file__).parent
    for source in (here / "yamlpos.py", here / "yamlparse.py", Path(limits.__file__)):
        digest.update(source.read_bytes())
    spec = find_spec("yaml")
    found = Path(spec.origin).stat() if spec is not None and spec.origin else None
    digest.update(f"{found and (found.st_size, found.st_mtime_ns)} {sys.version}".encode())
    return digest.digest()


def where(container: object, key: object = None, *, value: bool = False) -> Where:
    """Keyword arguments for a PnpgenError pointing at `container[key]` (or the container)."""
    file = getattr(container, "file", None)
    line, col = getattr(container, "position", (None, None))
    if isinstance(container, YMap) and key in container.key_positions:
        positions = container.value_positions if value else container.key_positions
        line, col = positions[key]
    elif isinstance(container, YList) and isinstance(key, int) and 0 <= key < len(
        container.item_positions
    ):
        line, col = container.item_positions[key]
    return {"file": file, "line": line or None, "column": col or None}
