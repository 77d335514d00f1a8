"""Boot snapshots: once a visit has booted and been left idle, the next visits start Python from a
memory snapshot with the game imported (boot/snapshot.mjs, boot/snapshot-worker.mjs,
boot/pyodide-early.mjs, boot/sw-kept.js, py/webui/browser/boot/warm.py). <html data-boot> says which
way a page booted; a damaged snapshot, one from another build and one that fails to restore are
dropped and the page boots the normal way, with no difference to the player.

Served like Netlify (its Content-Security-Policy included) in persistent profiles, with
test_pwa.py's fixtures.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from conftest import wait_ready
from test_foundation import EVERY_STEP, TASK_AFTER, TASKS_BETWEEN
from test_pwa import (  # noqa: F401  (fixtures)
    CHANGED_LIBRARY,
    DEPLOY_COMMENT,
    LOADED,
    ONLINE_LIBRARIES,
    SAVE_KEY,
    SW_TIMEOUT_MS,
    Player,
    cached,
    controlled_version,
    deploy_marker,
    first_visit,
    new_deploy,
    offered,
    open_player,
    play_turns,
    screen,
    serve,
    server_is_down,
    site,
    start_pass_and_play,
)

BOOT = "() => document.documentElement.dataset.boot"
WASM = "() => document.documentElement.dataset.wasm"
WASM_COMPILED = "() => document.documentElement.dataset.wasmCompiled"
SNAPSHOT_READ = "() => document.documentElement.dataset.snapshotRead"
# A later visit's worker (boot/later-visit-worker.mjs) started from a script that does not exist.
NO_LATER_VISIT_WORKER = """(() => {
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(url, options) {
      super(String(url).endsWith("/later-visit-worker.mjs") ? "/no-such-worker.mjs" : url,
            options);
    }
  };
})();"""
# This version's copy of the wasm, kept by the service worker, made to look like another file
# (other validators): the HTTP cache's copy must then not be used.
OTHER_WASM = """async () => {
    const cache = await caches.open('lostcities-' + await window.lcPwa.version());
    const url = new URL('static/vendor/pyodide/pyodide.asm.wasm', document.baseURI).href;
    const kept = await cache.match(url);
    const headers = new Headers(kept.headers);
    headers.set('Last-Modified', 'Thu, 01 Jan 1970 00:00:00 GMT');
    headers.set('ETag', '"another-file"');
    await cache.put(url, new Response(await kept.arrayBuffer(), {headers}));
}"""
SNAPSHOT_SETTLED = ("() => ['kept', 'refused', 'failed']"
                    ".includes(document.documentElement.dataset.snapshot)")
SNAPSHOT = "() => document.documentElement.dataset.snapshot"
# The kept snapshot as the service worker stores it: {bytes, meta} or null.
KEPT = """async () => {
    const cache = await caches.open('lostcities-' + await window.lcPwa.version());
    const kept = await cache.match(new URL('__boot-snapshot__.bin', document.baseURI).href);
    return kept && {bytes: (await kept.arrayBuffer()).byteLength,
                    meta: JSON.parse(kept.headers.get('X-LC-Snapshot'))};
}"""
# Rewrites the kept snapshot in the service worker's cache, as storage could:
# "damaged": a byte of it changed (its checksum no longer matches);
# "older": recorded for another build of the app;
# "not-an-image": a well-formed container (boot/snapshot.mjs) of an image of the same
# size that is all zeros: it is read, then fails to restore.
REWRITE = """async (how) => {
    const cache = await caches.open('lostcities-' + await window.lcPwa.version());
    const url = new URL('__boot-snapshot__.bin', document.baseURI).href;
    const kept = await cache.match(url);
    let bytes = new Uint8Array(await kept.arrayBuffer());
    const meta = JSON.parse(kept.headers.get('X-LC-Snapshot'));
    if (how === 'damaged') bytes[bytes.length >> 1] ^= 0xff;
    if (how === 'older') meta.build = '0123456789abcdef';
    if (how === 'not-an-image') {
        const format = await import(new URL('boot/snapshot.mjs', document.baseURI).href);
        const size = new DataView(bytes.buffer).getUint32(4, true);
        bytes = new Uint8Array(format.encode(new Uint8Array(size)));
    }
    const headers = new Headers(kept.headers);
    headers.set('X-LC-Snapshot', JSON.stringify(meta));
    headers.set('Content-Length', String(bytes.byteLength));
    await cache.put(url, new Response(bytes, {headers}));
}"""


# Whether the page's runtime runs Python on stacks of its own (boot/no-stack-switching.mjs).
STACK_SWITCHING = """async () => {
    const early = await import('./boot/pyodide-early.mjs');
    return (await early.loadPyodide())._module.jspiSupported;
}"""

# The modules the worker that made the snapshot could not import (boot/snapshot-worker.mjs).
FAILED_IN_WORKER = ("() => performance.getEntriesByName('lc:snapshot-done')[0]"
                    ".detail.timings.failed")


def snapshot_kept(page: Page) -> dict[str, object]:
    """Wait until the idle page has made its boot snapshot; the kept one."""
    page.wait_for_function(SNAPSHOT_SETTLED)
    assert page.evaluate(SNAPSHOT) == "kept", page.evaluate(
        "performance.getEntriesByName('lc:snapshot-done')[0]?.detail")
    kept = page.evaluate(KEPT)
    assert kept is not None and kept["bytes"] > 1_000_000
    return dict(kept)


def reboot(player: Player, expected: str) -> None:
    """Reload the page, wait until it is ready and check how it booted (html[data-boot])."""
    warnings: list[str] = []
    player.page.on("console", lambda message: warnings.append(message.text)
                   if message.type in ("warning", "error") else None)
    player.page.reload()
    wait_ready(player.page, page_errors=player.page_errors)
    assert player.page.evaluate(BOOT) == expected, warnings


def plays(page: Page) -> None:
    """The match resumed (or a new one from the setup or a finished match) goes on for a few
    turns by clicks: the page booted plays."""
    if screen(page) == "match-end":
        page.click('[data-action="new-match"]')
    if screen(page) == "setup":
        start_pass_and_play(page)
    assert play_turns(page, turns=3) == "handoff"


@pytest.mark.slow
def test_the_next_visits_boot_from_the_snapshot_and_play_online_and_offline(
    site: Path, open_player: Callable[[], Player]  # noqa: F811
) -> None:
    player = open_player()
    page = player.page
    with ExitStack() as stack:
        url = serve(stack, site)
        first_visit(player, url)
        assert page.evaluate(BOOT) == "normal"
        assert page.evaluate("() => 'Suspending' in WebAssembly") is False
        assert page.evaluate(STACK_SWITCHING) is False  # booted from the worker's image
        snapshot_kept(page)
        # The worker that started Python, kept until then for V8's code cache (boot/snapshot.mjs),
        # has ended with its runtime's memory.
        for worker in page.workers:  # one not yet reported closed cannot answer
            if worker.url.endswith("/snapshot-worker.mjs"):
                with pytest.raises(PlaywrightError):
                    worker.evaluate("1")
        # The worker imported every module of the game the page had, app-more.zip's too (only
        # PyScript's, which need its JavaScript, are left to the page).
        failed = page.evaluate(FAILED_IN_WORKER)
        assert "webui.online.lobby" not in failed, failed
        assert [name for name in failed if name.startswith(("webui", "lostcities"))] == []
        page.add_init_script(TASKS_BETWEEN)
        reboot(player, "snapshot")
        assert page.evaluate(STACK_SWITCHING) is False  # booted from the kept snapshot
        # The wasm is instantiated, linked and the image restored, each in a task of its own.
        assert page.evaluate(TASK_AFTER) == EVERY_STEP
        # The wasm came from the HTTP cache, with the code V8 compiled for it (boot/wasm-cache.mjs),
        # read by a worker (boot/later-visit-worker.mjs), which read and checked the snapshot too.
        assert page.evaluate(WASM) == "http-cache"
        assert page.evaluate(WASM_COMPILED) == "worker"
        assert page.evaluate(SNAPSHOT_READ) == "worker"
        plays(page)
        # Booted from a snapshot, the page takes no other.
        assert page.evaluate(SNAPSHOT) is None
    assert server_is_down(url)
    player.context.set_offline(True)
    reboot(player, "snapshot")
    assert page.evaluate(WASM) == "http-cache"  # no network needed
    plays(page)
    # A wasm in the HTTP cache that is not this version's copy is not used.
    page.evaluate(OTHER_WASM)
    reboot(player, "snapshot")
    assert page.evaluate(WASM) == "service-worker"
    plays(page)
    # When the worker fails (here: its script cannot be loaded), the page compiles the wasm and
    # reads and checks the snapshot itself.
    page.add_init_script(NO_LATER_VISIT_WORKER)
    reboot(player, "snapshot")
    assert page.evaluate(WASM_COMPILED) == "page"
    assert page.evaluate(SNAPSHOT_READ) == "page"
    plays(page)
    assert player.page_errors == []


@pytest.mark.slow
def test_a_damaged_older_or_failing_snapshot_is_dropped_and_the_page_boots_normally(
    site: Path, open_player: Callable[[], Player]  # noqa: F811
) -> None:
    player = open_player()
    page = player.page
    with ExitStack() as stack:
        url = serve(stack, site)
        first_visit(player, url)
        snapshot_kept(page)
        # A byte of it changed in storage.
        page.evaluate(REWRITE, "damaged")
        reboot(player, "normal")
        plays(page)
        snapshot_kept(page)  # dropped, and made again once the page was idle
        # One recorded for another build: the worker drops it instead of answering it.
        page.evaluate(REWRITE, "older")
        reboot(player, "normal")
        version = page.evaluate("() => window.lcPwa.version()")
        kept = page.evaluate(KEPT)
        assert kept is None or kept["meta"]["build"] == version  # or made again already
        plays(page)
        assert snapshot_kept(page)["meta"]["build"] == version
        # One that fails to restore: dropped, and this version takes no other.
        page.evaluate(REWRITE, "not-an-image")
        reboot(player, "normal")
        plays(page)
        page.wait_for_function(SNAPSHOT_SETTLED)
        assert page.evaluate(SNAPSHOT) == "refused" and page.evaluate(KEPT) is None
        reboot(player, "normal")
    assert player.page_errors == []


@pytest.mark.slow
def test_a_new_deploy_is_offered_between_games_only_starts_without_the_old_snapshot_and_keeps_the_saved_match(  # noqa: E501
    site: Path, open_player: Callable[[], Player]  # noqa: F811
) -> None:
    player = open_player()
    page = player.page
    with ExitStack() as stack:
        url = serve(stack, site)
        old = first_visit(player, url)
        snapshot_kept(page)
        reboot(player, "snapshot")
        start_pass_and_play(page)
        assert play_turns(page, turns=3) == "handoff"
        new = new_deploy(site)
        assert new != old
        since = len(player.finished)
        # The new worker's download of the changed file reaches the recorder as an event of
        # its own, which may come after the page hears of the update: wait for both.
        with player.context.expect_event("requestfinished", timeout=SW_TIMEOUT_MS,
                                         predicate=lambda r: r.url == url + "static/app.css"):
            page.evaluate("() => window.lcPwa.checkForUpdate()")
            page.wait_for_function(
                "() => document.documentElement.dataset.updateReady === 'true'",
                timeout=SW_TIMEOUT_MS)
        # The new worker downloaded only the changed file; the 13 MB runtime came from the old
        # cache. (The page's own idle work may meanwhile load the runtime's wasm from the HTTP
        # cache: boot/wasm-cache.mjs.)
        fetched = [r.url.removeprefix(url) for r in player.finished[since:]
                   if r.service_worker is not None and r.response() is not None
                   and not r.response().from_service_worker]
        assert "static/app.css" in fetched, fetched
        assert not any(u.endswith(".wasm") or "python_stdlib" in u for u in fetched), fetched
        # Nor any online library: the old version had none to copy, and they come on demand.
        libraries = {url + path for path in ONLINE_LIBRARIES}
        changed = url + CHANGED_LIBRARY
        assert libraries.isdisjoint(cached(page, new))
        # Going online now, with the old version's worker: it keeps the libraries of its own
        # version, not the one the server has changed since (its hash is not the old list's).
        assert page.evaluate(LOADED) == ["function", "function", "object"]
        assert libraries & set(cached(page, old)) == libraries - {changed}
        # Mid-match: ready, but not offered and not forced, even across a reload, which still
        # boots the old version from its snapshot.
        assert page.evaluate("() => window.lcPwa.updateReady()") is True
        assert not offered(page)
        reboot(player, "snapshot")
        page.wait_for_function("() => document.documentElement.dataset.updateReady === 'true'",
                               timeout=SW_TIMEOUT_MS)
        assert screen(page) == "handoff" and not offered(page)
        assert controlled_version(page) == old and deploy_marker(page) == ""
        # The match ends: between games, the offer appears.
        assert play_turns(page) == "match-end"
        assert offered(page)
        saved = page.evaluate(f"() => localStorage.getItem('{SAVE_KEY}')")
        assert saved
        with page.expect_navigation():
            page.click('[data-action="update"]')
        wait_ready(page, page_errors=player.page_errors)
        # The new version has its own cache: no snapshot of the old one; it makes its own.
        assert controlled_version(page) == new and page.evaluate(BOOT) == "normal"
        assert deploy_marker(page).strip() == "2"
        assert page.evaluate("() => caches.keys()") == [f"lostcities-{new}"]
        # The new version took the unchanged libraries the old one kept meanwhile, and fetches
        # and keeps the changed one when it is loaded.
        assert libraries & set(cached(page)) == libraries - {changed}
        assert page.evaluate(LOADED) == ["function", "function", "object"]
        assert changed in cached(page)
        assert page.evaluate("(url) => caches.match(url).then((r) => r.text())", changed) \
            .endswith(DEPLOY_COMMENT)
        assert page.evaluate(f"() => localStorage.getItem('{SAVE_KEY}')") == saved
        assert screen(page) == "match-end" and not offered(page)
        assert snapshot_kept(page)["meta"]["build"] == new
        reboot(player, "snapshot")
        assert screen(page) == "match-end"
    assert player.page_errors == []
