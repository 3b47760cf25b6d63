"""Game engines, found by the `engine:` key of a game.yaml through the entry-point group
`pnpgen.games`.

Every engine, pnpgen's own included, is registered the same way, in the `pyproject.toml`
of the package that ships it:

    [project.entry-points."pnpgen.games"]
    pig = "pnpgen_pig"          # engine: pig  ->  import pnpgen_pig

The module an entry point names exposes:
  RULES_SCHEMA   the schema of its `rules:` section (see pnpgen.content.schema)
  create(content) -> list[Rules]   one Rules per playable game it defines
                                   (a collection such as Fast Alone defines several,
                                   with ids like 'fast-alone/growing-nine-a')
  SIMULATION_SCHEMA (optional)     its own `simulation:` settings, beside the shared ones
  game_ids(content) (optional)     the ids create() would give, without building the games:
                                   `pnpgen list` then imports no more than the module itself

pnpgen's own engines (OWN_ENGINES, the same entry points) are imported without reading the
installed packages' metadata, which costs a command's start-up ~30 ms; another package
cannot take their names.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpgen.content.game import SIMULATION_SCHEMA, GameContent, load_games
from pnpgen.content.schema import check
from pnpgen.content.yamlpos import where
from pnpgen.engine.collection import pick_game, unknown_game
from pnpgen.engine.protocol import Rules
from pnpgen.errors import ContentError, UnknownGame

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "pnpgen.games"
OWN_ENGINES = ("burning_desire", "dice_road_race", "dungeon_war", "fast_alone", "routou_dice")


def engines() -> dict[str, EntryPoint]:
    """The installed engines by name (the values `engine:` may take), in name order.

    When two installed packages declare the same name, the one found first on sys.path
    wins, as for any import.
    """
    from importlib.metadata import entry_points

    key = tuple(sys.path)  # reading the installed packages' metadata is slow: once per sys.path
    if key not in _ENGINES:
        found: dict[str, EntryPoint] = {}
        for point in entry_points(group=GROUP):
            found.setdefault(point.name, point)
        _ENGINES.clear()
        _ENGINES[key] = dict(sorted(found.items()))
    return dict(_ENGINES[key])


_ENGINES: dict[tuple[str, ...], dict[str, EntryPoint]] = {}


def _origin(point: EntryPoint) -> str:
    """'pnpgen_pig from pnpgen-pig 0.1.0': the module an entry point names and its package."""
    dist = point.dist
    return f"{point.value} from {dist.name} {dist.version}" if dist is not None else point.value


def engine_module(content: GameContent) -> Any:
    """The module (or object) registered for the game's `engine:`, imported."""
    name = content.engine or ""
    if name in OWN_ENGINES:
        return importlib.import_module(f"{__name__}.{name}")
    known = engines()
    point = known.get(name)
    if point is None:
        close = difflib.get_close_matches(name, list(known), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        listed = ", ".join(known) or "none (is pnpgen installed? pip install -e .)"
        raise ContentError(f"no game engine named '{name}'{hint}; engines: {listed}",
                           **where(content.data, "engine", value=True))
    try:
        module = point.load()
    except Exception as err:  # a broken package: one line naming it, the traceback with --debug
        problem = " ".join(f"{type(err).__name__}: {err}".split())
        raise ContentError(f"engine '{name}' ({_origin(point)}) failed to import: {problem}",
                           **where(content.data, "engine", value=True)) from err
    missing = [attr for attr in ("RULES_SCHEMA", "create") if not hasattr(module, attr)]
    if missing:
        raise ContentError(f"engine '{name}' ({_origin(point)}) has no {' or '.join(missing)}",
                           **where(content.data, "engine", value=True))
    return module


def rules_for_content(content: GameContent) -> list[Rules[Any, Any]]:
    """The games a content folder defines; none for a print-only folder (no `engine:`)."""
    if content.engine is None:
        if "rules" in content.data:
            problem = "rules: given, but no engine: key names the module that plays them"
            raise ContentError(problem, **where(content.data, "rules"))
        return []
    module = engine_module(content)
    if "rules" not in content.data:
        raise ContentError(f"engine '{content.engine}' needs a rules: section", content.main_file, 1, 1)
    check(content.data["rules"], module.RULES_SCHEMA, content.data, "rules", "rules")
    if "simulation" in content.data:  # the shared settings and the engine's own, nothing else
        spec = {**SIMULATION_SCHEMA, **getattr(module, "SIMULATION_SCHEMA", {})}
        check(content.data["simulation"], spec, content.data, "simulation", "simulation")
    rules: list[Rules[Any, Any]] = module.create(content)
    return rules


def game_ids(content: GameContent) -> list[str]:
    """The ids of the games a content folder defines: the engine's game_ids() when it has one
    (cheap: pnpgen list), else those of the games built."""
    if content.engine is None:
        return [r.id for r in rules_for_content(content)]  # none, or the error for a stray rules:
    module: Any = None
    with contextlib.suppress(Exception):  # a broken engine: rules_for_content gives the one-line error
        module = engine_module(content)
    listed = getattr(module, "game_ids", None)
    if listed is not None and isinstance(content.data.get("rules"), dict):
        ids: list[str] = listed(content)  # the module itself only: no schema, no game built
        return ids
    return [r.id for r in rules_for_content(content)]


def find_rules(root: Path, name: str) -> Rules[Any, Any]:
    """The Rules called `name` ('burning-desire', 'fast-alone/growing-nine-a', ...)."""
    (content,) = load_games(root, [name])
    rules = rules_for_content(content)
    picked = pick_game(rules, name, content.id)
    if picked is not None:
        return picked
    raise UnknownGame(unknown_game(rules, name, content.id), root)
