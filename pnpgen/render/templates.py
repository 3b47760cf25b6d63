"""Jinja2 templates for text a build writes beside the PDFs (the project's templates/ folder).

The folder is shipped inside the package as pnpgen/templates (a link to ../templates), so an
installed pnpgen finds the same files as a source checkout.

Only the project writes these templates; content only supplies values (a game's title,
version), which Jinja2 prints and never parses as template code. Still, they render in an
immutable sandbox with no globals, so a value can neither call nor change anything.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "templates"


@cache
def environment() -> jinja2.Environment:
    env = ImmutableSandboxedEnvironment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),  # the project's folder, never content's
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,  # plain-text output
    )
    env.globals.clear()  # no range, lipsum, cycler, joiner, namespace, dict
    return env


def render_template(name: str, **values: object) -> str:
    return environment().get_template(name).render(**values)
