"""A match at the table: a seat (webui/match/seats) plus the UI state, turning button actions into
moves.

Browser-free: `handle(action, data)` takes what a clicked button carries (``data-action`` and its
other ``data-*``), and `render(lang)` gives the screen name and HTML. `save_text` is what the
browser's storage keeps under the seat's key: for a match held on this device (pass and play,
the computer) the seat's JSON plus the UI state, so a reload resumes exactly; for an online
seat, the seat's own document.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from lostcities.protocol import ProtocolError, decode_json

from webui.kernel.uistate import UiState
from webui.match.seats import MATCH_KEY, Seat
from webui.match.seats.computer import BotMatch, is_bot_match
from webui.match.seats.local import LocalMatch

SAVE_APP = "lostcities-webui"
SAVE_VERSION = 1

SavedKind = tuple[Callable[[object], bool], Callable[[object], Seat]]
"""How to recognise a kind of saved match document, and how to load it."""
SAVED_KINDS: list[SavedKind] = [(is_bot_match, BotMatch.from_json)]
"""The kinds of match a save may hold besides pass and play, tried in turn, the latest
registered first."""


def register_saved_kind(recognise: Callable[[object], bool],
                        load: Callable[[object], Seat]) -> None:
    """Let `Session.from_save_text` resume a further kind of seat (a feature's, such as the
    guide's): `recognise(match)` says whether a saved match document is of that kind, and
    `load(match)` builds its seat (ValueError on a bad document)."""
    SAVED_KINDS.insert(0, (recognise, load))


def load_saved_match(match: object) -> Seat:
    """The seat a saved match document holds, by the first kind that recognises it (pass and
    play otherwise); ValueError on a bad document."""
    load = next((load for recognise, load in SAVED_KINDS if recognise(match)),
                LocalMatch.from_json)
    return load(match)


MOVE_ACTIONS = ("play", "discard", "draw", "undo", "radio", "airlift", "sabotage",
                "pick-job", "next-round", "play-here", "discard-here")
"""``play-here`` and ``discard-here`` are the lit expedition and discard pile of the card
picked: the same moves as Play and Discard."""
TABLE_ACTIONS = (*MOVE_ACTIONS, "select", "ready", "cancel", "dismiss-mixup")
"""The ``data-action`` values a Session handles; the page handles the others."""

MAX_SAVE_BYTES: Final = 1_000_000
"""Largest save text read back (a finished 5-round match with every option is ~30 KB)."""
MAX_SAVE_DEPTH: Final = 32
"""Deepest JSON nesting read back (saves nest about 8 levels)."""


def parse_save(text: str) -> Any:
    """Parse a save read from the browser's storage; ValueError if it is not a readable one.

    Uses the peer messages' parser (size and nesting checked before json.loads), so a
    hand-made save nested thousands deep cannot exhaust Pyodide's stack (an uncatchable
    fatal error there): it is refused like any other bad save.
    """
    try:
        return decode_json(text, MAX_SAVE_BYTES, MAX_SAVE_DEPTH)
    except ProtocolError as exc:
        raise ValueError(f"not a readable save: {exc.message}") from None


class Session:
    """One match on this device: the seat, the UI state, and the last refusal."""

    def __init__(self, seat: Seat, ui: UiState | None = None) -> None:
        self.seat = seat
        self.ui = ui if ui is not None else UiState(handoff=len(seat.local_players) > 1)

    def view(self) -> dict[str, Any]:
        """The current view of the local seat."""
        return self.seat.view()

    def handle(self, action: str, data: dict[str, str]) -> None:
        """Carry out a table action; a refused move leaves its reason in `ui.message`.

        Raises ValueError for an action the table does not know.
        """
        if action not in TABLE_ACTIONS:
            raise ValueError(f"unknown table action {action!r}")
        ui, view = self.ui, self.view()
        if action == "select":
            card = data.get("card")
            ui.selected = None if card == ui.selected or card not in view.get("hand", []) else card
            ui.message, ui.sabotage_menu = None, False
        elif action == "ready":
            ui.handoff = False
            if view.get("to_act") is not None and view["to_act"] not in ui.jobs_seen:
                if all(j is not None for j in view.get("jobs") or [None]):
                    ui.jobs_seen.append(view["to_act"])
        elif action == "cancel":
            ui.sabotage_menu = False
        elif action == "dismiss-mixup":
            if view["player"] not in ui.mixup_seen:
                ui.mixup_seen.append(view["player"])
        elif action == "sabotage" and "colour" not in data:
            ui.sabotage_menu = not ui.sabotage_menu
            ui.message = None
        else:
            move = self._move(action, data)
            if move is not None:
                self._submit(move)

    def _move(self, action: str, data: dict[str, str]) -> dict[str, Any] | None:
        action = action.removesuffix("-here")
        if action in ("play", "discard"):
            if self.ui.selected is None:
                return None
            return {"type": action, "card": self.ui.selected}
        if action == "draw":
            return {"type": "draw", "source": data.get("source", "")}
        if action == "sabotage":
            return {"type": "sabotage", "colour": data.get("colour", "")}
        if action == "pick-job":
            return {"type": "pick-job", "job": data.get("job", "")}
        return {"type": action}

    def _submit(self, move: dict[str, Any]) -> None:
        before = self.view().get("to_act")
        refusal = self.seat.submit(move)
        ui = self.ui
        if refusal is not None:
            ui.message = refusal
            return
        ui.message, ui.sabotage_menu = None, False
        after = self.view()
        if move["type"] in ("play", "discard"):
            ui.selected = None
        elif move["type"] == "undo":
            ui.selected = None
        to_act = after.get("to_act")
        if after.get("phase") in ("round-end", "match-end"):
            ui.handoff = False
        elif len(self.seat.local_players) > 1 and to_act is not None and to_act != before:
            ui.handoff = True
            ui.selected = None
        if move["type"] == "next-round":
            ui.mixup_seen = []

    # -- saving ---------------------------------------------------------------------------

    def save_text(self) -> str | None:
        """The save document (JSON text) for the browser's storage, under the seat's
        `save_key`; None when the seat keeps nothing any more (its key is to be removed)."""
        if self.seat.save_key != MATCH_KEY:  # a seat saved on its own (online)
            return self.seat.saved_text()
        doc = self.seat.saved()
        if doc is not None and self.seat.save_key == MATCH_KEY:
            doc = {"app": SAVE_APP, "version": SAVE_VERSION, "match": doc,
                   "ui": self.ui.to_json()}
        return None if doc is None else json.dumps(doc)

    @classmethod
    def from_save_text(cls, text: str) -> Session:
        """Resume a match held on this device from `save_text` output (under `MATCH_KEY`);
        raises ValueError saying what is wrong."""
        doc = parse_save(text)
        if not isinstance(doc, dict) or doc.get("app") != SAVE_APP:
            raise ValueError("not a saved match of this app")
        if doc.get("version") != SAVE_VERSION:
            raise ValueError(f"save version {doc.get('version')!r} is not supported")
        return cls(load_saved_match(doc.get("match")), UiState.from_json(doc.get("ui")))
