"""The online seats do the match's costly work a piece a task, as in the browser
(`FairSeat.set_later`): a fair message is checked as it comes, then a shuffle's proofs are
checked and the page's answer made a deck a task, as is a match's start; what comes meanwhile
waits its turn. The pages' tasks here run when the test says (tests/fairseats.py `Tasks`), so
each point between the pieces is reached: a whole match, a reload or a new connection, the
player's move, a hostile message, a halt, a rematch and leaving the room.
"""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from typing import Any

import pytest
from fairseats import ALL, Pair, finished

from lostcities import Options
from webui.match.seats import problem
from webui.online.liveness import ABANDON_AFTER
from webui.online.seat import FairSeat


def hand_one(pair: Pair, to: str) -> str:
    """The next message in flight to page `to` arrives there (none of the pages' tasks run);
    returns its text."""
    conn = pair.conn
    if to == "guest":
        text = conn.to_guest.popleft()
        conn.note("host", pair.host, text)
        pair.guest.receive(text, pair.now)
    else:
        text = conn.to_host.popleft()
        conn.note("guest", pair.guest, text)
        pair.host.receive(conn.end, text, pair.now)
    return text


def ins(seat: FairSeat) -> list[dict[str, Any]]:
    """The fair messages the seat's match took in, in order."""
    assert seat.peer is not None
    return [e["msg"] for e in seat.peer.save()["transcript"] if e["dir"] == "in"]


def fair_texts(texts: list[str]) -> list[dict[str, Any]]:
    return [json.loads(t) for t in texts if '"fair"' in t]


def shuffle_under_way(pair: Pair, step: int = 1) -> tuple[FairSeat, str]:
    """Play on until a shuffle step `step` reaches a page (at a round's start), which checks
    it as it comes and has the rest of its work under way: that page's seat, and the
    message."""
    who, text = shuffle_in_flight(pair, step)
    seat = arrive(pair, who, text)
    assert seat.peer is not None and seat.peer.busy
    return seat, text


def play_at_random(pair: Pair) -> int:
    """Play the match with every step in an order `rng` picks: a message arrives, a page runs
    a task, or a player moves (before the last move's messages are all taken, if the player
    may: a play, then its draw). Returns how many tasks ran."""
    conn, tasks, rng = pair.conn, pair.tasks, pair.rng
    assert tasks is not None
    ran = 0
    for _ in range(100_000):
        steps = [name for name, ready in (("host", conn.to_host), ("guest", conn.to_guest),
                                          ("task", tasks.jobs)) if ready]
        if pair.actor() is not None:
            steps.append("move")
        if not steps:
            return ran
        step = rng.choice(steps)
        if step == "task":
            tasks.run_one()
            ran += 1
        elif step == "move":
            seat = pair.actor()
            assert seat is not None and seat.submit(pair.choose(seat)) is None
            pair.now += 1.0  # (a second a move: the connection's budget refills)
        else:
            hand_one(pair, step)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seed", [3, 8])
def test_a_whole_match_taken_a_piece_a_task_ends_as_one_taken_whole(seed: int) -> None:
    pair = Pair(ALL, first=None, seed=seed, stepped=True)
    ran = play_at_random(pair)
    finished(pair)
    assert ran >= 8  # round 2's shuffles: their work went a deck a task
    for seat, who in ((pair.host, "guest"), (pair.guest, "host")):
        # every fair message the other page sent was taken in, once, in order
        sent = fair_texts([t for w, t, _ in pair.conn.sent if w == who])
        assert ins(seat)[-len(sent):] == sent
    # nothing left a page before it was saved
    assert all(held for who, text, held in pair.conn.at_send if '"fair"' in text)


def test_a_shuffle_is_checked_and_answered_a_deck_a_task() -> None:
    pair = Pair(replace(ALL, rounds=2), first=0, stepped=True, seed=2)
    pair.play(8)
    pair.conn.deliver()
    host, text = shuffle_under_way(pair)  # round 2's first shuffle, the guest's
    assert host is pair.host
    shuffled = json.loads(text)["shuffle"]
    assert shuffled["step"] == 1 and len(shuffled["decks"]) >= 3
    tasks = pair.tasks
    assert tasks is not None and host.peer is not None
    pieces = 1  # (its check, and its first deck's, in the task it came in)
    while host.peer.busy:
        assert not pair.conn.to_guest  # its answer goes once the work is done
        assert json.loads(text) not in ins(host)  # nor does the message show before
        assert len(tasks.jobs) == 1
        tasks.run_one()
        pieces += 1
    assert pieces == 2 * len(shuffled["decks"]) + 1  # checked, shuffled, then kept
    assert ins(host)[-1] == json.loads(text)
    (answer,) = pair.conn.to_guest
    assert json.loads(answer)["shuffle"]["step"] == 2
    pair.conn.deliver()
    pair.play()
    finished(pair)


def test_the_players_move_is_made_after_the_work_under_way() -> None:
    pair = Pair(Options(rounds=1), first=0, stepped=True, seed=5)
    while pair.actor() is not pair.host or pair.host.view()["phase"] != "draw":
        assert pair.step()
    assert pair.host.submit({"type": "draw", "source": "deck"}) is None
    text = pair.conn.to_guest.popleft()
    guest = pair.guest
    assert guest.peer is not None
    guest.peer.check(text)  # (taken in, its shares of the host's card not made yet)
    move = {"type": "discard", "card": guest.view()["hand"][0]}
    assert guest.submit(move) is None  # legal once the host's draw is taken: made, not refused
    assert not guest.peer.busy and ins(guest)[-1] == json.loads(text)
    answer, sent = (json.loads(t) for t in pair.conn.to_host)
    assert "shares" in answer and sent["move"]["type"] == "discard"
    assert sent["seq"] == answer["seq"] + 1
    pair.conn.deliver()
    pair.play()
    finished(pair)


@pytest.mark.parametrize("step", [1, 2])
def test_a_new_connection_while_a_shuffle_is_under_way_resumes_exactly(step: int) -> None:
    pair = Pair(Options(rounds=2, skills=True), first=0, stepped=True, seed=6)
    seat, text = shuffle_under_way(pair, step)  # (step 1 reaches one page, step 2 the other)
    pair.reconnect()  # the greeting says what was received: the work is done first
    assert ins(seat)[-1] == json.loads(text)
    assert not pair.host.stopped and not pair.guest.stopped
    pair.play()
    finished(pair)


def name_of(pair: Pair, seat: FairSeat) -> str:
    return "host" if seat is pair.host else "guest"


def test_a_hostile_message_behind_the_work_under_way_stops_the_match_once_it_is_done(
        ) -> None:
    pair = Pair(Options(rounds=2), first=0, stepped=True, seed=4)
    seat, text = shuffle_under_way(pair)
    hostile = json.dumps({**json.loads(text), "seq": json.loads(text)["seq"] + 1})
    queue = pair.conn.to_host if seat is pair.host else pair.conn.to_guest
    queue.append(hostile)
    hand_one(pair, name_of(pair, seat))  # it comes while the shuffle's work is under way
    assert not seat.stopped and seat.peer is not None and seat.peer.busy
    pair.conn.deliver()
    assert seat.stopped and seat.peer.error is not None
    assert ins(seat)[-1] == json.loads(text)  # the shuffle was taken, and answered
    assert '"shuffle"' in [t for w, t, _ in pair.conn.sent if w == name_of(pair, seat)][-1]
    saved = json.loads(json.dumps(seat.saved()))  # (the page saves it after the paint)
    assert saved["peer"]["stopped"]["evidence"]["message"] == hostile


def test_a_seat_that_halts_with_work_under_way_takes_nothing_more_and_sends_nothing() -> None:
    pair = Pair(Options(rounds=2), first=0, stepped=True, seed=9)
    seat, _ = shuffle_under_way(pair)
    store = pair.storage[name_of(pair, seat)]
    store.room = sum(len(v) for v in store.items.values())  # the next longer write fails
    sent = len(pair.conn.at_send)
    pair.conn.deliver()
    assert seat.halted is not None and seat.halted["code"] == "unsaved"
    assert [w for w, _, _ in pair.conn.at_send[sent:]] == []  # its shuffle was not sent
    queue = pair.conn.to_host if seat is pair.host else pair.conn.to_guest
    queue.append(json.dumps({"fair": 1, "seq": 999}))
    hand_one(pair, name_of(pair, seat))  # nothing more is read
    assert pair.tasks is not None and not pair.tasks.jobs and not seat.stopped


def test_a_rematchs_start_saved_before_it_is_done_begins_again_after_a_reload() -> None:
    pair = Pair(replace(ALL, rounds=1), first=0, stepped=True, seed=12)
    pair.play()
    finished(pair)
    assert pair.host.ask_rematch() and pair.guest.ask_rematch()
    tasks = pair.tasks
    assert tasks is not None
    while not (pair.host.match_no == 2 and pair.host.peer is not None
               and pair.host.peer.busy):
        if pair.conn.to_host:
            hand_one(pair, "host")
        else:
            hand_one(pair, "guest")
    assert not pair.host.peer.started  # its first shuffle is being made, a deck a task
    tasks.run_one()
    assert pair.host.peer.busy and not pair.host.peer.sent_after(0)
    pair.reload("host", from_last_write=False)  # the page's save after the paint, mid-start
    assert pair.host.match_no == 2
    pair.conn.deliver()
    pair.play()
    finished(pair)
    assert pair.host.match_no == pair.guest.match_no == 2


def test_leaving_with_work_under_way_takes_it_no_further() -> None:
    pair = Pair(Options(rounds=2), first=0, stepped=True, seed=10)
    seat, _ = shuffle_under_way(pair)
    writes = len(pair.events[name_of(pair, seat)])
    sent = len(pair.conn.at_send)
    seat.leave()
    assert pair.tasks is not None
    while pair.tasks.jobs:
        pair.tasks.run_one()
    assert len(pair.events[name_of(pair, seat)]) == writes  # nothing written after leaving
    assert not [t for w, t, _ in pair.conn.at_send[sent:] if '"fair"' in t]


def test_a_rematch_taken_a_piece_a_task_begins_and_plays_the_next_match() -> None:
    pair = Pair(Options(rounds=1), first=0, stepped=True, seed=12)
    play_at_random(pair)
    finished(pair)
    assert pair.host.ask_rematch() and pair.guest.ask_rematch()  # both before either arrives
    play_at_random(pair)
    finished(pair)
    assert pair.host.match_no == pair.guest.match_no == 2



# ---- the other page as an attacker, against the work done a piece a task ----------------------

def shuffle_in_flight(pair: Pair, step: int = 1) -> tuple[str, str]:
    """Play on until a shuffle step `step` is on its way to a page (at a round's start): taken
    off the wire (the test delivers it, as it is or tampered). That page's name, and the
    text."""
    tasks, conn = pair.tasks, pair.conn
    assert tasks is not None
    for _ in range(10_000):
        for who, queue in (("guest", conn.to_guest), ("host", conn.to_host)):
            if queue and f'"step":{step}' in queue[0] and '"shuffle"' in queue[0]:
                return who, queue.popleft()
        if conn.to_guest or conn.to_host:
            hand_one(pair, "guest" if conn.to_guest else "host")
        elif tasks.jobs:
            tasks.run_one()
        else:
            mover = pair.actor()
            assert mover is not None and mover.submit(pair.choose(mover)) is None
            pair.now += 1.0
    raise AssertionError("no shuffle came")


def arrive(pair: Pair, who: str, text: str) -> FairSeat:
    """`text` arrives at page `who` (none of the pages' tasks run); its seat."""
    (pair.conn.to_guest if who == "guest" else pair.conn.to_host).appendleft(text)
    hand_one(pair, who)
    return pair.guest if who == "guest" else pair.host


def with_deck(text: str, deck: int, change: Any) -> str:
    """`text` (a shuffle) with its `deck`-th deck's points changed by `change(points)`."""
    data = json.loads(text)
    decks = data["shuffle"]["decks"]
    name = list(decks)[deck]
    raw = base64.urlsafe_b64decode(decks[name] + "=" * (-len(decks[name]) % 4))
    points = [raw[i:i + 32] for i in range(0, len(raw), 32)]
    decks[name] = base64.urlsafe_b64encode(b"".join(change(points))).decode().rstrip("=")
    return json.dumps(data, separators=(",", ":"))


def decks_of(seat: FairSeat) -> list[tuple[object, object]]:
    assert seat.peer is not None
    return [(d.x, d.y) for d in seat.peer.table.decks.values()]


def test_a_shuffle_whose_last_deck_does_not_check_stops_in_its_piece_with_nothing_kept(
        ) -> None:
    pair = Pair(replace(ALL, rounds=2), first=0, stepped=True, seed=13)
    who, text = shuffle_in_flight(pair)
    swapped = with_deck(text, -1, lambda p: [p[1], p[0], *p[2:]])  # every point in the group
    seat = pair.guest if who == "guest" else pair.host
    before, sent = decks_of(seat), len(pair.conn.at_send)
    arrive(pair, who, swapped)
    assert seat.peer is not None and seat.peer.busy and not seat.stopped  # its form checks
    tasks = pair.tasks
    assert tasks is not None
    pieces = 0
    while tasks.jobs:
        tasks.run_one()
        pieces += 1
    error = seat.peer.error
    assert error is not None and error.code == "bad-shuffle" and pieces >= 1  # in a later task
    assert error.evidence["deck"] == list(json.loads(text)["shuffle"]["decks"])[-1]
    assert error.evidence["message"] == swapped
    assert decks_of(seat) == before  # the decks checked before it: not kept
    assert [w for w, _, _ in pair.conn.at_send[sent:]] == []  # nothing answered


def test_a_point_outside_the_group_stops_the_match_as_it_comes_with_no_work_begun() -> None:
    pair = Pair(replace(ALL, rounds=2), first=0, stepped=True, seed=13)
    who, text = shuffle_in_flight(pair)
    seat = arrive(pair, who, with_deck(text, 1, lambda p: [b"\xff" * 32, *p[1:]]))
    assert seat.stopped and seat.peer is not None and not seat.peer.busy
    assert pair.tasks is not None and not pair.tasks.jobs  # no piece scheduled


@pytest.mark.parametrize("across", [False, True], ids=["queued", "after-a-new-connection"])
def test_a_shuffle_step_replayed_is_answered_once_and_stops_the_match(across: bool) -> None:
    pair = Pair(replace(ALL, rounds=2), first=0, stepped=True, seed=14)
    who, text = shuffle_in_flight(pair)
    seat = arrive(pair, who, text)
    assert seat.peer is not None and seat.peer.busy
    if across:  # the welcome says the step was received: the work is done first
        pair.reconnect()
        seat = pair.guest if who == "guest" else pair.host
    arrive(pair, who, text)  # the same step again
    pair.conn.deliver()
    assert seat.peer is not None and seat.peer.error is not None
    assert seat.peer.error.code == "replayed"
    answers = [t for w, t, _ in pair.conn.at_send
               if w == who and '"shuffle"' in t and '"step":2' in t]
    assert len({json.loads(t)["seq"] for t in answers}) == 1  # its answer made once


def test_a_second_tab_taking_the_seat_mid_work_leaves_the_work_to_it() -> None:
    pair = Pair(replace(ALL, rounds=2), first=0, stepped=True, seed=15)
    who, text = shuffle_in_flight(pair)
    seat = arrive(pair, who, text)
    writes, sent = len(pair.events[who]), len(pair.conn.at_send)
    seat.halt(problem("moved"))  # (what the lobby does when another tab takes the seat)
    tasks = pair.tasks
    assert tasks is not None
    while tasks.jobs:
        tasks.run_one()
    assert len(pair.events[who]) == writes  # this tab writes nothing more
    assert [w for w, _, _ in pair.conn.at_send[sent:] if w == who] == []  # nor sends
    pair.reload(who)  # the other tab: the seat from storage, the shuffle sent again
    pair.play()
    finished(pair)


def test_a_page_silent_until_its_shuffle_is_not_shown_silent_while_the_shuffle_is_worked_on(
        ) -> None:
    pair = Pair(Options(rounds=2), first=0, stepped=True, seed=16)
    who, text = shuffle_in_flight(pair)
    seat = pair.guest if who == "guest" else pair.host
    start = pair.now
    seat.silence(start)  # the other page owes this shuffle from now, and stalls
    assert seat.offer_end(start + ABANDON_AFTER + 1)  # (so long that the player may end it)
    seat.keep_waiting(start + ABANDON_AFTER + 1)
    pair.now = came = start + 2 * ABANDON_AFTER + 10
    assert seat.offer_end(came)
    arrive(pair, who, text)  # at last: its work under way, a deck a task
    assert seat.peer is not None and seat.peer.busy
    assert seat.silence(came + 1) == 1.0 and not seat.offer_end(came + 1)
    tasks = pair.tasks
    assert tasks is not None
    while tasks.jobs:
        tasks.run_one()
    assert not seat.offer_end(came + 1)
