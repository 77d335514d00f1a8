"""What a bot knows, rebuilt from its view alone, and worlds consistent with it.

``Knowledge.from_view`` reads only the view (docs/rules.md §6): the bot's own hand, the counts, the
expeditions, and the public log of the round, from which it rebuilds every discard pile card by
card and the cards the opponent took from the piles and still holds. ``Knowledge.world`` then
deals the unknown cards (the rest of the opponent's hand and the deck) at random, consistently
with all of that, into a ``Sim`` to play out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..cards import CARDS_PER_COLOUR, canonical, parse_card
from ..jobs import JOBS
from ..mixups import MIXUPS
from ..objectives import OBJECTIVES, OBJECTIVES_PER_PLAYER
from ..scoring import ScoringRules
from ..fast import COL, DRAW_PHASE, PLAY_PHASE, USED_BITS, Sim


class _Pool:
    """The distinct card ids of a match, taken out one text at a time."""

    def __init__(self, ncol: int) -> None:
        self.free: dict[int, list[int]] = {}
        for card in range(CARDS_PER_COLOUR * ncol):
            self.free.setdefault(canonical(card), []).append(card)

    def take(self, text: str) -> int:
        ids = self.free.get(parse_card(text))
        if not ids:
            raise ValueError(f"the view shows more {text} cards than exist")
        return ids.pop()

    def rest(self) -> list[int]:
        return sorted(c for ids in self.free.values() for c in ids)


@dataclass(frozen=True)
class Knowledge:
    """Everything one player knows about the round in progress (built from its view).

    Card lists hold card ids; ``piles`` and ``deck_peek`` have the pile top / deck top last.
    ``opp_known`` are cards the opponent took from discard piles and still holds.
    ``unknown`` are all the other cards the player has not seen: the rest of the opponent's hand,
    the deck, and (only for a position the log does not explain) ``hidden_below[c]`` cards under
    the top of pile ``c``; then ``discards`` (per player, this round) are unknown and read 0.
    """

    me: int
    ncol: int
    hand: tuple[int, ...]
    exps: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    piles: tuple[tuple[int, ...], ...]
    hidden_below: tuple[int, ...]
    opp_known: tuple[int, ...]
    opp_hand_count: int
    deck_count: int
    deck_peek: tuple[int, ...]
    unknown: tuple[int, ...]
    rules: tuple[ScoringRules, ScoringRules]
    my_objectives: tuple[str, ...]
    objectives_on: bool
    skills_on: bool
    charges: tuple[int, int]
    discards: tuple[int, int]
    to_act: int
    phase: int
    locked: int
    shut: int
    shut_next: int
    used: int
    airlift: bool
    mixup: str | None
    mixup_pool: tuple[str, ...]

    @staticmethod
    def from_view(view: dict[str, Any]) -> Knowledge:
        """Rebuild the knowledge of ``view["player"]`` from its view, during phase play or draw.

        Raises ``ValueError`` if the view is not in phase ``play`` or ``draw``.
        """
        phase = view["phase"]
        if phase not in ("play", "draw"):
            raise ValueError(f"no round is being played (phase {phase!r})")
        me: int = view["player"]
        opp = 1 - me
        colours: list[str] = view["colours"]
        ncol = len(colours)
        pool = _Pool(ncol)
        hand = tuple(pool.take(t) for t in view["hand"])
        exps = tuple(
            tuple(tuple(pool.take(t) for t in view["expeditions"][p][c]) for c in colours)
            for p in (0, 1)
        )
        piles: list[list[str]] = [[] for _ in colours]
        opp_known: list[str] = []
        discards = [0, 0]
        explained = [True] * ncol
        for e in view["log"]:
            kind = e["type"]
            if kind in ("play", "discard"):
                if e["player"] == opp and e["card"] in opp_known:
                    opp_known.remove(e["card"])
                if kind == "discard":
                    piles[colours.index(e["card"][0])].append(e["card"])
                    discards[e["player"]] += 1
            elif kind == "draw":
                if e["source"] != "deck":
                    ci = colours.index(e["source"])
                    if not piles[ci]:
                        explained[ci] = False
                        continue
                    card = piles[ci].pop()
                    if e["player"] == opp:
                        opp_known.append(card)
        hidden_below = [0] * ncol
        for ci, c in enumerate(colours):
            shown = view["discards"][c]
            pile = piles[ci]
            if len(pile) != shown["size"] or (pile[-1] if pile else None) != shown["top"] \
                    or not explained[ci]:
                # A position the log does not explain (built by hand, say): only the top card
                # is known; the cards below it are among the unseen ones.
                piles[ci] = [shown["top"]] if shown["top"] else []
                hidden_below[ci] = max(0, shown["size"] - 1)
                opp_known = []
                discards = [0, 0]
        pile_ids = tuple(tuple(pool.take(t) for t in pile) for pile in piles)
        known_ids = tuple(pool.take(t) for t in opp_known)
        peek = tuple(pool.take(t) for t in reversed(view["deck_peek"]))
        unknown = tuple(pool.rest())
        opp_count: int = view["hand_counts"][opp]
        if len(unknown) + len(peek) != \
                opp_count - len(known_ids) + view["deck_count"] + sum(hidden_below):
            raise ValueError("the view's card counts do not add up")

        def rules_of(job: str | None) -> ScoringRules:
            return JOBS[job].adjust(ScoringRules()) if job else ScoringRules()

        jobs = view["jobs"]
        options = view["options"]
        my_objs = tuple(view["objectives"][me] or ())
        to_act: int = view["to_act"]
        shut = [colours.index(c) if c else -1 for c in view["shut_piles"]]
        final = view["round"] == options["rounds"]
        mixup_pool: tuple[str, ...] = ()
        if options["mixups"] and final and view["mixup"] is None:
            mixup_pool = tuple(MIXUPS)
        return Knowledge(
            me=me, ncol=ncol, hand=hand, exps=(exps[0], exps[1]), piles=pile_ids,
            hidden_below=tuple(hidden_below), opp_known=known_ids, opp_hand_count=opp_count,
            deck_count=view["deck_count"], deck_peek=peek, unknown=unknown,
            rules=(rules_of(jobs[0]), rules_of(jobs[1])), my_objectives=my_objs,
            objectives_on=bool(options["objectives"]), skills_on=bool(options["skills"]),
            charges=(view["charges"][0], view["charges"][1]),
            discards=(discards[0], discards[1]), to_act=to_act,
            phase=PLAY_PHASE if phase == "play" else DRAW_PHASE,
            locked=colours.index(view["locked_pile"]) if view["locked_pile"] else -1,
            shut=shut[to_act], shut_next=shut[1 - to_act],
            used=sum(USED_BITS[s] for s in view["skills_used"]),
            airlift=bool(view["airlift_active"]), mixup=view["mixup"], mixup_pool=mixup_pool,
        )

    def world(self, rng: random.Random | None) -> Sim:
        """A ``Sim`` of the round with the unknown cards dealt at random (or, with ``rng`` None,
        in a fixed order: for policies that never look at hidden cards)."""
        unknown = list(self.unknown)
        if rng is not None:
            rng.shuffle(unknown)
        piles = [list(p) for p in self.piles]
        for c, n in enumerate(self.hidden_below):
            if n:
                below = [x for x in unknown if COL[x] == c][:n]
                piles[c] = below + piles[c]
                unknown = [x for x in unknown if x not in below]
        n_opp = self.opp_hand_count - len(self.opp_known)
        opp_hand = list(self.opp_known) + unknown[:n_opp]
        deck = unknown[n_opp:] + list(self.deck_peek)
        me = self.me
        hands = [list(self.hand), opp_hand] if me == 0 else [opp_hand, list(self.hand)]
        opp_objs: tuple[str, ...] = ()
        if self.objectives_on:
            rest = [o for o in OBJECTIVES if o not in self.my_objectives]
            if rng is not None:
                opp_objs = tuple(rng.sample(rest, OBJECTIVES_PER_PLAYER))
            else:
                opp_objs = tuple(rest[:OBJECTIVES_PER_PLAYER])
        objectives = (self.my_objectives, opp_objs) if me == 0 else (opp_objs, self.my_objectives)
        return Sim(
            self.ncol, hands, deck, piles,
            [[list(e) for e in self.exps[0]], [list(e) for e in self.exps[1]]],
            self.rules, objectives, self.to_act, rng or random.Random(0),
            phase=self.phase, charges=self.charges, discards=self.discards,
            skills=self.skills_on, locked=self.locked, shut=self.shut, shut_next=self.shut_next,
            used=self.used, airlift=self.airlift, mixup=self.mixup, mixup_pool=self.mixup_pool,
        )

