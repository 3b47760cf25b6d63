"""Fast Alone's interface words, ja and en (fast_alone.words.yaml): table headers, labels,
bot names and solver methods, for every puzzle."""

from __future__ import annotations

from pathlib import Path

from pnpgen.words import Words

WORDS = Words.load(Path(__file__).with_name("fast_alone.words.yaml"))


def header(lang: str, *keys: str) -> list[str]:
    """A table's header row: the words of `keys` in `lang`."""
    return [WORDS(key, lang) for key in keys]
