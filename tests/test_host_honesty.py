"""Nothing a seat may not see ever reaches it through the host (docs/rules.md §6).

Two random seats play whole matches with every option on; every message the host sends, to
either seat, is checked against the true state (`state_to_json`, the host's own save):

* no number card of the opponent's hand or of the deck that the seat has not legitimately
  seen (played, discarded, taken from a pile, drawn by itself, or peeked with Radio/Scout);
* no list of cards holding more handshakes of a colour than the seat can account for;
* no objective of the opponent's before the round's scoring;
* no job offered to the opponent, except the opponent's pick once both picks are revealed;
* never the seed the deck is shuffled from.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from lostcities import Options, new_match, state_to_json, view
from lostcities.cli.host import MatchHost
from lostcities.protocol import APP_VERSION

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])[YBWGRP](?:10|[2-9]|H)(?![A-Za-z0-9])")
SEED_BASE = 987_654_321_000


def face(card: str) -> str:
    """A card's text as players see it (a save may number the three handshakes: RH2 -> RH)."""
    return card[:2] if card[1] == "H" else card


class Parts:
    """Every string, integer and list of card texts in a message (one walk)."""

    def __init__(self, message: Any) -> None:
        self.strings: list[str] = []
        self.ints: set[int] = set()
        self.card_lists: list[list[str]] = []
        self._walk(message)

    def _walk(self, obj: Any) -> None:
        if isinstance(obj, str):
            self.strings.append(obj)
        elif isinstance(obj, bool):
            pass
        elif isinstance(obj, int):
            self.ints.add(obj)
        elif isinstance(obj, dict):
            self.strings.extend(obj)
            for value in obj.values():
                self._walk(value)
        elif isinstance(obj, list):
            if obj and all(isinstance(x, str) and CARD_TOKEN.fullmatch(x) for x in obj):
                self.card_lists.append(obj)
            for item in obj:
                self._walk(item)


def seen_by(truth: dict[str, Any], seat: int) -> Counter[str]:
    """Every card `seat` may know of right now, as a multiset of faces."""
    cards: list[str] = list(truth["hands"][seat])
    for player in truth["expeditions"]:
        for pile in player.values():
            cards += pile
    for pile in truth["discards"].values():
        cards += pile  # buried cards were face up when discarded
    for entry in truth["log"]:
        if entry["card"] is not None and (
            entry["type"] in ("play", "discard")
            or entry["type"] == "draw" and (entry["detail"] != "deck" or entry["player"] == seat)
        ):
            cards.append(entry["card"])
    peek = 0
    if truth["to_act"] == seat and truth["phase"] in ("play", "draw"):
        peek = 2 if "radio" in truth["skills_used"] else 0
        if truth["jobs"][seat] == "scout":
            peek = max(peek, 1)
    if peek:
        cards += truth["deck"][-peek:]
    return Counter(face(c) for c in cards)


def leaks(message: dict[str, Any], truth: dict[str, Any], seat: int,
          echoed: str = "") -> list[str]:
    """What in `message` (sent to `seat`) the seat may not know. `echoed`: the request the
    message answers (the seat may be told back what it said itself)."""
    problems = []
    other = 1 - seat
    known = seen_by(truth, seat)
    colours = truth["discards"].keys()
    secret = {f"{c}{n}" for c in colours for n in range(2, 11)} - set(known)
    said = set(CARD_TOKEN.findall(echoed))
    parts = Parts(message)
    text = "\n".join(parts.strings)
    for token in set(CARD_TOKEN.findall(text)) & secret - said:
        problems.append(f"secret card {token}")
    for cards in parts.card_lists:
        for card, count in Counter(cards).items():
            if count > known[card]:
                problems.append(f"{count} x {card} in a list, but only {known[card]} known")
    hidden_words: set[str] = set()
    if truth["options"]["objectives"] and truth["phase"] not in ("round-end", "match-end"):
        hidden_words |= set(truth["objectives"][other]) - set(truth["objectives"][seat])
    revealed = {j for j in truth["jobs"] if j} if all(truth["jobs"]) else set()
    hidden_words |= set(truth["job_offers"][other]) - set(truth["job_offers"][seat]) - revealed
    for word in hidden_words & set(parts.strings):
        problems.append(f"hidden id {word!r}")
    if truth["seed"] in parts.ints or str(truth["seed"]) in text:
        problems.append("the seed")
    return problems


class Guest:
    def __init__(self, seat: int) -> None:
        self.seat, self.seq, self.view = seat, 0, None

    def raw(self, kind: str, **fields: Any) -> str:
        self.seq += 1
        return json.dumps({"v": 1, "seq": self.seq, "type": kind, **fields})


class Audit:
    """Runs a host and counts what the leak checks actually covered."""

    def __init__(self) -> None:
        self.host = MatchHost()
        self.guests = [Guest(0), Guest(1)]
        self.checked = Counter[str]()

    def send(self, seat: int, raw: str) -> None:
        out = self.host.receive(seat, raw)
        self.check(out, echoed={seat: raw})

    def check(self, out: list[tuple[int, dict[str, Any]]], echoed: dict[int, str]) -> None:
        if self.host.state is None:  # before the match: no cards exist yet
            return
        truth = state_to_json(self.host.state)
        for recipient, message in out:
            problems = leaks(message, truth, recipient, echoed.get(recipient, ""))
            assert not problems, (recipient, message["type"], problems)
            self.checked[message["type"]] += 1
            if "view" in message:
                seen = message["view"]
                self.guests[recipient].view = seen
                self.checked["peek"] += bool(seen["deck_peek"])
                self.checked["objectives-revealed"] += bool(seen["objectives"][1 - recipient])
                self.checked["job-offer"] += bool(seen["job_offer"])


def hostile(rng: random.Random, audit: Audit, seat: int) -> None:
    """Something a curious or cheating seat might send."""
    guest = audit.guests[seat]
    own = guest.view
    assert own is not None
    choice = rng.randrange(6)
    if choice == 0:
        audit.send(seat, guest.raw("get-view"))
    elif choice == 1:
        audit.send(seat, guest.raw("get-legal-moves"))
    elif choice == 2:  # ask for the other seat's view
        audit.send(seat, guest.raw("get-view", seat=1 - seat))
    elif choice == 3 and own["hand"]:  # move out of turn, or discard twice
        audit.send(seat, guest.raw("move", move={"type": "discard", "card": own["hand"][0]}))
    elif choice == 4:  # draw from every source, deck included, whenever
        for source in ["deck", *own["colours"]]:
            audit.send(seat, guest.raw("move", move={"type": "draw", "source": source}))
    else:  # reconnect: a fresh connection, hello, resync
        audit.host.connect(seat)
        audit.guests[seat] = Guest(seat)
        audit.send(seat, audit.guests[seat].raw("hello", name="again", app=APP_VERSION))


def audit_match(seed: int, options: Options, first_player: int) -> Audit:
    rng = random.Random(seed)
    audit = Audit()
    for seat in (0, 1):
        audit.send(seat, audit.guests[seat].raw("hello", name=f"P{seat}", app=APP_VERSION))
    out = audit.host.start(options, seed=SEED_BASE + seed, first_player=first_player)
    audit.check(out, echoed={})
    while audit.host.state is not None and audit.host.state.phase != "match-end":
        if rng.random() < 0.15:
            hostile(rng, audit, rng.randrange(2))
            continue
        actors = [g for g in audit.guests if g.view and g.view["legal_moves"]]
        guest = rng.choice(actors)
        assert guest.view is not None
        legal = guest.view["legal_moves"]
        deck = {"type": "draw", "source": "deck"}
        skills = [m for m in legal if m["type"] in ("radio", "airlift", "sabotage")]
        if deck in legal and rng.random() < 0.7:
            move = deck
        elif skills and rng.random() < 0.5:
            move = rng.choice(skills)
        else:
            move = rng.choice(legal)
        audit.send(guest.seat, guest.raw("move", move=move))
    return audit


ALL_ON = dict(sixth_colour=True, jobs=True, skills=True, objectives=True, mixups=True)


def test_no_message_to_either_seat_holds_anything_it_may_not_see() -> None:
    total = Counter[str]()
    for seed in range(6):
        options = Options(rounds=1 + seed % 3, **ALL_ON) if seed < 5 else Options()
        total += audit_match(seed, options, first_player=seed % 2).checked
    # the checks above really covered the risky cases
    assert total["view"] > 1000 and total["match-end"] >= 12
    assert total["error"] > 50 and total["welcome"] > 12
    assert total["peek"] > 20, "Radio or Scout peeks were never checked"
    assert total["objectives-revealed"] > 0 and total["job-offer"] > 0


# ---- the checks above can fail: each kind of leak is caught ---------------------------------


def test_the_audit_catches_the_opponents_hand_and_the_deck() -> None:
    state = new_match(Options(), seed=SEED_BASE, first_player=0)
    truth = state_to_json(state)
    assert leaks({"view": view(state, 0)}, truth, 0) == []
    assert any("secret card" in p for p in leaks({"view": view(state, 1)}, truth, 0))
    number = next(face(c) for c in truth["hands"][1] if c[1] != "H")
    assert leaks({"type": "error", "message": f"try {number}"}, truth, 0)
    assert leaks({"deck": [face(c) for c in truth["deck"]]}, truth, 0)
    buried = next(face(c) for c in truth["deck"][:-1] if c[1] != "H")
    assert leaks({"deck_peek": [buried]}, truth, 0)
    handshakes = Counter(face(c) for c in truth["hands"][0] if c[1] == "H")
    for card, count in handshakes.items():
        assert leaks({"hand": [card] * (count + 3)}, truth, 0)


def test_the_audit_catches_hidden_ids_and_the_seed() -> None:
    state = new_match(Options(**ALL_ON), seed=SEED_BASE, first_player=0)
    truth = state_to_json(state)
    assert leaks({"view": view(state, 0)}, truth, 0) == []
    assert leaks({"view": view(state, 1)}, truth, 0)  # holds player 1's job offer
    assert leaks({"jobs": truth["job_offers"][1]}, truth, 0)
    assert leaks({"x": SEED_BASE}, truth, 0) and leaks({"x": f"seed {SEED_BASE}"}, truth, 0)
    dealt = new_match(Options(objectives=True), seed=SEED_BASE + 1, first_player=0)
    dealt_truth = state_to_json(dealt)
    assert leaks({"view": view(dealt, 0)}, dealt_truth, 0) == []
    assert leaks({"objectives": dealt_truth["objectives"][1]}, dealt_truth, 0)
