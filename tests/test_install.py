"""Installing leaves nothing in build/, pnpgen's output folder: setuptools' own build
folders (build/lib, build/bdist.*) go to .setuptools-build/ (pyproject.toml,
[tool.distutils.build]). Read through setuptools' own configuration, as `pip install .`
reads it; a real `pip install .` needs the network for its isolated build, so it is not run
here (checked by hand: build/ kept only .gitkeep)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

SCRIPT = """
import json
from setuptools.dist import Distribution
dist = Distribution()
dist.parse_config_files()
folders = {}
for name, attrs in (("build", ("build_base", "build_lib", "build_temp")), ("bdist", ("bdist_base",)),
                    ("bdist_dumb", ("bdist_dir",))):
    command = dist.get_command_obj(name)
    command.ensure_finalized()
    folders.update({attr: getattr(command, attr) for attr in attrs})
print(json.dumps(folders))
"""


def test_setuptools_builds_outside_the_output_folder() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=True)
    folders = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(folders["build_base"]) == Path(".setuptools-build")
    for path in folders.values():
        assert Path(path).parts[0] == ".setuptools-build", folders  # never build/
