"""Rulebooks (placeholder until the rulebook renderer lands)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnpgen.build import BuildOptions, BuiltFile
    from pnpgen.content.game import GameContent
    from pnpgen.engine.protocol import Rules


def check_rulebook(content: GameContent, rules: list[Rules[Any, Any]]) -> list[str]:
    return []


def render_rulebooks(
    content: GameContent, rules: list[Rules[Any, Any]], options: BuildOptions
) -> list[BuiltFile]:
    return []
