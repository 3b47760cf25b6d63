"""Print kit: grid boards, decks and sheets described in YAML (placeholder until the kit lands)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnpgen.build import BuildOptions, BuiltFile
    from pnpgen.content.game import GameContent
    from pnpgen.engine.protocol import Rules


def component_names(content: GameContent) -> list[str]:
    return []


def check_components(content: GameContent) -> list[str]:
    return []


def render_components(
    content: GameContent, rules: list[Rules[Any, Any]], options: BuildOptions
) -> list[BuiltFile]:
    return []
