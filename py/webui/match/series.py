"""Rematch series: the score of the matches played in a row with the same opponent and options.
It sits beside the seats (webui/match/seats/): a seat that plays its rematches itself (online)
counts its own series and carries it into the next match.

A `Series` is its key and each finished match's totals, by seat; its score (matches won by
each seat, and drawn) follows from those alone, so two pages that saw the same match ends
show the same score. "Play again" keeps the series; a match started from the setup screen
starts a new one. An online match ended as abandoned by one player (`with_abandoned`) ends
the series there: its totals so far are kept, and it counts as won by the other player.

- The key (`series_key`) hashes what makes it the same series: the mode, the computer level,
  the names (by seat) and the options, plus, online, the room code (both pages know all of
  these, so both compute the same key) or, on one device, when the series started.
- The page numbers each match when it starts (``len(series.results) + 1``) and, at its end,
  calls ``series.with_result(number, view["totals"])``, which is idempotent: showing the
  match-end screen again adds nothing.
- Online, both pages exchange their series when they ask for or accept a rematch: the message
  carries ``rematch_payload(series)`` (``{"series": {"key": ..., "results": [[a, b], ...]}}``).
  The receiver reads it with `read_rematch`, a stranger's data checked like any other, and
  agrees only if both series are the same, or one is the start of the other and the longer
  one is the host's (a guest that reloaded and lost its copy takes the host's).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from lostcities import Options

MAX_MATCHES: Final = 999
MAX_TOTAL: Final = 50_000
KEY_CHARS: Final = 32


def series_key(*, mode: str, names: Sequence[str], options: Options, level: str | None = None,
               room: str | None = None, started: str | None = None) -> str:
    """The key of a series (see the module's docstring): 32 hex digits."""
    data = {"mode": mode, "level": level, "names": list(names), "options": options.to_json(),
            "room": room, "started": started}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:KEY_CHARS]


def _totals(value: object) -> tuple[int, int]:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_TOTAL
            for v in value):
        raise ValueError("a match's totals must be two whole numbers")
    return (value[0], value[1])


@dataclass(frozen=True)
class Series:
    """A series: its key and each finished match's totals by seat, in order."""

    key: str
    results: tuple[tuple[int, int], ...] = ()
    abandoned: tuple[tuple[int, int], ...] = ()
    """(match number, seat that abandoned it) of each match a player abandoned."""

    def with_result(self, number: int, totals: Sequence[int]) -> Series:
        """The series with match `number` (1-based) ending with `totals`; the same series if
        that result is known already. ValueError for a match out of order or a result that
        differs from the known one."""
        result = _totals(list(totals))
        if number == len(self.results) + 1 and number <= MAX_MATCHES:
            return Series(self.key, self.results + (result,), self.abandoned)
        if 1 <= number <= len(self.results) and self.results[number - 1] == result:
            return self
        raise ValueError(f"match {number} can't end the series here")

    def with_abandoned(self, number: int, seat: int, totals: Sequence[int]) -> Series:
        """The series with match `number` abandoned by `seat`, its `totals` so far (a win for
        the other seat); the same series if it is known so already. ValueError otherwise."""
        if seat not in (0, 1) or isinstance(seat, bool):
            raise ValueError("the seat that abandoned must be 0 or 1")
        if (number, seat) in self.abandoned and number <= len(self.results) \
                and self.results[number - 1] == _totals(list(totals)):
            return self
        ended = self.with_result(number, totals)
        if ended is self:
            raise ValueError(f"match {number} ended already")
        return Series(self.key, ended.results, self.abandoned + ((number, seat),))

    def _left(self) -> dict[int, int]:
        """By match number (1-based), the seat that abandoned it."""
        return dict(self.abandoned)

    def wins(self, player: int) -> int:
        """Matches won by seat `player` (those the other seat abandoned included)."""
        left = self._left()
        return sum(1 for n, r in enumerate(self.results, 1)
                   if left.get(n, player) == 1 - player
                   or (n not in left and r[player] > r[1 - player]))

    @property
    def drawn(self) -> int:
        """Matches drawn."""
        left = self._left()
        return sum(1 for n, r in enumerate(self.results, 1) if n not in left and r[0] == r[1])

    def score(self) -> tuple[int, int, int]:
        """(seat 0's wins, seat 1's wins, draws)."""
        return (self.wins(0), self.wins(1), self.drawn)

    def to_json(self) -> dict[str, Any]:
        """The series as JSON (what a save keeps and a rematch message carries); the
        abandoned matches only when there are any."""
        doc: dict[str, Any] = {"key": self.key, "results": [list(r) for r in self.results]}
        if self.abandoned:
            doc["abandoned"] = [list(a) for a in self.abandoned]
        return doc

    @classmethod
    def from_json(cls, data: object) -> Series:
        """A series from JSON (a save's or a peer's); ValueError on anything malformed."""
        if not isinstance(data, dict) or set(data) - {"abandoned"} != {"key", "results"}:
            raise ValueError("a series has exactly a key and results")
        key, results = data["key"], data["results"]
        if not isinstance(key, str) or len(key) != KEY_CHARS or not all(
                c in "0123456789abcdef" for c in key):
            raise ValueError("a series key is 32 hex digits")
        if not isinstance(results, list) or len(results) > MAX_MATCHES:
            raise ValueError("a series' results must be a list of matches")
        return cls(key, tuple(_totals(r) for r in results),
                   _abandoned(data.get("abandoned", []), len(results)))


def _abandoned(value: object, matches: int) -> tuple[tuple[int, int], ...]:
    """A series' abandoned matches: [match number, seat] pairs, each match once."""
    if not isinstance(value, list) or len(value) > matches:
        raise ValueError("a series' abandoned matches must be a list")
    out: list[tuple[int, int]] = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in item)
                and 1 <= item[0] <= matches and item[1] in (0, 1)
                and item[0] not in dict(out)):
            raise ValueError("an abandoned match is its number and the seat that left")
        out.append((item[0], item[1]))
    return tuple(out)


def rematch_payload(series: Series) -> dict[str, Any]:
    """What a rematch request or acceptance carries about the series."""
    return {"series": series.to_json()}


def read_rematch(payload: object, mine: Series, sender_is_host: bool) -> Series:
    """The series both pages agree on, from the peer's rematch `payload` and this page's
    series; ValueError (nothing agreed) if the payload is malformed or the series differ."""
    if not isinstance(payload, dict) or "series" not in payload:
        raise ValueError("the rematch message carries no series")
    theirs = Series.from_json(payload["series"])
    if theirs.key != mine.key:
        raise ValueError("the rematch belongs to another series")
    if mine.abandoned or theirs.abandoned:
        raise ValueError("the series ended with an abandoned match")
    shorter, longer = sorted((mine, theirs), key=lambda s: len(s.results))
    if longer.results[:len(shorter.results)] != shorter.results:
        raise ValueError("the two pages' series scores differ")
    if mine.results == theirs.results:
        return mine
    host = theirs if sender_is_host else mine
    if host is not longer:
        raise ValueError("the guest's series is ahead of the host's")
    return longer

