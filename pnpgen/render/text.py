"""One text pipeline for rulebooks and components: the values a text may name, and
filling them in.

Every content text names values as `{{ name }}` (pnpgen.words.PLACEHOLDER). The values
are one context object, built here (`text_values`): the game's (`game_title`,
`players_min`, `players_max`, `time_minutes`, `lang`), then the rules' `rulebook_context`;
a component adds its card fields or row numbers on top. A text of plain placeholders is
filled by substitution; anything more (`{% if %}`, filters, arithmetic) renders in the
sandbox (sandbox.py), the same for rulebooks and components. The old component syntax
`{name}` is refused with one line saying what to write instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeVar

import jinja2
from jinja2 import nodes

from pnpgen.content.game import GameContent
from pnpgen.engine.protocol import Rules
from pnpgen.render.publishing import rulebook_context
from pnpgen.render.sandbox import ContentSandbox, Refused, TemplateRefused
from pnpgen.words import PLACEHOLDER

S = TypeVar("S")
M = TypeVar("M")

OLD_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][\w.-]*)\}(?!\})")


class OldPlaceholder(TemplateRefused):
    """A text still uses the old `{name}` placeholder: an error (exit 2), never a problem to list."""


def text_values(content: GameContent, rules: Rules[S, M] | None, lang: str) -> dict[str, object]:
    """The values every text may name, in `lang`: the game's, then the rules' rulebook context."""
    data = content.data
    values: dict[str, object] = {
        "game_title": content.title(lang),
        "players_min": data["players"]["min"],
        "players_max": data["players"]["max"],
        "time_minutes": data["time_minutes"],
        "lang": lang,
    }
    if rules is not None:
        values.update(rulebook_context(rules, lang))
    return values


def refuse_old_placeholder(text: str, where: Mapping[str, Any]) -> None:
    """OldPlaceholder (file:line from `where`) if `text` holds a `{name}` of the old syntax."""
    old = OLD_PLACEHOLDER.search(text)
    if old is not None:
        name = old.group(1)
        raise OldPlaceholder(f"'{{{name}}}' is the old placeholder syntax; write {{{{ {name} }}}}", **where)


def is_plain(text: str) -> bool:
    """True when every `{{ }}` of `text` is a plain `{{ name }}` and it has no tags."""
    return "{%" not in text and "{#" not in text and text.count("{{") == len(PLACEHOLDER.findall(text))


class TemplateMistake(Exception):
    """A text that cannot be filled in: `message` ('template error: …'); `unknown` is set when
    the reason is a name the values lack (each caller words that with what it knows)."""

    def __init__(self, message: str, unknown: str | None = None) -> None:
        super().__init__(message)
        self.message, self.unknown = message, unknown


class Templates:
    """The one driver of the content sandbox: renders texts, each parsed and checked once."""

    def __init__(self) -> None:
        self.env = ContentSandbox()
        self.parsed: dict[str, nodes.Template] = {}
        self.used: dict[str, frozenset[str]] = {}  # source -> the names it uses

    def names(self, source: str) -> set[str]:
        """The names a text uses (Refused, or a jinja2 error, for a bad template)."""
        if source not in self.used:
            self.used[source] = frozenset(self.env.undeclared(self._ast(source)))
        return set(self.used[source])

    def render(self, source: str, values: Mapping[str, object]) -> str:
        """`source` rendered with `values`. Refused for what the sandbox refuses; a
        TemplateError (or TypeError, ValueError, ArithmeticError, LookupError) for a mistake."""
        return self.env.run(self._ast(source), values)

    def fill(self, source: str, values: Mapping[str, Any], where: Mapping[str, Any]) -> str:
        """`source` filled in with `values` (a content text: rulebook or component). Raises
        OldPlaceholder for a `{name}` and TemplateRefused for what the sandbox refuses, both at
        `where`; TemplateMistake for a syntax error, a name `values` lack or a failed render."""
        refuse_old_placeholder(source, where)
        try:
            missing = sorted(self.names(source) - set(values))
            if missing:
                raise TemplateMistake(f"undefined template variable '{missing[0]}'", missing[0])
            return self.render(source, values)
        except Refused as err:
            raise TemplateRefused(f"template error: {err}", **where) from None
        except jinja2.TemplateSyntaxError as err:
            raise TemplateMistake(f"template error: {err.message}") from None
        except (jinja2.TemplateError, TypeError, ValueError, ArithmeticError, LookupError) as err:
            raise TemplateMistake(f"template error: {err}") from None

    def _ast(self, source: str) -> nodes.Template:
        if source not in self.parsed:
            self.parsed[source] = self.env.checked(source)
        return self.parsed[source]


__all__ = ["OLD_PLACEHOLDER", "OldPlaceholder", "TemplateMistake", "Templates", "TemplateRefused", "Refused",
           "is_plain", "refuse_old_placeholder", "text_values"]
