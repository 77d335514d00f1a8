"""A hostile host, end to end: a guest page fed views with markup by a scripted host.

The host is a page of the app in its own context that runs no Python (hold_python): a script
registers the room's PeerJS id on the real loopback broker, answers the guest's hello with a
welcome, then sends the views the test gives it (raw JSON text, as the app's host does). The
dev server sends no Content-Security-Policy, so markup that reached the DOM would run: an
``onerror`` payload sets ``window.__pwned``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from conftest import AppPage, hold_python
from playwright.sync_api import Page

from lostcities import Options, new_match, view
from lostcities.protocol import APP_VERSION, PROTOCOL_VERSION
from webui.online.codes import ALPHABET, CODE_LENGTH

PAYLOAD = "<img src=x onerror=window.__pwned=1>"

SCRIPTED_HOST = """
async ([code, welcome, views]) => {
  await window.lcOnlineLibraries();  // PeerJS, as the app loads it for online play
  const config = await window.LC_CONFIG;
  const peer = new Peer("lostcities-" + code,
                        {...config.peer, config: {iceServers: config.iceServers}});
  await new Promise((resolve, reject) => { peer.on("open", resolve); peer.on("error", reject); });
  window.__hellos = 0;
  peer.on("connection", (conn) => {
    let seq = 0;
    const send = (message) => conn.send(JSON.stringify({v: 1, seq: ++seq, ...message}));
    conn.on("data", (data) => {
      const message = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data));
      if (message.type !== "hello") return;
      window.__hellos += 1;
      send({...welcome, ref_seq: message.seq});
      for (const view of views) send({type: "view", view});
    });
  });
}
"""
"""Registers the room on the broker; to each hello: a welcome, then every view in order."""

INJECTED = """() => ({
  pwned: typeof window.__pwned,
  images: document.querySelectorAll("img").length,
  injected: document.querySelectorAll("#app img, #app script, #app iframe, #app [onerror]").length,
})"""
"""What markup from the host would have left in the guest's page."""

NOTICE_OR_HARM = """() => document.querySelector(".online-error[role=alert]")
  || document.querySelector("img, #app script, #app iframe, #app [onerror]")
  || window.__pwned !== undefined"""
"""The state after the guest handled the hostile view: its error notice, or the harm done."""


def room_code() -> str:
    """A fresh room code (each test its own room on the shared broker)."""
    return "".join(random.choice(ALPHABET) for _ in range(CODE_LENGTH))


def guest_view(names: tuple[str, str] = ("Ana", "Ben")) -> dict[str, Any]:
    """A real view for the guest's seat (1) at the start of a match."""
    state = new_match(Options(rounds=1), seed=5, names=names, first_player=0)
    return json.loads(json.dumps(view(state, 1)))  # type: ignore[no-any-return]


def scripted_host(open_app: Callable[..., AppPage], code: str,
                  views: list[dict[str, Any]]) -> AppPage:
    host = open_app(ready=False, setup=hold_python)
    welcome = {"type": "welcome", "protocol": PROTOCOL_VERSION, "app": APP_VERSION, "seat": 1,
               "match": True}
    host.page.evaluate(SCRIPTED_HOST, [code, welcome, views])
    return host


def notice_text(guest: Page) -> str:
    """The guest's error notice once it handled the hostile view (fails at once on harm)."""
    guest.wait_for_function(NOTICE_OR_HARM)
    assert guest.evaluate(INJECTED) == {"pwned": "undefined", "images": 0, "injected": 0}
    notice = guest.locator(".online-error[role=alert]")
    assert notice.count() == 1
    return notice.inner_text()


def join(guest: Page, code: str) -> None:
    """From the setup screen: online, the lobby, the code and a name, join."""
    guest.locator('[data-option="mode"][value="online"]').check()
    guest.locator('[data-action="start"]').click()
    guest.wait_for_selector('[data-screen="lobby"]')
    guest.fill('[data-field="room-code"]', code)
    guest.fill('[data-field="guest-name"]', "Ben")
    guest.click('[data-action="join-room"]')


def test_a_hostile_view_after_a_good_one_is_refused_and_the_table_stays(
        open_app: Callable[..., AppPage]) -> None:
    good = guest_view()
    hostile = guest_view()
    hostile["totals"] = [PAYLOAD, 0]
    hostile["deck_count"] = PAYLOAD
    hostile["names"] = [PAYLOAD, "Ben"]
    code = room_code()
    host = scripted_host(open_app, code, [good, hostile])
    guest = open_app()
    join(guest.page, code)
    text = notice_text(guest.page)
    assert "not valid" in text and PAYLOAD[:10] in text  # the refused value, shown as text
    assert guest.page.evaluate("() => document.body.dataset.screen") == "turn"
    deck = guest.page.locator(".deck-count").inner_text()
    assert deck == str(good["deck_count"])  # the good view's table, unchanged
    assert guest.page.locator(".who .name").all_inner_texts() == ["Ana", "Ben"]
    assert guest.page.evaluate(INJECTED) == {"pwned": "undefined", "images": 0, "injected": 0}
    assert host.page.evaluate("() => window.__hellos") == 1
    assert guest.page_errors == []


def test_a_hostile_first_view_starts_nothing_and_says_why(
        open_app: Callable[..., AppPage]) -> None:
    hostile = guest_view()
    hostile["scores"][0]["total"] = PAYLOAD
    code = room_code()
    scripted_host(open_app, code, [hostile])
    guest = open_app()
    join(guest.page, code)
    assert "scores[0].total" in notice_text(guest.page)
    assert guest.page.evaluate("() => document.body.dataset.screen") == "waiting"
    assert guest.page.evaluate(INJECTED) == {"pwned": "undefined", "images": 0, "injected": 0}
    assert guest.page_errors == []


def test_a_valid_view_with_markup_for_a_name_shows_it_as_text(
        open_app: Callable[..., AppPage]) -> None:
    shown = guest_view(names=(PAYLOAD, "Ben"))
    code = room_code()
    scripted_host(open_app, code, [shown])
    guest = open_app()
    join(guest.page, code)
    guest.page.wait_for_selector('[data-screen="turn"] .who .name')
    assert guest.page.locator(".who .name").all_inner_texts() == [PAYLOAD, "Ben"]
    assert PAYLOAD in guest.page.locator(".online-status").inner_text()  # the opponent's name
    assert guest.page.locator(".online-error").count() == 0
    assert guest.page.evaluate(INJECTED) == {"pwned": "undefined", "images": 0, "injected": 0}
