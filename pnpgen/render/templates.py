"""Jinja2 templates for text a build writes beside the PDFs (the project's templates/ folder).

The folder is shipped inside the package as pnpgen/templates (a link to ../templates), so an
installed pnpgen finds the same files as a source checkout.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import jinja2

TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "templates"


@cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,  # plain-text output
    )


def render_template(name: str, **values: Any) -> str:
    return environment().get_template(name).render(**values)
