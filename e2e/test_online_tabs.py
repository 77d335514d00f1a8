"""One tab per seat, end to end (webui/online/seatlock.py on the Web Locks API): a guest whose
browser opens a second tab on the same room's join link in the SAME browser context. The
second tab runs no seat (no PeerJS socket, no data channel) and says the match is open in
another tab; taking it over moves the seat there, the match goes on with the host, and the
first tab disconnects, says the match moved, and sends nothing more.
Two contexts in all (the host's and the guest's), the real broker on loopback."""

from __future__ import annotations

import random
from collections.abc import Callable

from conftest import AppPage, wait_ready
from onlinekit import Chooser, create_room, join_room, sync_of, wait_connection, wait_synced
from playwright.sync_api import Page
from test_online import CHANNEL
from test_table import assert_accessible

SOCKETS = """
(() => {
  window.__lcSockets = 0; window.__lcSocketList = [];
  window.WebSocket = new Proxy(window.WebSocket, {
    construct(target, args) {
      const socket = new target(...args);
      window.__lcSockets += 1; window.__lcSocketList.push(socket);
      return socket;
    },
  });
})();
"""
"""Counts the WebSockets the page opens (PeerJS's to the broker) in `window.__lcSockets`, and
keeps them (`window.__lcSocketList`)."""

HUNG_UP = """() => window.__lcSocketList.every((socket) => socket.readyState >= 2)
  && window.__lcChannels.every((channel) => channel.readyState !== 'open')"""
"""The page has left the broker and closed its data channels."""


def watched(page: Page) -> None:
    """open_app setup: the channel recorder (test_online.CHANNEL) and the socket counter."""
    page.add_init_script(CHANNEL)
    page.add_init_script(SOCKETS)


def test_a_second_tab_runs_no_seat_until_it_takes_over_and_the_first_then_stops(
        open_app: Callable[..., AppPage]) -> None:
    """The second tab opens on the join link (one that resumes the page itself goes the same
    way through the lobby: tests/test_online_lobby.py)."""
    host = open_app()
    guest = open_app(setup=watched)
    code = create_room(host, starts="0")
    join_room(guest, code)
    first = guest.page
    chooser = Chooser((host.page, first), random.Random(5))
    chooser.mark = wait_synced(host.page, first)
    chooser.step()
    chooser.step()
    # a second tab of the guest's browser, on the join link
    second = first.context.new_page()
    watched(second)
    base = first.url.split("?")[0]
    second.goto(base + f"?room={code}")
    wait_ready(second)
    notice = second.wait_for_selector('[data-screen="elsewhere"] [data-tab="elsewhere"]')
    assert notice is not None and "open in another tab" in notice.inner_text()
    assert_accessible(second, "the seat open in another tab")
    assert second.evaluate("() => [window.__lcSockets, window.__lcChannels.length]") == [0, 0]
    # the first tab plays on with the host meanwhile; the second still runs nothing
    chooser.step()
    assert second.evaluate("() => [window.__lcSockets, window.__lcChannels.length]") == [0, 0]
    assert second.locator('[data-tab="elsewhere"]').count() == 1
    mark = str(chooser.mark)
    # take over: the first tab stops, the second plays on with the host
    second.click('[data-action="take-over"]')
    moved = first.wait_for_selector('[data-screen="elsewhere"] [data-tab="moved"]')
    assert moved is not None and "moved to another tab" in moved.inner_text()
    first.wait_for_function(HUNG_UP)  # disconnected: its seat no longer runs
    sent = first.evaluate("() => [window.__lcTx.length, window.__lcSockets]")
    assert wait_synced(host.page, second) == mark
    wait_connection("connected", host.page, second)
    assert second.evaluate("() => window.__lcSockets") >= 1  # it runs the seat now
    chooser.pages = (host.page, second)
    for _ in range(4):
        assert chooser.step()
    assert sync_of(host.page) == sync_of(second) == chooser.mark
    # the first tab sent nothing more, dialled nothing more, and is still hung up
    assert first.evaluate("() => [window.__lcTx.length, window.__lcSockets]") == sent
    assert first.evaluate(HUNG_UP) and first.locator('[data-tab="moved"]').count() == 1
    assert not host.page_errors and not guest.page_errors
