"""Shared fixtures for the native tests."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The deployable site as `scripts/build.py --dist` assembles it (what Netlify publishes),
    in a temporary folder, built once a session. Skips, saying why, when the build's tools
    are missing (the npm packages, Node); a build that fails with them is a failure."""
    missing = []
    if not (ROOT / "node_modules" / ".package-lock.json").is_file():
        missing.append("the npm packages (run `npm ci`)")
    if shutil.which("node") is None:
        missing.append("Node.js (`node`)")
    if missing:
        pytest.skip(f"the site cannot be built here: {' and '.join(missing)} missing")
    site = tmp_path_factory.mktemp("built") / "site"
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build.py"), "--dist", str(site)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    if result.returncode != 0:
        pytest.fail(f"scripts/build.py --dist failed:\n{result.stdout}{result.stderr}")
    return site
