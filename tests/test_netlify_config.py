"""netlify.toml against what the built site needs: types, caching, CSP, isolation, room links.

The headers are evaluated with scripts/netlify_rules.py, which follows Netlify's own path
matching; the same module makes `scripts/serve.py --netlify` send these headers to the
end-to-end tests (e2e/test_pwa.py), so the CSP below is also checked in a real browser.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shlex
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import netlify_rules  # noqa: E402  (scripts/ is not a package)
from netlify_rules import NetlifyConfig, headers_for, overlaps, redirect_for  # noqa: E402

REVALIDATE = re.compile(r"(^|,\s*)(no-cache|no-store|max-age=0)(\s*,|$)")
NETLIFY_DEFAULT_CACHE_CONTROL = "public, max-age=0, must-revalidate"
HASHED_NAME = re.compile(r"-[A-Za-z0-9_-]{8}\.(js|css)$")
# Matched by the hashed-chunk rule without a hash, but never loaded by this app: PyScript
# fetches it only for a script with a service-worker attribute (checked below).
NEVER_LOADED = {"/static/vendor/pyscript/service-worker.js"}


@pytest.fixture(scope="module")
def config() -> NetlifyConfig:
    return netlify_rules.load(ROOT / "netlify.toml")


@pytest.fixture(scope="module")
def site(config: NetlifyConfig, built_site: Path) -> Path:
    """The site exactly as netlify.toml's build command makes it: its build step is
    `scripts/build.py --dist` into the published folder, which is what `built_site` runs (in
    a temporary folder; it skips when the build's tools are missing)."""
    words = shlex.split(config.command.split("&&")[-1])
    assert words == ["python3", "scripts/build.py", "--dist", config.publish], config.command
    return built_site


def site_paths(site: Path) -> Iterator[str]:
    """URL path of every published file."""
    for path in sorted(site.rglob("*")):
        if path.is_file():
            yield "/" + path.relative_to(site).as_posix()


def cache_control_of(config: NetlifyConfig, path: str) -> str:
    """The Cache-Control Netlify sends for path (its default when no rule sets one)."""
    return headers_for(config, path).get("Cache-Control", NETLIFY_DEFAULT_CACHE_CONTROL)


def csp(config: NetlifyConfig, path: str) -> dict[str, list[str]]:
    """The Content-Security-Policy of path, directive -> sources."""
    value = headers_for(config, path).get("Content-Security-Policy", "")
    directives = {}
    for part in value.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


class _InlineScripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.workers = False
        self._open: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            found = dict(attrs)
            self.workers |= "worker" in found
            self._open = found

    def handle_data(self, data: str) -> None:
        opened = self._open
        if opened is not None and "src" not in opened and opened.get("type") in (None, "module",
                                                                                  "text/javascript"):
            self.inline.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._open = None


def page_scripts() -> _InlineScripts:
    parser = _InlineScripts()
    parser.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    return parser


def test_build_command_produces_the_vendor_files_and_the_precache_list(
    config: NetlifyConfig, site: Path
) -> None:
    assert config.command.startswith("npm ci &&")
    assert (site / "index.html").is_file() and (site / "sw.js").is_file()
    assert (site / "static" / "vendor" / "pyodide" / "pyodide.asm.wasm").is_file()
    assert (site / "static" / "vendor" / "pyscript" / "core.js").is_file()
    assert (site / "static" / "vendor" / "peerjs" / "peerjs.min.js").is_file()
    listed = (site / "static" / "vendor" / "precache.js").read_text()
    document = json.loads(listed[listed.index("{"):listed.rindex("}") + 1])
    urls = {entry["url"] for entry in document["files"]}
    for path in site_paths(site):
        if path.startswith(("/static/", "/boot/")) and path != "/static/vendor/precache.js":
            assert path[1:] in urls, f"{path} is published but not precached"
    assert not (site / "node_modules").exists() and not (site / "tests").exists()
    boot = site / "boot"  # the boot's browser files, without its build steps
    assert (boot / "pyodide-early.mjs").is_file() and not (boot / "build").exists()


@pytest.mark.parametrize(("suffix", "mime"), [(".wasm", "application/wasm"),
                                              (".mjs", "text/javascript"),
                                              (".webmanifest", "application/manifest+json")])
def test_every_published_file_of_a_critical_type_gets_its_mime_type(
    config: NetlifyConfig, site: Path, suffix: str, mime: str
) -> None:
    paths = [p for p in site_paths(site) if p.endswith(suffix)]
    assert paths, f"no {suffix} file was built"
    for path in paths:
        assert headers_for(config, path).get("Content-Type") == mime, path


def test_no_two_rules_set_the_same_header_on_one_file(config: NetlifyConfig, site: Path) -> None:
    # Netlify does not document which of two matching rules wins: never depend on it.
    for path in [*site_paths(site), "/", "/join/ABCD"]:
        assert overlaps(config, path) == [], path


@pytest.mark.parametrize("path", ["/", "/index.html", "/sw.js", "/static/vendor/precache.js",
                                  "/static/vendor/app.zip.gz", "/py/webui/browser/main.py"])
def test_the_page_the_service_worker_and_the_changing_files_are_never_cached_stale(
    config: NetlifyConfig, path: str
) -> None:
    cache_control = cache_control_of(config, path)
    assert REVALIDATE.search(cache_control), f"{path}: {cache_control!r}"
    assert "immutable" not in cache_control


def test_hashed_files_are_immutable_and_nothing_else_is(
    config: NetlifyConfig, site: Path
) -> None:
    # Vendored names carry no version (pyodide.mjs, core.js): an immutable copy of one mixed
    # with a fresh deploy breaks the boot. Only names with a content hash may be immutable.
    assert "service-worker=" not in (ROOT / "index.html").read_text()
    hashed_chunks = 0
    for path in site_paths(site):
        cache_control = cache_control_of(config, path)
        if path.startswith("/static/vendor/pyscript/") and HASHED_NAME.search(path):
            assert "immutable" in cache_control and "max-age=31536000" in cache_control, path
            hashed_chunks += 1
        elif "immutable" in cache_control:
            assert path in NEVER_LOADED, f"{path} has no content hash in its name"
        else:
            assert REVALIDATE.search(cache_control), (path, cache_control)
    assert hashed_chunks > 0


def test_csp_allows_only_self_and_the_peerjs_broker(config: NetlifyConfig) -> None:
    broker = json.loads((ROOT / "static" / "config.json").read_text())["peer"]
    assert broker["secure"] is True
    for path in ("/", "/index.html", "/sw.js"):
        policy = csp(config, path)
        assert policy["default-src"] == ["'self'"], path
        assert sorted(policy["connect-src"]) == sorted(
            ["'self'", f"https://{broker['host']}", f"wss://{broker['host']}"])
        for directive, sources in policy.items():
            for source in sources:
                assert source not in ("*", "http:", "https:", "ws:", "wss:", "'unsafe-hashes'"), (
                    directive, source)
                if directive == "script-src":
                    assert source != "'unsafe-inline'"
                    assert source != "data:" and source != "blob:"
        assert policy["object-src"] == ["'none'"]
        assert policy["base-uri"] == ["'self'"]


def test_csp_lets_pyodide_compile_and_every_inline_script_run(config: NetlifyConfig) -> None:
    scripts = csp(config, "/")["script-src"]
    assert "'wasm-unsafe-eval'" in scripts
    inline = page_scripts().inline
    hashes = {"'sha256-" + base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
              + "'" for code in inline}
    missing = hashes - set(scripts)
    assert not missing, f"add these to script-src in netlify.toml: {' '.join(sorted(missing))}"
    stale = {s for s in scripts if s.startswith("'sha256-")} - hashes
    assert not stale, f"script-src allows hashes of no inline script: {stale}"


def test_cross_origin_isolation_exactly_when_pyscript_uses_workers(
    config: NetlifyConfig
) -> None:
    headers = headers_for(config, "/")
    isolated = {"Cross-Origin-Opener-Policy", "Cross-Origin-Embedder-Policy"} <= set(headers)
    assert isolated == page_scripts().workers


@pytest.mark.parametrize(("path", "query", "location"), [
    ("/join/AB12", "", "/?room=AB12"),
    ("/join/AB12/", "", "/?room=AB12"),
    ("/join/xy-9", "broker=peer.example.org", "/?room=xy-9&broker=peer.example.org"),
])
def test_room_links_resolve_to_the_page(
    config: NetlifyConfig, path: str, query: str, location: str
) -> None:
    assert redirect_for(config, path, query) == (location, 302)
    assert redirect_for(config, location.split("?")[0]) is None


@pytest.mark.parametrize("path", ["/", "/index.html", "/sw.js", "/static/app.css", "/join/",
                                  "/join/a/b"])
def test_only_room_links_are_redirected(config: NetlifyConfig, path: str) -> None:
    assert redirect_for(config, path) is None


@pytest.mark.parametrize(("pattern", "path", "matches"), [
    ("/*", "/", True),
    ("/*", "/static/vendor/pyodide/pyodide.asm.wasm", True),
    ("/*.wasm", "/static/vendor/pyodide/pyodide.asm.wasm", True),
    ("/*.wasm", "/static/vendor/pyodide/pyodide.mjs", False),
    ("/static/*", "/static", True),
    ("/join/:code", "/join/AB12", True),
    ("/join/:code", "/join/AB12/x", False),
    ("/SW.js", "/sw.js", True),
])
def test_the_rule_model_matches_paths_as_netlify_does(
    pattern: str, path: str, matches: bool
) -> None:
    assert bool(netlify_rules.path_regex(pattern).match(path)) is matches
