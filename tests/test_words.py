"""The ja/en word catalogue and the `{{ name }}` placeholder."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpgen.words import LANGS, Words, replace_placeholders


def test_fill_replaces_named_values_and_refuses_missing_ones() -> None:
    assert replace_placeholders("{{ n }} dice, {{target}} points", {"n": 6, "target": 300}) == "6 dice, 300 points"
    assert replace_placeholders("no {placeholder} here", {}) == "no {placeholder} here"
    with pytest.raises(KeyError):
        replace_placeholders("{{ missing }}", {})


def test_a_catalogue_gives_each_language_and_fills_values(tmp_path: Path) -> None:
    path = tmp_path / "game.words.yaml"
    path.write_text("turns: {ja: '{{ n }}手番', en: '{{ n }} turns'}\n", encoding="utf-8")
    words = Words.load(path)
    assert words("turns", "ja", n=3) == "3手番" and words("turns", "en", n=3) == "3 turns"
    assert words.each("turns", n=1) == {"ja": "1手番", "en": "1 turns"} and set(LANGS) == {"ja", "en"}
    with pytest.raises(KeyError, match="no 'score'"):
        words("score", "en")


def test_an_entry_missing_a_language_is_refused_when_loaded() -> None:
    with pytest.raises(ValueError, match="'win' has no ja text"):
        Words({"win": {"en": "win"}})


def test_every_shipped_catalogue_has_both_languages_and_loads_only_when_asked(tmp_path: Path) -> None:
    """Catalogues are read at their first word (start-up), so each shipped one is checked here."""
    root = Path(__file__).resolve().parents[1] / "pnpgen"
    catalogues = sorted(root.rglob("*.words.yaml"))
    assert len(catalogues) >= 5
    for path in catalogues:
        assert Words.load(path).table, path  # refused here if an entry lacks a language
    broken = tmp_path / "broken.words.yaml"
    broken.write_text("win: {en: win}\n", encoding="utf-8")
    words = Words.load(broken)  # nothing read yet
    with pytest.raises(ValueError, match="'win' has no ja text"):
        words("win", "en")


def test_the_common_catalogue_writes_ranges_lists_quantities_and_asides_per_language() -> None:
    """What games' presentation code joins by language goes through COMMON, not `if lang` branches."""
    from pnpgen.words import COMMON

    assert COMMON.each("range", a=2, b=4) == {"ja": "2〜4", "en": "2–4"}
    assert COMMON("list_separator", "ja").join(["A", "B"]) == "A、B"
    assert COMMON("list_separator", "en").join(["A", "B"]) == "A, B"
    assert COMMON("quantity", "ja", n=10, unit="秒") == "10秒" and COMMON("quantity", "en", n=10, unit="s") == "10 s"
    assert COMMON("aside", "ja", text="A", note="表") == "A（表）"
    assert COMMON("aside", "en", text="A", note="front") == "A (front)"
