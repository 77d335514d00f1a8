"""The state one fair peer keeps: its setup and secret, the masked decks of every batch, the
engine state it may know, and the public facts both peers track alike."""

from __future__ import annotations

import copy
from typing import Self

from ..cards import Card
from ..moves import Move
from ..options import Options
from ..state import State
from .derive import role_secrets, scope_seed
from .fill import HIDDEN, is_hidden
from .group import Group
from .items import item_table
from .records import Deck, Pending, Setup
from .wire import Shuffle

STEPS = 2
"""Shuffle steps a batch takes: the inner peer's, then the outer peer's."""


class TableBase:
    """The protocol state of one peer (``Table`` adds the rules). Mutated in place:
    ``FairPeer`` works on a copy and keeps it only when a message was accepted whole."""

    def __init__(self, setup: Setup, secret: bytes, group: Group) -> None:
        self.setup = setup
        self.me = setup.seat
        self.group = group
        self._secret = secret
        self.decks: dict[tuple[int, str], Deck] = {}
        self.steps: dict[int, int] = {}
        """Shuffle steps done (of ``STEPS``), per batch (batch ``r`` holds round ``r``'s
        decks; batch 1 also the match's coin and jobs)."""
        self.state: State | None = None
        self.pending: Pending | None = None
        self.picked = [False, False]
        self.pick_commit: bytes | None = None
        self.my_pick: int | None = None
        """Seat 0's own picked position while it is still hidden."""
        self.public_picks: dict[int, int] = {}
        self.revealed: dict[int, dict[int, bytes]] = {}
        self.round_start: State | None = None
        self.round_moves: list[Move] = []
        self.dealt: dict[int, State] = {}
        """Each audited round's start with every card known (the deal, for a replay)."""
        self.replaying: dict[tuple[int, int], Shuffle] | None = None
        """While a save is replayed: this peer's own shuffle steps as it sent them (taken, not
        recomputed), and the proofs and audits checked when the messages came are not checked
        again; ``None`` in play."""
        self._start_batch(1)

    def copy(self) -> Self:
        """An independent copy (states and byte strings are immutable and shared)."""
        other = copy.copy(self)
        live = (0, self.round, self.round + 1)  # earlier rounds are audited and done
        other.decks = {k: d.copy() if k[0] in live else d for k, d in self.decks.items()}
        other.steps = dict(self.steps)
        other.picked = list(self.picked)
        other.public_picks = dict(self.public_picks)
        other.revealed = {s: dict(r) for s, r in self.revealed.items()}
        other.round_moves = list(self.round_moves)
        other.dealt = dict(self.dealt)
        return other

    # ------------------------------------------------------------------ decks and batches

    @property
    def options(self) -> Options:
        """The match options."""
        return self.setup.options

    def batch_decks(self, batch: int) -> list[tuple[int, str]]:
        """The decks (scope, name) one batch of shuffling holds."""
        out: list[tuple[int, str]] = []
        if batch == 1:
            if self.setup.first_player is None:
                out.append((0, "coin"))
            if self.options.jobs:
                out.append((0, "jobs"))
        out.append((batch, "cards"))
        if self.options.objectives:
            out.append((batch, "objectives"))
        if self.options.mixups and batch == self.options.rounds:
            out.append((batch, "mixups"))
        return out

    @staticmethod
    def inner_of(batch: int) -> int:
        """The seat that masks first in a batch (the seats take turns, round by round)."""
        return (batch - 1) % 2

    def _start_batch(self, batch: int) -> None:
        inner = self.inner_of(batch)
        for scope, name in self.batch_decks(batch):
            table = item_table(self.group, name, self.options.sixth_colour)
            mine = None if inner != self.me else role_secrets(
                self.group, scope_seed(self._secret, scope), name, len(table.items), True)
            self.decks[(scope, name)] = Deck(scope, name, table, inner, mine)
        self.steps[batch] = 0

    def _batch(self, batch: int) -> list[Deck]:
        return [self.decks[k] for k in self.batch_decks(batch)]

    @property
    def round(self) -> int:
        """The round being dealt or played (1 before the engine starts)."""
        return 1 if self.state is None else self.state.round

    def deck(self, name: str) -> Deck | None:
        """The current deck of that name (the coin and jobs belong to the match)."""
        return self.decks.get((0 if name in ("coin", "jobs") else self.round, name))

    def _cards(self) -> Deck:
        deck = self.deck("cards")
        assert deck is not None
        return deck

    def _pos(self, card: Card) -> int:
        return card - HIDDEN if is_hidden(card) else self._cards().where[card]
