"""The figures cache: read back when valid, recomputed when missing or corrupt, off on request."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpgen.engine.figures import cached, fingerprint, folder_digest


def valid(data: object) -> bool:
    return isinstance(data, dict) and isinstance(data.get("wins"), int)


def test_cached_figures_are_read_back_and_a_corrupt_entry_is_replaced(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    game = tmp_path / "game"
    game.mkdir()
    (game / "game.yaml").write_text("id: game\n")
    calls: list[int] = []

    def compute() -> dict[str, int]:
        calls.append(1)
        return {"wins": 7}

    assert cached("test", game, ("g", 1), compute, valid) == {"wins": 7}
    assert cached("test", game, ("g", 1), compute, valid) == {"wins": 7}
    assert len(calls) == 1  # the second call read the file
    (stored,) = (tmp_path / "cache" / "test").glob("*.json")
    stored.write_text("{not json")
    assert cached("test", game, ("g", 1), compute, valid) == {"wins": 7}
    stored.write_text('{"wins": "seven"}')  # well-formed but not what was stored
    assert cached("test", game, ("g", 1), compute, valid) == {"wins": 7}
    assert len(calls) == 3 and stored.read_text() == '{"wins": 7}'
    (game / "game.yaml").write_text("id: game\nversion: 2\n")  # a content change is a new entry
    fingerprint.cache_clear()
    cached("test", game, ("g", 1), compute, valid)
    assert len(calls) == 4 and len(list((tmp_path / "cache" / "test").glob("*.json"))) == 2


def test_cache_off_computes_every_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    calls: list[int] = []

    def compute() -> dict[str, int]:
        calls.append(1)
        return {"wins": 1}

    for _ in range(2):
        cached("test", tmp_path, "k", compute, valid)
    assert len(calls) == 2


def test_folder_digest_names_and_bytes(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x")
    first = folder_digest(tmp_path)
    (tmp_path / "a.txt").write_text("y")
    assert folder_digest(tmp_path)[0] != first[0] and first[1] == 1
