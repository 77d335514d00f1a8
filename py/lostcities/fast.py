"""The fast mutable simulator, behind the immutable engine: ``Sim`` and ``FastMatch``.

The public engine is immutable and careful about messages; the bots need thousands of playouts
per move. ``Sim`` keeps one round in plain mutable lists and applies actions in place: play,
discard, draw, the three skills, jobs (through each player's ``ScoringRules``), objectives and
the endgame mixup, scored with the engine's own scoring and objective registries. It trusts its
actions to be legal and has no undo, no log and no messages. The bots build one from what they
know (``bots.knowledge``) and play it out with their policy.

``FastMatch`` drives a whole match through it (the jobs phase, each round dealt from the seed
exactly as the engine deals it, the seeded mixup, the round scores), for random playouts and
benchmarks, and converts to and from engine states. ``tests/test_fast.py`` plays it against the
public API move by move and checks that they never disagree.

Cards are the engine's card ids. Actions are ``(kind, arg)`` pairs: ``(PLAY, card)``,
``(DISCARD, card)``, ``(DRAW, colour index or DECK)``, ``(RADIO, 0)``, ``(AIRLIFT, 0)``,
``(SABOTAGE, colour index)``, and for a match ``(PICK, index into JOB_IDS)``, ``(NEXT, 0)``.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import CARDS_PER_COLOUR, COLOURS, card_text, colours_for, full_deck, value_of
from .dealing import deal_objectives, deal_round, draw_mixup, job_offers
from .engine import DEFAULT_NAMES
from .jobs import JOBS
from .mixups import MIXUP_TRIGGER_DECK, MIXUPS
from .moves import Move, Undo, move_from_json
from .objectives import OBJECTIVE_POINTS, OBJECTIVES, ObjectiveContext
from .options import Options
from .scoring import ExpeditionScore, ScoringRules, score_cards
from .skills import SKILLS
from .state import BASE_HAND_SIZE, State

N_CARDS = CARDS_PER_COLOUR * len(COLOURS)
VAL: tuple[int, ...] = tuple(value_of(c) for c in range(N_CARDS))
"""The value of each card id: 0 for a handshake, else 2-10."""
COL: tuple[int, ...] = tuple(c // CARDS_PER_COLOUR for c in range(N_CARDS))
"""The colour index of each card id."""

PLAY, DISCARD, DRAW, RADIO, AIRLIFT, SABOTAGE, PICK, NEXT = range(8)
DECK = -1
"""The draw source meaning the deck."""
PLAY_PHASE, DRAW_PHASE = 0, 1

RADIO_COST = SKILLS["radio"].cost
AIRLIFT_COST = SKILLS["airlift"].cost
SABOTAGE_COST = SKILLS["sabotage"].cost
_USED_RADIO, _USED_AIRLIFT, _USED_SABOTAGE = 1, 2, 4
USED_BITS = {"radio": _USED_RADIO, "airlift": _USED_AIRLIFT, "sabotage": _USED_SABOTAGE}
"""The bit of ``Sim.used`` that marks each skill used this turn."""
JOB_IDS: tuple[str, ...] = tuple(JOBS)

Action = tuple[int, int]


class Sim:
    """One round in progress, mutable. Build it with ``Sim(...)`` (see ``knowledge.py``).

    ``deck`` and each of ``piles`` have their top card last. ``exps[p][c]`` is player ``p``'s
    expedition of colour index ``c``; ``tops[p][c]`` its highest number (0 if none).
    ``esum`` and ``ehs`` are the sum of its numbers (a 10 as 10) and its handshakes; ``gone[c]``
    has bit ``v`` set when the number ``v`` of colour ``c`` lies on an expedition.
    ``base_rules`` are each player's scoring rules before any mixup. ``mixup_pool`` holds the
    mixups that may still be drawn when the deck reaches 8 (empty when none will be).
    """

    __slots__ = (
        "ncol", "hands", "deck", "piles", "exps", "tops", "base_rules", "objectives",
        "charges", "discards", "skills", "to_act", "phase", "locked", "shut", "shut_next",
        "used", "airlift", "mixup", "mixup_pool", "over", "rng", "cur_rules", "gone", "esum",
        "ehs",
    )

    def __init__(
        self,
        ncol: int,
        hands: list[list[int]],
        deck: list[int],
        piles: list[list[int]],
        exps: list[list[list[int]]],
        base_rules: tuple[ScoringRules, ScoringRules],
        objectives: tuple[tuple[str, ...], tuple[str, ...]],
        to_act: int,
        rng: random.Random,
        *,
        phase: int = PLAY_PHASE,
        charges: tuple[int, int] = (0, 0),
        discards: tuple[int, int] = (0, 0),
        skills: bool = False,
        locked: int = -1,
        shut: int = -1,
        shut_next: int = -1,
        used: int = 0,
        airlift: bool = False,
        mixup: str | None = None,
        mixup_pool: tuple[str, ...] = (),
    ) -> None:
        self.ncol = ncol
        self.hands = hands
        self.deck = deck
        self.piles = piles
        self.exps = exps
        self.tops = [[max((VAL[x] for x in e), default=0) for e in exps[p]] for p in (0, 1)]
        self.esum = [[sum(VAL[x] for x in e) for e in exps[p]] for p in (0, 1)]
        self.ehs = [[sum(1 for x in e if VAL[x] == 0) for e in exps[p]] for p in (0, 1)]
        self.gone = [0] * ncol
        for p in (0, 1):
            for c, e in enumerate(exps[p]):
                for x in e:
                    self.gone[c] |= 1 << VAL[x]
        self.base_rules = base_rules
        self.objectives = objectives
        self.charges = list(charges)
        self.discards = list(discards)
        self.skills = skills
        self.to_act = to_act
        self.phase = phase
        self.locked = locked
        self.shut = shut
        self.shut_next = shut_next
        self.used = used
        self.airlift = airlift
        self.mixup = mixup
        self.mixup_pool = mixup_pool
        self.over = False
        self.rng = rng
        self.cur_rules = [self._rules(0), self._rules(1)]

    def copy(self, rng: random.Random | None = None) -> Sim:
        """An independent copy (sharing only immutable parts), optionally with another rng."""
        s = Sim.__new__(Sim)
        s.ncol = self.ncol
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.deck = self.deck[:]
        s.piles = [p[:] for p in self.piles]
        s.exps = [[e[:] for e in self.exps[0]], [e[:] for e in self.exps[1]]]
        s.tops = [self.tops[0][:], self.tops[1][:]]
        s.esum = [self.esum[0][:], self.esum[1][:]]
        s.ehs = [self.ehs[0][:], self.ehs[1][:]]
        s.gone = self.gone[:]
        s.base_rules = self.base_rules
        s.objectives = self.objectives
        s.charges = self.charges[:]
        s.discards = self.discards[:]
        s.skills = self.skills
        s.to_act = self.to_act
        s.phase = self.phase
        s.locked = self.locked
        s.shut = self.shut
        s.shut_next = self.shut_next
        s.used = self.used
        s.airlift = self.airlift
        s.mixup = self.mixup
        s.mixup_pool = self.mixup_pool
        s.over = self.over
        s.rng = self.rng if rng is None else rng
        s.cur_rules = self.cur_rules[:]
        return s

    # --- rules ---------------------------------------------------------------------------

    @property
    def open_piles(self) -> bool:
        """True when the active mixup unlocks every pile."""
        return self.mixup is not None and MIXUPS[self.mixup].open_piles

    def can_play(self, p: int, card: int) -> bool:
        """Whether player ``p`` may play ``card`` now (Airlift taken into account)."""
        if self.airlift and p == self.to_act:
            return True
        v = VAL[card]
        top = self.tops[p][COL[card]]
        return top == 0 if v == 0 else v > top

    def can_play_normally(self, p: int, card: int) -> bool:
        """Whether player ``p`` may play ``card`` by the ascending rule (without Airlift)."""
        v = VAL[card]
        top = self.tops[p][COL[card]]
        return top == 0 if v == 0 else v > top

    def can_draw(self, source: int) -> bool:
        """Whether the player to act may draw from ``source`` (a colour index or ``DECK``)."""
        if source == DECK:
            return bool(self.deck)
        if not self.piles[source]:
            return False
        if self.mixup is not None and MIXUPS[self.mixup].open_piles:
            return True
        return source != self.locked and source != self.shut

    def legal_actions(self) -> list[Action]:
        """Every action of the player to act, handshakes of a colour counted once."""
        p = self.to_act
        out: list[Action] = []
        if self.over:
            return out
        if self.phase == DRAW_PHASE:
            out.append((DRAW, DECK))
            out.extend((DRAW, c) for c in range(self.ncol) if self.can_draw(c))
            return out
        if self.skills:
            ch = self.charges[p]
            if ch >= RADIO_COST and not self.used & _USED_RADIO:
                out.append((RADIO, 0))
            if ch >= AIRLIFT_COST and not self.used & _USED_AIRLIFT:
                out.append((AIRLIFT, 0))
            if ch >= SABOTAGE_COST and not self.used & _USED_SABOTAGE:
                out.extend((SABOTAGE, c) for c in range(self.ncol))
        seen: set[int] = set()
        for card in self.hands[p]:
            key = card if VAL[card] else -1 - COL[card]
            if key in seen:
                continue
            seen.add(key)
            if self.can_play(p, card):
                out.append((PLAY, card))
            out.append((DISCARD, card))
        return out

    def apply(self, action: Action) -> None:
        """Apply a legal action in place (legality is the caller's duty)."""
        kind, arg = action
        if kind == PLAY:
            self.play(arg)
        elif kind == DISCARD:
            self.discard(arg)
        elif kind == DRAW:
            self.draw(arg)
        elif kind == RADIO:
            self.charges[self.to_act] -= RADIO_COST
            self.used |= _USED_RADIO
        elif kind == AIRLIFT:
            self.charges[self.to_act] -= AIRLIFT_COST
            self.used |= _USED_AIRLIFT
            self.airlift = True
        else:
            self.charges[self.to_act] -= SABOTAGE_COST
            self.used |= _USED_SABOTAGE
            self.shut_next = arg

    def play(self, card: int) -> None:
        """The player to act plays ``card`` from hand."""
        p = self.to_act
        self.hands[p].remove(card)
        c = COL[card]
        self.exps[p][c].append(card)
        v = VAL[card]
        if v > self.tops[p][c]:
            self.tops[p][c] = v
        if v:
            self.esum[p][c] += v
            self.gone[c] |= 1 << v
        else:
            self.ehs[p][c] += 1
        self.airlift = False
        self.phase = DRAW_PHASE

    def discard(self, card: int) -> None:
        """The player to act discards ``card`` from hand (gaining a charge with skills)."""
        p = self.to_act
        self.hands[p].remove(card)
        c = COL[card]
        self.piles[c].append(card)
        self.locked = c
        self.discards[p] += 1
        if self.skills:
            self.charges[p] += 1
        self.airlift = False
        self.phase = DRAW_PHASE

    def draw(self, source: int) -> None:
        """The player to act draws from ``source`` and the turn passes (or the round ends)."""
        p = self.to_act
        if source == DECK:
            self.hands[p].append(self.deck.pop())
            n = len(self.deck)
            if n == 0:
                self.over = True
            elif n == MIXUP_TRIGGER_DECK and self.mixup_pool and self.mixup is None:
                pool = self.mixup_pool
                self.set_mixup(pool[self.rng.randrange(len(pool))])
        else:
            self.hands[p].append(self.piles[source].pop())
        self.to_act = 1 - p
        self.phase = PLAY_PHASE
        self.locked = -1
        self.shut = self.shut_next
        self.shut_next = -1
        self.used = 0
        self.airlift = False

    # --- scoring -------------------------------------------------------------------------

    def set_mixup(self, mixup: str) -> None:
        """Turn the mixup ``mixup`` face up (no other can be drawn this round)."""
        self.mixup = mixup
        self.mixup_pool = ()
        self.cur_rules = [self._rules(0), self._rules(1)]

    def _rules(self, p: int) -> ScoringRules:
        rules = self.base_rules[p]
        if self.mixup is not None:
            rules = MIXUPS[self.mixup].adjust(rules)
        return rules

    def rules(self, p: int) -> ScoringRules:
        """Player ``p``'s scoring rules now (their job, then the active mixup)."""
        return self.cur_rules[p]

    def expedition_scores(self, p: int) -> tuple[ExpeditionScore, ...]:
        """Player ``p``'s expedition breakdowns as they stand."""
        rules = self.rules(p)
        return tuple(score_cards(e, rules) for e in self.exps[p])

    def round_scores(self) -> tuple[int, int]:
        """Both players' round scores as things stand: expeditions plus achieved objectives."""
        scores = (self.expedition_scores(0), self.expedition_scores(1))
        out = [sum(s.score for s in scores[0]), sum(s.score for s in scores[1])]
        for p in (0, 1):
            if not self.objectives[p]:
                continue
            ctx = ObjectiveContext(
                expeditions=tuple(tuple(e) for e in self.exps[p]),
                scores=scores[p],
                opponent_scores=scores[1 - p],
                discards=self.discards[p],
            )
            out[p] += sum(
                OBJECTIVE_POINTS for o in self.objectives[p] if OBJECTIVES[o].achieved(ctx)
            )
        return out[0], out[1]



def action_json(action: Action) -> dict[str, str]:
    """The canonical move JSON of an action."""
    kind, arg = action
    if kind == PLAY:
        return {"type": "play", "card": card_text(arg)}
    if kind == DISCARD:
        return {"type": "discard", "card": card_text(arg)}
    if kind == DRAW:
        return {"type": "draw", "source": "deck" if arg == DECK else COLOURS[arg]}
    if kind == SABOTAGE:
        return {"type": "sabotage", "colour": COLOURS[arg]}
    if kind == PICK:
        return {"type": "pick-job", "job": JOB_IDS[arg]}
    return {"type": ("radio", "airlift", "next-round")[(RADIO, AIRLIFT, NEXT).index(kind)]}


def to_move(action: Action) -> Move:
    """The engine move of an action."""
    return move_from_json(action_json(action))


def _rules_of(job: str | None) -> ScoringRules:
    return JOBS[job].adjust(ScoringRules()) if job else ScoringRules()


def _colour_or_none(index: int) -> str | None:
    return None if index < 0 else COLOURS[index]


def round_sim(state: State, rng: random.Random | None = None) -> Sim:
    """A ``Sim`` holding exactly the round of ``state`` (hidden cards included), in phase play
    or draw or just finished. Its mixup, if any is due, is left to the caller (``mixup_pool``
    empty)."""
    colours = state.colours
    to_act = 0 if state.to_act is None else state.to_act
    shut = [-1 if c is None else colours.index(c) for c in state.shut_piles]
    sim = Sim(
        len(colours), [list(state.hands[0]), list(state.hands[1])], list(state.deck),
        [list(p) for p in state.discards],
        [[list(e) for e in state.expeditions[p]] for p in (0, 1)],
        (_rules_of(state.jobs[0]), _rules_of(state.jobs[1])), state.objectives, to_act,
        rng or random.Random(0),
        phase=DRAW_PHASE if state.phase == "draw" else PLAY_PHASE,
        charges=state.charges, discards=state.discard_counts, skills=state.options.skills,
        locked=colours.index(state.discarded_onto) if state.discarded_onto else -1,
        shut=shut[to_act], shut_next=shut[1 - to_act],
        used=sum(USED_BITS[s] for s in state.skills_used), airlift=state.airlift_active,
        mixup=state.mixup,
    )
    sim.over = state.phase in ("round-end", "match-end")
    return sim


class FastMatch:
    """A whole match, mutable, with its round in progress in a ``Sim``. Build one with
    ``FastMatch.new`` or ``FastMatch.from_state``."""

    __slots__ = ("options", "seed", "first_player", "names", "round", "phase", "picker",
                 "offers", "jobs", "round_scores", "sim")

    def __init__(self, options: Options, seed: int, first_player: int,
                 names: tuple[str, str] = DEFAULT_NAMES) -> None:
        self.options = options
        self.seed = seed
        self.first_player = first_player
        self.names = names
        self.round = 1
        self.phase = "jobs"
        """The engine's phase name."""
        self.picker = 0
        """The player to pick a job (phase ``jobs``)."""
        self.offers: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        self.jobs: list[str | None] = [None, None]
        self.round_scores: list[tuple[int, int]] = []
        self.sim: Sim | None = None
        """The round being played or just scored (``None`` before the first deal)."""

    @classmethod
    def new(cls, options: Options, seed: int, first_player: int = 0) -> FastMatch:
        """The same match as ``new_match(options, seed, first_player)``."""
        m = cls(options, seed, first_player)
        if options.jobs:
            m.offers = job_offers(seed)
        else:
            m._deal()
        return m

    @classmethod
    def from_state(cls, state: State) -> FastMatch:
        """A mutable copy of an engine state (its log and undo snapshot are left behind)."""
        m = cls(state.options, state.seed, state.first_player, state.names)
        m.round = state.round
        m.phase = state.phase
        m.picker = state.to_act if state.phase == "jobs" and state.to_act is not None else 0
        m.offers = state.job_offers
        m.jobs = list(state.jobs)
        m.round_scores = list(state.round_scores)
        if state.phase != "jobs":
            m.sim = round_sim(state)
        return m

    def _deal(self) -> None:
        starter = self.first_player if self.round % 2 == 1 else 1 - self.first_player
        sizes = [JOBS[j].hand_size if j else BASE_HAND_SIZE for j in self.jobs]
        h0, h1, deck = deal_round(self.seed, self.round, self.options.sixth_colour, starter,
                                  (sizes[0], sizes[1]))
        n = len(colours_for(self.options.sixth_colour))
        objectives = deal_objectives(self.seed, self.round) if self.options.objectives \
            else ((), ())
        self.sim = Sim(n, [h0, h1], deck, [[] for _ in range(n)],
                       [[[] for _ in range(n)] for _ in range(2)],
                       (_rules_of(self.jobs[0]), _rules_of(self.jobs[1])), objectives, starter,
                       random.Random(0), skills=self.options.skills)
        self.phase = "play"

    @property
    def to_act(self) -> int | None:
        """The player to act, or ``None`` between rounds and at match end."""
        if self.phase == "jobs":
            return self.picker
        return self.sim.to_act if self.sim is not None and not self.sim.over else None

    @property
    def totals(self) -> tuple[int, int]:
        """Match totals over the completed rounds."""
        return (sum(r[0] for r in self.round_scores), sum(r[1] for r in self.round_scores))

    def legal_actions(self) -> list[Action]:
        """Every legal action, in the order of the engine's ``legal_moves`` (without Undo)."""
        if self.phase == "jobs":
            return [(PICK, JOB_IDS.index(j)) for j in self.offers[self.picker]]
        if self.phase == "round-end":
            return [(NEXT, 0)]
        sim = self.sim
        if sim is None or sim.over:
            return []
        sim.hands[sim.to_act].sort()  # the engine lists a hand's moves in sorted order
        return sim.legal_actions()

    def step(self, action: Action) -> None:
        """Apply a legal action in place (not checked)."""
        kind, arg = action
        if kind == PICK:
            self.jobs[self.picker] = JOB_IDS[arg]
            if self.picker == 0:
                self.picker = 1
            else:
                self._deal()
            return
        if kind == NEXT:
            self.round += 1
            self._deal()
            return
        sim = self.sim
        assert sim is not None
        sim.apply(action)
        if sim.over:
            self.round_scores.append(sim.round_scores())
            self.phase = "match-end" if self.round == self.options.rounds else "round-end"
            return
        if kind == DRAW and len(sim.deck) == MIXUP_TRIGGER_DECK and sim.mixup is None \
                and self.options.mixups and self.round == self.options.rounds:
            sim.set_mixup(draw_mixup(self.seed, self.round))
        self.phase = "play" if sim.phase == PLAY_PHASE else "draw"

    def playout(self, rng: random.Random) -> None:
        """Play to the end of the match, each action chosen uniformly at random among the
        legal ones."""
        while self.phase != "match-end":
            self.step(rng.choice(self.legal_actions()))

    def _shut_piles(self) -> tuple[str | None, str | None]:
        sim = self.sim
        if sim is None or sim.over:
            return (None, None)
        now, later = _colour_or_none(sim.shut), _colour_or_none(sim.shut_next)
        return (now, later) if sim.to_act == 0 else (later, now)

    def to_state(self) -> State:
        """The engine state of this position (with an empty log and no undo)."""
        sim = self.sim
        n = len(colours_for(self.options.sixth_colour))
        fields: dict[str, Any] = {}
        if sim is None:
            fields.update(hands=((), ()), deck=full_deck(self.options.sixth_colour),
                          discards=((),) * n, expeditions=(((),) * n, ((),) * n))
        else:
            fields.update(
                hands=(tuple(sorted(sim.hands[0])), tuple(sorted(sim.hands[1]))),
                deck=tuple(sim.deck), discards=tuple(tuple(p) for p in sim.piles),
                expeditions=(tuple(tuple(e) for e in sim.exps[0]),
                             tuple(tuple(e) for e in sim.exps[1])),
                charges=(sim.charges[0], sim.charges[1]),
                discard_counts=(sim.discards[0], sim.discards[1]),
                skills_used=tuple(s for s, bit in USED_BITS.items() if sim.used & bit),
                airlift_active=sim.airlift, discarded_onto=_colour_or_none(sim.locked),
                shut_piles=self._shut_piles(), objectives=sim.objectives, mixup=sim.mixup,
            )
        return State(
            options=self.options, seed=self.seed, names=self.names,
            first_player=self.first_player, round=self.round, phase=self.phase,
            to_act=self.to_act, round_scores=tuple(self.round_scores),
            job_offers=self.offers, jobs=(self.jobs[0], self.jobs[1]), **fields,
        )

    def summary(self) -> dict[str, object]:
        """The public parts of the position as plain data (for comparing with the engine)."""
        return summary_of(self.to_state())


def summary_of(state: State) -> dict[str, object]:
    """The parts of an engine state that ``FastMatch`` keeps, as plain data."""
    return {
        "round": state.round, "phase": state.phase, "to_act": state.to_act,
        "hands": [[card_text(c) for c in h] for h in state.hands],
        "deck": [card_text(c) for c in state.deck],
        "discards": [[card_text(c) for c in p] for p in state.discards],
        "expeditions": [[[card_text(c) for c in e] for e in exps] for exps in state.expeditions],
        "charges": list(state.charges), "discard_counts": list(state.discard_counts),
        "skills_used": sorted(state.skills_used), "airlift": state.airlift_active,
        "locked": state.discarded_onto, "shut_piles": list(state.shut_piles),
        "jobs": list(state.jobs), "objectives": [list(o) for o in state.objectives],
        "mixup": state.mixup, "round_scores": [list(r) for r in state.round_scores],
    }


def from_move(match: FastMatch, move: Move) -> Action:
    """The action for a legal engine move in ``match`` (``ValueError`` if none)."""
    for action in match.legal_actions():
        if to_move(action) == move:
            return action
    if isinstance(move, Undo):
        raise ValueError("FastMatch has no undo")
    raise ValueError(f"{move!r} is not legal here")
