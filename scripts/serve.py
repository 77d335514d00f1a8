"""Dev server: serves the app and runs a local PeerJS broker on loopback.

    python3 scripts/serve.py [--host 127.0.0.1] [--port 8000] [--broker-port 9000]
                             [--root DIR] [--isolate] [--no-broker] [--netlify] [--quiet]
                             [--exit-with-parent]

- Serves the repository root (or --root DIR, e.g. the site from build.py --dist) with correct
  MIME types (.wasm application/wasm, .mjs text/javascript, .webmanifest
  application/manifest+json) and Cache-Control: no-cache.
- --netlify sends netlify.toml's headers (its Cache-Control and Content-Security-Policy
  included) and follows its redirects, as production does (scripts/netlify_rules.py).
- --isolate adds Cross-Origin-Opener-Policy / Cross-Origin-Embedder-Policy (only PyScript
  workers need them).
- Starts node_modules/.bin/peerjs on --host, --broker-port and path /myapp, and answers
  /static/config.json with that loopback broker (no ICE servers), so local pages use it.
  --no-broker serves the committed static/config.json (the public broker) unchanged.
- Port 0 picks a free port. Prints "serving URL" once both answer; SIGTERM or Ctrl-C stops
  the broker and the server cleanly, and so does, with --exit-with-parent, the end of the
  process that started it (the tests use it: a killed test run leaves no server behind).
"""

from __future__ import annotations

import argparse
import functools
import json
import signal
import socket
import os
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType
from typing import Any

from netlify_rules import NetlifyConfig, headers_for, redirect_for
from netlify_rules import load as load_netlify  # scripts/netlify_rules.py

ROOT = Path(__file__).resolve().parent.parent
BROKER_PATH = "/myapp"
CONFIG_URL = "/static/config.json"
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".py": "text/x-python",
}


class Handler(SimpleHTTPRequestHandler):
    """Static files with fixed MIME types, no-cache, optional isolation, local config."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def __init__(self, *args: Any, isolate: bool, config: bytes | None, quiet: bool,
                 netlify: NetlifyConfig | None = None, **kwargs: Any) -> None:
        self.isolate = isolate
        self.netlify = netlify
        self.rule_headers: dict[str, str] = {}
        self.config = config
        self.quiet = quiet
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        """Answer the config URL with the local broker config, anything else from disk."""
        if self.netlify is not None:
            path, _, query = self.path.partition("?")
            self.rule_headers = headers_for(self.netlify, path)
            redirect = redirect_for(self.netlify, path, query)
            if redirect is not None:
                self.send_response(redirect[1])
                self.send_header("Location", redirect[0])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        if self.config is not None and self.path.split("?", 1)[0] == CONFIG_URL:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(self.config)))
            self.end_headers()
            self.wfile.write(self.config)
            return
        super().do_GET()

    def send_header(self, keyword: str, value: str) -> None:
        """Send a header, unless a netlify.toml rule replaces it."""
        if keyword.lower() not in {name.lower() for name in self.rule_headers}:
            super().send_header(keyword, value)

    def end_headers(self) -> None:
        """Add the dev headers (or netlify.toml's) to every response."""
        for name, value in self.rule_headers.items():
            super().send_header(name, value)
        self.send_header("Cache-Control", "no-cache")
        if self.isolate:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Log unless --quiet."""
        if not self.quiet:
            super().log_message(format, *args)


def free_port(host: str) -> int:
    """A port on host that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_is_free(host: str, port: int) -> bool:
    """True when nothing listens on port (a socket in TIME_WAIT does not count)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


def local_config(host: str, port: int) -> dict[str, Any]:
    """The browser config pointing at the loopback broker (no STUN/TURN needed locally)."""
    return {
        "peer": {"host": host, "port": port, "path": BROKER_PATH, "secure": False},
        "iceServers": [],
    }


def start_broker(host: str, port: int, quiet: bool) -> subprocess.Popen[bytes]:
    """Start the PeerJS broker and wait until it answers HTTP (15 s at most)."""
    binary = ROOT / "node_modules" / ".bin" / "peerjs"
    if not binary.exists():
        raise SystemExit(f"missing {binary}: run `npm ci` first")
    if not port_is_free(host, port):
        raise SystemExit(f"broker port {host}:{port} is taken")
    out = subprocess.DEVNULL if quiet else None
    proc = subprocess.Popen(
        [str(binary), "--port", str(port), "--host", host, "--path", BROKER_PATH],
        stdout=out, stderr=out,
    )
    url = f"http://{host}:{port}{BROKER_PATH}"
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"PeerJS broker exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return proc
        except OSError:
            time.sleep(0.1)
    stop_process(proc)
    raise SystemExit(f"PeerJS broker did not answer at {url}")


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    """Terminate proc, wait up to 5 s, then kill it."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    """Turn SIGTERM into a normal exit so that the cleanup runs."""
    raise KeyboardInterrupt


def stop_with_parent() -> None:
    """Stop this server (as SIGTERM does) once the process that started it has ended: a
    thread checks every second whether this process was handed to another parent."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def main() -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description="Lost Cities dev server.")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (0: any free port)")
    parser.add_argument("--broker-port", type=int, default=9000,
                        help="PeerJS broker port (0: any free port)")
    parser.add_argument("--no-broker", action="store_true",
                        help="run no broker; serve the committed config (public broker)")
    parser.add_argument("--root", type=Path, default=ROOT, help="folder to serve (default: repo)")
    parser.add_argument("--isolate", action="store_true", help="send COOP/COEP headers")
    parser.add_argument("--netlify", action="store_true",
                        help="send netlify.toml's headers and follow its redirects")
    parser.add_argument("--quiet", action="store_true", help="no request or broker logs")
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="stop once the process that started this one has ended")
    args = parser.parse_args()

    broker = None
    config = None
    if not args.no_broker:
        broker_port = args.broker_port or free_port(args.host)
        broker = start_broker(args.host, broker_port, args.quiet)
        config = json.dumps(local_config(args.host, broker_port)).encode()
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    if args.exit_with_parent:
        stop_with_parent()
    try:
        netlify = load_netlify(ROOT / "netlify.toml") if args.netlify else None
        handler = functools.partial(Handler, directory=str(args.root), isolate=args.isolate,
                                    config=config, quiet=args.quiet, netlify=netlify)
        with ThreadingHTTPServer((args.host, args.port), handler) as httpd:
            host, port = httpd.server_address[:2]
            line = f"serving http://{host}:{port}/"
            if broker is not None:
                line += f"  (PeerJS broker http://{args.host}:{broker_port}{BROKER_PATH})"
            print(line, flush=True)
            httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        if broker is not None:
            stop_process(broker)
    return 0


if __name__ == "__main__":
    sys.exit(main())
