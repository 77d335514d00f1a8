"""The online tests' leak detector: no message to the guest holds a card hidden from it.

Shared by tests/test_online_core.py (in-memory wire) and e2e/test_online.py (the guest's real
data channel: it puts this folder on sys.path first).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import lostcities

GUEST = 1


def card_tokens(value: Any) -> Counter[str]:
    """Every string in a JSON value that is a card code (R7, YH, G10...), counted."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and 2 <= len(item) <= 3 and item[0] in "YBWGRP":
            try:
                lostcities.parse_card(item)
            except ValueError:
                continue
            found.append(item)
    return Counter(found)


def hidden_cards(state: lostcities.State) -> Counter[str]:
    """The cards the guest may not see: the host's hand and the deck (handshake copies
    folded, RH2 -> RH, as views name them)."""
    doc = lostcities.state_to_json(state)
    return Counter(c[:2] if c[1] == "H" else c for c in doc["hands"][0] + doc["deck"])


def check_guest_message(message: dict[str, Any], state: lostcities.State) -> None:
    """A message the guest received while the host's state was `state`: its view, if any, is
    exactly the engine's view for the guest's seat, and it holds no hidden card in more copies
    than that view shows."""
    allowed = lostcities.view(state, GUEST)
    if "view" in message:
        assert message["view"] == allowed, "a view the engine would not give the guest"
    leaked = (card_tokens(message) - card_tokens(allowed)) & hidden_cards(state)
    assert not leaked, f"hidden cards {dict(leaked)} reached the guest: {str(message)[:200]}"
