"""The online tests' leak detector: nothing a page receives or stores holds a card its player
may not see at that moment, neither as a card code (``R7``) nor as the card's unmasked group
point (in the base64url the fair wire writes bytes in, at any alignment within a vector).

`LeakCheck` takes both seats' final saves: from their two secrets it knows every deck's order
(the truth). It replays one page natively from its own save, step by step in the order of what
that page recorded (each message its data channel delivered, each localStorage write), and at
each step asks the rules what the seat may have seen so far (tests/fairwire.py `shown_now`);
whatever the page received or wrote then is searched for every other card.

Shared by tests/test_leakcheck.py (native seats) and e2e/test_fair_online.py (two browsers).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import types
from collections import Counter, deque
from collections.abc import Iterator
from typing import Any

import lostcities
from fairwire import GROUP, card_tokens, shown_now, strings, truth
from lostcities.cards import card_text
from lostcities.fair import FairPeer
from lostcities.fair.items import item_table
from lostcities.fair.wire import dumps

_BASE64URL = re.compile(r"[A-Za-z0-9_-]{16,}")


def encodings(point: bytes) -> tuple[str, str, str]:
    """The base64url text any encoding of `point` holds, at each of the three alignments a
    value can take in a longer byte string (the characters that mix in a neighbour cut off)."""
    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode("ascii")

    return b64(point)[:42], b64(b"\0" + point)[2:44], b64(b"\0\0" + point)[3:45]


def decoded(text: str) -> bytes:
    """The bytes of every base64url run in `text` (a run that does not decode gives none)."""
    out = bytearray()
    for run in _BASE64URL.findall(text):
        for start in range(3):  # its start may be anywhere in a 3-byte group
            part = run[start:]
            try:
                out += base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
            except (binascii.Error, ValueError):
                continue
    return bytes(out)


class LeakCheck:
    """The checks of one match, from both seats' final saves (FairPeer.save documents)."""

    def __init__(self, saves: tuple[dict[str, Any], dict[str, Any]]) -> None:
        assert [s["seat"] for s in saves] == [0, 1]
        self.saves = saves
        finals = [FairPeer.restore(doc, GROUP) for doc in saves]
        self.options = lostcities.Options.from_json(saves[0]["options"])
        self._truths = types.SimpleNamespace(peers=finals, truths={}, options=self.options)
        table = item_table(GROUP, "cards", self.options.sixth_colour)
        self.cards = table.items
        self.points = dict(zip(table.items, table.points, strict=True))
        self.patterns = {card: encodings(p) for card, p in self.points.items()}
        self.checked = Counter[str]()

    def truth_of(self, scope: int, name: str) -> tuple[Any, ...]:
        """The item at every position of a deck of the match."""
        return truth(self._truths, scope, name)  # type: ignore[arg-type]

    def check_page(self, seat: int, events: list[tuple[str, str]]) -> None:
        """Every event of `seat`'s page (``("rx", text)`` or ``("store", "key\\ntext")``), in
        order, against what the seat may have seen by then; AssertionError on a leak."""
        save = self.saves[seat]
        peer = FairPeer(seat, self.options, tuple(save["names"]), save["first_player"],
                        base64.urlsafe_b64decode(save["secret"] + "="), GROUP)
        steps = self._steps(peer, save)
        seen: set[int] = set()
        passed: set[str] = set()
        self._learn(peer, seen)
        for number, (kind, data) in enumerate(events):
            text = data
            if kind == "rx":
                seq = _fair_seq(data)
                if seq is not None and peer.last_received < seq \
                        and not self._until(peer, steps, seen, seq):
                    raise AssertionError(f"seat {seat} received a message its save lacks:"
                                         f" {data[:120]}")
            else:
                text = data.split("\n", 1)[1] if "\n" in data else ""
            self._check(seat, kind, number, text, seen, passed)
            self.checked[kind] += 1

    def _until(self, peer: FairPeer, steps: Iterator[None], seen: set[int], seq: int) -> bool:
        """Step the replay until it has taken in message `seq`, learning as it goes."""
        for _ in steps:
            self._learn(peer, seen)
            if peer.last_received >= seq:
                return True
        return False

    @staticmethod
    def _steps(peer: FairPeer, save: dict[str, Any]) -> Iterator[None]:
        """Replay `save`'s transcript into `peer` as the page lived it (FairPeer._replay's
        order), one step at a time."""
        expected: deque[str] = deque(peer.start() if save["started"] else ())
        for entry in save["transcript"]:
            if entry["dir"] == "in":
                expected.extend(peer.receive(dumps(entry["msg"])))
            else:
                if not expected:
                    expected.extend(peer.act(lostcities.move_from_json(entry["move"])))
                assert json.loads(expected.popleft()) == entry["msg"]
            yield

    def _learn(self, peer: FairPeer, seen: set[int]) -> None:
        for (_, name), items in shown_now(peer, self.options, self.truth_of):
            if name == "cards":
                seen.update(int(i) for i in items)

    def _check(self, seat: int, kind: str, number: int, text: str, seen: set[int],
               passed: set[str]) -> None:
        try:
            value: Any = json.loads(text)
        except ValueError:
            value = text
        hidden = [c for c in self.cards if c not in seen]
        allowed_codes = {card_text(c) for c in seen}
        leaked = set(card_tokens(value)) - allowed_codes
        for item in strings(value):
            if item in passed:
                continue  # what passed before passes now: a seat only ever sees more
            if len(item) >= 42:
                raw = decoded(item)
                leaked |= {card_text(c) for c in hidden
                           if self.points[c] in raw or any(e in item for e in self.patterns[c])}
            if not leaked:
                passed.add(item)
        assert not leaked, (f"seat {seat}'s {kind} #{number} holds {sorted(leaked)}, which it"
                            f" may not see then: {text[:160]}")


def _fair_seq(text: str) -> int | None:
    """The number of a fair message's text, None for any other text."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    seq = data.get("seq") if isinstance(data, dict) and "fair" in data else None
    return seq if isinstance(seq, int) else None
