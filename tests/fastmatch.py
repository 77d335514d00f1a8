"""``FastMatch``: a whole match driven through the bots' simulator (``lostcities.fast.Sim``).

A test and benchmark helper, not part of the product: ``tests/test_fast.py`` plays it against the
public API move by move (the differential test of ``Sim``), ``tests/pyodide/golden.py`` checks
that it plays the same in Pyodide, and ``scripts/bench_engine.py`` times its random playouts.

It runs the jobs phase, deals each round from the seed exactly as the engine deals it, turns up
the seeded mixup and keeps the round scores; it converts to and from engine states. Its actions
are the ``Sim``'s, plus ``(PICK, index into JOB_IDS)`` and ``(NEXT, 0)``.
"""

from __future__ import annotations

import random
from typing import Any

from lostcities import JOBS, Move, Options, State, Undo, move_from_json
from lostcities.cards import COLOURS, card_text, colours_for, full_deck
from lostcities.dealing import deal_objectives, deal_round, draw_mixup, job_offers
from lostcities.engine import DEFAULT_NAMES
from lostcities.fast import DRAW, DRAW_PHASE, PLAY_PHASE, USED_BITS, Action, Sim, action_json
from lostcities.mixups import MIXUP_TRIGGER_DECK
from lostcities.scoring import ScoringRules
from lostcities.state import BASE_HAND_SIZE

PICK, NEXT = 6, 7
"""The match's own actions, beside the ``Sim``'s (``lostcities.fast``)."""
JOB_IDS: tuple[str, ...] = tuple(JOBS)


def match_action_json(action: Action) -> dict[str, str]:
    """The canonical move JSON of a match action."""
    kind, arg = action
    if kind == PICK:
        return {"type": "pick-job", "job": JOB_IDS[arg]}
    if kind == NEXT:
        return {"type": "next-round"}
    return action_json(action)


def to_move(action: Action) -> Move:
    """The engine move of an action."""
    return move_from_json(match_action_json(action))


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
