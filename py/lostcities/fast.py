"""A compact mutable match for fast playouts (DESIGN.md lesson 2).

The public engine is immutable and careful about messages; random playouts (bots, benchmarks)
need many thousands of moves a second. ``FastMatch`` keeps a whole match in plain lists and
applies actions in place. It implements every rule and option, using the engine's own dealing,
scoring, objective and mixup code, and ``tests/test_fast.py`` plays it against the public API
step by step. It has no undo, no log and no messages: ``step`` trusts its action to be legal.

An action is an int ``kind << 7 | arg``: ``PLAY``/``DISCARD`` with a card id, ``DRAW`` with a
colour index or ``DECK``, ``RADIO``/``AIRLIFT``, ``SABOTAGE`` with a colour index, ``PICK`` with
an index into ``JOB_IDS``, ``NEXT``. ``to_move``/``from_move`` convert to and from ``Move``.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable

from .cards import (
    CARDS_PER_COLOUR, COLOURS, card_text, colours_for, full_deck, is_handshake, value_of,
)
from .engine import DEFAULT_NAMES
from .dealing import deal_objectives, deal_round, draw_mixup, job_offers
from .jobs import JOBS
from .mixups import MIXUP_TRIGGER_DECK, MIXUPS
from .moves import (
    Airlift, Discard, Draw, Move, NextRound, PickJob, Play, Radio, Sabotage, Undo,
)
from .options import Options
from .roundscore import score_players
from .scoring import ScoringRules
from .skills import SKILLS
from .state import BASE_HAND_SIZE, PHASES, State

PLAY, DISCARD, DRAW, RADIO, AIRLIFT, SABOTAGE, PICK, NEXT = range(8)
DECK = 6
"""The ``DRAW`` argument meaning the deck."""
JOBS_PHASE, PLAY_PHASE, DRAW_PHASE, ROUND_END, MATCH_END = range(5)
JOB_IDS: tuple[str, ...] = tuple(JOBS)
_VAL = tuple(value_of(c) for c in range(CARDS_PER_COLOUR * len(COLOURS)))
_RADIO, _AIRLIFT, _SABOTAGE = (SKILLS[s].cost for s in ("radio", "airlift", "sabotage"))
_BASE_RULES = ScoringRules()
_USED = {"radio": 1, "airlift": 2, "sabotage": 4}
_SAME_HANDSHAKE = tuple(c // CARDS_PER_COLOUR + 1 if is_handshake(c) else 0 for c in range(72))
"""For a card id: its colour index + 1 if it is a handshake, else 0."""


class FastMatch:
    """A mutable match. Build one with ``FastMatch.from_state`` or ``FastMatch.new``."""

    __slots__ = (
        "options", "seed", "first_player", "n", "round", "phase", "to_act", "hands", "deck",
        "piles", "exps", "high", "charges", "dcount", "used", "airlift", "locked", "shut",
        "offers", "jobs", "job_rules", "hand_size", "objectives", "mixup",
        "open_piles", "round_scores", "names",
    )

    def __init__(self, options: Options, seed: int, first_player: int) -> None:
        self.names = DEFAULT_NAMES
        self.options = options
        self.seed = seed
        self.first_player = first_player
        self.n = len(colours_for(options.sixth_colour))
        self.round = 1
        self.phase = JOBS_PHASE
        self.to_act = 0
        self.hands: list[list[int]] = [[], []]
        self.deck: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(self.n)]
        self.exps: list[list[list[int]]] = [[[] for _ in range(self.n)] for _ in range(2)]
        self.high: list[list[int]] = [[0] * self.n, [0] * self.n]
        self.charges = [0, 0]
        self.dcount = [0, 0]
        self.used = 0
        self.airlift = False
        self.locked = -1
        self.shut = [-1, -1]
        self.offers: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        self.jobs: list[str | None] = [None, None]
        self.job_rules = [_BASE_RULES, _BASE_RULES]
        self.hand_size = [BASE_HAND_SIZE, BASE_HAND_SIZE]
        self.objectives: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        self.mixup: str | None = None
        self.open_piles = False
        self.round_scores: list[tuple[int, int]] = []

    # ------------------------------------------------------------ building

    @classmethod
    def new(cls, options: Options, seed: int, first_player: int = 0) -> FastMatch:
        """The same match as ``new_match(options, seed, first_player)``."""
        m = cls(options, seed, first_player)
        if options.jobs:
            m.offers = job_offers(seed)
            m.deck = list(full_deck(options.sixth_colour))
        else:
            m._deal()
        return m

    @classmethod
    def from_state(cls, state: State) -> FastMatch:
        """A mutable copy of an engine state (its log and undo snapshot are left behind)."""
        m = cls(state.options, state.seed, state.first_player)
        m.names = state.names
        m.round = state.round
        m.phase = PHASES.index(state.phase)
        m.to_act = -1 if state.to_act is None else state.to_act
        m.hands = [list(h) for h in state.hands]
        m.deck = list(state.deck)
        m.piles = [list(p) for p in state.discards]
        m.exps = [[list(e) for e in exps] for exps in state.expeditions]
        m.high = [[max((_VAL[c] for c in e), default=0) for e in exps] for exps in m.exps]
        m.charges = list(state.charges)
        m.dcount = list(state.discard_counts)
        m.used = sum(_USED[s] for s in state.skills_used)
        m.airlift = state.airlift_active
        m.locked = -1 if state.discarded_onto is None else COLOURS.index(state.discarded_onto)
        m.shut = [-1 if c is None else COLOURS.index(c) for c in state.shut_piles]
        m.offers = state.job_offers
        m.jobs = list(state.jobs)
        m._set_jobs()
        m.objectives = state.objectives
        m.mixup = state.mixup
        m.open_piles = bool(state.mixup) and MIXUPS[state.mixup or ""].open_piles
        m.round_scores = list(state.round_scores)
        return m

    def copy(self) -> FastMatch:
        """An independent copy."""
        m = FastMatch.__new__(FastMatch)
        for name in self.__slots__:
            setattr(m, name, getattr(self, name))
        m.hands = [self.hands[0][:], self.hands[1][:]]
        m.deck = self.deck[:]
        m.piles = [p[:] for p in self.piles]
        m.exps = [[e[:] for e in exps] for exps in self.exps]
        m.high = [self.high[0][:], self.high[1][:]]
        m.charges = self.charges[:]
        m.shut = self.shut[:]
        m.dcount = self.dcount[:]
        m.jobs = self.jobs[:]
        m.job_rules = self.job_rules[:]
        m.hand_size = self.hand_size[:]
        m.round_scores = self.round_scores[:]
        return m

    def _set_jobs(self) -> None:
        for p in (0, 1):
            job = self.jobs[p]
            self.job_rules[p] = JOBS[job].adjust(_BASE_RULES) if job else _BASE_RULES
            self.hand_size[p] = JOBS[job].hand_size if job else BASE_HAND_SIZE

    def _deal(self) -> None:
        starter = self.first_player if self.round % 2 == 1 else 1 - self.first_player
        h0, h1, self.deck = deal_round(self.seed, self.round, self.options.sixth_colour,
                                       starter, (self.hand_size[0], self.hand_size[1]))
        n = self.n
        self.hands = [h0, h1]
        self.piles = [[] for _ in range(n)]
        self.exps = [[[] for _ in range(n)] for _ in range(2)]
        self.high = [[0] * n, [0] * n]
        self.charges = [0, 0]
        self.dcount = [0, 0]
        self.used = 0
        self.airlift = False
        self.locked = -1
        self.shut = [-1, -1]
        self.objectives = deal_objectives(self.seed, self.round) if self.options.objectives \
            else ((), ())
        self.mixup = None
        self.open_piles = False
        self.phase = PLAY_PHASE
        self.to_act = starter

    # ------------------------------------------------------------ the rules

    def rules_for(self, player: int) -> ScoringRules:
        """The player's scoring rules now (job, then mixup)."""
        rules = self.job_rules[player]
        return MIXUPS[self.mixup].adjust(rules) if self.mixup else rules

    def can_play(self, card: int) -> bool:
        """True if the player to act may play ``card`` (held) now."""
        high = self.high[self.to_act][card // CARDS_PER_COLOUR]
        v = _VAL[card]
        return self.airlift or (v > high if v else high == 0)

    def can_draw(self, colour: int) -> bool:
        """True if the player to act may draw from the pile of ``colour`` now."""
        if not self.piles[colour]:
            return False
        if self.open_piles:
            return True
        return colour != self.locked and colour != self.shut[self.to_act]

    def skill_actions(self) -> list[int]:
        """The skill actions the player to act may take now."""
        if not self.options.skills or self.phase != PLAY_PHASE:
            return []
        have, used, out = self.charges[self.to_act], self.used, []
        if have >= _RADIO and not used & 1:
            out.append(RADIO << 7)
        if have >= _AIRLIFT and not used & 2:
            out.append(AIRLIFT << 7)
        if have >= _SABOTAGE and not used & 4:
            out.extend(SABOTAGE << 7 | c for c in range(self.n))
        return out

    def legal_actions(self) -> list[int]:
        """Every legal action, in the order of the engine's ``legal_moves`` (without Undo)."""
        phase = self.phase
        if phase == PLAY_PHASE:
            out = self.skill_actions()
            prev = -1
            for card in self.hands[self.to_act]:
                if is_handshake(card) and prev >= 0 and is_handshake(prev) and (
                        prev // CARDS_PER_COLOUR == card // CARDS_PER_COLOUR):
                    continue
                prev = card
                if self.can_play(card):
                    out.append(PLAY << 7 | card)
                out.append(DISCARD << 7 | card)
            return out
        if phase == DRAW_PHASE:
            return [DRAW << 7 | DECK] + [DRAW << 7 | c for c in range(self.n) if self.can_draw(c)]
        if phase == JOBS_PHASE:
            return [PICK << 7 | JOB_IDS.index(j) for j in self.offers[self.to_act]]
        return [NEXT << 7] if phase == ROUND_END else []

    def step(self, action: int) -> None:
        """Apply a legal action in place (not checked)."""
        kind, arg = action >> 7, action & 127
        p = self.to_act
        if kind == DRAW:
            card = self.deck.pop() if arg == DECK else self.piles[arg].pop()
            insort(self.hands[p], card)
            self.shut[p] = -1
            self.used = 0
            self.locked = -1
            self.to_act = 1 - p
            self.phase = PLAY_PHASE
            deck = self.deck
            if not deck:
                self._end_round()
            elif len(deck) == MIXUP_TRIGGER_DECK and self.mixup is None and \
                    self.options.mixups and self.round == self.options.rounds:
                self.mixup = draw_mixup(self.seed, self.round)
                self.open_piles = MIXUPS[self.mixup].open_piles
        elif kind == PLAY:
            self.hands[p].remove(arg)
            colour = arg // CARDS_PER_COLOUR
            self.exps[p][colour].append(arg)
            v = _VAL[arg]
            if v > self.high[p][colour]:
                self.high[p][colour] = v
            self.airlift = False
            self.phase = DRAW_PHASE
        elif kind == DISCARD:
            self.hands[p].remove(arg)
            colour = arg // CARDS_PER_COLOUR
            self.piles[colour].append(arg)
            if self.options.skills:
                self.charges[p] += 1
            self.dcount[p] += 1
            self.airlift = False
            self.locked = colour
            self.phase = DRAW_PHASE
        elif kind == RADIO:
            self.charges[p] -= _RADIO
            self.used |= 1
        elif kind == AIRLIFT:
            self.charges[p] -= _AIRLIFT
            self.used |= 2
            self.airlift = True
        elif kind == SABOTAGE:
            self.charges[p] -= _SABOTAGE
            self.used |= 4
            self.shut[1 - p] = arg
        elif kind == PICK:
            self.jobs[p] = JOB_IDS[arg]
            if p == 0:
                self.to_act = 1
            else:
                self._set_jobs()
                self._deal()
        elif kind == NEXT:
            self.round += 1
            self._deal()

    def _end_round(self) -> None:
        if self.options.objectives:
            s0, s1 = score_players(colours_for(self.options.sixth_colour), self.exps,
                                   (self.rules_for(0), self.rules_for(1)), self.objectives,
                                   self.dcount)
            self.round_scores.append((s0.total, s1.total))
        else:
            self.round_scores.append((_total(self.exps[0], self.rules_for(0)),
                                      _total(self.exps[1], self.rules_for(1))))
        self.phase = MATCH_END if self.round == self.options.rounds else ROUND_END
        self.to_act = -1
        self.shut = [-1, -1]

    # ------------------------------------------------------------ playouts

    def playout(self, rng: random.Random) -> None:
        """Play to the end of the match, each time choosing uniformly at random among the
        legal actions (as ``rng.choice(legal_actions())`` would, but much faster)."""
        rand = rng.random
        while self.phase != MATCH_END:
            if self.phase == PLAY_PHASE and not self.options.skills:
                self._random_round(rand)
            elif self.phase == PLAY_PHASE:
                self._random_round_with_skills(rand)
            else:
                self.step(self.random_action(rand))

    def random_action(self, rand: Callable[[], float]) -> int:
        """A uniformly random legal action, drawing from ``rand`` (e.g. ``rng.random``)
        exactly as ``playout`` does. ``ValueError`` at match end."""
        if self.phase == PLAY_PHASE:
            return self._random_play(rand)
        if self.phase == DRAW_PHASE:
            return self._random_draw(rand)
        actions = self.legal_actions()
        if not actions:
            raise ValueError("the match is over")
        return actions[int(rand() * len(actions))]

    def _random_play(self, rand: Callable[[], float]) -> int:
        """A uniformly random legal action of the play phase (by rejection sampling)."""
        hand = self.hands[self.to_act]
        size = len(hand)
        skills = self.skill_actions()
        total = 2 * size + len(skills)
        while True:
            r = int(rand() * total)
            if r >= 2 * size:
                return skills[r - 2 * size]
            i = r % size
            card = hand[i]
            if i and _VAL[card] == 0 and _SAME_HANDSHAKE[hand[i - 1]] == card // 12 + 1:
                continue  # the same move as for the previous handshake
            if r < size:
                return DISCARD << 7 | card
            if self.can_play(card):
                return PLAY << 7 | card

    def _random_draw(self, rand: Callable[[], float]) -> int:
        """A uniformly random legal draw: the deck or one of the non-empty piles, by rejection
        of a pile that is locked or shut."""
        filled = [c for c in range(self.n) if self.piles[c]]
        k = len(filled)
        while True:
            r = int(rand() * (k + 1))
            if r == k:
                return DRAW << 7 | DECK
            if self.can_draw(filled[r]):
                return DRAW << 7 | filled[r]

    def _random_round(self, rand: Callable[[], float]) -> None:
        """Random turns (play or discard, then draw) to the end of the round, without skills:
        the playout's hot loop, with ``step``'s effects inlined."""
        hands, piles, exps, high, deck, dcount = (
            self.hands, self.piles, self.exps, self.high, self.deck, self.dcount)
        value, same_handshake, put = _VAL, _SAME_HANDSHAKE, insort
        filled = [c for c in range(self.n) if piles[c]]
        p = self.to_act
        trigger = MIXUP_TRIGGER_DECK if (
            self.options.mixups and self.round == self.options.rounds and self.mixup is None
        ) else -1
        while True:
            hand = hands[p]
            hi = high[p]
            size = len(hand)
            twice = 2 * size
            while True:
                r = int(rand() * twice)
                i = r % size
                card = hand[i]
                v = value[card]
                colour = card // 12
                if i and v == 0 and same_handshake[hand[i - 1]] == colour + 1:
                    continue
                if r < size:
                    del hand[i]
                    pile = piles[colour]
                    if not pile:
                        put(filled, colour)
                    pile.append(card)
                    dcount[p] += 1
                    locked = colour
                    break
                if (v > hi[colour]) if v else hi[colour] == 0:
                    del hand[i]
                    exps[p][colour].append(card)
                    if v:
                        hi[colour] = v
                    locked = -1
                    break
            open_piles = self.open_piles
            k = len(filled)
            while True:
                r = int(rand() * (k + 1))
                if r == k:
                    put(hand, deck.pop())
                    break
                colour = filled[r]
                if colour != locked or open_piles:
                    pile = piles[colour]
                    put(hand, pile.pop())
                    if not pile:
                        del filled[r]
                    break
            p = 1 - p
            if not deck:
                self.to_act = p
                self.phase = PLAY_PHASE
                self._end_round()
                return
            if len(deck) == trigger:
                trigger = -1
                self.mixup = draw_mixup(self.seed, self.round)
                self.open_piles = MIXUPS[self.mixup].open_piles

    def _random_round_with_skills(self, rand: Callable[[], float]) -> None:
        """``_random_round`` with the three skills among the choices of the play phase
        (consuming ``rand`` exactly as ``_random_play`` and ``_random_draw`` do)."""
        hands, piles, exps, high, deck, dcount, charges = (
            self.hands, self.piles, self.exps, self.high, self.deck, self.dcount, self.charges)
        value, same_handshake, put = _VAL, _SAME_HANDSHAKE, insort
        n = self.n
        sabotages = [SABOTAGE << 7 | c for c in range(n)]
        filled = [c for c in range(n) if piles[c]]
        p = self.to_act
        used, airlift = self.used, self.airlift
        shut = self.shut
        trigger = MIXUP_TRIGGER_DECK if (
            self.options.mixups and self.round == self.options.rounds and self.mixup is None
        ) else -1
        while True:
            hand = hands[p]
            hi = high[p]
            size = len(hand)
            twice = 2 * size
            while True:
                have = charges[p]
                skills: list[int] = []
                if have >= _RADIO and not used & 1:
                    skills.append(RADIO << 7)
                if have >= _AIRLIFT and not used & 2:
                    skills.append(AIRLIFT << 7)
                if have >= _SABOTAGE and not used & 4:
                    skills += sabotages
                r = int(rand() * (twice + len(skills)))
                if r >= twice:
                    action = skills[r - twice]
                    kind = action >> 7
                    if kind == RADIO:
                        charges[p] -= _RADIO
                        used |= 1
                    elif kind == AIRLIFT:
                        charges[p] -= _AIRLIFT
                        used |= 2
                        airlift = True
                    else:
                        charges[p] -= _SABOTAGE
                        used |= 4
                        shut[1 - p] = action & 127
                    continue
                i = r % size
                card = hand[i]
                v = value[card]
                colour = card // 12
                if i and v == 0 and same_handshake[hand[i - 1]] == colour + 1:
                    continue
                if r < size:
                    del hand[i]
                    pile = piles[colour]
                    if not pile:
                        put(filled, colour)
                    pile.append(card)
                    dcount[p] += 1
                    charges[p] += 1
                    locked = colour
                    break
                if airlift or ((v > hi[colour]) if v else hi[colour] == 0):
                    del hand[i]
                    exps[p][colour].append(card)
                    if v > hi[colour]:
                        hi[colour] = v
                    locked = -1
                    break
            airlift = False
            open_piles = self.open_piles
            k = len(filled)
            while True:
                r = int(rand() * (k + 1))
                if r == k:
                    put(hand, deck.pop())
                    break
                colour = filled[r]
                if open_piles or (colour != locked and colour != shut[p]):
                    pile = piles[colour]
                    put(hand, pile.pop())
                    if not pile:
                        del filled[r]
                    break
            shut[p] = -1
            used = 0
            p = 1 - p
            if not deck:
                self.to_act = p
                self.phase = PLAY_PHASE
                self.used, self.airlift, self.locked = 0, False, -1
                self._end_round()
                return
            if len(deck) == trigger:
                trigger = -1
                self.mixup = draw_mixup(self.seed, self.round)
                self.open_piles = MIXUPS[self.mixup].open_piles

    # ------------------------------------------------------------ results

    def to_state(self) -> State:
        """The engine state of this position (with an empty log and no undo)."""
        return State(
            options=self.options, seed=self.seed, names=self.names,
            first_player=self.first_player, round=self.round, phase=PHASES[self.phase],
            to_act=None if self.to_act < 0 else self.to_act,
            hands=(tuple(self.hands[0]), tuple(self.hands[1])), deck=tuple(self.deck),
            discards=tuple(tuple(p) for p in self.piles),
            expeditions=(tuple(tuple(e) for e in self.exps[0]),
                         tuple(tuple(e) for e in self.exps[1])),
            round_scores=tuple((a, b) for a, b in self.round_scores),
            charges=(self.charges[0], self.charges[1]),
            discard_counts=(self.dcount[0], self.dcount[1]),
            skills_used=tuple(s for s, bit in _USED.items() if self.used & bit),
            airlift_active=self.airlift,
            discarded_onto=None if self.locked < 0 or self.phase != DRAW_PHASE
            else COLOURS[self.locked],
            shut_piles=(None if self.shut[0] < 0 else COLOURS[self.shut[0]],
                        None if self.shut[1] < 0 else COLOURS[self.shut[1]]),
            job_offers=self.offers, jobs=(self.jobs[0], self.jobs[1]),
            objectives=self.objectives, mixup=self.mixup,
        )

    @property
    def totals(self) -> tuple[int, int]:
        """Match totals over the completed rounds."""
        return (sum(r[0] for r in self.round_scores), sum(r[1] for r in self.round_scores))

    def summary(self) -> dict[str, object]:
        """The public parts of the position as plain data (for comparing with the engine)."""
        return {
            "round": self.round, "phase": PHASES[self.phase],
            "to_act": None if self.to_act < 0 else self.to_act,
            "hands": [[card_text(c) for c in h] for h in self.hands],
            "deck": [card_text(c) for c in self.deck],
            "discards": [[card_text(c) for c in p] for p in self.piles],
            "expeditions": [[[card_text(c) for c in e] for e in exps] for exps in self.exps],
            "charges": list(self.charges), "discard_counts": list(self.dcount),
            "jobs": list(self.jobs), "objectives": [list(o) for o in self.objectives],
            "mixup": self.mixup, "round_scores": [list(r) for r in self.round_scores],
            "shut_piles": [None if c < 0 else COLOURS[c] for c in self.shut],
        }


def _total(expeditions: list[list[int]], rules: ScoringRules) -> int:
    """The sum of a player's expedition scores (``score_values`` without the breakdowns)."""
    total = 0
    ten, cost, bonus_cards = rules.ten_value, rules.cost, rules.bonus_cards
    for e in expeditions:
        if not e:
            continue
        handshakes = points = 0
        for card in e:
            v = _VAL[card]
            if v == 0:
                handshakes += 1
            else:
                points += ten if v == 10 else v
        base = points - cost
        multiplier = 1 if base < 0 and not rules.loss_multiplied else 1 + handshakes
        total += base * multiplier + (rules.bonus if len(e) >= bonus_cards else 0)
    return total


def summary_of(state: State) -> dict[str, object]:
    """``FastMatch.summary`` computed from an engine state."""
    return {
        "round": state.round, "phase": state.phase, "to_act": state.to_act,
        "hands": [[card_text(c) for c in h] for h in state.hands],
        "deck": [card_text(c) for c in state.deck],
        "discards": [[card_text(c) for c in p] for p in state.discards],
        "expeditions": [[[card_text(c) for c in e] for e in exps] for exps in state.expeditions],
        "charges": list(state.charges), "discard_counts": list(state.discard_counts),
        "jobs": list(state.jobs), "objectives": [list(o) for o in state.objectives],
        "mixup": state.mixup, "round_scores": [list(r) for r in state.round_scores],
        "shut_piles": list(state.shut_piles),
    }


def to_move(action: int) -> Move:
    """The engine move for a fast action."""
    kind, arg = action >> 7, action & 127
    if kind == PLAY:
        return Play(card_text(arg))
    if kind == DISCARD:
        return Discard(card_text(arg))
    if kind == DRAW:
        return Draw("deck" if arg == DECK else COLOURS[arg])
    if kind == SABOTAGE:
        return Sabotage(COLOURS[arg])
    if kind == PICK:
        return PickJob(JOB_IDS[arg])
    return (Radio(), Airlift(), NextRound())[(RADIO, AIRLIFT, NEXT).index(kind)]


def from_move(match: FastMatch, move: Move) -> int:
    """The fast action for a legal engine move in ``match`` (``ValueError`` if none)."""
    for action in match.legal_actions():
        if to_move(action) == move:
            return action
    if isinstance(move, Undo):
        raise ValueError("FastMatch has no undo")
    raise ValueError(f"{move!r} is not legal here")
