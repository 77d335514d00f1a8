"""The fast mutable simulator of the bots, behind the immutable engine: ``Sim``.

The public engine is immutable and careful about messages; the bots need thousands of playouts
per move. ``Sim`` keeps one round in plain mutable lists and applies actions in place: play,
discard, draw, the three skills, jobs (through each player's ``ScoringRules``), objectives and
the endgame mixup, scored with the engine's own scoring and objective registries. It trusts its
actions to be legal and has no undo, no log and no messages. The bots build one from what they
know (``bots.knowledge``) and play it out with their policy. ``tests/test_fast.py`` drives whole
matches through it (``tests/fastmatch.py``) against the public API, move by move, and checks
that they never disagree.

Cards are the engine's card ids. Actions are ``(kind, arg)`` pairs: ``(PLAY, card)``,
``(DISCARD, card)``, ``(DRAW, colour index or DECK)``, ``(RADIO, 0)``, ``(AIRLIFT, 0)``,
``(SABOTAGE, colour index)``.
"""

from __future__ import annotations

import random

from .cards import CARDS_PER_COLOUR, COLOURS, card_text, value_of
from .mixups import MIXUP_TRIGGER_DECK, MIXUPS
from .objectives import OBJECTIVE_POINTS, OBJECTIVES, ObjectiveContext
from .scoring import ExpeditionScore, ScoringRules, score_cards
from .skills import SKILLS

N_CARDS = CARDS_PER_COLOUR * len(COLOURS)
VAL: tuple[int, ...] = tuple(value_of(c) for c in range(N_CARDS))
"""The value of each card id: 0 for a handshake, else 2-10."""
COL: tuple[int, ...] = tuple(c // CARDS_PER_COLOUR for c in range(N_CARDS))
"""The colour index of each card id."""

PLAY, DISCARD, DRAW, RADIO, AIRLIFT, SABOTAGE = range(6)
DECK = -1
"""The draw source meaning the deck."""
PLAY_PHASE, DRAW_PHASE = 0, 1

RADIO_COST = SKILLS["radio"].cost
AIRLIFT_COST = SKILLS["airlift"].cost
SABOTAGE_COST = SKILLS["sabotage"].cost
_USED_RADIO, _USED_AIRLIFT, _USED_SABOTAGE = 1, 2, 4
USED_BITS = {"radio": _USED_RADIO, "airlift": _USED_AIRLIFT, "sabotage": _USED_SABOTAGE}
"""The bit of ``Sim.used`` that marks each skill used this turn."""

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
    return {"type": "radio" if kind == RADIO else "airlift"}
