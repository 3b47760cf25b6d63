"""The terminology check: a game's glossary (glossary.yaml in its folder, ja ↔ en term pairs)
holds its books, cards and sheets to one term per concept, and every text to the same
numbers in both languages (`pnpgen validate`; docs/rulebook.md, "Glossary").

Every bilingual text of the game folder is read: each YAML mapping holding both a `ja` and an
`en` string (rulebook, examples, components, sheets, cards), and each CSV row with `<x>_ja`
and `<x>_en` columns (card lists). Templates (`{{ … }}`, `{% … %}`) are left out, so a number
that comes from the data is the same in both languages by construction. For each text:
- a glossary term in one language needs its partner in the other (one concept, one pair);
- a word the glossary lists under `avoid:` is another name for the concept, refused;
- the numbers written in the Japanese and the English text are the same (as multisets;
  full-width digits count as digits).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpgen import limits
from pnpgen.content.game import GameContent
from pnpgen.content.schema import Each, check
from pnpgen.content.yamlpos import Where, YMap, load_yaml, read_text, where
from pnpgen.errors import ContentError

GLOSSARY = "glossary.yaml"
TERM_SPEC: dict[str, Any] = {"ja": str, "en": str, "also?": {"ja?": [str], "en?": [str]},
                             "avoid?": {"ja?": [str], "en?": [str]}, "note?": str}
FILE_SPEC: dict[str, Any] = {"terms": Each(TERM_SPEC, 1)}
TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
NUMBER = re.compile(r"\d+(?:\.\d+)?")
# words that stand for a number in one language only: the check reads them as digits
WORDS_EN = {"once": "1", "twice": "2", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
            "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
            "double": "2", "doubled": "2", "doubling": "2", "doubles": "2", "both": "2", "pair": "2", "pairs": "2",
            "second": "2", "third": "3", "fourth": "4", "fifth": "5", "tenth": "10", "triples": "3",
            "monomino": "1", "monominoes": "1", "domino": "2", "dominoes": "2", "tromino": "3",
            "trominoes": "3", "tetromino": "4", "tetrominoes": "4", "pentomino": "5", "pentominoes": "5"}
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
DATE_EN = re.compile(rf"\b\d{{1,2}} ({'|'.join(MONTHS)})\b|\b({'|'.join(MONTHS)}) \d{{1,2}}\b", re.I)
PHRASES_EN = {"three-quarter turn": "270", "quarter turn": "90", "a quarter": "90", "half turn": "180",
              "half-turn": "180"}
KANJI = {"二": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7", "八": "8", "九": "9", "十": "10",
         "両": "2"}


@dataclass(frozen=True)
class Term:
    ja: str
    en: str
    avoid_ja: tuple[str, ...]
    avoid_en: tuple[str, ...]
    also_ja: tuple[str, ...] = ()  # short forms a text may use once the concept is clear
    also_en: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pair:
    where: str
    ja: str
    en: str


def load_glossary(content: GameContent) -> list[Term] | None:
    """The game's glossary, or None when its folder has none."""
    path = content.folder / GLOSSARY
    if not path.is_file() or path.is_symlink():
        return None
    data = load_yaml(path)
    if not isinstance(data, YMap):
        raise ContentError("expected a mapping with 'terms:'", str(path), 1, 1)
    check(data, FILE_SPEC)
    terms = []
    for node in data["terms"]:
        avoid, also = node.get("avoid") or {}, node.get("also") or {}
        terms.append(Term(str(node["ja"]), str(node["en"]), tuple(avoid.get("ja", ())), tuple(avoid.get("en", ())),
                          tuple(also.get("ja", ())), tuple(also.get("en", ()))))
    return terms


def _files(folder: Path, suffix: str) -> Iterator[Path]:
    """Regular files of the game folder (no links followed, none outside it), sorted."""
    root = folder.resolve()
    for path in sorted(folder.rglob(f"*{suffix}")):
        if path.is_symlink() or not path.is_file() or root not in path.resolve().parents:
            continue
        yield path


def _walk(node: object) -> Iterator[tuple[Any, str, str]]:
    if isinstance(node, dict):
        ja, en = node.get("ja"), node.get("en")
        if isinstance(ja, str) and isinstance(en, str):
            yield node, ja, en
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def bilingual_texts(content: GameContent) -> list[Pair]:
    """Every ja/en text pair of the game folder: YAML Text nodes and CSV `_ja`/`_en` columns."""
    pairs: list[Pair] = []
    for path in _files(content.folder, ".yaml"):
        if path.name == GLOSSARY:
            continue
        data = load_yaml(path)
        for node, ja, en in _walk(data):
            loc = where(node, "ja", value=True) if isinstance(node, YMap) else {"file": str(path)}
            pairs.append(Pair(_where(loc), ja, en))
    for path in _files(content.folder, ".csv"):
        try:
            text = read_text(path, limits.MAX_YAML_BYTES, "CSV file")
        except ContentError:  # unreadable: the components check names its file and line
            continue
        rows = csv.DictReader(io.StringIO(text))
        for line, row in enumerate(rows, start=2):
            for key in row:
                if key and key.endswith("_ja") and f"{key[:-3]}_en" in row:
                    pairs.append(Pair(f"{path}:{line}", row[key] or "", row[f"{key[:-3]}_en"] or ""))
    return pairs


def _where(loc: Where) -> str:
    return ":".join(str(v) for v in (loc.get("file"), loc.get("line"), loc.get("column")) if v is not None)


def numbers(text: str, lang: str, words: bool = True) -> set[str]:
    """The numbers of 2 and more a text writes (templates left out). With `words`, English
    number words and kanji numerals count too. 0 and 1 are left out: the languages write
    them with articles and counters."""
    plain = unicodedata.normalize("NFKC", TEMPLATE.sub(" ", text))
    found = {n.rstrip("0").rstrip(".") if "." in n else n for n in NUMBER.findall(plain)}
    if words and lang == "en":
        lower = plain.lower()
        for phrase, value in PHRASES_EN.items():
            if phrase in lower:
                found.add(value)
                lower = lower.replace(phrase, " ")
        found |= {WORDS_EN[w] for w in re.findall(r"[a-z]+", lower) if w in WORDS_EN}
        found |= {str(MONTHS.index((m.group(1) or m.group(2)).lower()) + 1) for m in DATE_EN.finditer(plain)}
    elif words and lang == "ja":
        found |= {KANJI[k] for k in plain if k in KANJI}
    return {n for n in found if n not in ("0", "1")}


def _has(text: str, term: str, lang: str) -> bool:
    if lang == "ja":
        return term in text
    return re.search(rf"(?<!\w){re.escape(term)}(?:s|es)?(?!\w)", text, re.I) is not None


def check_terms(content: GameContent) -> list[str]:
    """The terminology check of one game (nothing to check without a glossary)."""
    try:
        terms = load_glossary(content)
    except ContentError as err:
        return [str(err)]
    if terms is None:
        return []
    problems: list[str] = []
    for pair in bilingual_texts(content):
        ja, en = TEMPLATE.sub(" ", pair.ja), TEMPLATE.sub(" ", pair.en)
        if not ja.strip() or not en.strip():
            continue
        for term in terms:  # the full term in one language: the term (or a short form) in the other
            in_ja = any(_has(ja, t, "ja") for t in (term.ja, *term.also_ja))
            in_en = any(_has(en, t, "en") for t in (term.en, *term.also_en))
            if (_has(ja, term.ja, "ja") and not in_en) or (_has(en, term.en, "en") and not in_ja):
                missing, lang = (term.en, "en") if not in_en else (term.ja, "ja")
                problems.append(f"{pair.where}: the glossary pairs {term.ja} with {term.en}, but the {lang} "
                                f"text has no '{missing}'")
            for word, text, lang in [*((w, ja, "ja") for w in term.avoid_ja), *((w, en, "en") for w in term.avoid_en)]:
                if _has(text, word, lang):
                    name = term.ja if lang == "ja" else term.en
                    problems.append(f"{pair.where}: '{word}' is another name for '{name}' "
                                    "(glossary: one term per concept)")
        for term in terms:  # a name may carry its own number (2つが5つ, Pairing Five)
            if re.search(r"\d", term.ja + term.en):
                ja, en = ja.replace(term.ja, " "), re.sub(rf"(?i){re.escape(term.en)}", " ", en)
        # a digit in one language is said in the other, as a digit or in words
        only_ja = numbers(ja, "ja", words=False) - numbers(en, "en")
        only_en = numbers(en, "en", words=False) - numbers(ja, "ja")
        if only_ja or only_en:
            problems.append(f"{pair.where}: the numbers differ between ja and en"
                            + (f"; only ja: {' '.join(sorted(only_ja))}" if only_ja else "")
                            + (f"; only en: {' '.join(sorted(only_en))}" if only_en else ""))
    return problems

