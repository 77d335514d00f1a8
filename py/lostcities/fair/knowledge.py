"""What a peer knows and how the engine sees it: positions opened, cards filled into the engine
state, moves applied with the fair deal and mixup put in, pending draws settled, and the
round's audit and replay."""

from __future__ import annotations

from dataclasses import replace

from ..engine import apply, new_match
from ..errors import IllegalMove
from ..mixups import MIXUP_TRIGGER_DECK
from ..moves import Draw, Move, NextRound, PickJob, move_to_json
from ..redeal import with_mixup
from ..state import State
from .audit import audit_deck, deck_order
from .base import STEPS
from .duties import Duties
from .errors import cheat
from .fill import fill_cards, fill_objectives, fill_offers, hidden, placeholder
from .items import Item
from .records import OFFERS, Deck


class Knowledge(Duties):
    """``Duties`` with the peer's knowledge and the engine state built from it."""

    # ------------------------------------------------------------------ knowledge

    def _learn(self, deck: Deck, pos: int, item: Item) -> None:
        other = deck.where.get(item)
        if other is not None and other != pos:
            raise cheat("duplicate-item", f"{item} turned up twice in the {deck.name}",
                        deck=deck.name, item=item, positions=[other, pos])
        if deck.known.get(pos, item) != item:
            raise cheat("audit", f"{deck.name.capitalize()} position {pos} held "
                        f"{deck.known[pos]}, not {item}", deck=deck.name, position=pos)
        deck.known[pos] = item
        deck.where[item] = pos

    def _fill(self, deck: Deck, items: dict[int, Item]) -> None:
        st = self.state
        if st is None:
            return
        if deck.name == "jobs":
            if st.phase == "jobs":
                self.state = fill_offers(st, {p: str(i) for p, i in items.items()})
        elif st.round == deck.scope and st.phase != "jobs":
            if deck.name == "cards":
                self.state = fill_cards(st, {p: int(i) for p, i in items.items()})
            elif deck.name == "objectives":
                self.state = fill_objectives(st, {p: str(i) for p, i in items.items()})

    def _item(self, deck: Deck, pos: int) -> Item:
        return deck.known.get(pos, hidden(pos) if deck.name == "cards" else placeholder(pos))

    def _deal_into(self, st: State) -> State:
        """``st`` just dealt by the engine, with the fair deal put in: seat 0 holds the first
        positions, seat 1 the next, the deck the rest (top last); objectives likewise."""
        deck = self.decks[(st.round, "cards")]
        sizes = (st.hand_size(0), st.hand_size(1))
        bounds = (0, sizes[0], sizes[0] + sizes[1])
        hands = tuple(tuple(sorted(int(self._item(deck, p)) for p in range(bounds[s],
                                                                         bounds[s + 1])))
                      for s in (0, 1))
        rest = tuple(int(self._item(deck, p)) for p in range(bounds[2], deck.size))
        objectives: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        objective_deck = self.decks.get((st.round, "objectives"))
        if objective_deck is not None:
            objectives = (tuple(str(self._item(objective_deck, p)) for p in OFFERS[0]),
                          tuple(str(self._item(objective_deck, p)) for p in OFFERS[1]))
        return replace(st, hands=(hands[0], hands[1]), deck=rest, objectives=objectives)

    def known_offers(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The job offers, a placeholder for each not known yet."""
        jobs = self.deck("jobs")
        assert jobs is not None
        return (tuple(str(self._item(jobs, p)) for p in OFFERS[0]),
                tuple(str(self._item(jobs, p)) for p in OFFERS[1]))

    # ------------------------------------------------------------------ applying moves

    def _hold(self, move: Move) -> str | None:
        st = self.state
        if st is None or not isinstance(move, Draw) or move.source != "deck" or not st.deck:
            return None
        if len(st.deck) == 1:
            return "final"
        if (st.options.mixups and st.round == st.options.rounds and st.mixup is None
                and len(st.deck) - 1 == MIXUP_TRIGGER_DECK):
            return "mixup"
        return None

    def _with_mixup(self, st: State) -> State:
        deck = self.deck("mixups")
        assert deck is not None
        return with_mixup(st, str(deck.known[0]))

    def _step_engine(self, st: State, move: Move) -> tuple[State, bool]:
        """The engine's move with the fair deal and mixup put in; True if it dealt."""
        after = apply(st, move)
        if isinstance(move, NextRound) or (isinstance(move, PickJob) and after.phase == "play"):
            return self._deal_into(after), True
        if st.mixup is None and after.mixup is not None:
            after = self._with_mixup(after)
        return after, False

    def _apply(self, move: Move) -> None:
        assert self.state is not None
        self.state, dealt = self._step_engine(self.state, move)
        if dealt:
            self.round_start, self.round_moves = self.state, []
        else:
            self.round_moves.append(move)

    def _apply_theirs(self, move: Move) -> None:
        try:
            self._apply(move)
        except IllegalMove as exc:
            raise cheat("illegal-move", f"The opponent made an illegal move: {exc}",
                        move=move_to_json(move)) from None

    # ------------------------------------------------------------------ advancing

    def advance(self) -> None:
        """Take every step the public facts now allow (start a shuffle, start the match,
        apply the job picks, settle a pending draw); the same on both peers."""
        while self._advance_once():
            pass

    def _advance_once(self) -> bool:
        st = self.state
        if st is not None and st.phase == "round-end" and st.round + 1 not in self.steps:
            self._start_batch(st.round + 1)
            return True
        if st is None and self.steps.get(1) == STEPS and self._first_player() is not None:
            self._create()
            return True
        jobs = self.deck("jobs")
        if (st is not None and st.phase == "jobs" and jobs is not None
                and len(self.public_picks) == 2
                and all(p in jobs.known for p in self.public_picks.values())):
            for seat in (0, 1):
                self._apply_theirs(PickJob(str(jobs.known[self.public_picks[seat]])))
            return True
        if self.pending is not None and self._pending_ready():
            self._settle()
            return True
        return False

    def _first_player(self) -> int | None:
        if self.setup.first_player is not None:
            return self.setup.first_player
        coin = self.deck("coin")
        assert coin is not None
        if 0 in coin.given[0] and 0 in coin.given[1]:
            return int(coin.known[0])
        return None

    def _create(self) -> None:
        first = self._first_player()
        st = new_match(self.options, seed=0, first_player=first, names=self.setup.names)
        if self.options.jobs:  # not dealt yet: the deck is only counted
            self.state = replace(st, job_offers=self.known_offers(),
                                 deck=tuple(hidden(p) for p in range(len(st.deck))))
        else:
            self.state = self.round_start = self._deal_into(st)
            self.round_moves = []

    def _pending_ready(self) -> bool:
        pending = self.pending
        assert pending is not None
        if pending.kind == "mixup":
            deck = self.deck("mixups")
            assert deck is not None
            return 0 in deck.given[0] and 0 in deck.given[1]
        return all(len(self.revealed.get(s, {})) == 2 for s in self.reveals_due())

    def _settle(self) -> None:
        pending = self.pending
        assert pending is not None
        if pending.kind == "final":
            for scope in sorted(self.reveals_due()):
                self._audit(scope)
        self.pending = None
        if pending.seat == self.me:
            self._apply(pending.move)
        else:
            self._apply_theirs(pending.move)
        if pending.kind == "final":
            self._check_replay()

    # ------------------------------------------------------------------ the audit

    def _audit(self, scope: int) -> None:
        """Check every deck of ``scope`` against the opponent's revealed seed; learn them."""
        them = 1 - self.me
        seed = self.revealed[scope][them]
        for (deck_scope, _), deck in sorted(self.decks.items()):
            if deck_scope != scope:
                continue
            assert deck.mine is not None and deck.x is not None and deck.y is not None
            theirs = audit_deck(self.group, deck.table, scope, deck.name, seed,
                                deck.inner == them, (deck.x, deck.y), deck.publics[them],
                                recompute=self.replaying is None)
            inner, outer = (theirs, deck.mine) if deck.inner == them else (deck.mine, theirs)
            order = deck_order(inner, outer)
            items = {pos: deck.table.items[i] for pos, i in enumerate(order)}
            for pos, item in items.items():
                self._learn(deck, pos, item)
            self._fill(deck, items)

    def _check_replay(self) -> None:
        """Replay the round from its deal with every card known: it must end exactly where
        this peer's state is."""
        start, st = self.round_start, self.state
        assert start is not None and st is not None
        cards = self._cards()
        replayed = fill_cards(start, {p: int(i) for p, i in cards.known.items()})
        objective_deck = self.deck("objectives")
        if objective_deck is not None:
            replayed = fill_objectives(
                replayed, {p: str(i) for p, i in objective_deck.known.items()})
        dealt = replayed
        try:
            for move in self.round_moves:
                replayed = self._step_engine(replayed, move)[0]
        except IllegalMove as exc:
            raise cheat("audit", f"The round does not replay with the cards revealed: {exc}",
                        round=st.round) from None
        if replayed != st:
            differ = sorted(k for k in vars(st) if getattr(st, k) != getattr(replayed, k))
            raise cheat("audit", "The round replayed with the cards revealed ends elsewhere",
                        round=st.round, fields=differ)
        self.dealt[st.round] = dealt
