"""The seats: a match as this device sees it, whoever the other player is.

The controller (webui/match/controller.py) drives every match through `Seat`: it renders
`seat.view()`, sends the player's moves with `seat.submit(move)`, hears of changes it did not
cause through `set_on_change`, and keeps `seat.saved()` under `seat.save_key`. What differs
between matches is behind the seat:

- `local.LocalMatch`: both players at this device (pass and play);
- `computer.BotMatch`: the other player is the computer, which thinks on this device
  (`to_think`, `think`, `play_thought`);
- webui/online/host.py's `FairHost` and guest.py's `FairGuest`: the other player is on another page,
  and the two pages play a fair match (neither holds the other's cards); the transport (PeerJS,
  webui/browser/online/net.py) is attached to the seat, which says how the connection is
  (`remote`), keeps it alive (`tick`) and hangs it up (`hang_up`, `leave`).

Browser-free, like every seat: nothing here touches the page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

if TYPE_CHECKING:  # the boot imports this module: nothing more at run time
    from lostcities import Dealt
    from webui.kernel.markup import Markup
    from webui.match.series import Series

View = dict[str, Any]
Move = dict[str, Any]
Refusal = dict[str, Any]
"""Why a move is not taken: ``{"code": ..., "data": {...}}``, worded by webui/text/moves.py. The
codes are the engine's (`lostcities.REFUSAL_CODES`) and the seats' own (`SEAT_REFUSALS`)."""
Problem = dict[str, Any]
"""A problem with the other page, or the failed check that stopped the match:
``{"code": ..., "data": {...}}`` (`problem`), worded in the player's language by
webui/screens/online.py (`problem_text`: the catalogue's ``problem.<code>``)."""
Steps = Generator[None, None, Move]
"""Stepwise thinking: each step is a short piece of work; the value returned is the move."""

MATCH_KEY: Final = "lostcities.match"
"""The browser's storage key of the match held on this device (pass and play, the computer)."""


SEAT_REFUSALS: Final = ("offline", "awaiting-answer", "not-started", "stopped")
"""The seats' own refusal codes (no data): not connected to the other page, the other page has
not answered the last move yet, the match has not started, a failed check stopped it."""


def refused(code: str, **data: Any) -> Refusal:
    """A refusal with `code` and its `data`."""
    return {"code": code, "data": data}


def problem(code: str, **data: str) -> Problem:
    """A problem with `code` and its `data`."""
    return {"code": code, "data": data}


def refusal_of(exc: ValueError) -> Refusal:
    """The engine's refusal behind `exc` (`IllegalMove`); any other ValueError (a malformed
    move) is ``not-a-move``."""
    refusal = getattr(exc, "refusal", None)
    return refusal.to_json() if refusal is not None else refused("not-a-move")


class Remote(NamedTuple):
    """How the other page is, as the connection badge shows it (webui/screens/online.py's
    `status_bar`)."""

    state: str
    """``connected``, ``reconnecting`` or ``lost`` (online/liveness.py)."""
    opponent: str | None
    """The other player's name, once known."""
    code: str
    """The room code."""
    error: Problem | None = None
    """The other page's last refusal, or a problem with what it sent."""
    reload: Problem | None = None
    """Set when this page must reload (the other page runs another version)."""
    host_away: str | None = None
    """For a guest whose host is gone: ``closed`` (for now) or ``left`` (for good)."""
    waiting: bool = False
    """Whether the match waits on the other page's messages (a shuffle, a key on its way)."""
    silent: float | None = None
    """Seconds the other page has owed the match a message in silence (None: it owes
    nothing), from when the debt began or its last message arrived, whichever is later."""
    offer_end: bool = False
    """Whether the player may now end the match as abandoned by the other page (two minutes
    of owed silence)."""
    halted: str | None = None
    """Why this page stopped relaying for good, if it did: ``unsaved`` (storage refused a
    write) or ``moved`` (another tab runs the seat)."""


class Seat:
    """What the controller asks of a seat. The defaults are those of a match held wholly on
    this device, with nobody to think for: a seat overrides what it does differently.

    - `local_players`: the players who sit at this device (two for pass and play: the table
      then shows a hand-off screen between their turns).
    - `view()`: the current view (docs/architecture.md) of the local player to see the table.
    - `submit(move)`: the local player's move (move JSON); None when accepted, else a
      `Refusal` (a code and its data, worded by the UI), and nothing changes.
    - `set_on_change(callback)`: `callback()` runs whenever the view or the seat changes by
      something other than `submit` (the computer's move, a message from the other page).
    """

    mode: ClassVar[str]
    """``pass-and-play``, ``computer`` or ``online``: what kind of match this is."""
    save_key: ClassVar[str] = MATCH_KEY
    """Where the browser's storage keeps this seat (`saved`)."""

    local_players: frozenset[int]
    _on_change: Callable[[], None] | None = None

    @property
    def has_match(self) -> bool:
        """Whether the match is on (an online seat waits for the other page first)."""
        return True

    def view(self) -> View:
        """The current view for the local seat."""
        raise NotImplementedError

    def submit(self, move: Move) -> Refusal | None:
        """Apply `move`; None if accepted, else why not."""
        raise NotImplementedError

    def set_on_change(self, callback: Callable[[], None]) -> None:
        """Register the callback run on changes that `submit` did not cause."""
        self._on_change = callback

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    # ---- saving ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Everything to resume the seat exactly, JSON-ready."""
        raise NotImplementedError

    def keeps_save(self) -> bool:
        """Whether anything of this seat is still worth keeping (False: its save is removed
        at once)."""
        return True

    def saved(self) -> dict[str, Any] | None:
        """What the browser's storage keeps under `save_key` now (None: nothing, remove it)."""
        return self.to_json() if self.keeps_save() else None

    def saved_text(self) -> str | None:
        """`saved()` as JSON text (a seat with a long save may make it more cheaply)."""
        doc = self.saved()
        return None if doc is None else json.dumps(doc)

    # ---- what a match played here keeps ----------------------------------------------------

    def state_json(self) -> dict[str, Any] | None:
        """The engine state's JSON when this device holds the whole match (its history record
        replays from it, and it can be played again here), else None."""
        return None

    def dealt(self) -> Dealt | None:
        """The draws of a match not dealt from a seed (online: the fair protocol's), as far
        as this page has learnt them, for its history record's replay; else None."""
        return None

    def bot_level(self) -> str | None:
        """The computer's level in a match against it, else None."""
        return None

    def in_history(self) -> bool:
        """Whether this seat's match counts in the player's history, stats and series."""
        return True

    def rematch_here(self, seed: int, first_player: int) -> Seat:
        """A new match on this device after this one ended: the same players in the same seats,
        the same options (and level), dealt from `seed`, `first_player` starting. ValueError
        when the match can't be played again here (online, the pages agree on it instead)."""
        raise ValueError("this match can't be played again here")

    # ---- playing again, and the series -----------------------------------------------------

    match_no: int | None = None
    """The number of the match this seat holds when its rematches are played in the seat
    itself (online: counted up at each agreed rematch); None when a rematch is a new seat."""
    carried: Series | None = None
    """The series this seat's match continues, as agreed for a rematch in the seat itself
    (online); None otherwise (a rematch dealt here carries its series through the keeper)."""
    rematch_refused: Problem | None = None
    """Why the other page's last rematch message was refused, if it was."""

    @property
    def starting(self) -> bool:
        """Whether a rematch in this seat was agreed and its first deal is on its way (the
        match before still shows meanwhile)."""
        return False

    def offers_play_again(self, recorded: bool) -> bool:
        """Whether the match-end offers Play again now, `recorded` saying whether the match's
        record is in the history: a match held here is played again here once recorded."""
        return recorded and self.state_json() is not None

    def ask_rematch(self) -> bool:
        """The player asks to play again after this match ended: True if the other page was
        asked (the next match begins in this seat once both pages agree), False if there is
        nobody to ask (this device deals the rematch itself, `rematch_here`). ValueError, and
        nothing changes, when a rematch can't be asked now."""
        return False

    def rematch_state(self) -> str | None:
        """Where a rematch agreed with the other page stands: ``asked`` (this player asked, the
        other has not answered), ``invited`` (the other player asked), ``starting`` (both
        agreed: the next match is being dealt), or None (nothing asked, or nobody to ask)."""
        return None

    def series_at_end(self, kept: Series | None, recorded: bool) -> Series | None:
        """The series the match-end shows, given the series the keeper keeps of this match
        (`kept`) and whether the keeper recorded the match in it (`recorded`): `kept` once
        recorded, else None. A seat that counts its own series (online) gives that instead."""
        return kept if recorded else None

    # ---- on the match's screens ------------------------------------------------------------

    def panel(self, screen: str, lang: str) -> Markup | None:
        """What the seat itself shows on its match's screen `screen` (``turn``,
        ``match-end``, ...) in the language `lang`: the guide's step over the table; None:
        nothing."""
        return None

    def pointing(self) -> Move | None:
        """The move the seat points its player at, lit on the table (the guide's step);
        None: none."""
        return None

    def skip_guide(self) -> bool:
        """The player skips the guide: True if this match is the guide's (its prepared deal is
        for the guide alone: the match is to end), False (nothing to skip) otherwise."""
        return False

    def close_guide(self) -> bool:
        """The player puts the finished guide's panel away: True if this match is the guide's
        (the seat changed: it is to be saved and shown again), False otherwise."""
        return False

    # ---- a player this device thinks for ---------------------------------------------------

    def to_think(self) -> int | None:
        """The player this device must think for now (the computer, to move), or None."""
        return None

    def think(self) -> Steps:
        """The move of `to_think()`'s player, as stepwise work (the page runs it in slices)."""
        raise ValueError("nobody to think for at this seat")

    def play_thought(self, move: Move) -> None:
        """Apply the move `think` chose."""
        raise ValueError("nobody to think for at this seat")

    # ---- a player on another page ----------------------------------------------------------

    def remote(self, now: float) -> Remote | None:
        """How the other page is at `now` (seconds on the page's clock), None when the other
        player is not on another page."""
        return None

    def match_on(self) -> bool:
        """Whether leaving now would end a match still being played (the player is asked)."""
        return self.has_match and self.view().get("phase") != "match-end"

    def tick(self, now: float) -> None:
        """Once a second, at `now`: keep the connection alive (nothing for a local match)."""

    def keep_waiting(self, now: float) -> None:
        """The player chose at `now` to keep waiting on a silent other page (`Remote`'s
        ``offer_end``): the offer comes back later."""

    def hang_up(self) -> None:
        """The page is being left: close the connection at once (it resumes on the next
        visit)."""

    def leave(self) -> None:
        """The player leaves the match for good: tell the other page, and close."""
