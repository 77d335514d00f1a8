"""The dev server (scripts/serve.py) and the build (scripts/build.py), without a browser."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, dev_server, free_port, shipped_zip

sys.path.insert(0, str(ROOT / "boot" / "build"))
from app_zip import APP, MANIFEST, MORE, NATIVE_ONLY  # noqa: E402  (boot/build/app_zip.py)


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            headers = {k.lower(): v for k, v in response.headers.items()}
            return response.status, headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, b""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    for name in ("runtime.wasm", "module.mjs", "app.webmanifest", "page.html"):
        (root / name).write_bytes(b"x")
    (root / "static").mkdir()
    (root / "static" / "config.json").write_text('{"committed": true}')
    return root


@pytest.mark.parametrize(
    ("name", "content_type"),
    [
        ("runtime.wasm", "application/wasm"),
        ("module.mjs", "text/javascript"),
        ("app.webmanifest", "application/manifest+json"),
        ("page.html", "text/html"),
    ],
)
def test_mime_types_and_no_cache(site: Path, name: str, content_type: str) -> None:
    with dev_server("--root", str(site), "--no-broker") as url:
        status, headers, _ = fetch(url + name)
    assert status == 200
    assert headers["content-type"] == content_type
    assert headers["cache-control"] == "no-cache"
    assert "cross-origin-opener-policy" not in headers


def test_isolate_sends_coop_and_coep(site: Path) -> None:
    with dev_server("--root", str(site), "--no-broker", "--isolate") as url:
        _, headers, _ = fetch(url + "page.html")
    assert headers["cross-origin-opener-policy"] == "same-origin"
    assert headers["cross-origin-embedder-policy"] == "require-corp"


def test_no_broker_serves_the_committed_config(site: Path) -> None:
    with dev_server("--root", str(site), "--no-broker") as url:
        _, _, body = fetch(url + "static/config.json")
    assert json.loads(body) == {"committed": True}


def test_broker_runs_with_the_server_and_stops_with_it(site: Path) -> None:
    broker_port = free_port()
    broker = f"http://127.0.0.1:{broker_port}/myapp"
    with dev_server("--root", str(site), "--broker-port", str(broker_port)) as url:
        status, headers, body = fetch(url + "static/config.json?v=1")
        assert status == 200 and headers["content-type"] == "application/json"
        assert json.loads(body) == {
            "peer": {"host": "127.0.0.1", "port": broker_port, "path": "/myapp",
                     "secure": False},
            "iceServers": [],
        }
        assert fetch(broker)[0] == 200
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(broker, timeout=5)


def test_taken_broker_port_is_refused(site: Path) -> None:
    broker_port = free_port()
    with dev_server("--root", str(site), "--broker-port", str(broker_port)):
        result = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "serve.py"), "--root", str(site),
             "--port", "0", "--broker-port", str(broker_port)],
            capture_output=True, text=True, timeout=120,
        )
    assert result.returncode != 0
    assert f"broker port 127.0.0.1:{broker_port} is taken" in result.stderr


PARENT = """
import subprocess, sys, time
server = subprocess.Popen([sys.executable] + sys.argv[1:], stdout=subprocess.PIPE, text=True)
print(server.pid, server.stdout.readline(), end="", flush=True)
time.sleep(600)
"""
"""A process that starts the server, says its pid and its first line, and waits."""


def gone(pid: int) -> bool:
    """Whether process `pid` has ended (a zombie left to a parent that does not reap counts)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def test_the_server_stops_when_the_process_that_started_it_ends(site: Path) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(ROOT / "scripts" / "serve.py"), "--quiet",
         "--exit-with-parent", "--root", str(site), "--port", "0", "--broker-port", "0"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        pid, line = parent.stdout.readline().split(" ", 1)
        urls = re.findall(r"http://127\.0\.0\.1:\d+/[^\s)]*", line)
        assert len(urls) == 2, line  # the app and its broker
        assert all(fetch(url)[0] == 200 for url in urls)
        parent.send_signal(signal.SIGKILL)  # as a killed test run's worker: no clean-up
        parent.wait()
        deadline = time.monotonic() + 60  # a guard against a hang, not a budget
        while not gone(int(pid)):
            assert time.monotonic() < deadline, "the server outlived the process that started it"
            time.sleep(0.2)
        for url in urls:  # the broker stopped with it
            with pytest.raises(urllib.error.URLError):
                urllib.request.urlopen(url, timeout=5)
    finally:
        if parent.poll() is None:
            parent.kill()
        if not gone(int(pid)):
            os.kill(int(pid), signal.SIGKILL)


def test_app_zip_and_app_more_zip_hold_the_python_packages_compiled() -> None:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True)
    with shipped_zip(APP) as zf:
        first = set(zf.namelist())
    with shipped_zip(MORE) as zf:
        more = set(zf.namelist()) - {MANIFEST}
    sources = {
        path.relative_to(ROOT / "py").as_posix()
        for package in (ROOT / "py").iterdir() if (package / "__init__.py").is_file()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    native = {name for name in sources if name.startswith(NATIVE_ONLY)}
    assert "lostcities/cli/host.py" in native  # the command line stays out of the page
    sources -= native
    # Every module compiled by the runtime's own CPython: sourceless pycs, and the pycs of
    # PyScript's own package (e2e/test_bytecode.py checks they match the sources in the page)
    # and of `html`; its entity table and PyScript's modules that only a page's code imports come
    # second. Each in one of the two zips.
    assert "webui/browser/main.pyc" in first and "webui/__init__.pyc" in first
    pyscript = {name for name in first | more if name.startswith(("pyscript/", "html/"))}
    assert {"pyscript/__init__.pyc", "html/__init__.pyc"} <= first
    assert {"html/entities.pyc", "pyscript/web.pyc"} <= more
    assert first.isdisjoint(more)
    assert (first | more) - pyscript == {name.removesuffix(".py") + ".pyc"
                                         if name.endswith(".py") else name for name in sources}
    # The first screen's zip holds the engine and the table; online play and the player's
    # screens come with the other.
    assert {"lostcities/engine.pyc", "webui/screens/table.pyc",
            "webui/match/controller.pyc"} <= first
    assert {"lostcities/fair/peer.pyc", "webui/online/lobby.pyc", "webui/features/stats.pyc",
            "webui/browser/plugins.pyc"} <= more


def test_build_refuses_to_assemble_over_the_sources() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build.py"), "--dist", str(ROOT / "py" / "x")],
        capture_output=True, text=True,
    )
    assert result.returncode == 1
    assert "refusing to assemble" in result.stderr
    assert not (ROOT / "py" / "x").exists()
