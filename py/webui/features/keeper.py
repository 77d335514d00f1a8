"""Keeping each match this device plays: its rounds as they end, its series, its record.

The controller tells the `Keeper` every view of a match (`seen`), each match's end (`ended`,
webui/match/controller.py's listeners) and each online match the player ended as abandoned by the
other (`abandoned`: recorded so, and counted in its series as won by the player who stayed).
The keeper collects the match's rounds (history.MatchLog), and at its end adds the record to
the history (webui/features/history_store.py) and the result to the series
(webui/match/series.py). While a match held on this device goes on, what it collected is kept
under ``lostcities.current`` (`Kept`), so that a reload loses nothing: the match is known again by
its seed. `rematch` starts the next match of a series with the same opponent and options.

A match that can't be known again after a reload (online: this page never holds the seed) is
kept in memory only; an online match is recorded with the draws its page learnt at each round's
audit in place of the seed (`Seat.dealt`), so it replays too when this page saw every round.
The guide's match (webui/features/guide.py) is not recorded. Browser-free: the storage, the
clock and the notices are handed in.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any, Final

from lostcities import Options
from lostcities.protocol import ProtocolError, decode_json

from webui.features.history import MatchLog, MatchRecord
from webui.features.history_store import HistoryStore
from webui.kernel.setaside import Storage, set_aside
from webui.match.seats import Seat, View
from webui.match.series import Series, series_key

CURRENT_KEY: Final = "lostcities.current"
MAX_BYTES: Final = 200_000
"""Largest text read back from `CURRENT_KEY` (a 5-round match's log is about 6 KB)."""


def utc_date(stamp: int) -> str:
    """Milliseconds since the epoch as the history's UTC date (``2026-12-01T10:20:30.123Z``)."""
    moment = datetime.fromtimestamp(stamp / 1000, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp % 1000:03d}Z"


@dataclass(frozen=True)
class Kept:
    """What is kept of the match being played: which match (`match`: mode and seed, None when
    it can't be known again after a reload), how it is recorded (mode, level, this device's
    player `me`, the seed, who started round 1, its options), its number in its series, the
    rounds seen so far, and the id of its record once it ended."""

    match: str | None
    mode: str
    level: str | None
    me: int
    seed: int | None
    first: int
    options: Options
    number: int
    series: Series
    log: MatchLog
    record: str | None = None

    def to_json(self) -> dict[str, Any]:
        """What `CURRENT_KEY` holds."""
        return {"match": self.match, "mode": self.mode, "level": self.level, "me": self.me,
                "seed": self.seed, "first": self.first, "options": self.options.to_json(),
                "number": self.number, "series": self.series.to_json(),
                "log": self.log.to_json(), "record": self.record}

    @classmethod
    def from_json(cls, data: object) -> Kept:
        """From `to_json`; ValueError saying what is wrong."""
        if not isinstance(data, dict) or set(data) != {
                "match", "mode", "level", "me", "seed", "first", "options", "number", "series",
                "log", "record"}:
            raise ValueError("not a kept match")
        options = Options.from_json(data["options"])
        series = Series.from_json(data["series"])
        number, me, first = data["number"], data["me"], data["first"]
        if not isinstance(number, int) or not len(series.results) <= number <= len(
                series.results) + 1 or number < 1:
            raise ValueError("the match's number does not follow its series")
        if me not in (0, 1) or first not in (0, 1) or isinstance(me, bool) or isinstance(
                first, bool):
            raise ValueError("bad seats")
        for name in ("match", "record", "level"):
            if data[name] is not None and not isinstance(data[name], str):
                raise ValueError(f"bad {name}")
        seed = data["seed"]
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ValueError("bad seed")
        if data["mode"] not in ("pass-and-play", "computer", "online"):
            raise ValueError("bad mode")
        return cls(data["match"], data["mode"], data["level"], me, seed, first, options,
                   number, series, MatchLog.from_json(data["log"], options), data["record"])


class Keeper:
    """Keeps the matches this device plays (see the module's docstring)."""

    def __init__(self, storage: Storage, history: HistoryStore, stamp: Callable[[], int],
                 log: Callable[[str], object], notify: Callable[..., None]) -> None:
        self.storage = storage
        self.history = history
        self._stamp = stamp
        self._log = log
        self._notify = notify  # notify(key, reason=...): tells the player (player_text)
        self._seat: Seat | None = None
        self._kept: Kept | None = None
        self._next: tuple[Seat, Kept] | None = None  # a rematch started here

    def kept(self, seat: Seat) -> Kept | None:
        """What is kept of `seat`'s match (found again after a reload, else begun); None for
        the guide's match or one not started yet."""
        if seat is self._seat:
            return self._kept
        if not seat.in_history() or not seat.has_match:
            return None
        if self._next is not None and self._next[0] is seat:
            kept = self._next[1]
        else:
            kept = self._begin(seat)
        self._seat, self._kept, self._next = seat, kept, None
        return kept

    def _begin(self, seat: Seat) -> Kept:
        view = seat.view()
        state = seat.state_json()
        match = None if state is None else f"{seat.mode}:{state['seed']}"
        stored = self._stored()
        if stored is not None and match is not None and stored.match == match:
            return stored
        options = Options.from_json(view["options"])
        level = seat.bot_level()
        remote = seat.remote(0.0)  # online: both pages know the room, so both make this key
        room = None if remote is None else remote.code
        key = series_key(mode=seat.mode, names=view["names"], options=options, level=level,
                         room=room, started=None if room else utc_date(self._stamp()))
        kept = Kept(match, seat.mode, level, min(seat.local_players),
                    None if state is None else state["seed"],
                    0 if state is None else state["first_player"], options, 1, Series(key),
                    MatchLog())
        self._store(kept)
        return kept

    def seen(self, view: View, seat: Seat) -> None:
        """A view of `seat`'s match: its round, when it has just been scored, is kept."""
        kept = self.kept(seat)
        if kept is not None and kept.log.observe(view):
            self._store(kept)

    def ended(self, view: View, seat: Seat) -> None:
        """`seat`'s match ended (its match-end `view`): its record joins the history and its
        result the series. A failure (a view that does not hold up, a full storage) is said
        to the player; the match is shown all the same."""
        def finished(kept: Kept) -> tuple[MatchRecord, Series]:
            record = kept.log.record(view, date=utc_date(self._stamp()), mode=kept.mode,
                                     level=kept.level, me=kept.me, seed=kept.seed,
                                     dealt=seat.dealt())
            return record, kept.series.with_result(kept.number, view["totals"])
        self._record(seat, finished)

    def abandoned(self, view: View, seat: Seat) -> Series | None:
        """`seat`'s online match was ended as abandoned by the other player, `view` its last
        view: its record joins the history and the match its series, which is returned. None
        if the match is not kept here, or could not be recorded (the player is told)."""
        def left(kept: Kept) -> tuple[MatchRecord, Series]:
            record = kept.log.record_abandoned(view, date=utc_date(self._stamp()), me=kept.me)
            return record, kept.series.with_abandoned(kept.number, 1 - kept.me, record.totals)
        return self._record(seat, left)

    def _record(self, seat: Seat,
                make: Callable[[Kept], tuple[MatchRecord, Series]]) -> Series | None:
        """The record and series `make` gives for `seat`'s kept match, kept and added to the
        history; the series, or None (not kept here, or a failure said to the player)."""
        kept = self.kept(seat)
        if kept is None:
            return None
        try:
            record, series = make(kept)
            self._kept = replace(kept, series=series, record=record.id)
            self._store(self._kept)
            self.history.add(record)
        except Exception as exc:  # noqa: BLE001 - say it; the page goes on
            self._log(f"history: {exc!r}")
            self._notify("players.unsaved", reason=str(exc))
            return None
        return series

    def carry(self, seat: Seat, series: Series) -> None:
        """Count `seat`'s match, just begun, as the next of `series` (a rematch agreed with
        the other page; online, the same seat plays it, so what was kept of the match before
        is dropped); ValueError if it is not kept."""
        kept = self.kept(seat)
        if kept is None:
            raise ValueError("this match is not kept here")
        self._kept = replace(kept, series=series, number=len(series.results) + 1,
                             log=MatchLog(), record=None)
        self._store(self._kept)

    def record(self, seat: Seat) -> MatchRecord | None:
        """The record of `seat`'s match once it ended here."""
        kept = self.kept(seat)
        if kept is None or kept.record is None:
            return None
        return self.history.find(kept.record)

    def rematch(self, seat: Seat) -> Seat:
        """A new match after `seat`'s, which ended: the same players in the same seats, the
        same options (and computer level), the other player starting; it continues the
        series. ValueError if `seat`'s match can't be played again here."""
        kept = self.kept(seat)
        if kept is None or kept.record is None:
            raise ValueError("this match can't be played again here")
        seed, first = random.SystemRandom().randrange(2**31), 1 - kept.first
        new = seat.rematch_here(seed, first)  # ValueError: not here
        nxt = replace(kept, match=f"{new.mode}:{seed}", seed=seed, first=first,
                      number=len(kept.series.results) + 1, log=MatchLog(), record=None)
        self._next = (new, nxt)
        self._store(nxt)
        return new

    # -- storage ---------------------------------------------------------------------------

    def _stored(self) -> Kept | None:
        text = self.storage.getItem(CURRENT_KEY)
        if not isinstance(text, str):
            return None
        try:
            return Kept.from_json(decode_json(text, MAX_BYTES, 16))
        except (ProtocolError, ValueError) as exc:
            reason = exc.message if isinstance(exc, ProtocolError) else str(exc)
            set_aside(self.storage, CURRENT_KEY, text, self._stamp(), self._log)
            self._notify("players.current.set-aside", reason=reason)
            return None

    def _store(self, kept: Kept) -> None:
        if kept.match is None:
            return  # can't be known again after a reload: kept in memory only
        try:
            self.storage.setItem(CURRENT_KEY, json.dumps(kept.to_json()))
        except Exception as exc:  # noqa: BLE001 - a full storage: keep playing
            self._log(f"current: {exc!r}")
