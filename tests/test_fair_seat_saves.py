"""Save before send (webui/online/seat.py): every message a page's FairPeer makes (the match's
opening, the player's move, an answer computed from the page's secret on the other page's
input) is in that page's storage before it goes on the wire; a page whose storage refuses the
write sends nothing, stops relaying and says why; and a page that dies between making an answer
and saving it has sent nothing, so on reload it makes the answer again and sends it once."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from controllerkit import MemoryPage, MemoryStorage, page_of
from fairseats import ALL, Pair, finished

from lostcities import Options
from webui.match.controller import MatchController
from webui.online.codes import GUEST_KEY, HOST_KEY
from webui.online.seat import FairSeat
from webui.screens.online import problem_text


class Died(BaseException):
    """The page died at this very moment (its tab was closed): nothing after it runs."""


def outs(text: str | None) -> int:
    """How many messages a saved seat's transcript holds as sent by it."""
    if text is None:
        return 0
    peer = json.loads(text)["peer"]
    return 0 if peer is None else sum(e["dir"] == "out" for e in peer["transcript"])


class Failing(MemoryStorage):
    """A page's storage that refuses, when armed, the next write that adds a message this page
    made (a save before send): with `QuotaExceededError`, or `Died` (the page is gone)."""

    def __init__(self, events: list[tuple[str, str]] | None = None) -> None:
        super().__init__(events=events)
        self.armed: BaseException | None = None
        self.refused = 0

    def setItem(self, key: str, value: str) -> None:  # noqa: N802 - the Web Storage API's name
        if self.armed is not None and outs(value) > outs(self.items.get(key)):
            why, self.armed = self.armed, None
            self.refused += 1
            raise why
        super().setItem(key, value)


def failing_pair(options: Options = Options(rounds=1), seed: int = 3) -> Pair:
    """A room whose two pages write to `Failing` storages (from the match's first message on)."""
    pair = Pair(options, first=0, seed=seed)
    for who, seat in (("host", pair.host), ("guest", pair.guest)):
        store = Failing(pair.events[who])
        store.items.update(pair.storage[who].items)
        pair.storage[who] = store
        seat.set_store(store)
    return pair


def seat_of(pair: Pair, who: str) -> FairSeat:
    return pair.host if who == "host" else pair.guest


def to_deck_draw(pair: Pair, drawer: FairSeat) -> None:
    """Play on until `drawer` is to draw and may draw from the deck."""
    deck = {"type": "draw", "source": "deck"}
    for _ in range(500):
        actor = pair.actor()
        if actor is drawer and deck in drawer.view()["legal_moves"]:
            return
        assert pair.step()
    raise AssertionError("no deck draw came")


def fair_sent(pair: Pair, who: str) -> list[int]:
    """The numbers of the fair messages `who` has sent on the current connection."""
    return [json.loads(t)["seq"] for w, t, _ in pair.conn.at_send if w == who and '"fair"' in t]


def test_every_message_is_in_storage_at_the_moment_it_is_sent() -> None:
    """Checked by the links themselves, as each text is handed to them: the opening, the
    shuffles, the shares and reveals (answers), the moves, and what a resync resends."""
    pair = Pair(ALL, first=None, seed=3)
    sends: list[tuple[str, str, bool]] = []
    n = 0
    while pair.step():
        n += 1
        if n % 19 == 0:
            sends += pair.conn.at_send
            pair.reload("guest" if n % 38 else "host")
    sends += pair.conn.at_send
    finished(pair)
    fair = [(who, json.loads(text), held) for who, text, held in sends if '"fair"' in text]
    answers = [m for who, m, _ in fair if "move" not in m]
    assert len(fair) > 100 and len(answers) > 50  # shuffles, shares, reveals
    unheld = [(who, m["seq"]) for who, m, held in fair if not held]
    assert not unheld, f"sent before they were saved: {unheld[:5]}"


@pytest.mark.parametrize("what", ["answer", "move"])
def test_a_storage_that_refuses_the_write_sends_nothing_and_the_player_is_told(
        what: str) -> None:
    """The guest's storage refuses the save of an answer (to the host's deck draw, its share)
    or of its player's move: nothing is sent, nothing more is read or sent, the notice says
    why in both languages, and the transport hangs up on the next tick."""
    pair = failing_pair()
    host, guest, store = pair.host, pair.guest, pair.storage["guest"]
    assert isinstance(store, Failing)
    to_deck_draw(pair, host if what == "answer" else guest)
    assert guest.peer is not None
    made, sent = len(guest.peer.sent_after(0)), fair_sent(pair, "guest")
    store.armed = RuntimeError("QuotaExceededError: the quota has been exceeded")
    actor = host if what == "answer" else guest
    assert actor.submit({"type": "draw", "source": "deck"}) is None
    pair.conn.deliver()
    assert store.refused == 1
    assert len(guest.peer.sent_after(0)) == made + 1  # the message was made...
    assert fair_sent(pair, "guest") == sent  # ...and not sent
    assert outs(store.items[GUEST_KEY]) == made
    assert guest.halted is not None and guest.halted["code"] == "unsaved"
    assert host.waiting() == (what == "answer")  # (a move not sent is not awaited)
    assert not host.stopped and not guest.stopped
    remote = guest.remote(0.0)
    assert remote.halted == "unsaved" and remote.error == guest.halted
    for lang, says in (("en", "nothing was sent"), ("es", "no se envió nada")):
        text = problem_text(lang, remote.error)
        assert text is not None and says in text and "QuotaExceededError" in text
    # it stops relaying: what the host sends is not read, nothing goes back, nor on a new
    # connection; the seat refuses moves
    before = (len(pair.conn.at_send), guest.peer.last_received)
    host.tick(10.0)
    pair.conn.deliver(10.0)
    pair.reconnect()
    assert [w for w, _, _ in pair.conn.at_send] in ([], ["host"], ["host", "host"])
    assert guest.peer.last_received == before[1] and not guest.match_on()
    assert guest.submit({"type": "draw", "source": "deck"}) == {"code": "stopped", "data": {}}
    closed: list[float] = []

    class Net:
        status = None

        def close(self, delay: float = 0.0) -> None:
            closed.append(delay)

    guest.attach(Net())
    guest.tick(11.0)
    assert closed == [0.0] and guest.transport is None


def test_the_notice_shows_over_the_table_and_nothing_is_sent() -> None:
    """Through the controller: a full storage on the host's page (a quota), a guest's move
    that the host must answer; the badge says the page halted, in the player's language."""
    pair = Pair(Options(rounds=1), first=1, seed=7)
    storage = MemoryStorage()
    storage.items.update(pair.storage["host"].items)
    controller = MatchController(MemoryPage(), storage, "es")
    pair.host.set_store(storage)
    controller.play(pair.host)
    to_deck_draw(pair, pair.guest)
    storage.room = sum(len(v) for v in storage.items.values())  # no room for more
    sent = fair_sent(pair, "host")
    assert pair.guest.submit({"type": "draw", "source": "deck"}) is None
    pair.conn.deliver()
    assert fair_sent(pair, "host") == sent and pair.host.halted is not None
    doc = page_of(controller).shown.doc
    assert 'data-halted="unsaved"' in doc and "no se envió nada" in doc


@pytest.mark.parametrize("how", ["refused", "died"])
def test_a_page_lost_between_making_an_answer_and_saving_it_sends_it_once_after_reload(
        how: str) -> None:
    """Again and again through a whole match, the write of a message a page made fails (its
    storage refuses it, or the page dies at that moment), mostly an answer to the other
    page's move: that page has sent nothing of it; it reopens from its storage, the other
    page resends what it lacks, and the answer is made again and sent. Each page receives
    each message number exactly once, and the match goes on to its end."""
    # two rounds for the refused write (the next round's shuffle fails too), one for the
    # page that dies: the same path, only the failure differs
    pair = failing_pair(Options(rounds=2 if how == "refused" else 1, skills=True), seed=11)
    kinds: Counter[str] = Counter()
    while True:
        actor = pair.actor()
        if actor is None:
            break
        which = "guest" if actor is pair.host else "host"  # the page that answers
        store = pair.storage[which]
        assert isinstance(store, Failing)
        store.armed = RuntimeError("QuotaExceededError") if how == "refused" else Died()
        hit = over = False
        before = store.refused
        for _ in range(4):
            mover = pair.actor()
            try:
                over = not pair.step()
            except Died:
                pass
            hit = store.refused > before
            if hit or over:
                break
        if not hit:
            store.armed = None
            kinds["none"] += 1
            if over:
                break
            continue
        seat = seat_of(pair, which)
        kinds["move" if mover is seat else "answer"] += 1
        assert seat.peer is not None
        key = HOST_KEY if which == "host" else GUEST_KEY
        unsaved = seat.peer.sent_after(outs(store.items[key]))
        assert unsaved, "the failed write held a message the page made"
        left = {text for who, text, _ in pair.conn.at_send if who == which}
        assert not left & set(unsaved), "a message left before it was saved"
        pair.events[which].append(("reload", ""))
        pair.reload(which)  # (what the old page made is lost with it: it never left)
    pair.play()
    finished(pair)
    assert kinds["answer"] >= 5 and kinds["move"] >= 1, kinds
    for who, sender in (("host", "guest"), ("guest", "host")):
        saved = json.loads(pair.storage[sender].items[HOST_KEY if sender == "host"
                                                       else GUEST_KEY])
        total = sum(e["dir"] == "out" for e in saved["peer"]["transcript"])
        received: set[int] = set()
        for page in received_by_page(pair.events[who]):
            # each page (until it is reopened) receives each message number once, in order
            assert page == list(range(page[0], page[0] + len(page))) if page else True, \
                f"a page of the {who} received a message number twice: {page}"
            received |= set(page)
        assert received == set(range(1, total + 1))


def received_by_page(events: list[tuple[str, str]]) -> list[list[int]]:
    """The fair message numbers each page of one player received, a list a page (a reload
    opens the next)."""
    pages: list[list[int]] = [[]]
    for kind, text in events:
        if kind == "reload":
            pages.append([])
        elif kind == "rx" and '"fair"' in text:
            pages[-1].append(json.loads(text)["seq"])
    return pages
