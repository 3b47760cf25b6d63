"""`pnpgen new GAME`: a game folder that builds and validates at once.

`--kind print-only` holds game.yaml, a ja/en rulebook, a deck of cards from a CSV (12
cards), a board and a score sheet. `--kind dice` is a played game: a content folder
(game.yaml with its rules numbers, worked examples, a rulebook, a score sheet) and, beside
the content folder, its rules package on the game contract (<id>-rules/: pyproject.toml
registering the engine, and one rules module of about 150 lines), made from the Pig
example; `pip install -e <id>-rules` makes it playable. Each YAML file names its JSON
Schema on its first line for the YAML language server (completion and inline errors in an
editor; docs/editor.md). The schemas are written beside the content folder
(<content>/../schema/) when the new game is made.

Unless `ci=False` (`--no-ci`), the repository holding the content folder (the nearest folder
with `.git`, else the content folder's parent) gets `.pre-commit-config.yaml` and
`.github/workflows/pnpgen.yml` (templates/new/ci/), each kept when it exists. They use
pnpgen from where it was installed (pip's direct_url.json): a git repository pre-commit can
clone, else the `pnpgen` on PATH (docs/ci.md).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from pnpgen.errors import PnpgenError
from pnpgen.output import atomic_output
from pnpgen.render.templates import render_file
from pnpgen.schemas import write_schemas

SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,63}$")
KINDS = ("print-only", "dice", "grid")
"""What `pnpgen new --kind` makes: dice (from the Pig example) and grid (a line-making game)
are played games with a rules package."""
TEMPLATES = Path(__file__).parent / "templates" / "new"
"""Each kind's files: content/ (and a played game's package/), filled in by the content sandbox
(`{{ id }}`, `{{ title }}`, ...); `{{ "{{ name }}" }}` writes a placeholder of the game's own texts."""
PRINT_ONLY = ("game.yaml", "rulebook.yaml", "components.yaml", "cards.csv")  # in the order listed


def new_game(root: Path, game_id: str, kind: str = "print-only", schema_dir: Path | None = None,
             ci: bool = True) -> list[Path]:
    """Write the game folder `root/game_id`; the files written (schemas and CI files included)."""
    if kind not in KINDS:
        raise PnpgenError(f"--kind {kind}: expected one of {', '.join(KINDS)}")
    if not SLUG.match(game_id):
        raise PnpgenError(f"game id '{game_id}' must be a slug such as 'my-game' (lower case, digits, '-')")
    folder = root / game_id
    if folder.exists():
        raise PnpgenError(f"{folder} already exists; choose another id or remove it")
    schema_dir = schema_dir or root.resolve().parent / "schema"
    written = write_schemas(schema_dir)
    relative = Path(os.path.relpath(schema_dir.resolve(), (root / game_id).resolve())).as_posix()
    title = " ".join(word.capitalize() for word in game_id.split("-"))
    if kind != "print-only":
        written += _played_game(kind, root, game_id, title, relative)
        return written + (ci_files(root, root.resolve().parent / f"{game_id}-rules") if ci else [])
    values = {"id": game_id, "title": title, "schema": relative}
    for name in PRINT_ONLY:
        _write_template(TEMPLATES / kind / "content" / f"{name}.tmpl", folder / name, values)
        written.append(folder / name)
    return written + (ci_files(root) if ci else [])


def repository_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` that holds `.git`, if any."""
    here = start.resolve()
    return next((folder for folder in (here, *here.parents) if (folder / ".git").exists()), None)


@dataclass(frozen=True)
class Source:
    """Where this pnpgen came from, for a new game's CI files."""

    repo: str | None  # a git repository holding pnpgen's .pre-commit-hooks.yaml (URL or folder)
    rev: str | None  # its commit
    pip: str  # what CI's pip installs
    action: str | None  # owner/name@rev of pnpgen's GitHub Action, when the repository is on GitHub


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=30,
                              check=False)
    except OSError:
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def pnpgen_source() -> Source:
    """From pip's record of the install (PEP 610 direct_url.json): a git URL and commit, or a
    local git checkout and its HEAD; else none (a wheel from an index)."""
    from importlib.metadata import PackageNotFoundError, distribution

    from pnpgen import __version__

    unknown = Source(None, None, f"pnpgen=={__version__}", None)
    try:
        info = json.loads(distribution("pnpgen").read_text("direct_url.json") or "{}")
    except (PackageNotFoundError, ValueError):
        return unknown
    url, vcs = str(info.get("url", "")), info.get("vcs_info") or {}
    if vcs.get("vcs") == "git" and vcs.get("commit_id"):
        rev = str(vcs["commit_id"])
        found = re.match(r"https://github\.com/([^/]+/[^/]+?)(?:\.git)?/?$", url)
        return Source(url, rev, f"pnpgen @ git+{url}@{rev}", f"{found.group(1)}@{rev}" if found else None)
    if url.startswith("file://") and "dir_info" in info:
        folder = Path(unquote(urlparse(url).path))
        head = _git(folder, "rev-parse", "HEAD")
        if head and _git(folder, "cat-file", "-t", f"{head}:.pre-commit-hooks.yaml") == "blob":
            origin = _git(folder, "remote", "get-url", "origin")  # where CI can fetch this commit, once pushed
            pip = f"pnpgen @ git+{origin}@{head}" if origin and "://" in origin else unknown.pip
            return Source(str(folder), head, pip, None)
    return unknown


def ci_files(root: Path, package: Path | None = None, source: Source | None = None) -> list[Path]:
    """`.pre-commit-config.yaml` and `.github/workflows/pnpgen.yml` in the repository of the
    content folder `root`, those that do not exist yet; `package` is a played game's rules
    package, which its hook and CI install beside pnpgen."""
    source = source or pnpgen_source()
    repo = repository_root(root) or root.resolve().parent
    content = Path(os.path.relpath(root.resolve(), repo)).as_posix()
    values = {"content": content, "content_sh": shlex.quote(content), "content_yaml": json.dumps(content),
              "repo": source.repo or "", "rev": source.rev or "", "action": source.action or "",
              "repo_note": "  # this pnpgen's checkout: on this machine only; to share, its repository's URL"
              if source.repo and "://" not in source.repo else "",
              "install_note": "  # pnpgen came from a wheel or a folder: say where CI gets it (docs/ci.md)"
              if "@" not in source.pip else ""}
    if source.repo and package is None:
        hook = "pre-commit-remote"
    else:
        hook = "pre-commit-local"
        values["why"] = ("and the game's rules package installed in your environment (pip install -e "
                        f"{Path(os.path.relpath(package, repo)).as_posix()})." if package is not None
                        else "of your environment (the one that ran pnpgen new).")
    install = [json.dumps(source.pip)]
    if package is not None:
        install.append(f"./{Path(os.path.relpath(package, repo)).as_posix()}")
    values["install"] = " ".join(install)
    workflow = "workflow-action" if source.action and package is None else "workflow-steps"
    written = []
    for template, path in ((hook, repo / ".pre-commit-config.yaml"),
                           (workflow, repo / ".github" / "workflows" / "pnpgen.yml")):
        if path.exists():
            continue
        _write_template(TEMPLATES / "ci" / "files" / f"{template}.yaml.tmpl", path, values)
        written.append(path)
    return written


def _write_template(template: Path, path: Path, values: dict[str, str]) -> None:
    """`template` filled in by the content sandbox with `values`, written to `path`. The
    files' own `{{ name }}` placeholders and GitHub's `${{ }}` are written as literals in
    them: `{{ "{{ name }}" }}`, `${{ "{{" }} runner.os }}`."""
    text = render_file(template, **values)
    with atomic_output(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def _played_game(kind: str, root: Path, game_id: str, title: str, schema: str) -> list[Path]:
    """A played game from templates/new/<kind>: content folder `root/game_id` and its rules
    package `root/../<game_id>-rules`."""
    package_dir = root.resolve().parent / f"{game_id}-rules"
    if package_dir.exists():
        raise PnpgenError(f"{package_dir} already exists; choose another id or remove it")
    engine = game_id.replace("-", "_")
    module = f"pnpgen_{engine}"
    values = {"id": game_id, "title": title, "schema": schema, "engine": engine, "module": module,
              "package": f"pnpgen-{game_id}",
              "class_name": "".join(w.capitalize() for w in re.split(r"[-_]", engine)),
              "code": re.sub(r"[^a-z0-9]", "", game_id)[:4].upper(),
              "package_dir": os.path.relpath(package_dir, Path.cwd().resolve())}
    if values["class_name"][0].isdigit():
        values["class_name"] = f"Game{values['class_name']}"
    folder = TEMPLATES / kind
    targets = {template: root / game_id / template.name.removesuffix(".tmpl")
               for template in sorted((folder / "content").glob("*.tmpl"))}
    targets[folder / "package" / "pyproject.toml.tmpl"] = package_dir / "pyproject.toml"
    targets[folder / "package" / "rules.py.tmpl"] = package_dir / module / "__init__.py"
    written = []
    for template, path in targets.items():
        _write_template(template, path, values)
        written.append(path)
    return written
