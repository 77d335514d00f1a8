"""Who owes what, and who may move: the protocol's duties, computed alike by both peers from
the public facts (a seat owes every share the rules entitle the other to, and its shuffle step
when due)."""

from __future__ import annotations

from ..cards import Card
from ..engine import legal_moves
from ..moves import Move, NextRound, PickJob
from ..skills import RADIO_PEEK
from ..state import State
from .base import STEPS, TableBase
from .fill import HIDDEN, is_hidden, is_placeholder
from .records import OFFERS, Debts, Deck


class Duties(TableBase):
    """``TableBase`` with the duties of each seat."""

    # ------------------------------------------------------------------ who owes what

    def _step_owner(self, batch: int, step: int) -> int:
        inner = self.inner_of(batch)
        return inner if step == 1 else 1 - inner

    def reveals_due(self) -> set[int]:
        """The scopes whose seeds both peers must reveal now (the round is over)."""
        st = self.state
        if st is None or not (
                (self.pending is not None and self.pending.kind == "final")
                or st.phase in ("round-end", "match-end")):
            return set()
        scopes = {st.round}
        if st.round == self.options.rounds and any(s == 0 for s, _ in self.decks):
            scopes.add(0)
        return scopes

    def _peek_count(self, st: State, seat: int) -> int:
        if st.to_act != seat or st.phase not in ("play", "draw"):
            return 0
        count = RADIO_PEEK if "radio" in st.skills_used else 0
        return max(count, 1) if st.sees_deck_top(seat) else count

    def entitled(self, deck: Deck, seat: int) -> set[int]:
        """The positions of ``deck`` that ``seat`` may know now, under the rules, but for the
        cards on the table: the move that puts a card there carries its share."""
        if deck.name == "coin":
            return {0}
        if deck.name == "jobs":
            return set(OFFERS[seat]) | set(self.public_picks.values())
        st = self.state
        if st is None or st.round != deck.scope or st.phase == "jobs":
            return set()
        if deck.name == "objectives":
            return set(OFFERS[seat])
        if deck.name == "mixups":
            triggered = self.pending is not None and self.pending.kind == "mixup"
            return {0} if triggered or st.mixup is not None else set()
        cards: list[Card] = list(st.hands[seat])  # (cards on the table came with shares)
        count = self._peek_count(st, seat)
        if count:
            cards.extend(st.deck[-count:])
        where = deck.where
        return {c - HIDDEN if c >= HIDDEN else where[c] for c in cards}

    def debts(self, seat: int) -> Debts:
        """What ``seat`` owes the other now."""
        owed = Debts()
        for batch, done in self.steps.items():
            if done < STEPS and self._step_owner(batch, done + 1) == seat:
                owed.shuffle = (batch, done + 1)
        for scope in self.reveals_due():
            if seat not in self.revealed.get(scope, {}):
                owed.reveal.add(scope)
        owed.pick = seat == 0 and self._pick_open_due()
        for deck in self.decks.values():
            if deck.y is None or deck.scope in owed.reveal or deck.scope not in (0, self.round):
                continue
            missing = self.entitled(deck, 1 - seat) - deck.given[seat]
            if missing:
                owed.shares[deck.name] = missing
        return owed

    def _pick_open_due(self) -> bool:
        st = self.state
        return (st is not None and st.phase == "jobs" and self.picked[1]
                and 0 not in self.public_picks)

    def starter_of(self, round_number: int) -> int:
        """Who starts ``round_number`` (the engine's alternation)."""
        assert self.state is not None
        first = self.state.first_player
        return first if round_number % 2 == 1 else 1 - first

    def actor(self) -> int | None:
        """The seat whose move the match waits for (``None``: none, or messages are due)."""
        st = self.state
        if st is None or self.pending is not None:
            return None
        if st.phase == "jobs":
            return 0 if not self.picked[0] else 1 if not self.picked[1] else None
        if st.phase == "round-end":
            following = st.round + 1
            return self.starter_of(following) if self.steps.get(following) == STEPS else None
        if st.phase == "match-end":
            return None
        return st.to_act

    def can_act(self, seat: int) -> bool:
        """Whether ``seat`` may move now: its turn, and nothing owed either way."""
        return self.actor() == seat and not self.debts(0) and not self.debts(1)

    def legal_moves(self) -> tuple[Move, ...]:
        """This peer's legal moves now (none while it waits)."""
        if not self.can_act(self.me):
            return ()
        st = self.state
        assert st is not None
        if st.phase == "jobs":
            jobs = self.deck("jobs")
            assert jobs is not None
            return tuple(PickJob(str(jobs.known[p])) for p in OFFERS[self.me])
        if st.phase == "round-end":
            return (NextRound(),)
        return legal_moves(st)

    # ------------------------------------------------------------------ for the view

    def visible_known(self) -> bool:
        """Whether every card, objective and job this peer may see now is opened (its view
        can be shown)."""
        st = self.state
        if st is None:
            return False
        me = self.me
        peek = self._peek_count(st, me)
        return not (
            any(is_hidden(c) for c in st.hands[me])
            or any(is_placeholder(o) for o in st.objectives[me])
            or (st.phase == "jobs" and any(is_placeholder(j) for j in st.job_offers[me]))
            or (peek and any(is_hidden(c) for c in st.deck[-peek:]))
            or any(e.player == me and e.card is not None and is_hidden(e.card)
                   for e in st.log)
        )

    def my_pending_pick(self) -> str | None:
        """The job this peer picked while the picks are not yet applied."""
        jobs = self.deck("jobs")
        st = self.state
        if jobs is None or st is None or st.phase != "jobs" or not self.picked[self.me]:
            return None
        pos = self.my_pick if self.me == 0 else self.public_picks.get(1)
        return None if pos is None else str(jobs.known[pos])
