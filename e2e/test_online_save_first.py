"""Save before send, end to end: two pages online, the real broker on loopback. The guest's
page is made to fail (an init script wraps localStorage.setItem) at its first write of a
fair save that adds a message it made, once armed: the write of its answer to the host's deck
draw (the drawn card's share). That page sends nothing, says it cannot go on, and is closed;
reopened on the room in the same browser context, it resumes from its older save, the host's
page resends its draw, and the answer is made again and sent once. The host's page never
receives a message number twice (it would stop the match with ``replayed``), and the match
goes on (to its end in e2e/test_fair_online.py, where each page reloads mid-round)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from conftest import AppPage, wait_ready
from onlinekit import (
    Chooser, Record, click, create_room, join_room, recorded, wait_synced,
)
import pytest
from playwright.sync_api import Page
from test_online import CHANNEL

from webui.online.codes import GUEST_KEY

FAIL_ONCE = """
(() => {
  const setItem = Storage.prototype.setItem;
  const made = (text) => (String(text ?? "").match(/"dir": "out"/g) || []).length;
  window.__lcRefused = 0;
  Storage.prototype.setItem = function (key, value) {
    if (this === window.localStorage && key === KEY && window.__lcFailNext
        && made(value) > made(this.getItem(key))) {
      window.__lcFailNext = false;
      window.__lcRefused += 1;
      throw new DOMException("the quota has been exceeded", "QuotaExceededError");
    }
    return setItem.call(this, key, value);
  };
})();
""".replace("KEY", json.dumps(GUEST_KEY))
"""Once `window.__lcFailNext` is set, the next write of the guest's save that holds more
messages this page made than the stored one throws QuotaExceededError (and disarms)."""

FAIR_SENT = "() => window.__lcTx.filter((text) => String(text).includes('\"fair\"')).length"
"""How many fair messages the page's data channels have sent."""


def guest_page(page: Page) -> None:
    """open_app setup: the channel recorder and the failing write."""
    page.add_init_script(CHANNEL)
    page.add_init_script(FAIL_ONCE)


@pytest.mark.slow
def test_a_page_whose_answer_was_not_saved_sends_nothing_then_answers_once_on_reopening(
        open_app: Callable[..., AppPage]) -> None:
    heard = Record()
    host = open_app(setup=recorded(heard))
    guest = open_app(setup=guest_page)
    code = create_room(host, starts="0")
    join_room(guest, code)
    chooser = Chooser((host.page, guest.page), random.Random(7))
    chooser.mark = wait_synced(host.page, guest.page)
    # on until the host is to draw and may draw from the deck
    for _ in range(200):
        found = chooser.actor()
        assert found is not None
        page, _, by = found
        if page is host.page and any(b.get("source") == "deck" for b in by.get("draw", [])):
            break
        chooser.step()
    else:
        raise AssertionError("the host never came to draw from the deck")
    mark = str(chooser.mark)
    sent = guest.page.evaluate(FAIR_SENT)
    guest.page.evaluate("() => { window.__lcFailNext = true; }")
    click(host.page, {"action": "draw", "source": "deck"})
    # the guest's page made its answer, could not save it: it sent nothing, and says so
    guest.page.wait_for_selector('[data-halted="unsaved"]')
    assert "nothing was sent" in guest.page.inner_text(".online-error[role=alert]")
    assert guest.page.evaluate("() => window.__lcRefused") == 1
    assert guest.page.evaluate(FAIR_SENT) == sent
    host.page.wait_for_selector("[data-sync][data-waiting]")  # the host waits on the answer
    # the page is closed, and opened again on the room: it resumes from its older save
    context, url = guest.page.context, guest.page.url.split("?")[0]
    guest.page.close()
    again = context.new_page()
    guest_page(again)
    again.goto(url + f"?room={code}")
    wait_ready(again)
    chooser.pages = (host.page, again)
    after = wait_synced(host.page, again, mark)  # the draw, answered: both show it
    assert after != mark
    assert again.evaluate(FAIR_SENT) >= 1 and again.evaluate("() => window.__lcRefused") == 0
    chooser.mark = after
    for _ in range(12):  # the match goes on, both screens in step after each move
        assert chooser.step()
    # the host's page (never reloaded) received each of the guest's message numbers once
    seqs = [json.loads(text)["seq"] for kind, text in heard.events
            if kind == "rx" and '"fair"' in text]
    assert len(seqs) == len(set(seqs)), "the host's page received a message number twice"
    assert seqs == list(range(1, len(seqs) + 1))
    assert host.page.locator(".online-error").count() == 0
    assert not host.page_errors
