"""A fair match online, end to end: two Chromium pages on the loopback broker play a whole
match with every option on, by clicks on the page whose turn it is (e2e/onlinekit.py), each
page reloaded once mid-round; neither page ever receives or stores a card its player may not
see at that moment, as a card code or as the card's group point (tests/leakcheck.py: every
message each page's data channel delivered and every localStorage write it made, recorded by
an init script, checked against a native replay of that page's own save and the truth both
saves give once the match is over)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

from conftest import AppPage, wait_ready
from onlinekit import (
    ALL_OPTIONS, Chooser, Record, create_room, join_room, recorded, saved_text, sync_of,
    wait_connection, wait_synced,
)
import pytest
from playwright.sync_api import Page

from webui.online.codes import GUEST_KEY, HOST_KEY

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from leakcheck import LeakCheck  # noqa: E402 - tests/leakcheck.py, shared

KINDS = ("pick-job", "play", "discard", "draw", "undo", "radio", "airlift", "sabotage")
"""Every kind of move of a one-round match (the next round's shuffle over the wire is proven
natively, tests/test_fair_match.py; in the browser, by the rematch's new match)."""


def reload_mid_round(page: Page, other: Page, chooser: Chooser) -> None:
    """Reload `page` between two moves of a round: it takes back its seat, and both screens
    come back to the position they showed."""
    mark = sync_of(page)
    assert mark is not None and mark.split(":")[1] in ("play", "draw")
    page.reload()
    wait_ready(page)
    wait_connection("connected", page, other)
    assert wait_synced(page, other) == mark
    chooser.mark = mark


@pytest.mark.slow
def test_a_whole_fair_match_with_every_option_leaks_nothing_and_survives_reloads(
        open_app: Callable[..., AppPage]) -> None:
    records = {"host": Record(), "guest": Record()}
    host = open_app(setup=recorded(records["host"]))
    guest = open_app(setup=recorded(records["guest"]))
    code = create_room(host, rounds=1, options=ALL_OPTIONS, starts="random")
    join_room(guest, code)
    chooser = Chooser((host.page, guest.page), random.Random(5))
    chooser.mark = wait_synced(host.page, guest.page)
    wait_connection("connected", host.page, guest.page)
    for reloaded, other, draws in ((guest.page, host.page, 8), (host.page, guest.page, 20)):
        while not (chooser.moves["draw"] >= draws
                   and str(chooser.mark).split(":")[1] in ("play", "draw")):
            assert chooser.step()
        reload_mid_round(reloaded, other, chooser)
    chooser.play()
    for page in (host.page, guest.page):
        page.wait_for_selector('[data-screen="match-end"]')
    totals = [[page.inner_text(f'[data-total][data-player="{p}"]') for p in (0, 1)]
              for page in (host.page, guest.page)]
    assert totals[0] == totals[1]
    winners = [page.get_attribute("[data-winner]", "data-winner")
               for page in (host.page, guest.page)]
    assert winners[0] == winners[1]
    assert all(chooser.moves[kind] for kind in KINDS), chooser.moves
    # what each page received and stored, against what its player could see then
    saves = [json.loads(saved_text(page, key) or "null")["peer"]
             for page, key in ((host.page, HOST_KEY), (guest.page, GUEST_KEY))]
    check = LeakCheck((saves[0], saves[1]))
    check.check_page(0, records["host"].events)
    check.check_page(1, records["guest"].events)
    # The recordings are not empty: a one-round match sends each page ~100 messages (it
    # varies with the deal and the moves) and each page saves after most of them.
    for record in records.values():
        assert record.count("rx") > 50 and record.count("store") > 10
    assert not host.page_errors and not guest.page_errors
