"""One peer's side of a fair match: its own moves and the messages it sends, and every check
on the messages the other peer sends.

Both peers compute the same public facts (which keys each has sent, whose move it is, what is
due) from the same transcript, so each can tell exactly what the other's next message must
hold. docs/fair-play.md walks through the protocol.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

from ..cards import canonical, card_text, parse_card
from ..engine import is_legal
from ..moves import Discard, Draw, Move, PickJob, Play, move_to_json
from .codec import encode
from .derive import bound_to, pick_commitment, pick_nonce, role_secrets, scope_seed
from .errors import NotAllowed, ProtocolViolation, cheat, unexpected
from .fill import card_played
from .knowledge import Knowledge
from .masking import share_context, shuffle_context
from .proofs import ShuffleProof, open_share, share, shuffle, verify_shuffle
from .records import OFFERS, Deck, Pending, Setup
from .wire import Message, Shuffle, share_list

__all__ = ["Deck", "OFFERS", "Setup", "Table"]


class Table(Knowledge):
    """The protocol state of one peer and every rule of the protocol."""

    # ------------------------------------------------------------------ this peer's moves

    def play(self, move: Move) -> dict[str, Any]:
        """Make this peer's move; returns the message's content so far (``flush`` adds what
        the move makes due). ``NotAllowed`` (and nothing changes) if it is not legal now."""
        if move not in self.legal_moves():
            raise NotAllowed(f"{move_to_json(move)} is not a move you can make now")
        st = self.state
        assert st is not None
        msg: dict[str, Any] = {"move": move_to_json(move)}
        if isinstance(move, PickJob):
            jobs = self.deck("jobs")
            assert jobs is not None
            pos = jobs.where[move.job]
            self.picked[self.me] = True
            if self.me == 0:
                self.my_pick = pos
                self.pick_commit = pick_commitment(pos, self._pick_nonce())
                return {"move": {"type": "pick-job"}, "commit": encode(self.pick_commit)}
            self.public_picks[1] = pos
            msg["pos"] = pos
        elif isinstance(move, (Play, Discard)):
            card = card_played(st.hands[self.me], move.card)
            assert card is not None
            pos = msg["pos"] = self._pos(card)
            deck = self._cards()
            if pos not in deck.given[self.me]:  # the card is shown: its share goes with it
                deck.given[self.me].add(pos)
                msg["shares"] = {"cards": share_list({pos: self._share(deck, pos)})}
            self._apply(move)
        elif isinstance(move, Draw) and self._hold(move) is not None:
            self.pending = Pending(self.me, move, self._hold(move) or "")
        else:
            self._apply(move)
        return msg

    def flush(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Add to ``msg`` everything this peer owes, as it falls due."""
        for _ in self.flush_pieces(msg):
            pass
        return msg

    def flush_pieces(self, msg: dict[str, Any]) -> Iterator[None]:
        """``flush``, a piece at a time: it yields after each deck it shuffles."""
        while True:
            self.advance()
            owed = self.debts(self.me)
            if not owed:
                return
            if owed.shuffle is not None:
                assert "shuffle" not in msg
                msg["shuffle"] = yield from self._make_step(*owed.shuffle)
            for name, positions in owed.shares.items():
                deck = self.deck(name)
                assert deck is not None
                deck.given[self.me].update(positions)
                pairs = share_list({p: self._share(deck, p) for p in positions})
                msg.setdefault("shares", {}).setdefault(name, []).extend(pairs)
            for scope in sorted(owed.reveal):
                seed = scope_seed(self._secret, scope)
                msg.setdefault("reveal", {})[str(scope)] = encode(seed)
                self._note_reveal(self.me, scope, seed)
            if owed.pick:
                assert self.my_pick is not None
                msg["pick"] = [self.my_pick, encode(self._pick_nonce())]
                self.public_picks[0] = self.my_pick

    def _pick_nonce(self) -> bytes:
        return pick_nonce(self.group, scope_seed(self._secret, 0))

    def _share(self, deck: Deck, pos: int) -> bytes:
        """This peer's share of one position, with its proof."""
        assert deck.mine is not None and deck.y is not None
        context = share_context(self.setup.digest(), deck.scope, deck.name, pos, self.me)
        return share(self.group, scope_seed(self._secret, deck.scope), context, deck.mine.key,
                     deck.y[pos])

    def _inputs(self, deck: Deck, step: int) -> tuple[bytes, ...]:
        """What a shuffle step shuffles: the items' points, then the first shuffle."""
        if step == 1:
            return deck.table.points
        assert deck.x is not None
        return deck.x

    def step_output(self, deck: Deck, step: int) -> tuple[tuple[bytes, ...], ShuffleProof]:
        """This peer's shuffle of one deck at ``step``, and its proof."""
        assert deck.mine is not None
        return shuffle(self.group, scope_seed(self._secret, deck.scope),
                       shuffle_context(self.setup.digest(), deck.scope, deck.name, step),
                       deck.mine.key, deck.mine.perm, self._inputs(deck, step))

    def _make_step(self, batch: int, step: int) -> Generator[None, None, dict[str, Any]]:
        """This peer's shuffle step of a batch's decks, yielding after each deck."""
        part: dict[str, Any] = {"batch": batch, "step": step, "decks": {}, "proofs": {}}
        sent = None if self.replaying is None else self.replaying.get((batch, step))
        digest = self.setup.digest()
        for deck in self._batch(batch):
            if sent is not None:
                vector, proof = sent.decks[deck.name], sent.proofs[deck.name]
            else:
                vector, proof = self.step_output(deck, step)
            part["decks"][deck.name] = encode(b"".join(vector))
            part["proofs"][deck.name] = encode(proof.to_bytes())
            self._took_step(deck, step, vector, proof, self.me)
            yield
        if batch == 1:
            part["setup"] = digest
        self.steps[batch] = step
        return part

    def _took_step(self, deck: Deck, step: int, vector: tuple[bytes, ...],
                   proof: ShuffleProof, seat: int) -> None:
        if step == 1:
            deck.x = vector
        else:
            deck.y = vector
        deck.publics[seat] = proof.key

    # ------------------------------------------------------------------ the opponent's messages

    def consume(self, m: Message) -> None:
        """Take in one message from the opponent, checking every part; raises ``FairError``
        at the first failed check (the caller discards this table then)."""
        for _ in self.consume_pieces(m):
            pass

    def consume_pieces(self, m: Message) -> Iterator[None]:
        """``consume``, a piece at a time: it yields after each deck whose shuffle it checks."""
        them = 1 - self.me
        shares = {name: dict(pairs) for name, pairs in m.shares.items()}
        reveal = dict(m.reveal)
        shuffle, pick = m.shuffle, m.pick
        if m.move is not None or m.hidden_pick:
            self._their_move(m, shares)
        elif m.pos is not None or m.commit is not None:
            raise unexpected("a position or commitment without a move")
        while True:
            self.advance()
            owed = self.debts(them)
            progress = False
            if owed.shuffle is not None and shuffle is not None:
                yield from self._take_step(shuffle, owed.shuffle)
                shuffle, progress = None, True
            for name, positions in owed.shares.items():
                got = shares.get(name, {})
                for pos in sorted(positions & set(got)):
                    deck = self.deck(name)
                    assert deck is not None
                    self._take_share(deck, pos, got.pop(pos))
                    progress = True
            for scope in sorted(owed.reveal & set(reveal)):
                self._note_reveal(them, scope, reveal.pop(scope))
                progress = True
            if owed.pick and pick is not None:
                self._take_pick(*pick)
                pick, progress = None, True
            if not progress:
                break
        left = {"shuffle": shuffle is not None, "pick": pick is not None,
                "shares": {n: sorted(p) for n, p in shares.items() if p},
                "reveal": sorted(reveal)}
        if shuffle is not None or pick is not None or left["shares"] or reveal:
            raise unexpected("shares, secrets or a shuffle out of place", left=left)
        owed = self.debts(them)
        if owed:
            raise cheat("withheld", "The opponent held back shares or secrets it owed",
                        owed=owed.to_json())

    def _their_move(self, m: Message, shares: dict[str, dict[int, bytes]]) -> None:
        them = 1 - self.me
        if self.actor() != them or self.debts(them) or self.debts(self.me):
            raise ProtocolViolation("not-your-turn", "The opponent moved out of turn",
                                    {"seq": m.seq})
        st = self.state
        assert st is not None
        jobs_phase = st.phase == "jobs"
        if m.hidden_pick:
            if not jobs_phase or them != 0 or m.commit is None or m.pos is not None:
                raise unexpected("a hidden job pick out of place")
            self.picked[0], self.pick_commit = True, m.commit
            return
        move = m.move
        assert move is not None
        if m.commit is not None:
            raise unexpected("a commitment with a move")
        wanted = (PickJob if jobs_phase else (Play, Discard) if st.phase == "play" else None)
        if wanted is not None and isinstance(move, wanted):
            if isinstance(move, PickJob):
                self._their_pick(move, m.pos, shares)
            else:
                assert isinstance(move, (Play, Discard))
                self._their_card(move, m.pos, shares)
        elif m.pos is not None or jobs_phase:
            raise unexpected(f"a {move_to_json(move)['type']} move out of place")
        elif isinstance(move, Draw) and self._hold(move) is not None:
            if not is_legal(st, move):
                raise cheat("illegal-move", "The opponent made an illegal move",
                            move=move_to_json(move))
            self.pending = Pending(them, move, self._hold(move) or "")
        else:
            self._apply_theirs(move)

    def _take_from(self, shares: dict[str, dict[int, bytes]], name: str, pos: int) -> bytes:
        found = shares.get(name, {}).pop(pos, None)
        if found is None:
            raise cheat("withheld", f"The opponent did not send its share of {name} position "
                        f"{pos}", deck=name, position=pos)
        return found

    def _their_pick(self, move: PickJob, pos: int | None,
                    shares: dict[str, dict[int, bytes]]) -> None:
        jobs = self.deck("jobs")
        assert jobs is not None
        if self.me != 0 or pos not in OFFERS[1]:
            raise cheat("not-in-hand", "The opponent picked a job that was not offered to it",
                        position=pos)
        self._take_share(jobs, pos, self._take_from(shares, "jobs", pos))
        if jobs.known[pos] != move.job:
            raise cheat("wrong-card", f"The opponent claimed the job {move.job} but was "
                        f"offered {jobs.known[pos]} there", deck="jobs", position=pos,
                        claimed=move.job, actual=jobs.known[pos])
        self.picked[1] = True
        self.public_picks[1] = pos

    def _their_card(self, move: Play | Discard, pos: int | None,
                    shares: dict[str, dict[int, bytes]]) -> None:
        them = 1 - self.me
        st = self.state
        assert st is not None
        deck = self._cards()
        held = {self._pos(c) for c in st.hands[them]}
        if pos is None or pos not in held:
            raise cheat("not-in-hand", f"The opponent played {move.card} from a position it "
                        "does not hold", position=pos, card=move.card)
        if pos not in deck.given[them]:
            self._take_share(deck, pos, self._take_from(shares, "cards", pos))
        st = self.state
        assert st is not None
        card = int(deck.known[pos])
        if canonical(card) != parse_card(move.card) or card_played(st.hands[them],
                                                                   move.card) != card:
            raise cheat("wrong-card", f"The opponent claimed {move.card} but holds "
                        f"{card_text(card)} at that position", position=pos,
                        claimed=move.card, actual=card_text(card))
        self._apply_theirs(move)

    def _take_step(self, shuffle: Shuffle, due: tuple[int, int]) -> Iterator[None]:
        """Check and take the opponent's shuffle step, yielding after each deck."""
        batch, step = due
        if (shuffle.batch, shuffle.step) != due:
            raise unexpected(f"shuffle step {shuffle.step} of batch {shuffle.batch}",
                             due=list(due))
        decks = self._batch(batch)
        names = {d.name for d in decks}
        if set(shuffle.decks) != names:
            raise unexpected("a shuffle of other decks", decks=sorted(shuffle.decks),
                             expected=sorted(names))
        if (shuffle.setup is not None) != (batch == 1):
            raise unexpected("a setup digest out of place")
        if shuffle.setup is not None and shuffle.setup != self.setup.digest():
            raise cheat("setup-mismatch", "The opponent set up another match (options, names "
                        "or first player differ)", theirs=shuffle.setup,
                        ours=self.setup.digest())
        them = 1 - self.me
        for deck in decks:
            vector, proof = shuffle.decks[deck.name], shuffle.proofs[deck.name]
            if len(vector) != deck.size:
                raise unexpected(f"a {deck.name} deck of {len(vector)} items")
            first: dict[bytes, int] = {}
            for j, point in enumerate(vector):
                if first.setdefault(point, j) != j:
                    raise cheat("bad-shuffle", f"The opponent's shuffle of the {deck.name} "
                                "holds one value twice", deck=deck.name, step=step,
                                positions=[first[point], j])
            context = shuffle_context(self.setup.digest(), deck.scope, deck.name, step)
            if self.replaying is None and not verify_shuffle(
                    self.group, context, self._inputs(deck, step), vector, proof):
                raise cheat("bad-shuffle", f"The opponent's shuffle of the {deck.name} is not "
                            "what its proof says: not a shuffle of what it was given",
                            deck=deck.name, step=step, batch=batch)
            self._took_step(deck, step, vector, proof, them)
            if step == 1:  # this peer shuffles second: its secrets are bound to this shuffle
                deck.mine = role_secrets(self.group, scope_seed(self._secret, deck.scope),
                                         deck.name, deck.size, False, bound_to(vector))
            yield
        self.steps[batch] = step

    def _take_share(self, deck: Deck, pos: int, data: bytes) -> None:
        """Open ``pos`` with the opponent's share, once its proof checks."""
        them = 1 - self.me
        assert deck.y is not None and deck.mine is not None
        point: bytes | None = data[:32]
        if self.replaying is None:
            context = share_context(self.setup.digest(), deck.scope, deck.name, pos, them)
            point = open_share(self.group, context, deck.publics[them], deck.y[pos], data)
        if point is None:
            raise cheat("bad-share", f"The opponent's share of {deck.name} position {pos} is "
                        "not what its proof says", deck=deck.name, position=pos,
                        share=encode(data))
        deck.given[them].add(pos)
        try:
            point = self.group.mult(self.group.invert(deck.mine.key), point)
        except ValueError:
            point = None
        index = None if point is None else deck.table.index.get(point)
        if index is None:
            raise cheat("bad-share", f"{deck.name.capitalize()} position {pos} opens to no "
                        "item", deck=deck.name, position=pos, share=encode(data))
        item = deck.table.items[index]
        self._learn(deck, pos, item)
        self._fill(deck, {pos: item})

    def _take_pick(self, pos: int, nonce: bytes) -> None:
        if pos not in OFFERS[0] or self.pick_commit != pick_commitment(pos, nonce):
            raise cheat("bad-key", "The opponent's job pick does not match its commitment",
                        position=pos, key=encode(nonce))
        self.public_picks[0] = pos

    def _note_reveal(self, seat: int, scope: int, seed: bytes) -> None:
        self.revealed.setdefault(scope, {})[seat] = seed
        for deck in self.decks.values():
            if deck.scope == scope:
                deck.given[seat].update(range(deck.size))
