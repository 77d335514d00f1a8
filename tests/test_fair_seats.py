"""The online seats (webui/online/seat.py, host.py, guest.py) natively: a host and a guest page over
an in-memory connection, each with its own storage, playing fair matches through the seats' own
paths (hello, welcome, resync, saves, the heartbeat's budget), and what a hostile page can do to
them: nothing but stop the match, with a notice and the evidence kept in the save."""

from __future__ import annotations

import json
from typing import Any

import pytest
from controllerkit import MemoryStorage
from fairseats import ALL, GROUP, MARKUP, TOKEN, Connection, HostEnd, KeptLink, Pair, finished

from lostcities import Options
from lostcities.errors import CorruptSave
from lostcities.fair.wire import VERSION
from lostcities.protocol import APP_VERSION
from webui.online import control
from webui.online.codes import GUEST_KEY, HOST_KEY
from webui.online.guest import FairGuest
from webui.online.host import FairHost
from webui.online.liveness import BURST
from webui.screens.online import problem_text, status_bar

def test_a_whole_match_with_every_option_and_each_move_saved_before_it_is_sent() -> None:
    pair = Pair(ALL, first=None, seed=3)
    pair.play()
    finished(pair)
    for kind in ("pick-job", "play", "discard", "draw", "next-round", "radio", "undo"):
        assert pair.moves[kind], kind
    # the two seats are equals: each sent shuffles, keys and moves
    fair = [(who, json.loads(text)) for who, text, _ in pair.conn.sent if '"fair"' in text]
    for who in ("host", "guest"):
        mine = [m for w, m in fair if w == who]
        assert any("shuffle" in m for m in mine) and any("move" in m for m in mine)
        assert [m["seq"] for m in mine] == list(range(1, len(mine) + 1))  # each sent once
    # a player's move left only once it was saved, the page's secret before anything
    for seat, who in ((pair.host, "host"), (pair.guest, "guest")):
        assert seat.peer is not None
        saved = seat.peer.save()
        assert pair.conn.secrets[who] == saved["secret"]  # kept before the first message
        own = [e["msg"] for e in saved["transcript"] if e["dir"] == "out" and "move" in e]
        sent = {json.dumps(json.loads(t), sort_keys=True): held
                for w, t, held in pair.conn.sent if w == who and '"fair"' in t}
        assert own and all(sent[json.dumps(m, sort_keys=True)] for m in own)
    assert pair.host.remote(0.0).opponent == "Ben" and pair.guest.remote(0.0).opponent == "Ana"


@pytest.mark.parametrize("stepped", [False, True], ids=["whole", "a-piece-a-task"])
@pytest.mark.parametrize("which", ["host", "guest"])
def test_a_reload_from_the_last_write_or_a_dropped_connection_resumes_exactly(
        which: str, stepped: bool) -> None:
    pair = Pair(Options(rounds=2, skills=True, mixups=True, objectives=True), first=0, seed=5,
                stepped=stepped)
    n = 0
    while pair.step():
        n += 1
        if n % 17 == 0:
            pair.reload(which)  # the save may lag: what it lacks, the page makes again
        elif n % 17 == 9:
            # a move made, its message lost with the connection
            seat = pair.actor()
            if seat is not None:
                seat.submit(pair.choose(seat))
            pair.conn.to_guest.clear()
            pair.conn.to_host.clear()
            pair.reconnect()
        elif n % 23 == 0:
            pair.reload("guest" if which == "host" else "host", from_last_write=False)
    finished(pair)
    assert n > 60


def test_a_new_room_saves_its_setup_and_a_guest_its_token() -> None:
    host = FairHost.create("ABCDEF", ALL, 1, "Ana", 0.0)
    store = MemoryStorage()
    host.load(GROUP)
    host.set_store(store)
    doc = host.saved()
    assert doc is not None and doc["peer"] is None and doc["match"] == 0
    again = FairHost.from_json(json.loads(json.dumps(doc)), 0.0)
    assert again.to_json() == doc and not again.has_match
    guest = FairGuest("ABCDEF", TOKEN, "Ben", 0.0)
    assert FairGuest.from_json(guest.to_json(), 0.0).token == TOKEN


def test_a_saved_match_replays_to_the_same_view_and_a_bad_save_is_refused() -> None:
    pair = Pair(Options(rounds=1), first=1, seed=2)
    pair.play(12)
    doc = json.loads(json.dumps(pair.guest.to_json()))
    again = FairGuest.from_json(doc, 0.0)
    assert not again.has_match and again.saved() == doc  # kept as is until it replays
    again.load(GROUP)
    assert again.view() == pair.guest.view()
    bad_cases: list[tuple[dict[str, Any], str]] = [
        ({**doc, "format": "lostcities-online-guest"}, "not a saved online room"),
        ({**doc, "version": 2}, "version"),
        ({**doc, "role": "host"}, "not a saved room of a guest"),
        ({**doc, "match": 0}, "disagree"),
        ({**doc, "name": "Eve"}, "not this player's"),
        ({**doc, "setup": {**doc["setup"], "first": 0}}, "not the room's"),
        ({**doc, "peer": {**doc["peer"], "seat": 0}}, "not this seat's"),
        ({**doc, "code": "OOOOOO"}, "bad seat"),
        ({**doc, "name": MARKUP + "\u202e"}, "bad seat"),
    ]
    for bad, says in bad_cases:
        with pytest.raises(CorruptSave, match=says):
            FairGuest.from_json(bad, 0.0)
    transcript = doc["peer"]["transcript"]
    forged = {**doc, "peer": {**doc["peer"], "transcript": transcript[:-3] + transcript[-2:]}}
    with pytest.raises(CorruptSave, match="does not replay"):
        FairGuest.from_json(forged, 0.0).load(GROUP)
    with pytest.raises(CorruptSave):
        FairHost.from_json({**pair.host.to_json(), "options": Options(rounds=3).to_json()}, 0.0)


# ---- a hostile page ---------------------------------------------------------------------


def hostile(pair: Pair) -> list[str]:
    """Texts a hostile host might send the guest mid-match."""
    assert pair.host.peer is not None
    sent = pair.host.peer.sent_after(0)
    last = json.loads(sent[-1])
    return [
        "\u0000{ not json",
        json.dumps({"fair": VERSION, "seq": last["seq"] + 1, "move": {"type": "play",
                                                                 "card": MARKUP}}),
        sent[0],  # replayed
        json.dumps({**last, "seq": last["seq"] + 5}),  # out of order
        json.dumps({"lc": "welcome", "app": MARKUP}),
        json.dumps({"fair": VERSION, "seq": last["seq"] + 1,
                    "shares": {"cards": [[0, "A" * 128]]}}),
        json.dumps({"fair": VERSION, "seq": last["seq"] + 1, "shuffle": {"batch": 1, "step": 2,
                                                                    "decks": {"cards": MARKUP}}}),
        "x" * 70_000,
    ]


@pytest.mark.parametrize("index", range(8))
def test_a_hostile_message_stops_the_match_with_a_notice_and_the_evidence_saved(
        index: int) -> None:
    pair = Pair(Options(rounds=1, skills=True), first=0, seed=4)
    pair.play(6)
    guest = pair.guest
    before = guest.view()
    text = hostile(pair)[index]
    pair.conn.to_guest.append(text)
    pair.conn.deliver()
    assert guest.stopped and not guest.match_on()
    assert guest.peer is not None and guest.peer.error is not None
    notice = guest.remote(0.0).error
    assert notice == {"code": "stopped", "data": {"message": guest.peer.error.message,
                                                  "check": guest.peer.error.code}}
    for lang, says in (("en", "stopped"), ("es", "detenido")):
        worded = problem_text(lang, notice)
        assert worded is not None and guest.peer.error.code in worded and says in worded
    assert guest.view()["legal_moves"] == [] and guest.view()["log"] == before["log"]
    move = next(iter(pair.guest.peer.table.legal_moves()), None)
    assert move is None
    assert guest.submit({"type": "draw", "source": "deck"}) == {"code": "stopped", "data": {}}
    # nothing of the save is lost: the match up to the last good message, and the evidence
    doc = json.loads(json.dumps(guest.saved()))
    stopped = doc["peer"]["stopped"]
    assert stopped["code"] == guest.peer.error.code
    assert stopped["evidence"]["message"] == text[:65_536]
    again = FairGuest.from_json(doc, 0.0)
    again.load(GROUP)
    assert again.stopped and again.view()["log"] == before["log"]
    # the stopped page reads nothing more, and its notice shows as text
    sent = len(pair.conn.sent)
    pair.conn.to_guest.append(json.dumps({"fair": VERSION, "seq": 10**6}))
    pair.conn.deliver()
    assert [who for who, _, _ in pair.conn.sent[sent:]] == ["host"]
    html = str(status_bar("en", "connected", "Ana", "ABCDEF", error=notice))
    assert "<img" not in html and "onerror=" not in html.replace("onerror=window", "")


def test_a_hostile_host_before_the_match_starts_nothing() -> None:
    guest = FairGuest("ABCDEF", TOKEN, "Ben", 0.0)
    guest.load(GROUP)
    out: list[str] = []
    guest.opened(out.append, 0.0)
    assert json.loads(out[0]) == {"lc": "hello", "app": APP_VERSION, "name": "Ben",
                                  "match": 0, "last": 0}
    setup = control.MatchSetup(Options(), ("Ana", "Ben"), 0)
    for text, says in (
        ("[1, 2]", "before-welcome"),
        (json.dumps({"lc": "welcome", "app": APP_VERSION}), "malformed"),
        (control.welcome(APP_VERSION, 1, 0, control.MatchSetup(Options(), ("Ana", "Eve"), 0)),
         "other-name"),
        (json.dumps({"lc": "welcome", "app": APP_VERSION, "match": 1, "last": 0,
                     "setup": {**setup.to_json(), "options": {"rounds": MARKUP}}}),
         "malformed"),
        (json.dumps({"lc": "welcome", "app": APP_VERSION, "match": 1, "last": 0,
                     "setup": {**setup.to_json(), "names": ["\u202eAna", "Ben"]}}),
         "malformed"),
    ):
        guest.receive(text, 0.0)
        assert not guest.has_match and guest.peer is None
        assert guest.error is not None and guest.error["code"] == says
        assert problem_text("es", guest.error) != problem_text("en", guest.error)
    # a welcome with markup for a name is a name like any other: shown as text
    guest.receive(control.welcome(APP_VERSION, 1, 0, control.MatchSetup(
        Options(), (MARKUP, "Ben"), 0)), 0.0)
    assert guest.peer is not None and guest.remote(0.0).opponent == MARKUP


def test_the_room_lets_in_one_guest_and_refuses_the_rest() -> None:
    pair = Pair(Options(rounds=1), first=0)
    assert pair.host.token == TOKEN and pair.guest.has_match and pair.host.has_match
    eve = FairGuest("ABCDEF", "E" * 24, "Eve", 0.0)
    eve.load(GROUP)
    conn = Connection(pair.host, eve)
    assert conn.refusal is not None and "already has a guest" in conn.refusal
    no_token = HostEnd(conn)
    refusal = pair.host.accept(no_token, {"token": "short"}, 0.0)
    assert refusal is not None and "no valid guest token" in refusal
    # the bound guest comes back on a new connection; a first message that is not a hello
    # is refused, and the match is untouched
    pair.reconnect()
    pair.step()
    pair.conn.cut()
    conn = Connection(pair.host, pair.guest, pair.now)
    pair.conn = conn
    conn.to_host.clear()  # the guest's hello is lost; something else comes first
    pair.host.receive(conn.end, json.dumps({"fair": VERSION, "seq": 1}), pair.now)
    assert conn.closing and not pair.host.stopped
    assert "the first message must be a hello" in json.loads(conn.to_guest[-1])["message"]
    pair.reconnect()
    pair.play(3)
    assert not pair.host.stopped and not pair.guest.stopped


def test_a_guest_of_another_version_is_told_to_reload() -> None:
    host = FairHost.create("ABCDEF", Options(), 0, "Ana", 0.0)
    host.load(GROUP)
    end = KeptLink()
    sent = end.sent
    assert host.accept(end, {"token": TOKEN}, 0.0) is None
    host.receive(end, control.hello("0.0.0-old", "Ben", 0, 0), 0.0)
    assert json.loads(sent[-1])["code"] == "version-mismatch" and host.peer is None
    guest = FairGuest("ABCDEF", TOKEN, "Ben", 0.0)
    guest.opened(sent.append, 0.0)
    guest.receive(sent[0], 0.0)
    assert guest.reload_needed == {"code": "reload", "data": {}}
    assert "recarga" in str(problem_text("es", guest.reload_needed))


def test_a_flood_cuts_the_connection_and_the_match_resumes_on_the_next() -> None:
    pair = Pair(Options(rounds=1), first=0, seed=6)
    pair.play(4)
    for _ in range(BURST + 50):
        pair.conn.to_host.append(control.ping())
    pair.conn.deliver()
    assert not pair.conn.open  # cut at the first message over the budget
    refusals = [json.loads(t) for w, t, _ in pair.conn.sent if w == "host" and "refused" in t]
    assert not refusals or "too many messages" in refusals[-1]["message"]
    assert not pair.host.stopped and not pair.guest.stopped
    pair.reconnect()
    pair.play()
    finished(pair)


def test_the_host_leaving_tells_the_guest_which_forgets_its_seat() -> None:
    pair = Pair(Options(rounds=1), first=0)
    pair.play(2)
    pair.host.leave()
    pair.conn.deliver()
    assert pair.guest.host_away == "left" and not pair.guest.keeps_save()
    assert not pair.guest.match_on()


def test_the_heartbeat_pings_both_ways_and_silence_shows() -> None:
    pair = Pair(Options(rounds=1), first=0)
    pair.host.tick(5.0)
    pair.guest.ping()
    assert control.ping() in pair.conn.to_guest and control.ping() in pair.conn.to_host
    pair.conn.deliver(5.0)
    assert pair.host.remote(5.0).state == "connected"
    assert pair.host.remote(20.0).state == "lost" and pair.guest.connection(20.0) == "lost"


def test_saves_go_under_each_roles_key() -> None:
    pair = Pair(Options(rounds=1), first=0)
    assert HOST_KEY in pair.storage["host"].items and GUEST_KEY in pair.storage["guest"].items
    assert GUEST_KEY not in pair.storage["host"].items


def test_a_move_refused_says_why_and_changes_nothing() -> None:
    pair = Pair(Options(rounds=1), first=0, seed=8)
    host, guest = pair.host, pair.guest
    assert host.view()["legal_moves"] and not guest.view()["legal_moves"]
    before = (json.dumps(host.saved()), json.dumps(guest.saved()))
    play = host.view()["legal_moves"][0]
    assert guest.submit(play) == {"code": "not-your-turn", "data": {"to_act": 0}}
    assert host.submit({"type": "fly"}) == {"code": "not-a-move", "data": {}}
    draw = host.submit({"type": "draw", "source": "deck"})
    assert draw is not None and draw["code"] == "wrong-phase"
    assert (json.dumps(host.saved()), json.dumps(guest.saved())) == before
    fresh = FairGuest("ABCDEF", TOKEN, "Ben", 0.0)
    assert fresh.submit(play) == {"code": "not-started", "data": {}}


def test_the_save_text_is_the_save() -> None:
    pair = Pair(Options(rounds=1, skills=True), first=0, seed=10)
    pair.play(9)
    for seat in (pair.host, pair.guest):
        text = seat.saved_text()
        assert text is not None and json.loads(text) == json.loads(json.dumps(seat.to_json()))
        assert seat.peer is not None
        assert json.loads(seat.peer.save_text()) == seat.peer.save()
        out = [json.dumps(e["msg"], sort_keys=True) for e in seat.peer.save()["transcript"]
               if e["dir"] == "out"]
        assert [json.dumps(json.loads(t), sort_keys=True)
                for t in seat.peer.sent_after(3)] == out[3:]
    fresh = FairHost.create("ABCDEF", Options(), 0, "Ana", 0.0)
    assert json.loads(fresh.saved_text() or "") == fresh.to_json()


def test_leaving_a_stopped_match_sets_its_evidence_aside() -> None:
    pair = Pair(Options(rounds=1), first=0, seed=11)
    pair.play(4)
    store = pair.storage["guest"]
    pair.conn.to_guest.append("\u0000 not a message")
    pair.conn.deliver()
    assert pair.guest.stopped
    kept = pair.guest.saved_text()
    pair.guest.leave()
    aside = [k for k in store.items if k.startswith(GUEST_KEY + ".set-aside.")]
    assert len(aside) == 1 and store.items[aside[0]] == kept
    assert json.loads(kept or "")["peer"]["stopped"]["code"] == "bad-message"
    assert GUEST_KEY not in store.items
    pair.host.leave()  # a match that was not stopped leaves nothing aside
    assert not [k for k in pair.storage["host"].items if ".set-aside." in k]
