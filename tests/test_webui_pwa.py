"""The update offer's HTML (py/webui/screens/update_offer.py); the browser side is tested in
e2e/test_pwa.py."""

from __future__ import annotations

import pytest

from webui.screens import update_offer
from webui.text.i18n import LANGUAGES, t


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_offer_is_a_status_line_and_an_update_button(lang: str) -> None:
    html = update_offer.offer_html(lang)
    assert html.startswith('<div class="notice update" role="status">')
    assert 'data-action="update"' in html and 'type="button"' in html
    assert t(lang, "update.button") in html
    assert t(lang, "update.offer") in html


def test_the_offer_is_never_shown_during_a_game() -> None:
    # Screens of a game in progress never reach the browser bridge (no update is queried).
    asked: list[str] = []

    def ready() -> bool:
        asked.append("ready?")
        return True

    for screen in ("handoff", "turn", "jobs", "round-end", "lobby", ""):
        assert update_offer.offer("en", screen, ready) == ""
    assert asked == []
    for screen in ("setup", "match-end"):
        assert update_offer.offer("en", screen, ready) == update_offer.offer_html("en")
    assert update_offer.offer("en", "setup", lambda: False) == ""
    assert update_offer.BETWEEN_GAMES == {"setup", "match-end"}
