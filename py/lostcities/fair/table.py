"""One peer's side of a fair match: the masked decks, the engine state it may know, and every
rule of the protocol (what each seat owes, who may act, what each message must carry).

Both peers compute the same public facts (which keys each has sent, whose move it is, what is
due) from the same transcript, so each can tell exactly what the other's next message must
hold. docs/fair-play.md walks through the protocol.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field, replace
from typing import Any

from ..cards import Card, canonical, card_text, parse_card
from ..engine import apply, is_legal, legal_moves, new_match
from ..errors import IllegalMove
from ..mixups import MIXUP_TRIGGER_DECK
from ..moves import Discard, Draw, Move, NextRound, PickJob, Play, move_to_json
from ..options import Options
from ..skills import RADIO_PEEK
from ..state import LogEntry, State
from .audit import audit_deck, deck_order
from .codec import encode
from .derive import (
    RoleSecrets, digest, key_commitment, pick_commitment, role_secrets, scope_seed,
)
from .errors import CheatDetected, NotAllowed, ProtocolViolation
from .fill import (
    HIDDEN, card_played, fill_cards, fill_objectives, fill_offers, hidden, is_hidden,
    is_placeholder, placeholder,
)
from .group import Group
from .items import Item, ItemTable, item_table
from .masking import mask_all, rekey, remask, unmask
from .wire import VERSION, Message, Shuffle, key_list

OFFERS = ((0, 1), (2, 3))
"""Positions of the jobs deck offered to seat 0 and seat 1 (objectives are dealt alike)."""


@dataclass(frozen=True)
class Setup:
    """What both peers agree on before the match: checked in the first shuffle messages."""

    seat: int
    options: Options
    names: tuple[str, str]
    first_player: int | None
    """``None``: a coin both peers toss decides who starts round 1."""

    def digest(self) -> str:
        """A digest of everything but the seat."""
        text = json.dumps({"fair": VERSION, "options": self.options.to_json(),
                           "names": list(self.names), "first_player": self.first_player},
                          sort_keys=True)
        return digest(text)


@dataclass
class Deck:
    """One masked deck: public vectors, this peer's secrets, and what it has opened."""

    scope: int
    name: str
    table: ItemTable
    inner: int
    """The seat that masks first and re-keys last."""
    mine: RoleSecrets
    x: tuple[bytes, ...] | None = None
    y: tuple[bytes, ...] | None = None
    z: tuple[bytes, ...] | None = None
    commits: tuple[bytes, ...] | None = None
    theirs: dict[int, bytes] = field(default_factory=dict)
    """The opponent's keys this peer has, by position."""
    known: dict[int, Item] = field(default_factory=dict)
    where: dict[Item, int] = field(default_factory=dict)
    given: tuple[set[int], set[int]] = field(default_factory=lambda: (set(), set()))
    """Per seat, the positions whose key that seat has sent (public to both)."""

    @property
    def size(self) -> int:
        """How many items the deck holds."""
        return len(self.table.items)

    def copy(self) -> Deck:
        """A copy whose mutable parts are independent."""
        other = copy.copy(self)
        other.theirs, other.known, other.where = dict(self.theirs), dict(self.known), dict(
            self.where)
        other.given = (set(self.given[0]), set(self.given[1]))
        return other


@dataclass(frozen=True)
class Pending:
    """A deck draw that can't be applied before both peers open something: the round's last
    card (``final``: both reveal the round first) or the one that turns up the mixup."""

    seat: int
    move: Draw
    kind: str


@dataclass
class Debts:
    """What one seat owes the other now (each is paid in that seat's very next message)."""

    shuffle: tuple[int, int] | None = None
    keys: dict[str, set[int]] = field(default_factory=dict)
    reveal: set[int] = field(default_factory=set)
    pick: bool = False

    def __bool__(self) -> bool:
        return bool(self.shuffle or self.keys or self.reveal or self.pick)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, for evidence and status."""
        return {"shuffle": list(self.shuffle) if self.shuffle else None,
                "keys": {n: sorted(p) for n, p in self.keys.items()},
                "reveal": sorted(self.reveal), "pick": self.pick}


def _unexpected(what: str, **evidence: Any) -> ProtocolViolation:
    return ProtocolViolation("unexpected", f"The opponent sent {what}, which nothing called for",
                             evidence)


def _cheat(code: str, message: str, **evidence: Any) -> CheatDetected:
    return CheatDetected(code, message, evidence)


class Table:
    """The protocol state of one peer. Mutated in place: ``FairPeer`` works on a copy and keeps
    it only when a message was accepted whole."""

    def __init__(self, setup: Setup, secret: bytes, group: Group) -> None:
        self.setup = setup
        self.me = setup.seat
        self.group = group
        self._secret = secret
        self.decks: dict[tuple[int, str], Deck] = {}
        self.steps: dict[int, int] = {}
        """Shuffle steps done, per batch (batch ``r`` holds round ``r``'s decks; batch 1 also
        the match's coin and jobs)."""
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
        self.replaying: dict[tuple[int, int], dict[str, tuple[bytes, ...]]] | None = None
        """While a save is replayed: this peer's own shuffle vectors as it sent them (taken,
        not recomputed), and audits check keys only; ``None`` in play."""
        self._start_batch(1)

    def copy(self) -> Table:
        """An independent copy (states and byte strings are immutable and shared)."""
        other = copy.copy(self)
        live = (0, self.round, self.round + 1)  # earlier rounds are audited and done
        other.decks = {k: d.copy() if k[0] in live else d for k, d in self.decks.items()}
        other.steps = dict(self.steps)
        other.picked = list(self.picked)
        other.public_picks = dict(self.public_picks)
        other.revealed = {s: dict(r) for s, r in self.revealed.items()}
        other.round_moves = list(self.round_moves)
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
            mine = role_secrets(self.group, scope_seed(self._secret, scope), name,
                                len(table.items), inner == self.me)
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

    # ------------------------------------------------------------------ who owes what

    def _step_owner(self, batch: int, step: int) -> int:
        inner = self.inner_of(batch)
        return inner if step in (1, 3) else 1 - inner

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
        cards on the table: the move that puts a card there carries its key."""
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
        cards: list[Card] = list(st.hands[seat])  # (cards on the table came with their keys)
        count = self._peek_count(st, seat)
        if count:
            cards.extend(st.deck[-count:])
        where = deck.where
        return {c - HIDDEN if c >= HIDDEN else where[c] for c in cards}

    def debts(self, seat: int) -> Debts:
        """What ``seat`` owes the other now."""
        owed = Debts()
        for batch, done in self.steps.items():
            if done < 3 and self._step_owner(batch, done + 1) == seat:
                owed.shuffle = (batch, done + 1)
        for scope in self.reveals_due():
            if seat not in self.revealed.get(scope, {}):
                owed.reveal.add(scope)
        owed.pick = seat == 0 and self._pick_open_due()
        for deck in self.decks.values():
            if deck.z is None or deck.scope in owed.reveal or deck.scope not in (0, self.round):
                continue
            missing = self.entitled(deck, 1 - seat) - deck.given[seat]
            if missing:
                owed.keys[deck.name] = missing
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
            return self.starter_of(following) if self.steps.get(following) == 3 else None
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
                self.pick_commit = pick_commitment(pos, jobs.mine.keys[pos])
                return {"move": {"type": "pick-job"}, "commit": encode(self.pick_commit)}
            self.public_picks[1] = pos
            msg["pos"] = pos
        elif isinstance(move, (Play, Discard)):
            card = card_played(st.hands[self.me], move.card)
            assert card is not None
            pos = msg["pos"] = self._pos(card)
            deck = self._cards()
            if pos not in deck.given[self.me]:  # the card is shown: its key goes with it
                deck.given[self.me].add(pos)
                msg["keys"] = {"cards": key_list({pos: deck.mine.keys[pos]})}
            self._apply(move)
        elif isinstance(move, Draw) and self._hold(move) is not None:
            self.pending = Pending(self.me, move, self._hold(move) or "")
        else:
            self._apply(move)
        return msg

    def flush(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Add to ``msg`` everything this peer owes, as it falls due."""
        while True:
            self.advance()
            owed = self.debts(self.me)
            if not owed:
                return msg
            if owed.shuffle is not None:
                assert "shuffle" not in msg
                msg["shuffle"] = self._make_step(*owed.shuffle)
            for name, positions in owed.keys.items():
                deck = self.deck(name)
                assert deck is not None
                deck.given[self.me].update(positions)
                pairs = key_list({p: deck.mine.keys[p] for p in positions})
                msg.setdefault("keys", {}).setdefault(name, []).extend(pairs)
            for scope in sorted(owed.reveal):
                seed = scope_seed(self._secret, scope)
                msg.setdefault("reveal", {})[str(scope)] = encode(seed)
                self._note_reveal(self.me, scope, seed)
            if owed.pick:
                jobs = self.deck("jobs")
                assert jobs is not None and self.my_pick is not None
                msg["pick"] = [self.my_pick, encode(jobs.mine.keys[self.my_pick])]
                jobs.given[0].add(self.my_pick)
                self.public_picks[0] = self.my_pick

    def step_vector(self, deck: Deck, step: int) -> tuple[bytes, ...]:
        """This peer's output of one shuffle step for one deck."""
        mine = deck.mine
        if step == 1:
            assert mine.mask is not None
            return mask_all(self.group, mine.mask, deck.table.points, mine.perm)
        if step == 2:
            assert deck.x is not None
            return remask(self.group, mine.keys, deck.x, mine.perm)
        assert mine.mask is not None and deck.y is not None
        return rekey(self.group, mine.mask, mine.keys, deck.y)

    def _make_step(self, batch: int, step: int) -> dict[str, Any]:
        part: dict[str, Any] = {"batch": batch, "step": step, "decks": {}}
        sent = None if self.replaying is None else self.replaying.get((batch, step))
        for deck in self._batch(batch):
            vector = sent[deck.name] if sent is not None else self.step_vector(deck, step)
            part["decks"][deck.name] = encode(b"".join(vector))
            if step == 1:
                deck.x = vector
            elif step == 2:
                deck.y = vector
            else:
                deck.z = vector
                deck.commits = tuple(key_commitment(deck.scope, deck.name, j, k)
                                     for j, k in enumerate(deck.mine.keys))
                part.setdefault("commits", {})[deck.name] = encode(b"".join(deck.commits))
        if batch == 1 and step < 3:
            part["setup"] = self.setup.digest()
        self.steps[batch] = step
        return part

    # ------------------------------------------------------------------ the opponent's messages

    def consume(self, m: Message) -> None:
        """Take in one message from the opponent, checking every part; raises ``FairError``
        at the first failed check (the caller discards this table then)."""
        them = 1 - self.me
        keys = {name: dict(pairs) for name, pairs in m.keys.items()}
        reveal = dict(m.reveal)
        shuffle, pick = m.shuffle, m.pick
        if m.move is not None or m.hidden_pick:
            self._their_move(m, keys)
        elif m.pos is not None or m.commit is not None:
            raise _unexpected("a position or commitment without a move")
        while True:
            self.advance()
            owed = self.debts(them)
            progress = False
            if owed.shuffle is not None and shuffle is not None:
                self._take_step(shuffle, owed.shuffle)
                shuffle, progress = None, True
            for name, positions in owed.keys.items():
                got = keys.get(name, {})
                for pos in sorted(positions & set(got)):
                    deck = self.deck(name)
                    assert deck is not None
                    self._take_key(deck, pos, got.pop(pos))
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
                "keys": {n: sorted(p) for n, p in keys.items() if p}, "reveal": sorted(reveal)}
        if shuffle is not None or pick is not None or left["keys"] or reveal:
            raise _unexpected("keys, secrets or a shuffle out of place", left=left)
        owed = self.debts(them)
        if owed:
            raise _cheat("withheld", "The opponent held back keys or secrets it owed",
                         owed=owed.to_json())

    def _their_move(self, m: Message, keys: dict[str, dict[int, bytes]]) -> None:
        them = 1 - self.me
        if self.actor() != them or self.debts(them) or self.debts(self.me):
            raise ProtocolViolation("not-your-turn", "The opponent moved out of turn",
                                    {"seq": m.seq})
        st = self.state
        assert st is not None
        if m.hidden_pick:
            if them != 0 or m.commit is None or m.pos is not None:
                raise _unexpected("a hidden job pick out of place")
            self.picked[0], self.pick_commit = True, m.commit
            return
        move = m.move
        assert move is not None
        if m.commit is not None:
            raise _unexpected("a commitment with a move")
        if isinstance(move, PickJob):
            self._their_pick(move, m.pos, keys)
        elif isinstance(move, (Play, Discard)):
            self._their_card(move, m.pos, keys)
        elif m.pos is not None:
            raise _unexpected("a position with a move that takes none")
        elif isinstance(move, Draw) and self._hold(move) is not None:
            if not is_legal(st, move):
                raise _cheat("illegal-move", "The opponent made an illegal move",
                             move=move_to_json(move))
            self.pending = Pending(them, move, self._hold(move) or "")
        else:
            self._apply_theirs(move)

    def _take_from(self, keys: dict[str, dict[int, bytes]], name: str, pos: int) -> bytes:
        key = keys.get(name, {}).pop(pos, None)
        if key is None:
            raise _cheat("withheld", f"The opponent did not send its key for {name} position "
                         f"{pos}", deck=name, position=pos)
        return key

    def _their_pick(self, move: PickJob, pos: int | None,
                    keys: dict[str, dict[int, bytes]]) -> None:
        jobs = self.deck("jobs")
        assert jobs is not None
        if self.me != 0 or pos not in OFFERS[1]:
            raise _cheat("not-in-hand", "The opponent picked a job that was not offered to it",
                         position=pos)
        self._take_key(jobs, pos, self._take_from(keys, "jobs", pos))
        if jobs.known[pos] != move.job:
            raise _cheat("wrong-card", f"The opponent claimed the job {move.job} but was "
                         f"offered {jobs.known[pos]} there", deck="jobs", position=pos,
                         claimed=move.job, actual=jobs.known[pos])
        self.picked[1] = True
        self.public_picks[1] = pos

    def _their_card(self, move: Play | Discard, pos: int | None,
                    keys: dict[str, dict[int, bytes]]) -> None:
        them = 1 - self.me
        st = self.state
        assert st is not None
        deck = self._cards()
        held = {self._pos(c) for c in st.hands[them]}
        if pos is None or pos not in held:
            raise _cheat("not-in-hand", f"The opponent played {move.card} from a position it "
                         "does not hold", position=pos, card=move.card)
        if pos not in deck.given[them]:
            self._take_key(deck, pos, self._take_from(keys, "cards", pos))
        st = self.state
        assert st is not None
        card = int(deck.known[pos])
        if canonical(card) != parse_card(move.card) or card_played(st.hands[them],
                                                                   move.card) != card:
            raise _cheat("wrong-card", f"The opponent claimed {move.card} but holds "
                         f"{card_text(card)} at that position", position=pos,
                         claimed=move.card, actual=card_text(card))
        self._apply_theirs(move)

    def _take_step(self, shuffle: Shuffle, due: tuple[int, int]) -> None:
        batch, step = due
        if (shuffle.batch, shuffle.step) != due:
            raise _unexpected(f"shuffle step {shuffle.step} of batch {shuffle.batch}",
                              due=list(due))
        decks = self._batch(batch)
        names = {d.name for d in decks}
        if set(shuffle.decks) != names or set(shuffle.commits) != (names if step == 3 else set()):
            raise _unexpected("a shuffle of other decks", decks=sorted(shuffle.decks),
                              expected=sorted(names))
        if (shuffle.setup is not None) != (batch == 1 and step < 3):
            raise _unexpected("a setup digest out of place")
        if shuffle.setup is not None and shuffle.setup != self.setup.digest():
            raise _cheat("setup-mismatch", "The opponent set up another match (options, names "
                         "or first player differ)", theirs=shuffle.setup,
                         ours=self.setup.digest())
        for deck in decks:
            vector = shuffle.decks[deck.name]
            if len(vector) != deck.size:
                raise _unexpected(f"a {deck.name} deck of {len(vector)} items")
            first: dict[bytes, int] = {}
            for j, point in enumerate(vector):
                if first.setdefault(point, j) != j:
                    raise _cheat("bad-shuffle", f"The opponent's shuffle of the {deck.name} "
                                 "holds one value twice", deck=deck.name, step=step,
                                 positions=[first[point], j])
            if step == 1:
                deck.x = vector
            elif step == 2:
                deck.y = vector
            else:
                commits = shuffle.commits[deck.name]
                if len(commits) != deck.size:
                    raise _unexpected(f"{len(commits)} commitments for the {deck.name}")
                deck.z, deck.commits = vector, commits
        self.steps[batch] = step

    def _take_key(self, deck: Deck, pos: int, key: bytes) -> None:
        them = 1 - self.me
        assert deck.z is not None
        if deck.inner == them:
            assert deck.commits is not None
            if key_commitment(deck.scope, deck.name, pos, key) != deck.commits[pos]:
                raise _cheat("bad-key", f"The opponent's key for {deck.name} position {pos} "
                             "is not the one it committed to", deck=deck.name, position=pos,
                             key=encode(key))
        deck.theirs[pos] = key
        deck.given[them].add(pos)
        try:
            point: bytes | None = unmask(self.group, deck.z[pos], deck.mine.keys[pos], key)
        except ValueError:
            point = None
        index = None if point is None else deck.table.index.get(point)
        if index is None:
            raise _cheat("bad-key", f"{deck.name.capitalize()} position {pos} opens to no "
                         "item: a wrong key or a tampered shuffle", deck=deck.name,
                         position=pos, key=encode(key))
        item = deck.table.items[index]
        self._learn(deck, pos, item)
        self._fill(deck, {pos: item})

    def _take_pick(self, pos: int, key: bytes) -> None:
        jobs = self.deck("jobs")
        assert jobs is not None
        if pos not in OFFERS[0] or self.pick_commit != pick_commitment(pos, key):
            raise _cheat("bad-key", "The opponent's job pick does not match its commitment",
                         position=pos, key=encode(key))
        self._take_key(jobs, pos, key)
        self.public_picks[0] = pos

    def _note_reveal(self, seat: int, scope: int, seed: bytes) -> None:
        self.revealed.setdefault(scope, {})[seat] = seed
        for deck in self.decks.values():
            if deck.scope == scope:
                deck.given[seat].update(range(deck.size))

    # ------------------------------------------------------------------ knowledge

    def _learn(self, deck: Deck, pos: int, item: Item) -> None:
        other = deck.where.get(item)
        if other is not None and other != pos:
            raise _cheat("duplicate-item", f"{item} turned up twice in the {deck.name}",
                         deck=deck.name, item=item, positions=[other, pos])
        if deck.known.get(pos, item) != item:
            raise _cheat("audit", f"{deck.name.capitalize()} position {pos} held "
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

    def _offers(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
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
        assert deck is not None and st.log and st.log[-1].type == "mixup"
        mixup = str(deck.known[0])
        return replace(st, mixup=mixup, log=st.log[:-1] + (LogEntry(None, "mixup", mixup),))

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
            raise _cheat("illegal-move", f"The opponent made an illegal move: {exc}",
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
        if st is None and self.steps.get(1) == 3 and self._first_player() is not None:
            self._create()
            return True
        if st is not None and st.phase == "jobs" and len(self.public_picks) == 2:
            jobs = self.deck("jobs")
            assert jobs is not None
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
            self.state = replace(st, job_offers=self._offers(),
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
            theirs = audit_deck(self.group, deck.table, scope, deck.name, seed,
                                deck.inner == them, (deck.x, deck.y, deck.z), deck.commits,
                                deck.theirs, recompute=self.replaying is None)
            inner, outer = (theirs, deck.mine) if deck.inner == them else (deck.mine, theirs)
            order = deck_order(inner, outer)
            items = {pos: deck.table.items[i] for pos, i in enumerate(order)}
            for pos, item in items.items():
                self._learn(deck, pos, item)
            deck.theirs = dict(enumerate(theirs.keys))
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
        try:
            for move in self.round_moves:
                replayed = self._step_engine(replayed, move)[0]
        except IllegalMove as exc:
            raise _cheat("audit", f"The round does not replay with the cards revealed: {exc}",
                         round=st.round) from None
        if replayed != st:
            differ = sorted(k for k in vars(st) if getattr(st, k) != getattr(replayed, k))
            raise _cheat("audit", "The round replayed with the cards revealed ends elsewhere",
                         round=st.round, fields=differ)

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
