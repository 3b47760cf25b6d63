"""One game among those a content folder defines: by full id, by name in the folder, or the only one."""

from __future__ import annotations

from typing import Any

from pnpgen.engine.collection import pick_game


class Named:
    def __init__(self, ident: str) -> None:
        self.id = ident


def test_pick_game() -> None:
    sides: list[Any] = [Named("fast-alone/no-gaps-a"), Named("fast-alone/no-gaps-b")]
    assert pick_game(sides, "fast-alone/no-gaps-b", "fast-alone") is sides[1]
    assert pick_game(sides, "no-gaps-a", "fast-alone") is sides[0]
    assert pick_game(sides, "fast-alone", "fast-alone") is None  # ambiguous: a collection
    assert pick_game(sides, None, "fast-alone") is None
    assert pick_game(sides, "no-gaps-c", "fast-alone") is None
    single: list[Any] = [Named("burning-desire")]
    assert pick_game(single, None, "burning-desire") is single[0]
    assert pick_game(single, "burning-desire", "burning-desire") is single[0]
    assert pick_game([], None, "kit-demo") is None
