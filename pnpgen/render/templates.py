"""Text a build writes beside the PDFs (the project's templates/ folder), filled in by the
content sandbox (render/text.py), the one template engine pnpgen has.

The folder is shipped inside the package as pnpgen/templates (a link to ../templates), so an
installed pnpgen finds the same files as a source checkout.

Only the project writes these templates; content only supplies values (a game's title,
version), which the sandbox prints and never parses as template code.
"""

from __future__ import annotations

from pathlib import Path

from pnpgen.render.text import Templates

TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "templates"


def render_template(name: str, **values: object) -> str:
    """templates/`name` filled in with `values`; a template's last newline is kept."""
    return render_file(TEMPLATE_DIR / name, **values)


def render_file(path: Path, **values: object) -> str:
    """The template file `path` (the project's: templates/, the play pages) filled in with
    `values` by the sandbox; its last newline is kept."""
    source = path.read_text(encoding="utf-8")
    text = Templates().render(source, values)  # names it may leave out: `{% if x is defined %}`
    return text + "\n" if source.endswith("\n") else text  # Jinja drops a source's last newline
