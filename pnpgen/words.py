"""Interface words in every language, and the one placeholder syntax.

Words a program prints (table headers, labels, bot names) live in a catalogue, a YAML
mapping of `key: {ja: ..., en: ...}` shipped beside the code that uses them, never in
inline `if ja else` branches. Texts name values as `{{ name }}`, the placeholder syntax
of rulebooks and components too.

The catalogue is one of pnpgen's two ways to make text; the other is the content sandbox
(render/text.py). English program messages are f-strings (docs/words.md;
tests/test_text_mechanisms.py keeps it so).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

LANGS = ("ja", "en")  # the languages content may hold and a build writes
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def replace_placeholders(text: str, values: Mapping[str, object]) -> str:
    """`text` with each `{{ name }}` replaced by str(values[name]); KeyError for a missing name."""
    return PLACEHOLDER.sub(lambda match: str(values[match.group(1)]), text)


class Words:
    """A catalogue: `words(key, lang, **values)` is the text of `key` in `lang`, filled in."""

    def __init__(self, table: Mapping[str, Mapping[str, str]] | None, origin: str = "catalogue",
                 path: Path | None = None) -> None:
        self.origin, self._path = origin, path
        self._table = None if table is None else self._checked(table)

    @classmethod
    def load(cls, path: Path | str) -> Words:
        """A catalogue file shipped with the code (package data, not content), read when a
        word is first asked for: a command that prints none (`pnpgen referee --legal`)
        never reads it, nor imports PyYAML."""
        path = Path(path)
        return cls(None, path.name, path)

    @property
    def table(self) -> Mapping[str, Mapping[str, str]]:
        if self._table is None:
            import yaml

            text = self._path.read_text(encoding="utf-8") if self._path is not None else ""
            self._table = self._checked(yaml.safe_load(text) or {})
        return self._table

    def _checked(self, table: Mapping[str, Mapping[str, str]]) -> Mapping[str, Mapping[str, str]]:
        for key, texts in table.items():
            missing = [lang for lang in LANGS if not isinstance(texts, Mapping) or lang not in texts]
            if missing:
                raise ValueError(f"{self.origin}: '{key}' has no {', '.join(missing)} text")
        return table

    def __call__(self, key: str, lang: str, **values: object) -> str:
        try:
            text = self.table[key][lang]
        except KeyError:
            raise KeyError(f"{self.origin} has no '{key}' in '{lang}'") from None
        return replace_placeholders(text, values) if values else text

    def each(self, key: str, **values: object) -> dict[str, str]:
        """The text of `key` in every language."""
        return {lang: self(key, lang, **values) for lang in LANGS}

    def __contains__(self, key: object) -> bool:
        return key in self.table


COMMON = Words.load(Path(__file__).with_name("common.words.yaml"))
"""Punctuation every language writes its own way: a range, a list, a quantity, an aside."""
