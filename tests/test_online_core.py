"""The online part without a browser: room codes, join links, the pages' control messages,
the heartbeat and the flood budget (the seats' matches themselves: tests/test_fair_seats.py)."""

from __future__ import annotations

import json

import pytest
from fairseats import GROUP, TOKEN, Pair

from lostcities import Options
from lostcities.protocol import APP_VERSION
from webui.online import control
from webui.online.codes import (
    ALPHABET, code_from_query, host_from_query, join_link, new_code, normalize_code, peer_id,
    without_join_link,
)
from webui.online.control import ControlError, MatchSetup
from webui.online.guest import FairGuest
from webui.online.liveness import (
    BURST, BYTES_PER_TOKEN, LOST_AFTER, MAX_COST, RATE, RateLimit, connection_state,
    message_cost,
)

# ---- codes -----------------------------------------------------------------------------------


def test_codes_avoid_look_alikes_and_normalize() -> None:
    assert not set("0O1IL") & set(ALPHABET)
    code = new_code()
    assert len(code) == 6 and set(code) <= set(ALPHABET)
    assert normalize_code(" abc-def ") == "ABCDEF"
    assert peer_id("abcdef") == "lostcities-ABCDEF"
    for bad in ("ABCDE", "ABCDEFG", "ABCDE0", "ABCDEO", 12, "ABC DE!"):
        with pytest.raises(ValueError):
            normalize_code(bad)


def test_join_link_says_whose_room_it_is_cleaned_as_a_name() -> None:
    link = join_link("https://x.org/lc/", "abcdef", "Ana María & <b>Co</b>")
    query = link.split("?", 1)[1]
    assert code_from_query(query) == "ABCDEF"
    assert host_from_query(query) == "Ana María & <b>Co</b>"  # escaped where it is shown
    assert host_from_query("?room=ABCDEF&host=%E2%80%AEevil%00%20%20x") == "evil x"
    assert host_from_query("?room=ABCDEF&host=" + "a" * 500) == "a" * 40
    assert host_from_query("?room=ABCDEF") == ""
    assert "host=" not in join_link("https://x/", "abcdef")


def test_join_link_keeps_broker_and_fills_the_code() -> None:
    link = join_link("https://x.org/lc/?broker=p.x.org:443/a&seed=3&room=ZZZZZZ#f", "abcdef")
    assert link == "https://x.org/lc/?broker=p.x.org%3A443%2Fa&room=ABCDEF"
    assert code_from_query(link.split("?", 1)[1]) == "ABCDEF"
    assert code_from_query("?lang=es") is None


def test_a_forgotten_join_link_keeps_the_addresses_other_parameters() -> None:
    assert without_join_link("?room=ABCDEF&host=Ana") == ""
    assert without_join_link("?broker=p.x.org%3A443&room=ABCDEF&lang=es&host=Ana") \
        == "?broker=p.x.org%3A443&lang=es"
    assert without_join_link("?lang=es") == "?lang=es" and without_join_link("") == ""


def test_liveness_states() -> None:
    assert connection_state(True, 0.5) == "connected"
    assert connection_state(True, 5.0) == "reconnecting"
    assert connection_state(False, 1.0) == "reconnecting"
    assert connection_state(True, LOST_AFTER) == "lost"


# ---- control messages -------------------------------------------------------------------------


SETUP = MatchSetup(Options(rounds=2, jobs=True), ("Ana", "Ben"), None)


def test_control_messages_round_trip() -> None:
    hello = control.parse(control.hello(APP_VERSION, "Ben", 2, 17))
    assert hello == control.Control("hello", app=APP_VERSION, name="Ben", match=2, last=17)
    welcome = control.parse(control.welcome(APP_VERSION, 1, 0, SETUP))
    assert welcome is not None and welcome.setup == SETUP and welcome.match == 1
    assert control.parse(control.ping()) == control.Control("ping")
    assert control.parse(control.bye()) == control.Control("bye")
    refused = control.parse(control.refused("forbidden", "x" * 1000))
    assert refused is not None and refused.code == "forbidden" and len(refused.message) == 300


@pytest.mark.parametrize("text", [
    '{"fair": 1, "seq": 1}', "[1]", "not json", '{"lc": "ping"' + " " * 5000 + "}",
    "[" * 100 + "]" * 100,
])
def test_what_is_not_a_control_message_is_left_to_the_fair_peer(text: str) -> None:
    assert control.parse(text) is None


@pytest.mark.parametrize("data, says", [
    ({"lc": "dance"}, "unknown control message"),
    ({"lc": "ping", "x": 1}, "exactly lc"),
    ({"lc": "hello", "app": "0.1.0", "name": "Ben", "match": -1, "last": 0}, "match"),
    ({"lc": "hello", "app": "0.1.0", "name": "Ben", "match": True, "last": 0}, "match"),
    ({"lc": "hello", "app": "0.1.0", "name": "", "match": 0, "last": 0}, "name"),
    ({"lc": "hello", "app": "0.1.0", "name": "B\u200ben", "match": 0, "last": 0}, "name"),
    ({"lc": "hello", "app": "x" * 33, "name": "Ben", "match": 0, "last": 0}, "app"),
    ({"lc": "welcome", "app": "0.1.0", "name": "Ben", "match": 0, "last": 0}, "exactly"),
    ({"lc": "welcome", "app": "0.1.0", "match": 0, "last": 0, "setup": SETUP.to_json()},
     "match"),
    ({"lc": "welcome", "app": "0.1.0", "match": 1, "last": 0,
      "setup": {**SETUP.to_json(), "first": 2}}, "first"),
    ({"lc": "welcome", "app": "0.1.0", "match": 1, "last": 0,
      "setup": {**SETUP.to_json(), "options": {"rounds": 9}}}, "options"),
    ({"lc": "welcome", "app": "0.1.0", "match": 1, "last": 0,
      "setup": {**SETUP.to_json(), "names": ["Ana"]}}, "two names"),
    ({"lc": "refused", "code": "teapot", "message": ""}, "refusal code"),
])
def test_a_malformed_control_message_says_what_is_wrong(data: object, says: str) -> None:
    with pytest.raises(ControlError, match=says):
        control.parse(json.dumps(data))


# ---- the budget and the heartbeat ------------------------------------------------------------


def test_rate_limit_allows_a_burst_then_the_rate_and_charges_by_size() -> None:
    limit = RateLimit(0.0, rate=10.0, burst=3)
    assert [limit.allow(0.0) for _ in range(4)] == [True, True, True, False]
    assert limit.allow(0.1) and not limit.allow(0.1)
    assert limit.allow(10.0) and limit.dropped == 2
    assert message_cost(0) == message_cost(BYTES_PER_TOKEN) == 1.0
    assert message_cost(3 * BYTES_PER_TOKEN) == 3.0 and message_cost(10**7) == MAX_COST


def test_an_honest_page_at_the_rate_is_never_cut_off() -> None:
    pair = Pair(Options(rounds=1), first=0)
    for i in range(3 * BURST):
        now = pair.now + i / RATE
        pair.guest.ping()
        pair.conn.deliver(now)
    assert pair.conn.open and pair.host.limit.dropped == 0 and not pair.guest.error


def test_a_ping_redraws_nothing_but_counts_as_hearing_the_other_page() -> None:
    pair = Pair(Options(rounds=1), first=0)
    changes: list[int] = []
    pair.guest.set_on_change(lambda: changes.append(1))
    pair.host.tick(LOST_AFTER - 1)
    pair.conn.deliver(LOST_AFTER - 1)
    assert not changes and pair.guest.live.last_heard == LOST_AFTER - 1
    pair.play(2)
    assert changes  # the other page's moves still redraw


def test_a_guest_pings_only_once_welcomed() -> None:
    guest = FairGuest("ABCDEF", TOKEN, "Ben", 0.0)
    guest.load(GROUP)
    sent: list[str] = []
    guest.opened(sent.append, 0.0)
    guest.ping()
    assert [json.loads(m)["lc"] for m in sent] == ["hello"]
    guest.receive(control.welcome(APP_VERSION, 1, 0, MatchSetup(Options(), ("Ana", "Ben"), 0)),
                  0.0)
    guest.ping()
    assert json.loads(sent[-1]) == {"lc": "ping"}


def test_the_guest_learns_that_the_host_closed_the_game_or_left_for_good() -> None:
    stranger = FairGuest("ABCDEF", "E" * 24, "Eve", 0.0)
    stranger.host_closed()  # never joined: no room yet, not a host that went away
    assert stranger.host_away is None
    pair = Pair(Options(rounds=1), first=0)
    pair.conn.cut()
    pair.guest.host_closed()  # the broker no longer knows the room
    assert pair.guest.host_away == "closed" and pair.guest.keeps_save()
    pair.reconnect()  # the host's page is back: the match resumes
    assert pair.guest.host_away is None and pair.guest.connection(pair.now) == "connected"
    pair.play(3)
    pair.host.leave()
    pair.conn.deliver()
    assert pair.guest.host_away == "left" and not pair.guest.error
    assert not pair.guest.keeps_save() and not pair.conn.open
