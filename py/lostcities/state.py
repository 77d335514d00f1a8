"""The immutable game state and the per-player parameters derived from it."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, colours_for
from .jobs import JOBS
from .mixups import MIXUPS
from .options import Options
from .rulebook import player_rules, winner_of
from .scoring import ScoringRules

PHASES = ("jobs", "play", "draw", "round-end", "match-end")
BASE_HAND_SIZE = 8


@dataclass(frozen=True)
class LogEntry:
    """One public event of the round. ``detail`` is the job, colour, draw source or mixup id;
    ``card`` is the card played, discarded or drawn (a deck draw is shown to the drawer only)."""

    player: int | None
    type: str
    detail: str | None = None
    card: Card | None = None


@dataclass(frozen=True)
class State:
    """The whole state of a match. Immutable: ``apply`` returns a new one.

    Cards are ids (see ``lostcities.cards``). Per-colour tuples follow ``colours`` (the colours
    in play). ``deck`` has its top card last; each discard pile likewise. Hands are sorted.
    ``shut_piles[p]`` is the colour player ``p`` may not draw on their current or coming turn
    (Sabotage by the opponent; each player's lasts until their own draw, so both can coexist).
    ``undo`` is the state before this turn's play or discard (phase ``draw`` only).
    """

    options: Options
    seed: int
    names: tuple[str, str]
    first_player: int
    round: int
    phase: str
    to_act: int | None
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    deck: tuple[Card, ...]
    discards: tuple[tuple[Card, ...], ...]
    expeditions: tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]
    round_scores: tuple[tuple[int, int], ...] = ()
    charges: tuple[int, int] = (0, 0)
    discard_counts: tuple[int, int] = (0, 0)
    skills_used: tuple[str, ...] = ()
    airlift_active: bool = False
    discarded_onto: str | None = None
    shut_piles: tuple[str | None, str | None] = (None, None)
    job_offers: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    jobs: tuple[str | None, str | None] = (None, None)
    objectives: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    mixup: str | None = None
    log: tuple[LogEntry, ...] = ()
    undo: State | None = None

    @property
    def colours(self) -> tuple[str, ...]:
        """The colour letters in play, in canonical order."""
        return colours_for(self.options.sixth_colour)

    @property
    def starting_player(self) -> int:
        """The player who starts the current round (alternates from round to round)."""
        return self.first_player if self.round % 2 == 1 else 1 - self.first_player

    @property
    def totals(self) -> tuple[int, int]:
        """Match totals over the completed rounds."""
        return (sum(r[0] for r in self.round_scores), sum(r[1] for r in self.round_scores))

    @property
    def winner(self) -> int | str | None:
        """At match end: 0, 1 or ``"draw"``; otherwise ``None``."""
        if self.phase != "match-end":
            return None
        return winner_of(self.totals)

    def hand_size(self, player: int) -> int:
        """How many cards the player holds (9 for the Quartermaster)."""
        job = self.jobs[player]
        return JOBS[job].hand_size if job else BASE_HAND_SIZE

    def sees_deck_top(self, player: int) -> bool:
        """True if the player's job lets them see the deck's top card on their turn (Scout)."""
        job = self.jobs[player]
        return JOBS[job].sees_deck_top if job else False

    def rules_for(self, player: int) -> ScoringRules:
        """The player's scoring rules: base, then their job, then the active mixup."""
        return player_rules(self.jobs[player], self.mixup)

    @property
    def open_piles(self) -> bool:
        """True when the active mixup unlocks every discard pile."""
        return bool(self.mixup) and MIXUPS[self.mixup or ""].open_piles

    def locked_pile(self) -> str | None:
        """The colour the player to act may not draw because they just discarded onto it."""
        return None if self.open_piles else self.discarded_onto

    def shut_for(self, player: int) -> str | None:
        """The colour sabotaged against ``player`` for their current or coming turn, if it
        applies (never under Open Piles)."""
        return None if self.open_piles else self.shut_piles[player]

    def shut_pile(self) -> str | None:
        """The colour sabotaged against the player to act, if it applies now."""
        return None if self.to_act is None else self.shut_for(self.to_act)
