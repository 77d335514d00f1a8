"""Two fair peers over an in-memory wire, and the checks the fair-play tests run at every step.

The leak oracle knows the truth (both peers' secrets give every deck's order) and the rules
(docs/rules.md §6: what each player may see), never the protocol's own bookkeeping: for each
seat it keeps the items the rules have shown it so far, and checks that nothing the seat holds
or could compute (its engine state, its view, its save, every message it received, every
position it holds both keys of) goes beyond them.
"""

from __future__ import annotations

import json
import random
from collections import Counter, deque
from collections.abc import Callable, Iterator
from typing import Any

import lostcities
from lostcities import Airlift, Draw, Move, Options, PickJob, Radio, Sabotage, Undo
from lostcities.cards import card_text
from lostcities.fair import FairPeer
from lostcities.fair.codec import decode, decode_vector
from lostcities.fair.fill import HIDDEN, fill_cards, fill_objectives, is_hidden
from lostcities.fair.masking import item_order
from lostcities.fair.proofs import SHARE_BYTES
from lostcities.fair.sodium import SodiumGroup
from lostcities.fair.table import OFFERS
from lostcities.state import State
from lostcities.views import deck_peek


def card_tokens(value: Any) -> Counter[str]:
    """Every string in a JSON value that is a card code (R7, YH, G10...), counted."""
    found: list[str] = []
    for item in strings(value):
        if 2 <= len(item) <= 3 and item[0] in "YBWGRP":
            try:
                lostcities.parse_card(item)
            except ValueError:
                continue
            found.append(item)
    return Counter(found)


def strings(value: Any) -> Iterator[str]:
    """Every string of a JSON value, keys included."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            yield item


GROUP = SodiumGroup()
ALL_OPTIONS = Options(rounds=3, sixth_colour=True, jobs=True, skills=True, objectives=True,
                      mixups=True)
NAMES = ("Ana", "Ben")
Tamper = Callable[[int, str], list[str]]


def secret(seat: int, seed: int) -> bytes:
    """A fixed 32-byte secret per seat and test seed."""
    return bytes([seat + 1]) + seed.to_bytes(8, "big") + bytes(23)


class Wire:
    """Two peers and the messages in flight, delivered in order (``tamper`` may change what a
    seat sends: return the texts that reach the other side)."""

    def __init__(self, options: Options = ALL_OPTIONS, first_player: int | None = None,
                 seed: int = 1, peers: tuple[type[FairPeer], type[FairPeer]] = (
                     FairPeer, FairPeer), tamper: Tamper | None = None) -> None:
        self.options = options
        self.peers = [cls(s, options, NAMES, first_player, secret(s, seed), GROUP)
                      for s, cls in enumerate(peers)]
        self.tamper = tamper
        self.flight: deque[tuple[int, str]] = deque()
        self.received: list[list[str]] = [[], []]
        self.sent_bytes = [0, 0]
        self.rng = random.Random(seed)
        self.truths: dict[tuple[int, str], tuple[Any, ...]] = {}
        self.moves: list[tuple[int, Move]] = []
        self.after_step: Callable[[], None] = lambda: None
        for peer in self.peers:
            self.send(peer.seat, peer.start())

    def send(self, seat: int, texts: list[str]) -> None:
        """Put what ``seat`` sent in flight (through ``tamper``)."""
        for text in texts:
            for out in (self.tamper(seat, text) if self.tamper else [text]):
                self.sent_bytes[seat] += len(out.encode())
                self.flight.append((1 - seat, out))

    def deliver(self) -> None:
        """Deliver everything in flight, replies included, checking after each message."""
        while self.flight:
            to, text = self.flight.popleft()
            self.received[to].append(text)
            self.send(to, self.peers[to].receive(text))
            self.after_step()

    def actor(self) -> FairPeer | None:
        """The peer with legal moves (never both)."""
        movers = [p for p in self.peers if p.legal_moves()]
        assert len(movers) <= 1, "both seats may move"
        return movers[0] if movers else None

    def choose(self, peer: FairPeer) -> Move:
        """A random legal move, leaning towards deck draws so rounds end, and towards skills
        and undo so they happen."""
        moves = peer.legal_moves()
        rng = self.rng
        for wanted, odds in ((PickJob("scout"), 1.0), (Radio(), 0.5), (Airlift(), 0.3),
                             (Undo(), 0.15)):
            if wanted in moves and rng.random() < odds:
                return wanted
        sabotage = [m for m in moves if isinstance(m, Sabotage)]
        if sabotage and rng.random() < 0.3:
            return rng.choice(sabotage)
        if Draw("deck") in moves and rng.random() < 0.85:
            return Draw("deck")
        plain = [m for m in moves if not isinstance(m, (Undo, Radio, Airlift, Sabotage))]
        return rng.choice(plain or list(moves))

    def act(self, peer: FairPeer, move: Move) -> None:
        """``peer`` makes ``move``; everything is delivered."""
        self.moves.append((peer.seat, move))
        self.send(peer.seat, peer.act(move))
        self.after_step()
        self.deliver()

    def play(self, limit: int = 100_000, between: Callable[[Wire], None] | None = None) -> int:
        """Play until nobody can move; returns the number of moves."""
        self.deliver()
        for n in range(limit):
            peer = self.actor()
            if peer is None:
                return n
            self.act(peer, self.choose(peer))
            if between is not None:
                between(self)
        raise AssertionError("the match did not end")


# ---------------------------------------------------------------- the truth


def truth(wire: Wire, scope: int, name: str) -> tuple[Any, ...]:
    """The item at every position of a deck, from both peers' secrets."""
    found = wire.truths.get((scope, name))
    if found is None:
        a, b = (p.table.decks[(scope, name)] for p in wire.peers)
        inner, outer = (a, b) if a.inner == 0 else (b, a)
        order = item_order(inner.mine.perm, outer.mine.perm)
        found = wire.truths[(scope, name)] = tuple(a.table.items[i] for i in order)
    return found


Truth = Callable[[int, str], tuple[Any, ...]]
"""The item at every position of a deck, by scope and deck name."""


def true_state(wire: Wire, seat: int) -> State:
    """``seat``'s engine state with every hidden card and objective filled in."""
    return filled(wire.peers[seat], wire.options, lambda scope, name: truth(wire, scope, name))


def filled(peer: FairPeer, options: Options, truth_of: Truth) -> State:
    """``peer``'s engine state with every hidden card and objective filled in."""
    st = peer.state
    assert st is not None
    st = fill_cards(st, dict(enumerate(truth_of(st.round, "cards"))))
    if options.objectives and st.phase != "jobs":
        st = fill_objectives(st, dict(enumerate(truth_of(st.round, "objectives"))))
    return st


def shown_now(peer: FairPeer, options: Options,
              truth_of: Truth) -> list[tuple[tuple[int, str], Any]]:
    """What the rules show ``peer``'s seat in its current position: (scope, deck) and items."""
    seat, st = peer.seat, peer.state
    if st is None:
        return []
    shown: list[tuple[tuple[int, str], Any]] = []
    if (0, "coin") in peer.table.decks:
        coin = truth_of(0, "coin")
        shown.append(((0, "coin"), coin if st.phase == "match-end" else coin[:1]))
    if options.jobs:
        offers = truth_of(0, "jobs")
        shown.append(((0, "jobs"), [offers[p] for p in OFFERS[seat]]))
        if st.jobs[0] is not None and st.jobs[1] is not None:
            shown.append(((0, "jobs"), st.jobs))
        if st.phase == "match-end":
            shown.append(((0, "jobs"), offers))
    if st.phase == "jobs":
        return shown
    full = filled(peer, options, truth_of)
    r = st.round
    public = [c for pile in full.discards for c in pile]
    public += [c for side in full.expeditions for e in side for c in e]
    peek = len(deck_peek(full, seat))
    mine = list(full.hands[seat]) + public + list(full.deck[len(full.deck) - peek:])
    shown.append(((r, "cards"), mine))
    if options.objectives:
        shown.append(((r, "objectives"), full.objectives[seat]))
    if full.mixup is not None:
        shown.append(((r, "mixups"), [full.mixup]))
    if st.phase in ("round-end", "match-end"):
        shown.append(((r, "cards"), truth_of(r, "cards")))
        for name in ("objectives", "mixups"):
            if (r, name) in peer.table.decks:
                shown.append(((r, name), truth_of(r, name)))
    return shown


class Oracle:
    """What each seat may have seen under the rules so far, and the checks against it."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.seen: list[dict[tuple[int, str], set[Any]]] = [{}, {}]
        self.held: list[dict[tuple[int, str], set[int]]] = [{}, {}]
        self.read = [0, 0]
        self.tokens_read = [0, 0]
        self.checks = 0
        wire.after_step = self.check

    def allow(self, seat: int, scope: int, name: str, items: Any) -> None:
        self.seen[seat].setdefault((scope, name), set()).update(items)

    def learn(self) -> None:
        """Add what the rules show each seat in the current position."""
        wire = self.wire
        for seat, peer in enumerate(wire.peers):
            for key, items in shown_now(peer, wire.options,
                                        lambda scope, name: truth(wire, scope, name)):
                self.allow(seat, key[0], key[1], items)

    def allowed_texts(self, seat: int) -> set[str]:
        texts = set()
        for (_, name), items in self.seen[seat].items():
            if name == "cards":
                texts |= {card_text(c) for c in items}
        return texts

    def check(self) -> None:
        """Every check, for both seats."""
        self.learn()
        self.checks += 1
        views = [peer.view() for peer in self.wire.peers]
        for seat, peer in enumerate(self.wire.peers):
            self._check_keys(seat)
            self._check_holdings(seat, peer, views[seat])
        self._check_agreement(views)

    def _check_keys(self, seat: int) -> None:
        """Every position whose two shares the seat holds opens an item it may see."""
        peer = self.wire.peers[seat]
        for text in self.wire.received[seat][self.read[seat]:]:
            data = json.loads(text)
            round_now = 1 if peer.state is None else peer.state.round
            for name, pairs in data.get("shares", {}).items():
                scope = 0 if name in ("coin", "jobs") else round_now
                self.held[seat].setdefault((scope, name), set()).update(p for p, _ in pairs)
            if "pick" in data:
                self.held[seat].setdefault((0, "jobs"), set()).add(data["pick"][0])
            for scope in data.get("reveal", {}):
                for (s, name), deck in peer.table.decks.items():
                    if s == int(scope):
                        self.held[seat].setdefault((s, name), set()).update(range(deck.size))
            self._check_algebra(seat, data)
        self.read[seat] = len(self.wire.received[seat])
        for (scope, name), positions in self.held[seat].items():
            items = truth(self.wire, scope, name)
            leaked = {items[p] for p in positions} - self.seen[seat].get((scope, name), set())
            assert not leaked, f"seat {seat} can open {name} {sorted(map(str, leaked))}"

    def _check_algebra_only(self, seat: int) -> None:
        """The algebra check alone over the newly received messages (to test the check)."""
        for text in self.wire.received[seat][self.read[seat]:]:
            self._check_algebra(seat, json.loads(text))
        self.read[seat] = len(self.wire.received[seat])

    def _check_algebra(self, seat: int, data: dict[str, Any]) -> None:
        """A page that knows every item's point and its own keys: no point it received, as it
        came or with any key of its own taken off, is an item the rules have not shown it."""
        peer = self.wire.peers[seat]
        received: list[bytes] = []
        for text in data.get("shuffle", {}).get("decks", {}).values():
            received += decode_vector(text, len(text) * 3 // 4 // 32, 32)
        for pairs in data.get("shares", {}).values():
            received += [decode(share, SHARE_BYTES)[:32] for _, share in pairs]
        for (scope, name), deck in peer.table.decks.items():
            inverse = None if deck.mine is None else GROUP.invert(deck.mine.key)
            seen = self.seen[seat].get((scope, name), set())
            for point in received:
                for candidate in (point, None if inverse is None else GROUP.mult(inverse, point)):
                    index = deck.table.index.get(candidate) if candidate else None
                    if index is not None:
                        item = deck.table.items[index]
                        assert item in seen, f"seat {seat} can compute {name} item {item}"

    def _check_holdings(self, seat: int, peer: FairPeer, view: Any) -> None:
        """The seat's knowledge, engine state, view, messages and save show nothing more."""
        for key, deck in peer.table.decks.items():
            extra = set(deck.known.values()) - self.seen[seat].get(key, set())
            assert not extra, f"seat {seat} knows {key} {sorted(map(str, extra))}"
        st = peer.state
        if st is not None:
            cards = list(st.hands[0] + st.hands[1] + st.deck) + [
                e.card for e in st.log if e.card is not None]
            known = {c for c in cards if not is_hidden(c)}
            extra = known - self.seen[seat].get((st.round, "cards"), set())
            assert not extra, f"seat {seat}'s engine holds {sorted(map(card_text, extra))}"
        allowed = self.allowed_texts(seat)
        fresh = [json.loads(t) for t in self.wire.received[seat][self.tokens_read[seat]:]]
        self.tokens_read[seat] = len(self.wire.received[seat])
        shown: list[tuple[str, Any]] = [("view", view), ("messages", fresh)]
        if st is None or st.phase in ("round-end", "match-end"):
            shown.append(("save", peer.save()))
        for what, value in shown:
            extra_texts = set(card_tokens(value)) - allowed
            assert not extra_texts, f"seat {seat}'s {what} shows {sorted(extra_texts)}"

    def _check_agreement(self, views: list[Any]) -> None:
        """Both seats hold the same public state (positions for hidden cards), and a settled
        seat's view is the engine's view of the true state."""
        a, b = self.wire.peers
        if self.wire.flight or a.state is None or b.state is None:
            return
        if a.state.phase != "jobs" and b.state.phase != "jobs":
            assert positions(a) == positions(b), "the seats disagree on the table"
        for seat, peer in enumerate(self.wire.peers):
            assert peer.state is not None
            if peer.state.phase != "jobs" and peer.table.visible_known() and not peer.waiting():
                shown = views[seat]
                assert shown is not None
                expected = lostcities.view(true_state(self.wire, seat), seat)
                for key in expected:
                    if key not in ("legal_moves",):
                        assert shown[key] == expected[key], f"seat {seat}'s view differs: {key}"


def positions(peer: FairPeer) -> Any:
    """The peer's public state with every card as its deck position."""
    st = peer.state
    assert st is not None
    where = peer.table.decks[(st.round, "cards")].where

    def pos(cards: tuple[int, ...]) -> list[int]:
        return [c - HIDDEN if is_hidden(c) else where[c] for c in cards]

    return (st.phase, st.to_act, [sorted(pos(h)) for h in st.hands], pos(st.deck),
            [pos(p) for p in st.discards], [[pos(e) for e in side] for side in st.expeditions],
            st.round_scores, st.mixup, st.jobs, st.charges)
