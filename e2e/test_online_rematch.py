"""An online rematch, end to end: two Chromium pages on the loopback broker finish a one-round
match, both players press Play again (the second accepting the first's request), and the next
match starts in the same room, on the same pages; one page reloads mid-match and takes it back;
the match is played to its end, and both screens show the same series score, the one the two
matches' totals make (webui/online/seat.py `ask_rematch`, hooks in e2e/README.md). A page that
saw a whole match replays it, the other hand hidden."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from conftest import AppPage, wait_ready
from onlinekit import Chooser, create_room, join_room, saved_text, wait_connection, wait_synced
import pytest
from playwright.sync_api import Page

from webui.online.codes import GUEST_KEY, HOST_KEY


def totals_of(page: Page) -> list[int]:
    """The match's totals the match-end screen shows, by player."""
    return [int(page.inner_text(f'[data-total][data-player="{p}"]')) for p in (0, 1)]


def series_of(page: Page) -> list[int]:
    """The series score the match-end screen shows: matches won, by player."""
    return [int(page.inner_text(f'[data-series][data-player="{p}"]')) for p in (0, 1)]


def room_of(page: Page, key: str) -> tuple[str, int]:
    """The room code and match number a page's save holds."""
    doc = json.loads(saved_text(page, key) or "null")
    return doc["code"], doc["match"]


def finish(chooser: Chooser, pages: tuple[Page, Page]) -> list[int]:
    """Play to the match's end; both screens show it with the same totals, returned."""
    chooser.play()
    for page in pages:
        page.wait_for_selector('[data-screen="match-end"]')
    totals = [totals_of(page) for page in pages]
    assert totals[0] == totals[1]
    return totals[0]


def replay_hidden(page: Page, me: int) -> None:
    """The match-end's Replay opens the match as this page saw it, the other hand hidden at
    every step, and closes back to the match-end."""
    page.click('[data-action="replay"]')
    page.wait_for_selector('[data-screen="replay"]')
    for action in ("replay-next", "replay-round-end"):
        hidden = page.locator("[data-replay-hand][data-hidden]")
        assert hidden.get_attribute("data-player") == str(1 - me)
        assert hidden.locator("[data-card]").count() == 0
        assert page.locator(f'[data-replay-hand][data-player="{me}"] [data-card]').count()
        page.click(f'[data-action="{action}"] >> nth=0')
    page.wait_for_selector('[data-replay-step][data-step]:not([data-step="0"])')
    page.click('[data-action="replay-close"]')
    page.wait_for_selector('[data-screen="match-end"]')


def wins(matches: list[list[int]]) -> list[int]:
    return [sum(1 for m in matches if m[p] > m[1 - p]) for p in (0, 1)]


@pytest.mark.slow
def test_an_online_rematch_keeps_the_room_and_both_screens_count_the_same_series(
        open_app: Callable[..., AppPage]) -> None:
    host, guest = open_app(), open_app()
    code = create_room(host, rounds=1)
    join_room(guest, code)
    pages = (host.page, guest.page)
    chooser = Chooser(pages, random.Random(7))
    chooser.mark = wait_synced(*pages)
    wait_connection("connected", *pages)
    matches = [finish(chooser, pages)]
    for page in pages:
        assert series_of(page) == wins(matches)
        assert page.locator('[data-action="play-again"]').is_enabled()
    replay_hidden(host.page, me=0)
    # the host asks; the guest's screen says so, and its Play again accepts
    host.page.click('[data-action="play-again"]')
    host.page.wait_for_selector('[data-rematch="asked"]')
    assert host.page.locator('[data-action="play-again"]').count() == 0
    guest.page.wait_for_selector('[data-rematch="invited"]')
    end_mark = chooser.mark
    guest.page.click('[data-action="play-again"]')
    chooser.mark = wait_synced(*pages, before=end_mark)
    for page in pages:
        page.wait_for_selector('[data-screen="turn"]')
    assert room_of(host.page, HOST_KEY) == (code, 2) and room_of(guest.page, GUEST_KEY) == (
        code, 2)
    # a reload of the guest's page once the new match began takes it back
    for _ in range(6):
        assert chooser.step()
    mark = chooser.mark
    guest.page.reload()
    wait_ready(guest.page)
    wait_connection("connected", *pages)
    assert wait_synced(*pages) == mark
    assert room_of(guest.page, GUEST_KEY) == (code, 2)
    matches.append(finish(chooser, pages))
    for page in pages:
        assert series_of(page) == wins(matches)
        assert page.get_attribute(".series", "data-series-matches") == "2"
    # the guest's page reloaded mid-round: the round's log holds the moves before the reload
    replay_hidden(host.page, me=0)
    replay_hidden(guest.page, me=1)
    assert not host.page_errors and not guest.page_errors
