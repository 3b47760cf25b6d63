"""The players' book lint: engine and editorial material that must not reach the players'
rulebook (issue 27). It reads text, so it runs both over a game's resolved rulebook texts
(`pnpgen validate`: every section except those marked `companion: true`) and over the text
of a built PDF (tests).

Each finding is one of KINDS: a command line (`pnpgen …`), a rule code in the game's own
pattern (derived from its declared rule ids: BD-2.1, RD-SLASH, P5-7.1), move notation in the
game's own syntax (a run of words its move parser reads, holding a digit or a symbol), a
YAML key or template brace, a backtick, an exact fraction of more than four digits, an
editorial aside ("our decision", "the source", "the original does not give…", "this edition uses…",
in either language) and a "refused" caption. Over the book's structure: an example's caption
that only repeats its title (CAPTION_KIND).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from pnpgen.content.game import GameContent
from pnpgen.content.yamlpos import where
from pnpgen.engine.protocol import Notation, Rules
from pnpgen.errors import ContentError
from pnpgen.render.rulebook.model import Book, Resolver, Section, load_book, repeats_title
from pnpgen.words import LANGS

S = TypeVar("S")
M = TypeVar("M")

KINDS = ("command line", "rule code", "move notation", "YAML key", "backtick", "long fraction",
         "aside", "refused caption")
# Japanese conventions, the same in every book, card and sheet (issue 27): no space between a
# number and its unit (1000点, 10秒), full-width brackets around Japanese words（仮）, 〜 for a
# range (1〜9, not 1–9), 歳以上 for an age (8歳以上, not 8+)
_CJK = "\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e\u3000-\u303f"
_UNITS = "点|秒|個|枚|人|分|歳|マス|ラウンド|回|倍|ターン|箇所|種類"
JA_CONVENTIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("space between a number and its unit", re.compile(rf"\d[ \u3000]+(?:{_UNITS})")),
    ("half-width brackets around Japanese", re.compile(rf"\([^()\n]*[{_CJK}][^()\n]*\)")),
    ("a dash for a range (use 〜)", re.compile(r"\d\s*[–—]\s*\d")),
    ("'+' for an age (use 歳以上)", re.compile(r"\d\+(?![\s\d])")),
)
JA_KINDS = tuple(kind for kind, _ in JA_CONVENTIONS)
CAPTION_KIND = "a caption repeating its example's title"  # found in the book's structure, not its text
_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)

# pnpgen's commands (pnpgen/app.py): "pnpgen as an example" is prose, "pnpgen build" a command line
COMMANDS = ("build", "validate", "referee", "simulate", "report", "sweep", "list", "new", "watch", "schema",
            "play", "preflight")
COMMAND = re.compile(rf"\bpnpgen\s+(?:{'|'.join(COMMANDS)})\b")
BACKTICK = re.compile(r"`[^`\n]*`|`")
FRACTION = re.compile(r"\b(?:\d{5,}\s*/\s*\d+|\d+\s*/\s*\d{5,})\b")
YAML_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\{\{|\}\}|\{%|^\s*[a-z_]+:\s*$", re.M)
ASIDE = re.compile(r"\bour (?:own )?decisions?\b|\bthe source(?:'s)?\b(?! of)|\bthe original (?:text|rules|example)"
                   r"|\bmade up for this book\b|\bcorrected version\b"
                   # what the original lacks or does, beside what this edition does instead
                   r"|\bthe original(?: (?:rulebook|rules|game|add-on))?(?: does not| doesn't| do not| gives no| says"
                   r" nothing| leaves| settles| has no| is silent)|\bin the original\b"
                   r"|\bthis (?:edition|book) (?:uses|asks|leaves|decides|decided|plays with)\b"
                   r"|原文|原典|原作の(?:例|文|記述)|私たちの判断|本書の判断|この版の判断|本書のために作った"
                   r"|原作(?:のルールブック|のルール)?(?:は|に|では)[^。]{0,40}?(?:載せていません|書いていません"
                   r"|書かれていない|書かれていません|示していません)|原作では|本書では"
                   r"|訂正した", re.I)
REFUSED = re.compile(r"\brefused\b|\bthe move is illegal\b|この手は指せない|により不可", re.I)
# a run of ASCII words inside a text: move notation is looked for only there
ASCII_RUN = re.compile(r"[!-~]+(?: [!-~]+)*")
MAX_WORDS = 8  # the longest move text looked for, in words


@dataclass(frozen=True)
class Passage:
    where: str  # file:line:col, or "page N" of a PDF
    text: str


@dataclass(frozen=True)
class Finding:
    where: str
    kind: str
    found: str

    def __str__(self) -> str:
        return f"{self.where}: players' book holds {self.kind}: {self.found!r}"


def rule_code_pattern(ids: Iterable[str]) -> re.Pattern[str] | None:
    """Every declared rule id, and any id of the same prefixes (BD-9.9 is a code too)."""
    ids = [str(i) for i in ids]
    prefixes = sorted({i.split("-", 1)[0] for i in ids if "-" in i}, key=len, reverse=True)
    if not prefixes:
        return None
    alternatives = "|".join(re.escape(p) for p in prefixes)
    return re.compile(rf"(?<![\w-])(?:{alternatives})-[A-Z0-9][A-Za-z0-9.]*(?:-[A-Z0-9][A-Za-z0-9.]*)*")


def notation_reader(rules_list: list[Rules[S, M]]) -> Callable[[str], bool]:
    """True when one of the games' move parsers reads the text as a move."""
    def reads(text: str) -> bool:
        for rules in rules_list:
            if not isinstance(rules, Notation):
                continue
            try:
                rules.parse_move(text)
            except Exception:  # noqa: BLE001 - any refusal means "not a move"
                continue
            return True
        return False
    return reads


def _code_like(text: str) -> bool:
    """Looks like a code, not like English: a word mixing letters and digits (m55-58, S@k3,
    j3), a symbol among digits (5-2, 1.4, lay~), or three or more one-character words (keep 1 1
    b). A lone square name (e1) is how players name a square, not a move."""
    words = text.split()
    if not re.search(r"[A-Za-z]", text) or re.fullmatch(r"[a-z]\d{1,2}", text):
        return False
    if any(re.search(r"[A-Za-z]\d|\d[A-Za-z]|[@~*#>]|\d[-.:/,]\d|^[a-z]+~$", w) for w in words):
        return True
    return len(words) >= 3 and sum(len(w) == 1 for w in words) >= 2


def _notation(text: str, reads: Callable[[str], bool]) -> Iterator[str]:
    """Runs of up to MAX_WORDS ASCII words the parser reads that hold a digit or a symbol
    (plain English words that happen to be moves, such as "pass" or "end", are not notation)."""
    for run in ASCII_RUN.finditer(text):
        words = run.group().split(" ")
        start = 0
        while start < len(words):
            found = 0
            for end in range(min(len(words), start + MAX_WORDS), start, -1):
                candidate = " ".join(words[start:end]).strip(".,;:()\"'")
                if _code_like(candidate) and reads(candidate):
                    yield candidate
                    found = end - start
                    break
            start += max(found, 1)


def lint_passages(passages: Iterable[Passage], rule_ids: Iterable[str],
                  rules_list: list[Rules[S, M]]) -> list[Finding]:
    """Every forbidden thing in the passages, in order."""
    codes = rule_code_pattern(rule_ids)
    reads = notation_reader(rules_list)
    found: list[Finding] = []
    simple = [("command line", COMMAND), ("backtick", BACKTICK), ("long fraction", FRACTION),
              ("YAML key", YAML_KEY), ("aside", ASIDE), ("refused caption", REFUSED)]
    for passage in passages:
        for kind, pattern in simple:
            found += [Finding(passage.where, kind, m.group().strip()) for m in pattern.finditer(passage.text)]
        if codes is not None:
            found += [Finding(passage.where, "rule code", m.group()) for m in codes.finditer(passage.text)]
        found += [Finding(passage.where, "move notation", m) for m in _notation(passage.text, reads)]
    return found


def lint_japanese(passages: Iterable[Passage]) -> list[Finding]:
    """Every break of the Japanese conventions (JA_CONVENTIONS) in Japanese passages."""
    return [Finding(p.where, kind, m.group()) for p in passages for kind, pattern in JA_CONVENTIONS
            for m in pattern.finditer(p.text)]


# --- the players' book of a game, as resolved texts ----------------------------------------

def _texts(res: Resolver, section: Section, rules: Rules[S, M] | None) -> Iterator[tuple[Any, Any, Any]]:
    """(value, parent, key) of every text a section prints."""
    node = section.node
    if "title" in node:
        yield node["title"], node, "title"
    for block in section.blocks:
        for key in ("text", "callout", "caption"):
            if key in block:
                yield block[key], block, key
        for key in ("list", "steps"):
            for i, item in enumerate(block.get(key) or []):
                yield item, block[key], i
        for item in block.get("components") or []:
            for key in ("name", "note"):
                if key in item:
                    yield item[key], item, key
        for item in block.get("decisions") or []:
            for key in ("text", "source"):
                if key in item:
                    yield item[key], item, key
        if "examples" in block:
            for example in res.select_examples(block, rules):
                for key in ("text", "caption"):
                    if key in example:
                        yield example[key], example, key


def book_passages(content: GameContent, rules_list: list[Rules[S, M]], lang: str,
                  book: Book | None = None) -> list[Passage]:
    """The players' book's texts in one language, resolved (templates filled in): the intro,
    every section not marked `companion: true`, their examples and the tables they show."""
    book = book if book is not None else load_book(content)
    if book is None:
        return []
    res = Resolver(content, rules_list, lang, collect=True)
    out: list[Passage] = []

    def add(value: object, parent: object, key: object, rules: Rules[S, M] | None) -> None:
        before = len(res.problems)
        text = res.text(value, parent, key, rules)
        if len(res.problems) == before:  # a text that did not resolve is the rulebook check's to report
            out.append(Passage(_where(parent, key), text))

    if book.intro is not None:
        add(book.intro, book.intro_parent, "intro", res.game(None, {}))
    for key in ("title", "subtitle", "credits"):  # the cover prints these from game.yaml
        if key in content.data:
            out.append(Passage(_where(content.data, key), res.plain(content.data[key])))
    for section in book.sections:
        if section.node.get("companion"):
            continue
        rules = res.game(section.game, section.node)
        for block in section.blocks:  # a refused move's picture needs its own caption saying why
            for example in res.select_examples(block, rules) if "examples" in block else []:
                if (example.get("expect") or {}).get("illegal") and "caption" not in example:
                    out.append(Passage(_where(example, "id"), "a refused move's picture with no caption of its "
                                       "own (the book would print a generic 'refused' caption)"))
        for value, parent, key in _texts(res, section, rules):
            add(value, parent, key, res.example_rules(parent) if "moves" in parent or "id" in parent else rules)
        for block in section.blocks:
            if "table" in block:
                model = res.table(str(block["table"]), res.game(block.get("game", section.game), block), block)
                if model is not None:
                    cells = " | ".join(cell for row in model.grid() for cell in row)
                    out.append(Passage(_where(block, "table"), cells))
    return out


def repeated_captions(content: GameContent, rules_list: list[Rules[S, M]], lang: str,
                      book: Book | None = None) -> list[Finding]:
    """Every example of the players' book whose picture's caption only repeats the example's
    title: it says nothing, and the book leaves it out (a refused move's picture then has no
    words saying why it fails)."""
    book = book if book is not None else load_book(content)
    if book is None:
        return []
    res = Resolver(content, rules_list, lang, collect=True)
    found: list[Finding] = []
    for section in book.sections:
        if section.node.get("companion"):
            continue
        rules = res.game(section.game, section.node)
        for block in section.blocks:
            for example in res.select_examples(block, rules) if "examples" in block else []:
                if "caption" not in example:
                    continue
                caption = res.text(example["caption"], example, "caption", res.example_rules(example))
                if repeats_title(caption, res.plain(example["title"])):
                    found.append(Finding(_where(example, "caption"), CAPTION_KIND, caption))
    return found


def _where(parent: object, key: object) -> str:
    """file:line:col of a text, as ContentError writes it."""
    return str(ContentError("", **where(parent, key, value=True))).rstrip(": ")


def rule_ids(content: GameContent) -> list[str]:
    return [str(k) for k in content.labels("rule_ids")]


def check_players_book(content: GameContent, rules_list: list[Rules[S, M]]) -> list[str]:
    """The lint over the players' book in every language (for `pnpgen validate`)."""
    try:
        book = load_book(content)
    except ContentError as err:
        return [str(err)]
    problems: list[str] = []
    ids = rule_ids(content)
    for lang in LANGS:
        passages = book_passages(content, rules_list, lang, book)
        findings = lint_passages(passages, ids, rules_list) + (lint_japanese(passages) if lang == "ja" else []) \
            + repeated_captions(content, rules_list, lang, book)
        for finding in findings:
            text = str(finding).replace("players' book", f"players' book ({lang})", 1)
            if text not in problems:
                problems.append(text)
    return problems


def check_japanese(texts: Iterable[tuple[str, str]]) -> list[str]:
    """The Japanese conventions over (where, Japanese text) pairs: the cards, sheets and every
    other text of a game folder (`pnpgen validate` passes pnpgen.terms.bilingual_texts). A
    template counts as a number ({{ n }} 点 breaks the spacing rule once filled in)."""
    problems: list[str] = []
    for finding in lint_japanese(Passage(where_, _TEMPLATE.sub("0", text)) for where_, text in texts):
        line = f"{finding.where}: Japanese text breaks the convention: {finding.kind}: {finding.found!r}"
        if line not in problems:
            problems.append(line)
    return problems
