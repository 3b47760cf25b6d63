"""Rulebook YAML: loading, schema, and the text resolver (sandboxed Jinja2, rules, examples).

The format is documented in docs/rulebook.md. Everything here is generic: a game
supplies numbers through `Rules.rulebook_context` and tables through
`Rules.rulebook_table`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Choice, Each, OneOf, Range, Text, check, text_for
from pnpgen.content.yamlpos import YMap, load_yaml, where
from pnpgen.engine.collection import pick_game
from pnpgen.engine.protocol import Rules
from pnpgen.errors import ContentError, PnpgenError
from pnpgen.examples import load_examples
from pnpgen.render.kit.elements import ImageNameProblem, game_image
from pnpgen.render.kit.images import Image
from pnpgen.render.table import TableModel, UnknownTable, rules_table
from pnpgen.render.text import TemplateMistake, Templates, text_values

_ARTICLE = re.compile(r"\b(?:a|an|the)\b")
_NOT_WORD = re.compile(r"[\W_]+")
_LABEL = re.compile(r"^[^:：]{1,20}[:：]")  # "Example 3:", 「例3：」


def _words(text: str) -> str:
    """A text reduced to its words for comparing: case, spaces, punctuation and English
    articles dropped."""
    return _NOT_WORD.sub("", _ARTICLE.sub("", text.casefold()))


def repeats_title(caption: str, title: str) -> bool:
    """True when a caption says nothing its example's title does not: the same words as the
    title, or as the title after its label ("Example 3: …", 「例3：…」)."""
    said = _words(caption)
    return bool(said) and said in (_words(title), _words(_LABEL.sub("", title)))


BLOCK_SPECS: dict[str, dict[str, Any]] = {
    "text": {"text": Text},
    "list": {"list": Each(Text, 1)},
    "steps": {"steps": Each(Text, 1)},
    "table": {"table": OneOf(str, {"rows": Each(Each(OneOf(Text, int, float), 1), 1)}), "game?": str,
              "caption?": Text, "widths?": [float]},
    "image": {"image": str, "width?": Range(float, 5.0, 500.0, "mm"), "caption?": Text, "alt?": Text},
    "figure": {"figure": str, "game?": str, "caption?": Text},
    "position": {"position": dict, "game?": str, "caption?": Text},
    "examples": {"examples": OneOf(Choice("all"), Each(str, 1)), "game?": str},
    "decisions": {"decisions": Each({"id": str, "text": Text, "source?": Text}, 1)},
    "components": {"components": Each({"count": OneOf(int, str), "name": Text, "note?": Text}, 1)},
    "callout": {"callout": Text},
    "page_break": {"page_break": bool},
}
for _spec in BLOCK_SPECS.values():  # any block may be moved to the companion (docs/rulebook.md)
    _spec["companion?"] = bool

SECTION_SPEC: dict[str, Any] = {
    "title?": Text,
    "rule?": str,
    "level?": int,
    "game?": str,
    "page_break?": bool,
    "quick_reference?": bool,
    "notes?": bool,
    "companion?": bool,
    "toc?": bool,
    "blocks?": Each(dict),
}

FILE_SPEC: dict[str, Any] = {"game?": str, "intro?": Text, "sections": Each(dict, 1)}


@dataclass
class Section:
    node: YMap
    game: str | None  # the section's own `game:` or its file's

    @property
    def level(self) -> int:
        return int(self.node.get("level", 1))

    @property
    def blocks(self) -> list[YMap]:
        return list(self.node.get("blocks") or [])


@dataclass
class Book:
    intro: Any = None
    intro_parent: Any = None
    sections: list[Section] = field(default_factory=list)


def _load_file(value: Any, book: Book, first: bool) -> None:
    check(value, FILE_SPEC)
    if first and "intro" in value:
        book.intro, book.intro_parent = value["intro"], value
    sections = value["sections"]
    inherited = value.get("game")  # a chapter's `game:` carries over to its sections
    for index, node in enumerate(sections):
        check(node, SECTION_SPEC, sections, index, f"sections[{index}]")
        if node.get("level", 1) not in (0, 1, 2):
            raise ContentError("level: expected 0, 1 or 2", **where(node, "level", value=True))
        if "title" not in node and "rule" not in node:
            raise ContentError("a section needs a 'title' or a 'rule'", **where(node))
        for b, block in enumerate(node.get("blocks") or []):
            kinds = [k for k in block if k in BLOCK_SPECS]
            if len(kinds) != 1:
                names = ", ".join(BLOCK_SPECS)
                raise ContentError(
                    f"a block needs exactly one of: {names}", **where(node["blocks"], b)
                )
            check(block, BLOCK_SPECS[kinds[0]], node["blocks"], b, f"blocks[{b}]")
            _check_literal(block, f"blocks[{b}]")
        if node.get("level", 1) == 0:
            inherited = node.get("game", value.get("game"))
        book.sections.append(Section(node, node.get("game", inherited)))


MAX_TABLE_CELLS = 2_000  # cells of one literal table (a card list of 200 rows × 10 columns)


def _check_literal(block: YMap, path: str) -> None:
    """A literal table (`table: {rows: [header, row, …]}`) has rows as long as its header
    and at most MAX_TABLE_CELLS cells."""
    table = block.get("table")
    if isinstance(table, dict):
        rows = table["rows"]
        for index, row in enumerate(rows):
            if len(row) != len(rows[0]):
                raise ContentError(f"{path}.table.rows[{index}]: {len(row)} cells; the header row has {len(rows[0])}",
                                   **where(rows, index, value=True))
        if len(rows) * len(rows[0]) > MAX_TABLE_CELLS:
            raise ContentError(f"{path}.table: {len(rows) * len(rows[0]):,} cells; the limit is {MAX_TABLE_CELLS:,}",
                               **where(block, "table"))


def load_book(content: GameContent) -> Book | None:
    """The rulebook named by game.yaml `rulebook:` (None when the game has none)."""
    spec = content.data.get("rulebook")
    if spec is None:
        return None
    book = Book()
    if isinstance(spec, dict):
        _load_file(spec, book, True)
        return book
    names = [spec] if isinstance(spec, str) else list(spec)
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise ContentError(
                "rulebook: expected a file name", **where(content.data["rulebook"], index)
            )
        path = content.path(name, *((content.data, "rulebook") if isinstance(spec, str) else (spec, index)))
        data = load_yaml(path)
        if not isinstance(data, YMap):
            raise ContentError("expected a mapping with 'sections:'", path, 1, 1)
        _load_file(data, book, index == 0)
    return book


class Resolver:
    """Texts, tables, rules and examples for one language.

    With `collect=True` problems are gathered in `problems` (for `check_rulebook`);
    otherwise the first problem raises ContentError. A refused template (sandbox.py) always
    raises TemplateRefused.
    """

    def __init__(
        self, content: GameContent, rules: list[Rules[Any, Any]], lang: str, collect: bool
    ) -> None:
        self.content, self.rules, self.lang, self.collect = content, rules, lang, collect
        self.problems: list[str] = []
        self.templates = Templates()
        self._contexts: dict[str, dict[str, Any]] = {}
        self._examples: list[dict[str, Any]] | None = None

    # --- problems --------------------------------------------------------------------
    def problem(self, message: str, parent: Any, key: Any = None, value: bool = False) -> None:
        err = ContentError(message, **where(parent, key, value=value))
        if not self.collect:
            raise err
        if str(err) not in self.problems:
            self.problems.append(str(err))

    # --- games -----------------------------------------------------------------------
    def game(self, name: str | None, parent: Any, key: Any = "game") -> Rules[Any, Any] | None:
        if name is None:
            return self.rules[0] if self.rules else None
        picked = pick_game(self.rules, name, self.content.id)
        if picked is not None:
            return picked
        known = ", ".join(r.id for r in self.rules) or "none"
        self.problem(f"unknown game '{name}'; games: {known}", parent, key, value=True)
        return None

    def context(self, rules: Rules[Any, Any] | None) -> dict[str, Any]:
        key = rules.id if rules else ""
        if key not in self._contexts:
            self._contexts[key] = text_values(self.content, rules, self.lang)
        return self._contexts[key]

    # --- text ------------------------------------------------------------------------
    def text(self, value: Any, parent: Any, key: Any, rules: Rules[Any, Any] | None) -> str:
        """One Text in this language, rendered as a Jinja2 template."""
        if isinstance(value, dict):
            if self.lang not in value:
                self.problem(f"missing '{self.lang}' text", parent, key)
                return ""
            source, loc_parent, loc_key = value[self.lang], value, self.lang
        else:
            source, loc_parent, loc_key = value, parent, key
        return self.template(str(source), rules, loc_parent, loc_key)

    def template(self, source: str, rules: Rules[Any, Any] | None, parent: Any, key: Any) -> str:
        """`source` rendered in the sandbox; problems reported at the text's position."""
        ctx = self.context(rules)
        try:
            return self.templates.fill(source, ctx, where(parent, key, value=True))
        except TemplateMistake as err:
            known = f" (known: {', '.join(sorted(ctx))})" if err.unknown is not None else ""
            self.problem(err.message + known, parent, key, value=True)
        return source

    def plain(self, value: Any) -> str:
        """A Text from game.yaml (titles, credits): no templating."""
        return text_for(value, self.lang)

    # --- rules, tables, examples -----------------------------------------------------
    def rule_title(self, rule: str, parent: Any) -> str | None:
        ids = self.content.labels("rule_ids")
        if rule not in ids:
            self.problem(f"unknown rule id '{rule}' (not in game.yaml rule_ids)", parent, "rule",
                         value=True)
            return None
        return text_for(ids[rule], self.lang)

    def table(self, name: Any, rules: Rules[Any, Any] | None, block: YMap) -> TableModel | None:
        """A table of the rules (`table: name`), or a literal one (`table: {rows: …}`: the
        header row, then the rows, each cell a Text filled in like any rulebook text)."""
        if isinstance(name, dict):
            rows = name["rows"]
            return TableModel.of([[self.text(cell, row, i, rules) for i, cell in enumerate(row)] for row in rows])
        if rules is None:
            return None
        try:
            return rules_table(rules, str(name), self.lang)
        except UnknownTable:
            self.problem(f"unknown table '{name}' for game '{rules.id}'", block, "table",
                         value=True)
            return None

    def picture(self, block: YMap) -> Image | None:
        """The checked picture of an `image:` block: a PNG, JPEG or SVG of the game folder,
        under the components' path and size rules (kit/elements.game_image)."""
        try:
            return game_image(self.content, str(block["image"]))
        except ImageNameProblem as err:
            self.problem(f"image: {err.message}", block, "image", value=True)
        except PnpgenError as err:  # a problem inside the file: it names the file
            if not self.collect:
                raise
            if str(err) not in self.problems:
                self.problems.append(str(err))
        return None

    def examples(self) -> list[dict[str, Any]]:
        if self._examples is None:
            try:
                self._examples = load_examples(self.content)
            except ContentError as err:
                if not self.collect:
                    raise
                self.problems.append(str(err))
                self._examples = []
        return self._examples

    def select_examples(self, block: YMap, rules: Rules[Any, Any] | None) -> list[dict[str, Any]]:
        examples = self.examples()
        wanted = block["examples"]
        if wanted == "all":
            picked = [e for e in examples if "text" in e]
            if "game" in block and rules is not None:
                picked = [e for e in picked if self.example_rules(e) is rules]
            return picked
        by_id = {e["id"]: e for e in examples}
        found = []
        for index, name in enumerate(wanted):
            if name in by_id:
                found.append(by_id[name])
            else:
                self.problem(f"unknown example id '{name}'", wanted, index)
        return found

    def example_rules(self, example: dict[str, Any]) -> Rules[Any, Any] | None:
        if "game" not in example:
            return self.rules[0] if self.rules else None
        return self.game(str(example["game"]), example)
