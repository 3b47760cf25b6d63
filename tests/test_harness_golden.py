"""The stored golden playthroughs (tests/golden/<game>.yaml) still replay exactly.

A failure names the first differing step; after an intended rules change run
`pnpgen validate GAME --update-golden` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpgen.content.game import load_games
from pnpgen.games import rules_for_content
from pnpgen.verify import golden_diff, load_golden

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.yaml"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_playthrough_replays(path: Path) -> None:
    (content,) = load_games(ROOT / "content", [path.stem])
    stored = load_golden(path)
    rules_by_id = {r.id: r for r in rules_for_content(content)}
    assert set(stored) == set(rules_by_id), "a playable game has no golden playthrough (or one too many)"
    for rules_id, golden in stored.items():
        assert golden["steps"], f"{rules_id}: empty golden playthrough"
        assert golden_diff(rules_by_id[rules_id], golden) == [], f"{path.name}: {rules_id}"
