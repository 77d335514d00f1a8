"""The online screens' HTML without a browser: hooks, escaping, the QR drawing, both languages."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest

from webui.screens.online import (
    QUIET_ZONE, qr_svg, render_guest_waiting, render_host_waiting, render_lobby, status_bar,
    sync_mark,
)
from webui.text.i18n import t


class Tags(HTMLParser):
    """Every start tag with its attributes."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def find(self, **wanted: str | None) -> list[dict[str, str | None]]:
        return [a for _, a in self.tags
                if all(a.get(k.rstrip("_").replace("_", "-")) == v for k, v in wanted.items())]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_lobby_has_the_hooks(lang: str) -> None:
    tags = Tags(render_lobby(lang, code="k7p2qx", name="Ben"))
    assert tags.find(class_="online lobby")
    assert tags.find(data_action="create-room") and tags.find(data_action="join-room")
    (field,) = tags.find(data_field="room-code")
    assert field["value"] == "k7p2qx"
    assert tags.find(class_="online lobby", data_broker="checking")  # until the broker answers
    for broker in ("ok", "down"):
        assert Tags(render_lobby(lang, broker=broker)).find(data_broker=broker)
        assert Tags(render_lobby(lang, joining="Ana", broker=broker)).find(data_broker=broker)


def test_lobby_says_why_online_play_may_not_work() -> None:
    html = render_lobby("en", notice=t("en", "lobby.offline"))
    assert "needs a network" in html and 'class="online-warning"' in html


def test_host_waiting_room_shows_code_link_qr_and_share() -> None:
    link = "https://x.org/?room=K7P2QX"
    html = render_host_waiting("en", "K7P2QX", link, qr_svg([[True]], "QR"), True)
    tags = Tags(html)
    assert tags.find(class_="online waiting", data_role="host")
    assert tags.find(data_room_code="K7P2QX")
    assert tags.find(href=link)
    assert tags.find(data_action="share-room") and tags.find(data_action="copy-link")
    assert "<svg" in html
    no_share = Tags(render_host_waiting("en", "K7P2QX", link, "", False))
    assert not no_share.find(data_action="share-room")
    opening = Tags(render_host_waiting("en", None, None, "", False))
    assert opening.find(data_role="host") and not opening.find(data_room_code="K7P2QX")


def test_guest_waiting_and_status_bar_escape_what_players_type() -> None:
    html = render_guest_waiting("en", "K7P2QX",
                                error={"code": "host-refused", "data": {"message": "<b>no</b>"}})
    assert "<b>no</b>" not in html and "&lt;b&gt;no&lt;/b&gt;" in html
    bar = status_bar("en", "lost", "<Eve>", "K7P2QX", "1:play:3:0")
    tags = Tags(bar)
    assert tags.find(data_connection="lost", data_sync="1:play:3:0")
    assert "&lt;Eve&gt;" in bar and "<Eve>" not in bar


def test_leaving_a_match_asks_first() -> None:
    tags = Tags(status_bar("es", "connected", "Ana", "K7P2QX", confirm_leave=True,
                           playing=True))
    assert tags.find(role="alertdialog")
    assert len(tags.find(data_action="leave-room")) == 1 and tags.find(data_action="stay")


def test_one_way_out_of_an_online_match() -> None:
    playing = Tags(status_bar("en", "connected", "Ana", "K7P2QX", playing=True))
    assert not playing.find(data_action="leave-room")  # the table's Abandon is the way out
    over = Tags(status_bar("en", "connected", "Ana", "K7P2QX", playing=False))
    assert len(over.find(data_action="leave-room")) == 1


def test_sync_mark_names_round_phase_events_and_player_to_act() -> None:
    view = {"round": 2, "phase": "draw", "log": [{}, {}, {}], "to_act": 1}
    assert sync_mark(view) == "2:draw:3:1"


def test_qr_svg_draws_one_square_per_dark_module_inside_a_quiet_zone() -> None:
    matrix = [[True, False, True], [False, True, False], [True, False, False]]
    svg = qr_svg(matrix, "QR code")
    squares = re.findall(r"M(\d+) (\d+)h1v1h-1z", svg)
    dark = {(r, c) for r, row in enumerate(matrix) for c, d in enumerate(row) if d}
    assert {(int(y) - QUIET_ZONE, int(x) - QUIET_ZONE) for x, y in squares} == dark
    size = len(matrix) + 2 * QUIET_ZONE
    assert f'viewBox="0 0 {size} {size}"' in svg and 'aria-label="QR code"' in svg


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_badge_says_when_the_host_is_gone(lang: str) -> None:
    here = Tags(status_bar(lang, "lost", "Ana", "K7P2QX"))
    assert here.find(data_connection="lost") and not here.find(data_host_away="closed")
    for away in ("closed", "left"):
        bar = status_bar(lang, "lost", "Ana", "K7P2QX", host_away=away)
        assert Tags(bar).find(data_connection="lost", data_host_away=away)
        assert t(lang, f"status.host.{away}", name="Ana") in bar


@pytest.mark.parametrize(("lang", "from_ana", "by_code", "host"), [
    ("en", "Join Ana's room", "Join room K7P2QX", "Host a match of my own instead"),
    ("es", "Unirse a la sala de Ana", "Unirse a la sala K7P2QX", "Prefiero organizar mi partida"),
])
def test_the_join_screen_says_whose_room_in_each_language(lang: str, from_ana: str,
                                                         by_code: str, host: str) -> None:
    named = render_lobby(lang, code="K7P2QX", joining="Ana")
    assert from_ana in unescape(named) and host in unescape(named)
    assert by_code in unescape(render_lobby(lang, code="K7P2QX", joining=""))
    tags = Tags(named)
    assert tags.find(data_action="join-room") and tags.find(data_action="lobby-host")
    assert not tags.find(data_action="create-room")
