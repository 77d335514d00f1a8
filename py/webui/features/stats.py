"""Statistics from the history's records, from this device's player's side.

Per opponent (``easy``, ``medium``, ``hard``, ``human``, ``online``): played, won, lost,
drawn, abandoned (online matches the opponent abandoned: each counts as a win in the win
rate) and the win rate; over every match: the best and average round score, the longest
expedition (by cards) and the highest-scoring one, and the score margins of the last finished
matches.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from webui.features.history import MatchRecord

OPPONENTS: Final = ("easy", "medium", "hard", "human", "online")
RESULTS: Final = ("played", "won", "lost", "drawn", "abandoned")
LAST_MARGINS: Final = 10


@dataclass(frozen=True)
class Tally:
    """Matches played, won, lost, drawn, and abandoned by the opponent."""

    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    abandoned: int = 0

    def count(self, name: str) -> int:
        """One of `RESULTS` by name."""
        if name not in RESULTS:
            raise ValueError(f"not a result: {name!r}")
        return int(getattr(self, name))

    @property
    def win_rate(self) -> float | None:
        """(Won + abandoned by the opponent) / played (a draw is not a win); None before any
        match."""
        return (self.won + self.abandoned) / self.played if self.played else None

    def plus(self, result: str) -> Tally:
        """This tally with one more match of `result` (``won``, ``lost``, ``drawn`` or
        ``abandoned``)."""
        return Tally(self.played + 1, self.won + (result == "won"),
                     self.lost + (result == "lost"), self.drawn + (result == "drawn"),
                     self.abandoned + (result == "abandoned"))


@dataclass(frozen=True)
class ExpeditionFact:
    """A notable expedition of this device's player: its colour, cards and score, and the
    match (record id, date, opponent) and round it was played in."""

    colour: str
    cards: tuple[str, ...]
    score: int
    record_id: str
    date: str
    opponent: str
    round: int


@dataclass(frozen=True)
class Margin:
    """One match's margin: this device's player's total minus the opponent's."""

    record_id: str
    date: str
    opponent: str
    margin: int
    result: str


@dataclass(frozen=True)
class Stats:
    """Everything the Stats screen shows (see the module's docstring)."""

    tallies: tuple[tuple[str, Tally], ...]
    rounds: int
    best_round: int | None
    average_round: float | None
    longest: ExpeditionFact | None
    highest: ExpeditionFact | None
    margins: tuple[Margin, ...]

    def tally(self, opponent: str) -> Tally:
        """The tally against one opponent (ValueError if not one of `OPPONENTS`)."""
        for name, tally in self.tallies:
            if name == opponent:
                return tally
        raise ValueError(f"not an opponent: {opponent!r}")

    @property
    def total(self) -> Tally:
        """All opponents together."""
        parts = [t for _, t in self.tallies]
        return Tally(*(sum(t.count(r) for t in parts) for r in RESULTS))


def _facts(record: MatchRecord) -> Iterable[ExpeditionFact]:
    for index in range(len(record.rounds)):
        for colour, cards, score in record.expedition_scores(index)[record.me]:
            yield ExpeditionFact(colour, cards, score.score, record.id, record.date,
                                 record.opponent, index + 1)


def compute_stats(records: Iterable[MatchRecord], last: int = LAST_MARGINS) -> Stats:
    """The statistics of `records` (any order); the margins of the `last` newest, oldest
    first. Ties keep the earliest expedition."""
    ordered = sorted(records, key=lambda r: (r.date, r.id))
    tallies = {name: Tally() for name in OPPONENTS}
    round_scores: list[int] = []
    longest: ExpeditionFact | None = None
    highest: ExpeditionFact | None = None
    for record in ordered:
        tallies[record.opponent] = tallies[record.opponent].plus(record.result)
        round_scores += [r.scores[record.me] for r in record.rounds]
        for fact in _facts(record):
            if longest is None or (len(fact.cards), fact.score) > (len(longest.cards),
                                                                   longest.score):
                longest = fact
            if highest is None or (fact.score, len(fact.cards)) > (highest.score,
                                                                   len(highest.cards)):
                highest = fact
    finished = [r for r in ordered if r.abandoned is None]
    margins = tuple(
        Margin(r.id, r.date, r.opponent, r.totals[r.me] - r.totals[1 - r.me], r.result)
        for r in finished[max(len(finished) - last, 0):])
    return Stats(
        tallies=tuple(tallies.items()), rounds=len(round_scores),
        best_round=max(round_scores) if round_scores else None,
        average_round=sum(round_scores) / len(round_scores) if round_scores else None,
        longest=longest, highest=highest, margins=margins)
