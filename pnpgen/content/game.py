"""A game folder under content/: its main file, its parts, and the common schema."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen import limits
from pnpgen.content.schema import Any_, Each, OneOf, Range, Schema, Text, check, text_for
from pnpgen.content.yamlpos import Where, YList, YMap, load_yaml, where
from pnpgen.errors import ContentError, UnknownGame

MAIN_FILE = "game.yaml"

SIMULATION_SCHEMA: Schema = {
    "seed?": Range(int, 0, 2**53),
    "smoke_games?": Range(int, 0, 100_000),
    "bots?": [str],
    "max_steps?": Range(int, 1, 10_000_000),
    "unreached_ok?": [str],
    "verify_games?": Range(int, 0, 100_000),
    "verify_seconds?": Range(float, 0, 3_600),
    "end_search_games?": Range(int, 0, 1_000_000),
    "end_search_seconds?": Range(float, 0, 3_600),
    "skill_bot?": str,
    "skill_games?": Range(int, 0, 100_000),
    "mcts_playout?": Range(int, 0, 1_000_000),
    "mcts_scale?": Range(float, 0.001, 1e9),  # a cut MCTS playout: width of the logistic on the evaluation margin
    "mcts_worlds?": Range(int, 1, 1_000),  # hidden information: states drawn from a view per MCTS decision
    "mcts_exploration?": Range(float, 0, 100),  # guided MCTS (guided:N): UCT's constant
    "mcts_widen?": Range(float, 0.001, 1_000),  # guided MCTS: progressive widening, ceil(this * sqrt(visits + 1)) moves
    "report_note?": str,  # printed atop simulation output and reports (e.g. "rests on stand-in data")
}
"""Settings every game may give under `simulation:`; an engine adds its own (its module's
`SIMULATION_SCHEMA`), and the two together are checked with did-you-mean once the engine is known."""

# Keys every game.yaml shares. `rules` is checked by the game's module,
# `components` by the print kit, `rulebook` by the rulebook renderer.
COMMON_SCHEMA: Schema = {
    "id": str,
    "engine?": str,  # absent: a print-only game (components and rulebook, no rules engine)
    "title": Text,
    "subtitle?": Text,
    "players": {"min": Range(int, 1, limits.MAX_PLAYERS), "max": Range(int, 1, limits.MAX_PLAYERS)},
    "time_minutes": Range(int, 1, 10_000),
    "ages?": OneOf(str, Range(int, 0, 150)),  # '8+' or 8
    "version": OneOf(int, str),
    "source?": str,
    "credits?": Text,
    "author?": Text,  # printed files name it as their author (PDF info, XMP)
    "rule_ids?": OneOf(str, Each(str), {"*": Text}),
    "end_conditions?": OneOf(str, Each(str), {"*": Text}),
    "rules?": Any_,
    "components?": OneOf(str, Each(Any_)),
    "rulebook?": OneOf(str, Each(str, 1), {"*": Any_}),
    "examples?": OneOf(str, Each(str), Each(dict)),
    "simulation?": {**SIMULATION_SCHEMA, "*": Any_},  # the engine's own keys: pnpgen.games
    "variants?": {"*": Any_},
}


@dataclass
class GameContent:
    """One game folder, loaded and checked against the common schema."""

    folder: Path
    data: YMap
    loaded_labels: dict[str, YMap] = field(default_factory=dict, repr=False, compare=False)

    @property
    def id(self) -> str:
        return str(self.data["id"])

    @property
    def engine(self) -> str | None:
        return str(self.data["engine"]) if "engine" in self.data else None

    @property
    def main_file(self) -> Path:
        return self.folder / MAIN_FILE

    def title(self, lang: str = "en") -> str:
        return text_for(self.data["title"], lang)

    def part(self, key: str, default: object = None) -> object:
        """A top-level part: inline, in a sibling file named by the key's value, or a
        list of such files whose lists are concatenated."""
        value = self.data.get(key, default)
        if isinstance(value, str) and value.endswith((".yaml", ".yml")):
            return load_yaml(self.path(value, self.data, key))
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            merged = YList()
            for index, name in enumerate(value):
                loaded = load_yaml(self.path(name, value, index))
                if not isinstance(loaded, list):
                    raise ContentError(f"{key}: expected a list in this file", self.path(name), 1, 1)
                merged.extend(loaded)
                merged.item_positions.extend(getattr(loaded, "item_positions", []))
            return merged
        return value

    def component_items(self) -> list[Any]:
        """The `components` part as a list (empty when there is none), its items unchecked."""
        items = self.part("components", None)
        if items is None:
            return []
        if not isinstance(items, list):
            raise ContentError("components: expected a list of components", **where(self.data, "components"))
        return items

    def labels(self, key: str) -> YMap:
        """`rule_ids` or `end_conditions`: inline, or in one or more files whose mappings
        are merged (a collection keeps each game's ids beside its rules)."""
        value = self.data.get(key) or YMap()
        if isinstance(value, dict):
            return value if isinstance(value, YMap) else YMap(value)
        if key in self.loaded_labels:
            return self.loaded_labels[key]
        merged = YMap()
        names = [value] if isinstance(value, str) else value
        for index, name in enumerate(names):
            loaded = load_yaml(self.path(name, *((self.data, key) if isinstance(value, str) else (value, index))))
            check(loaded, {"*": Text}, None, None, key)
            for label, text in loaded.items():
                if label in merged:
                    raise ContentError(f"{key}: '{label}' is declared twice", **where(loaded, label))
                merged[label] = text
                merged.key_positions[label] = loaded.key_positions.get(label, (0, 0))
        self.loaded_labels[key] = merged
        return merged

    def path(self, relative: str, origin: object = None, key: object = None) -> Path:
        """A file the content refers to, checked to stay inside the game folder (links
        followed). `origin` and `key`, the YAML container and key holding the reference,
        say where an error points (default: game.yaml)."""
        return confined_path(self.folder, relative, where(origin, key, value=True) if origin is not None
                             else {"file": self.main_file})


class PathRefused(ContentError):
    """A content path that may not be read; `problem` says why without the path."""

    def __init__(self, text: str, problem: str, location: Where) -> None:
        super().__init__(f"path '{text}' {problem}", **location)
        self.problem = problem


def confined_path(folder: Path, relative: str, location: Where) -> Path:
    """`relative` inside `folder`, or a PathRefused at `location`: no absolute paths, no
    URLs, nothing that leaves the folder (after following links), no link loops and no
    pipes, devices or sockets (a missing file or a folder is the caller's to report)."""
    text = str(relative)
    if "://" in text or text.lower().startswith(("file:", "data:", "http:", "https:")):
        raise PathRefused(text, "is a link; name a file inside the game folder", location)
    if "\0" in text or os.path.isabs(text) or text.startswith("~"):
        raise PathRefused(text, "is not relative to the game folder", location)
    target = Path(os.path.normpath(folder / text))  # as given, so messages name it as the user does
    problem = refused_file(target, folder)
    if problem:
        raise PathRefused(text, problem, location)
    return target


def refused_file(target: Path, folder: Path) -> str | None:
    """Why `target` may not be read as a file of `folder` (or None): it leaves the folder
    once links are followed, is a link loop, or is a pipe, device or socket."""
    try:
        inside = target.resolve().is_relative_to(folder.resolve())
        info = target.stat() if os.path.lexists(target) else None
    except RuntimeError:  # Python < 3.13 resolving a loop
        return "is a symbolic link loop"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "is a symbolic link loop"
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            return None if inside else "leaves the game folder"  # a dangling link: missing
        return f"cannot be read ({error.strerror or error})"
    if not inside:
        return "leaves the game folder"
    if info is None or stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode):
        return None
    return f"is {special_kind(info.st_mode)}, not a file"


def special_kind(mode: int) -> str:
    """What a file that is neither a regular file nor a folder is, for a message."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def load_game(folder: Path) -> GameContent:
    main = folder / MAIN_FILE
    problem = refused_file(main, folder)  # game.yaml is confined like every file it names
    if problem:
        raise ContentError(problem, main)
    data = load_yaml(main)
    if not isinstance(data, YMap):
        raise ContentError("expected a mapping at the top level", main, 1, 1)
    check(data, COMMON_SCHEMA)
    players = data["players"]
    if not 1 <= players["min"] <= players["max"]:
        raise ContentError(
            f"players: min {players['min']} and max {players['max']} are not a valid range",
            **where(players),
        )
    if data["id"] != folder.name:
        raise ContentError(
            f"id '{data['id']}' does not match the folder name '{folder.name}'",
            **where(data, "id", value=True),
        )
    return GameContent(folder=folder, data=data)


def content_root(explicit: Path | None = None) -> Path:
    """The content folder: --content, then $PNPGEN_CONTENT, then ./content."""
    root = explicit or Path(os.environ.get("PNPGEN_CONTENT", "content"))
    if not root.is_dir():
        raise ContentError(
            "content folder not found (run from the project folder, or pass --content DIR)",
            root,
        )
    return root


def game_folders(root: Path) -> list[Path]:
    """Folders holding a game.yaml (a link too, even a broken one: loading it says what is wrong)."""
    return sorted(p for p in root.iterdir() if p.is_dir() and os.path.lexists(p / MAIN_FILE))


def confined_game(root: Path, folder: Path) -> Path:
    """`folder`, a game folder of the content folder `root`, refused when a link takes it out."""
    try:
        inside = folder.resolve().is_relative_to(root.resolve())
    except (RuntimeError, OSError):
        inside = False
    if not inside:
        raise ContentError("game folder leaves the content folder (a symbolic link out of it)", folder)
    return folder


def load_games(root: Path, names: list[str] | None = None) -> list[GameContent]:
    """Load the named games (all when `names` is empty), in name order."""
    folders = {p.name: p for p in game_folders(root)}
    if names:
        wanted = []
        for name in names:
            base = name.split("/")[0]
            if base not in folders:
                import difflib

                close = difflib.get_close_matches(base, list(folders), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                known = ", ".join(folders) or "none"
                raise UnknownGame(f"unknown game '{name}'{hint}; games: {known}", root)
            if folders[base] not in wanted:
                wanted.append(folders[base])
        return [load_game(confined_game(root, p)) for p in wanted]
    return [load_game(confined_game(root, p)) for p in folders.values()]
