"""The online seats take the match's messages a piece a task, as in the browser
(`FairSeat.set_later`): a fair message is checked in the task it came in and answered in the
next, and what comes meanwhile waits its turn. The pages' tasks here run when the test says
(tests/fairseats.py `Tasks`), so each point between the pieces is reached: a whole match, a
reload or a new connection, the player's move, a hostile message, a halt and leaving the room.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fairseats import ALL, Pair, finished

from lostcities import Options
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


def held_move(pair: Pair, holder: str = "guest") -> tuple[FairSeat, str]:
    """The other page's player draws: that move reaches page `holder`, which holds it
    (checked, not answered). Returns that page's seat, and the move's text."""
    holding = pair.guest if holder == "guest" else pair.host
    mover = pair.host if holder == "guest" else pair.guest
    while pair.actor() is not mover or mover.view()["phase"] != "draw":
        assert pair.step()
    assert mover.submit({"type": "draw", "source": "deck"}) is None
    text = hand_one(pair, holder)
    assert holding.peer is not None and holding.peer.holding
    return holding, text


def play_at_random(pair: Pair) -> int:
    """Play the match with every step in an order `rng` picks: a message arrives, a page runs
    a task, or a player moves (before the last move's messages are all taken, if the player
    may: a play, then its draw). Returns how many messages came while another was held."""
    conn, tasks, rng = pair.conn, pair.tasks, pair.rng
    assert tasks is not None
    queued = 0
    for _ in range(100_000):
        steps = [name for name, ready in (("host", conn.to_host), ("guest", conn.to_guest),
                                          ("task", tasks.jobs)) if ready]
        if pair.actor() is not None:
            steps.append("move")
        if not steps:
            return queued
        step = rng.choice(steps)
        if step == "task":
            tasks.run_one()
        elif step == "move":
            seat = pair.actor()
            assert seat is not None and seat.submit(pair.choose(seat)) is None
            pair.now += 1.0  # (a second a move: the connection's budget refills)
        else:
            seat = pair.host if step == "host" else pair.guest
            queued += seat.peer is not None and seat.peer.holding
            hand_one(pair, step)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seed", [3, 8])
def test_a_whole_match_taken_a_piece_a_task_ends_as_one_taken_whole(seed: int) -> None:
    pair = Pair(ALL, first=None, seed=seed, stepped=True)
    queued = play_at_random(pair)
    finished(pair)
    assert queued > 10  # messages came while one was held, and waited their turn
    for seat, who in ((pair.host, "guest"), (pair.guest, "host")):
        # every fair message the other page sent was taken in, once, in order
        sent = fair_texts([t for w, t, _ in pair.conn.sent if w == who])
        assert ins(seat)[-len(sent):] == sent
    # nothing left a page before it was saved
    assert all(held for who, text, held in pair.conn.at_send if '"fair"' in text)


def test_a_fair_message_is_checked_in_the_task_it_came_in_and_answered_in_the_next() -> None:
    pair = Pair(Options(rounds=1), first=0, stepped=True, seed=2)
    guest, text = held_move(pair)
    assert pair.tasks is not None and len(pair.tasks.jobs) == 1
    assert not pair.conn.to_host  # its answer (the shares of the host's card) not made yet
    assert json.loads(text) not in ins(guest)  # nor the move taken in: nothing shows it
    assert guest.peer is not None and guest.peer.last_received == json.loads(text)["seq"] - 1
    pair.tasks.run_one()
    assert not guest.peer.holding and ins(guest)[-1] == json.loads(text)
    (answer,) = pair.conn.to_host
    assert "shares" in json.loads(answer)
    pair.conn.deliver()
    pair.play()
    finished(pair)


def test_the_players_move_is_made_after_the_messages_that_came_before_it() -> None:
    pair = Pair(Options(rounds=1), first=0, stepped=True, seed=5)
    guest, text = held_move(pair)
    move = {"type": "discard", "card": guest.view()["hand"][0]}
    assert guest.submit(move) is None  # legal once the host's draw is taken: made, not refused
    assert guest.peer is not None and not guest.peer.holding
    assert ins(guest)[-1] == json.loads(text)
    answer, sent = (json.loads(t) for t in pair.conn.to_host)
    assert "shares" in answer and sent["move"]["type"] == "discard"
    assert sent["seq"] == answer["seq"] + 1
    pair.conn.deliver()
    pair.play()
    finished(pair)


@pytest.mark.parametrize("holder", ["host", "guest"])
def test_a_new_connection_while_a_message_is_held_resumes_exactly(holder: str) -> None:
    pair = Pair(Options(rounds=1, skills=True), first=0, stepped=True, seed=6)
    held, text = held_move(pair, holder)
    pair.reconnect()  # the greeting says what was received: the held message counts
    assert ins(held)[-1] == json.loads(text)
    assert not pair.host.stopped and not pair.guest.stopped
    pair.play()
    finished(pair)


def test_a_hostile_message_behind_a_held_one_stops_the_match_once_that_one_is_answered(
        ) -> None:
    pair = Pair(Options(rounds=1), first=0, stepped=True, seed=4)
    guest, text = held_move(pair)
    hostile = json.dumps({**json.loads(text), "seq": json.loads(text)["seq"] + 1})
    guest.receive(hostile, pair.now)  # queued behind the held one
    assert not guest.stopped
    pair.conn.deliver()
    assert guest.stopped and guest.peer is not None and guest.peer.error is not None
    assert ins(guest)[-1] == json.loads(text)  # the good one was taken, and answered
    assert any("shares" in m for m in fair_texts([t for w, t, _ in pair.conn.sent
                                                  if w == "guest"][-1:]))
    saved = json.loads(json.dumps(guest.saved()))  # (the page saves it after the paint)
    assert saved["peer"]["stopped"]["evidence"]["message"] == hostile


def test_a_seat_that_halts_while_holding_takes_nothing_more_and_sends_nothing() -> None:
    pair = Pair(Options(rounds=1), first=0, stepped=True, seed=9)
    guest, _ = held_move(pair)
    store = pair.storage["guest"]
    store.room = sum(len(v) for v in store.items.values())  # the next longer write fails
    sent = len(pair.conn.at_send)
    pair.conn.deliver()
    assert guest.halted is not None and guest.halted["code"] == "unsaved"
    assert [w for w, _, _ in pair.conn.at_send[sent:]] == []  # its answer was not sent
    guest.receive(json.dumps({"fair": 1, "seq": 999}), pair.now)  # nothing more is read
    assert pair.tasks is not None and not pair.tasks.jobs and not guest.stopped


def test_leaving_while_a_message_is_held_takes_it_no_further() -> None:
    pair = Pair(Options(rounds=1), first=0, stepped=True, seed=10)
    guest, _ = held_move(pair)
    writes = len(pair.events["guest"])
    guest.leave()
    assert pair.tasks is not None
    while pair.tasks.jobs:
        pair.tasks.run_one()
    assert len(pair.events["guest"]) == writes  # nothing written after leaving
    assert not pair.conn.to_host
