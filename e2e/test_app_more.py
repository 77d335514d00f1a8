"""app-more.zip (py/webui/browser/boot/more.py): the first screen is ready without it, a click
that comes before it waits for it and is then carried out, and a page that cannot fetch it
still plays matches on this device, and says what it lacks. The app's zips and the standard
library come gzipped whole (boot/build/app_zip.py); a host that sends them decoded is served
too."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, Route

from conftest import AppPage, unpacked_zip
from webui.text.i18n import t

MORE = "**/static/vendor/app-more.zip.gz"
APP = "**/static/vendor/app.zip.gz"
STDLIB = "**/static/vendor/pyodide/python_stdlib.zip.gz"
DATA_MORE = "() => document.documentElement.dataset.more ?? null"


def screen(page: Page) -> str | None:
    """The screen shown (body[data-screen], set by py/webui/browser/page.py)."""
    return page.evaluate("() => document.body.dataset.screen ?? null")


def test_the_first_screen_needs_no_app_more_zip_and_a_click_waits_for_it(
    open_app: Callable[..., AppPage],
) -> None:
    held: list[Route] = []
    app = open_app(setup=lambda page: page.route(MORE, lambda route: held.append(route)))
    page = app.page  # ready (html[data-ready]) though app-more.zip is not there
    for _ in range(600):  # the page asks for it once ready: wait for that request (a state)
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1 and page.evaluate(DATA_MORE) is None
    assert screen(page) == "setup"
    page.click('[data-action="stats"]')  # the player's statistics come with app-more.zip
    assert screen(page) == "setup" and page.evaluate(DATA_MORE) is None
    held[0].continue_()
    page.wait_for_function(f"() => ({DATA_MORE})() === 'loaded'")
    page.wait_for_selector('body[data-screen="stats"]')  # the click waited, and was done
    page.click('[data-action="stats-close"]')
    page.wait_for_selector('body[data-screen="setup"]')
    page.click('[data-action="start"]')  # and the page plays
    page.wait_for_selector('body[data-screen="handoff"]')
    assert app.page_errors == [] and app.console_errors == []


def test_a_page_without_app_more_zip_plays_on_this_device_and_says_so(
    open_app: Callable[..., AppPage],
) -> None:
    app = open_app(setup=lambda page: page.route(MORE, lambda route: route.fulfill(status=404)))
    page = app.page
    page.wait_for_function(f"() => ({DATA_MORE})() === 'failed'")
    page.wait_for_function("text => document.querySelector('#notice').innerText.includes(text)",
                           arg=t("en", "notice.more-failed"))
    page.click('[data-action="start"]')
    page.wait_for_selector('body[data-screen="handoff"]')
    assert app.page_errors == []


def test_zips_a_host_sent_decoded_are_taken_as_they_are(
    open_app: Callable[..., AppPage],
) -> None:
    # A host that sends a .gz with Content-Encoding: gzip hands the page the zip itself: the
    # app's zips and the standard library's (which the page unpacks for the runtime).
    def decoded(route: Route) -> None:
        path = route.request.url.split("/static/vendor/", 1)[1]
        route.fulfill(status=200, body=unpacked_zip(path),
                      headers={"Content-Type": "application/zip"})

    def setup(page: Page) -> None:
        page.route(APP, decoded)
        page.route(MORE, decoded)
        page.route(STDLIB, decoded)

    app = open_app(setup=setup)
    page = app.page
    page.wait_for_function(f"() => ({DATA_MORE})() === 'loaded'")
    page.click('[data-action="stats"]')
    page.wait_for_selector('body[data-screen="stats"]')
    assert app.page_errors == [] and app.console_errors == []
