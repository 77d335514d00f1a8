"""The leak detector of the online tests (tests/leakcheck.py) on two native seats: an honest
match passes on both pages, and a card planted where a page may not see it yet is caught, as
a code or as its group point at any alignment, while the same card planted once the rules have
shown it passes."""

from __future__ import annotations

import json

import pytest
from fairseats import Pair, finished
from leakcheck import LeakCheck

from lostcities import Options
from lostcities.cards import card_text
from lostcities.fair.codec import encode

OPTIONS = Options(rounds=1, sixth_colour=True, jobs=True, skills=True, objectives=True,
                  mixups=True)


@pytest.fixture(scope="module")
def match() -> tuple[Pair, LeakCheck]:
    pair = Pair(OPTIONS, first=0, seed=12)
    pair.play()
    finished(pair)
    assert pair.host.peer is not None and pair.guest.peer is not None
    return pair, LeakCheck((pair.host.peer.save(), pair.guest.peer.save()))


def test_an_honest_match_passes_on_both_pages(match: tuple[Pair, LeakCheck]) -> None:
    pair, check = match
    check.check_page(0, pair.events["host"])
    check.check_page(1, pair.events["guest"])
    assert check.checked["rx"] > 150 and check.checked["store"] > 40


def planted(card_point: bytes, offset: int) -> str:
    """A message whose one vector holds the point `offset` bytes in."""
    return json.dumps({"fair": 1, "seq": 10**6, "v": encode(b"\5" * offset + card_point + b"\7")})


def first_play_of(events: list[tuple[str, str]], card: str) -> int:
    return next(i for i, (kind, text) in enumerate(events)
                if kind == "rx" and json.loads(text).get("move", {}).get("card") == card)


@pytest.mark.parametrize("offset", [0, 32, 64])
def test_a_hidden_card_planted_as_its_point_is_caught(match: tuple[Pair, LeakCheck],
                                                      offset: int) -> None:
    pair, check = match
    host_card = check.truth_of(1, "cards")[0]  # dealt to the host: hidden from the guest
    events = list(pair.events["guest"])
    # planted as the match begins: later, the host may have played it (the secrets, and so
    # the deal, differ from run to run)
    events.insert(1, ("store", "somewhere\n" + planted(check.points[host_card], offset)))
    with pytest.raises(AssertionError, match=card_text(host_card)):
        check.check_page(1, events)


def test_a_hidden_card_planted_as_its_code_is_caught_and_a_shown_one_passes(
        match: tuple[Pair, LeakCheck]) -> None:
    pair, check = match
    events = pair.events["guest"]
    played = next(move["card"] for kind, text in events if kind == "rx"
                  for move in [json.loads(text).get("move", {})]
                  if move.get("type") == "play" and move["card"][1] != "H")
    shown_at = first_play_of(events, played)
    card = next(c for c in check.cards if card_text(c) == played)
    early = [*events[:5], ("rx", json.dumps({"lc": "ping", "note": played})), *events[5:]]
    with pytest.raises(AssertionError, match=played):
        check.check_page(1, early)
    late = [*events[:shown_at + 1],
            ("store", "k\n" + json.dumps({"card": played, "v": encode(check.points[card])})),
            *events[shown_at + 1:]]
    check.check_page(1, late)
