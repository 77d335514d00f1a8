"""The offline PWA: installable, boots and plays with no network and no server. A new deploy,
taken only when the player accepts it, is tested with the boot snapshot it replaces
(e2e/test_boot_snapshot.py); the helpers here serve both.

Each test serves its own copy of the deployable site (scripts/build.py's assemble) with
`scripts/serve.py --netlify`, i.e. with netlify.toml's headers, Content-Security-Policy
included, and uses a persistent Chromium profile (service workers and installability need one).
"""

from __future__ import annotations

import json
import sys
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, BrowserType, Page, Request

from conftest import ROOT, STATE_TIMEOUT_MS, Server, dev_server, again_on_crash, wait_ready
from webui.text.i18n import t as online_t

sys.path.insert(0, str(ROOT / "scripts"))

from build import assemble  # noqa: E402  (scripts/ is not a package)
from precache import write_precache  # noqa: E402

SW_TIMEOUT_MS = 60_000


@dataclass
class Player:
    """One browser profile (persistent, like an installed app) and what its context fetched."""

    context: BrowserContext
    page: Page
    requested: list[str] = field(default_factory=list)  # every URL asked for, worker's too
    network: list[str] = field(default_factory=list)  # URLs that reached the network
    failed: list[str] = field(default_factory=list)  # URLs whose request failed
    finished: list[Request] = field(default_factory=list)  # every request that completed
    page_errors: list[str] = field(default_factory=list)


@pytest.fixture
def site(lc_server: Server, tmp_path: Path) -> Path:
    """A copy of the deployable site (lc_server has built static/vendor)."""
    dist = tmp_path / "site"
    assemble(ROOT, dist)
    write_precache(dist)
    return dist


@pytest.fixture
def open_player(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], tmp_path: Path
) -> Iterator[Callable[[], Player]]:
    """open_player() -> Player: a fresh persistent profile; closed at teardown."""
    contexts: list[BrowserContext] = []

    def launch() -> Player:
        profile = tmp_path / f"profile-{len(contexts)}"
        context = browser_type.launch_persistent_context(str(profile), reduced_motion="reduce",
                                                         **browser_type_launch_args)
        contexts.append(context)
        context.set_default_timeout(STATE_TIMEOUT_MS)  # waits on states: a guard, not a budget
        page = context.pages[0] if context.pages else context.new_page()
        player = Player(context, page)
        context.on("request", lambda request: player.requested.append(request.url))
        context.on("requestfinished", lambda request: player.finished.append(request))
        context.on("requestfinished", lambda request: player.network.append(request.url)
                   if request.response() is not None
                   and not request.response().from_service_worker else None)
        context.on("requestfailed", lambda request: player.failed.append(request.url))
        page.on("pageerror", lambda error: player.page_errors.append(str(error)))
        return player

    yield launch
    for context in contexts:
        context.close()


def serve(stack: ExitStack, site: Path) -> str:
    """Serve site like Netlify (netlify.toml's headers and redirects) until stack closes."""
    return stack.enter_context(dev_server("--root", str(site), "--no-broker", "--netlify"))


def controlled_version(page: Page) -> str:
    """Wait until the service worker controls the page; its precache version."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                           timeout=SW_TIMEOUT_MS)
    version = page.evaluate("() => window.lcPwa.version()")
    assert isinstance(version, str) and len(version) == 16
    return version


def first_visit(player: Player, url: str) -> str:
    """Open the app online, wait for the boot and the installed worker; its version. A
    renderer crash before the app is ready is Chromium's (conftest's again_on_crash): the
    app is opened again, in a new page of the profile."""
    pages = iter([player.page])

    def open_page() -> Page:
        page = next(pages, None) or player.context.new_page()
        if page is not player.page:
            page.on("pageerror", lambda error: player.page_errors.append(str(error)))
            player.page = page
        return page

    def boot(page: Page) -> None:
        page.goto(url)
        wait_ready(page, page_errors=player.page_errors)

    again_on_crash(open_page, boot, url)
    return controlled_version(player.page)


def downloaded(player: Player) -> list[str]:
    """URLs whose response body came over the network (a revalidation answered 304, the HTTP
    cache and the service worker's cache bring none)."""
    return [request.url for request in player.finished
            if request.response() is not None and not request.response().from_service_worker
            and request.sizes()["responseBodySize"] > 0]


def precache_version(site: Path) -> str:
    text = (site / "static" / "vendor" / "precache.js").read_text()
    return str(json.loads(text[text.index("{"):text.rindex("}") + 1])["version"])


def server_is_down(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=2)
    except OSError:
        return True
    return False


# What only online play loads (window.lcOnlineLibraries(), static/config.js): the worker fetches
# them on demand, not at install (scripts/precache.py, "later").
ONLINE_LIBRARIES = ("static/vendor/peerjs/peerjs.min.js", "static/vendor/qrcode/qrcode.js",
                    "static/vendor/sodium/libsodium-wrappers.js",
                    "static/vendor/sodium/libsodium-sumo.js")
LOADED = ("() => lcOnlineLibraries().then(() =>"
          " [typeof window.Peer, typeof window.qrcode, typeof window.sodium])")


def cached(page: Page, version: str | None = None) -> list[str]:
    """The URLs in the cache of `version` (default: the worker's that controls the page)."""
    return list(page.evaluate(
        "async (version) => (await (await caches.open('lostcities-' + (version ||"
        " await lcPwa.version()))).keys()).map(r => r.url)", version))


SAVE_KEY = "lostcities.match"  # where py/webui/match/controller.py saves the match in progress
END_SCREENS = ("round-end", "match-end")


def screen(page: Page) -> str:
    """The screen shown (body[data-screen], set by py/webui/browser/page.py)."""
    return str(page.evaluate("() => document.body.dataset.screen"))


def start_pass_and_play(page: Page, rounds: int = 1) -> None:
    """Start a pass-and-play match from the setup form, base rules, `rounds` rounds."""
    assert screen(page) == "setup"
    page.select_option('[data-option="rounds"]', str(rounds))
    page.click('[data-action="start"]')
    assert screen(page) == "handoff"


def play_turns(page: Page, turns: int | None = None) -> str:
    """Play by clicks, discarding the first card and drawing from the deck each turn, for
    `turns` turns or until the round ends; the screen reached."""
    played = 0
    for _ in range(1000):
        name = screen(page)
        if name in END_SCREENS or played == turns:
            return name
        if name == "handoff":
            page.click('#screen [data-action="ready"]')
            continue
        assert name == "turn", f"unexpected screen {name!r}"
        deck = page.locator('#screen [data-action="draw"][data-source="deck"]:not([disabled])')
        if deck.count():
            deck.click()
            played += 1
        else:
            page.locator('#screen [data-action="select"]').first.click()
            page.click('#screen [data-action="discard"]:not([disabled])')
    raise AssertionError("the round never ended")


@pytest.mark.slow
def test_after_one_visit_the_game_boots_with_no_network_and_no_server(
    site: Path, open_player: Callable[[], Player]
) -> None:
    player = open_player()
    with ExitStack() as stack:
        url = serve(stack, site)
        version = first_visit(player, url)
        assert version == precache_version(site)
        # The worker's install revalidates what the page has just fetched (304s): no file of
        # the first visit comes over the network twice.
        bodies = downloaded(player)
        assert f"{url}static/vendor/pyodide/pyodide.asm.wasm" in bodies
        assert sorted({u for u in bodies if bodies.count(u) > 1}) == []
        assert f"{url}static/vendor/pyodide/pyodide.asm.wasm" in cached(player.page)
        assert f"{url}static/vendor/app.zip.gz" in cached(player.page)
        # The first visit's idle work (its bytecode, then its boot snapshot, whose worker loads
        # the runtime) is over first: a reload would abort that worker's requests (failed).
        player.page.wait_for_function("() => ['kept', 'refused', 'failed']"
                                      ".includes(document.documentElement.dataset.snapshot)")
        # The online libraries come on demand: neither the first visit nor the worker's install
        # asked for them, and they are not in the cache...
        libraries = sorted(url + path for path in ONLINE_LIBRARIES)
        assert [u for u in player.requested if u in libraries] == []
        assert set(libraries).isdisjoint(cached(player.page))
        # ... until the player goes online once: choosing online mode on the setup screen loads
        # them (the lobby awaits the same promise; not opened here: its probe of the public
        # broker would leave the host). The worker fetches each from the server and keeps it.
        player.page.check('[data-option="mode"][value="online"]')
        assert player.page.evaluate(LOADED) == ["function", "function", "object"]
        assert set(libraries) <= set(cached(player.page))
        player.page.check('[data-option="mode"][value="local"]')
    assert server_is_down(url)
    player.context.set_offline(True)
    player.network.clear()
    response = player.page.reload()
    assert response is not None and response.from_service_worker
    assert "wasm-unsafe-eval" in response.headers["content-security-policy"]  # kept in cache
    wait_ready(player.page, page_errors=player.page_errors)
    assert controlled_version(player.page) == version
    # Pass-and-play, offline, to the end of the round.
    start_pass_and_play(player.page)
    assert play_turns(player.page) == "match-end"  # a one-round match
    assert player.page.locator("#screen .breakdowns").count() == 1
    # Nothing reached the network (offline, it would have failed); the runtime's wasm comes
    # from the HTTP cache, where V8 keeps its compiled code (boot/wasm-cache.mjs).
    wasm = f"{url}static/vendor/pyodide/pyodide.asm.wasm"
    assert [u for u in player.network if u != wasm] == [] and player.failed == []
    assert player.page_errors == []
    # Room links open offline too (the worker redirects them like netlify.toml does), and the
    # lobby says plainly that online play needs a network.
    player.page.click('[data-action="new-match"]')  # the finished match would be shown first
    assert screen(player.page) == "setup"
    player.page.goto(f"{url}join/AB12")
    assert player.page.url == f"{url}?room=AB12"
    wait_ready(player.page, page_errors=player.page_errors)
    assert screen(player.page) == "lobby"
    assert online_t("en", "lobby.offline") in player.page.inner_text("#screen")
    # The online libraries, kept when the player went online, come from the cache.
    assert player.page.evaluate(LOADED) == ["function", "function", "object"]
    assert [u for u in player.network + player.failed if u in libraries] == [] \
        and player.page_errors == []  # (the lobby's probe of the broker fails: offline)


def test_chromium_reports_the_app_installable_and_it_asks_for_persistent_storage(
    site: Path, open_player: Callable[[], Player]
) -> None:
    player = open_player()
    player.page.add_init_script(
        "window.lcPersistCalls = 0; const persist = navigator.storage.persist.bind("
        "navigator.storage); navigator.storage.persist = () => { window.lcPersistCalls++;"
        " return persist(); };")
    with ExitStack() as stack:
        first_visit(player, serve(stack, site))
        cdp = player.context.new_cdp_session(player.page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
        player.page.wait_for_function("() => document.documentElement.dataset.storage")
        assert player.page.evaluate("() => window.lcPersistCalls") == 1
        assert player.page.evaluate("() => document.documentElement.dataset.storage") in (
            "persistent", "best-effort")


def new_deploy(site: Path) -> str:
    """Change a file of the site and an online library, rebuild the precache list; the new
    version."""
    css = site / "static" / "app.css"
    css.write_text(css.read_text() + "\n:root { --lc-deploy: 2; }\n")
    library = site / CHANGED_LIBRARY
    library.write_text(library.read_text() + DEPLOY_COMMENT)
    write_precache(site)
    return precache_version(site)


CHANGED_LIBRARY = "static/vendor/qrcode/qrcode.js"
DEPLOY_COMMENT = "\n// deploy 2\n"


def deploy_marker(page: Page) -> str:
    return str(page.evaluate(
        "() => getComputedStyle(document.documentElement).getPropertyValue('--lc-deploy')"))


def offered(page: Page) -> bool:
    """Whether the page shows the update offer's button."""
    return page.locator('[data-action="update"]').count() > 0
