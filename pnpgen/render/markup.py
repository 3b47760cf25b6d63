"""The one markup reader of content text, for cards, sheets, boards and rulebooks.

`**bold**`, `[#c03020]coloured[/]` (or a colour name), `:icon:` (a name the caller
knows) and line breaks. The kit breaks the runs into words and lines itself
(kit/richtext.py); the rulebook turns them into Paragraph markup (rulebook/layout.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from pnpgen.render.colour import make_colour


class Style(NamedTuple):
    colour: str | None = None
    bold: bool = False


MARKUP = re.compile(r"\*\*|\[(#[0-9a-fA-F]{3,6}|[a-zA-Z]+|/)\]|:([a-z0-9][a-z0-9_-]*):|\n")


class Run(NamedTuple):
    kind: str  # text | icon | break
    text: str
    style: Style


def scan(text: str, icons: Mapping[str, object]) -> Iterator[Run]:
    """The one markup reader, for cards, sheets, boards and rulebooks: `text` as runs of
    plain text in one style, icons (names in `icons`) and line breaks. `**` turns bold on
    and off; `[#c03020]`/`[red]` ... `[/]` colours (an unknown colour or icon prints as
    written)."""
    style = Style()
    stack: list[Style] = []
    pos = 0
    for match in MARKUP.finditer(text):
        if match.start() > pos:
            yield Run("text", text[pos:match.start()], style)
        pos = match.end()
        mark = match.group(0)
        if mark == "**":
            style = Style(style.colour, not style.bold)
        elif mark == "\n":
            yield Run("break", "", style)
        elif match.group(2):
            yield Run("icon", match.group(2), style) if match.group(2) in icons else Run("text", mark, style)
        elif match.group(1) == "/":
            style = stack.pop() if stack else Style()
        else:
            colour = match.group(1)
            try:
                make_colour(colour)
            except ValueError:
                yield Run("text", mark, style)
                continue
            stack.append(style)
            style = Style(colour, style.bold)
    if pos < len(text):
        yield Run("text", text[pos:], style)


_OPENS_AFTER = set("([{“‘—–-/")  # a quote after these (or a space, or the start) opens


def curly_quotes(text: str) -> str:
    """English straight quotes as curly ones: " as “ or ”, ' as ‘ or ’ (an apostrophe is ’).
    A quote opens at the start, after a space or an opening bracket or dash; `**` markers are
    looked through ("**"x"**" opens)."""
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch not in "\"'":
            out.append(ch)
            continue
        j = i - 1
        while j >= 0 and text[j] == "*":
            j -= 1
        before = text[j] if j >= 0 else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        opens = (before.isspace() or before in _OPENS_AFTER) and not after.isspace()
        if ch == '"':
            out.append("“" if opens else "”")
        else:
            out.append("‘" if opens and not after.isdigit() else "’")
    return "".join(out)
