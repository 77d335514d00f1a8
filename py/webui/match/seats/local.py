"""Pass and play: both players at this device (`LocalMatch`)."""

from __future__ import annotations

from typing import Any, ClassVar

import lostcities

from webui.match.seats import Move, Refusal, Seat, View, refusal_of


class LocalMatch(Seat):
    """Pass-and-play: both players at this device. Holds the engine state and applies moves.

    The seat whose view is shown is the player to act; at round end and match end (nobody to
    act) it stays the last player who acted. States are immutable, so the view and the state's
    JSON are computed once per state (a click that changes no state costs neither again):
    callers must not change the dicts they get.
    """

    mode: ClassVar[str] = "pass-and-play"
    local_players: frozenset[int] = frozenset({0, 1})

    def __init__(self, state: lostcities.State) -> None:
        self._state = state
        self._seat = state.to_act if state.to_act is not None else 0
        self._view: tuple[lostcities.State, int, View] | None = None
        self._json: tuple[lostcities.State, dict[str, Any]] | None = None

    @classmethod
    def new(cls, options: lostcities.Options, seed: int, first_player: int,
            names: tuple[str, str]) -> LocalMatch:
        """A new match (raises ValueError on bad arguments)."""
        return cls(lostcities.new_match(options, seed=seed, first_player=first_player,
                                        names=names))

    @property
    def seat(self) -> int:
        """The player whose view is shown now."""
        return self._seat

    def view(self) -> View:
        """The view of the player to act (or the last one, when nobody is to act)."""
        cached = self._view
        if cached is None or cached[0] is not self._state or cached[1] != self._seat:
            cached = self._view = (self._state, self._seat,
                                   lostcities.view(self._state, self._seat))
        return cached[2]

    def submit(self, move: Move) -> Refusal | None:
        """Apply a move JSON; None if accepted, else the engine's reason (state unchanged)."""
        try:
            parsed = lostcities.move_from_json(move)
            self._state = lostcities.apply(self._state, parsed)
        except ValueError as exc:  # IllegalMove is a ValueError; so is a malformed move
            return refusal_of(exc)
        if self._state.to_act is not None:
            self._seat = self._state.to_act
        return None

    def to_json(self) -> dict[str, Any]:
        """The whole match (engine state and seat), JSON-ready, for the browser's storage."""
        cached = self._json
        if cached is None or cached[0] is not self._state:
            cached = self._json = (self._state, lostcities.state_to_json(self._state))
        return {"state": cached[1], "seat": self._seat}

    def state_json(self) -> dict[str, Any]:
        """See `Seat.state_json`: the whole match is here."""
        return dict(self.to_json()["state"])

    def rematch_here(self, seed: int, first_player: int) -> LocalMatch:
        """See `Seat.rematch_here`."""
        names = self._state.names
        return LocalMatch.new(self._state.options, seed, first_player, (names[0], names[1]))

    @classmethod
    def from_json(cls, data: object) -> LocalMatch:
        """Rebuild from `to_json`; raises ValueError (CorruptSave included) on a bad document."""
        if not isinstance(data, dict):
            raise ValueError("the match is not an object")
        match = cls(lostcities.state_from_json(data.get("state")))
        seat = data.get("seat")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise ValueError("bad seat")
        if match._state.to_act is not None and seat != match._state.to_act:
            raise ValueError("the seat is not the player to act")
        match._seat = seat
        return match
