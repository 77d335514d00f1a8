"""The strong bot: determinized Monte-Carlo search over the cards it cannot see.

For each decision it deals many *worlds* consistent with its view (``Knowledge.world``: the
opponent's unknown cards and the deck order at random, the cards it saw taken from the piles
kept in the opponent's hand), tries each candidate move in every world (the policy's own choice
and its next best ideas), and plays on with the policy for both players (``SHARP`` style for
itself, the careful human's for its opponent): to the end of the round once the deck is short
(``SEARCH_DECK``), otherwise for ``DEFAULT_DEPTH`` turns, where the policy's estimate of each
player's round takes over. All candidates are tried on the same worlds (common random
numbers); the policy's move is kept unless another is better on the paired differences by
more than the noise. Seeded by the ``rng`` it is given; the budget is a number of playouts
(deterministic) or, optionally, a time limit.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from .base import MoveJson, routine_move
from .knowledge import Knowledge
from .policy import CAREFUL, SHARP, Colours, Style, choose_draw, choose_play, choose_skill, \
    discard_loss, play_loss, playout
from ..fast import COL, DISCARD, DRAW_PHASE, PLAY, PLAY_PHASE, RADIO, VAL, Action, Sim, \
    action_json

DEFAULT_PLAYOUTS = 300
"""The playout budget of a decision at the default (Hard) level."""
SEARCH_DECK = 12
"""With this few cards in the deck, playouts run to the end of the round."""
DEFAULT_DEPTH = 2
"""With more cards in the deck, playouts stop after this many turns (the bot's and its
opponent's) and the policy's estimate of the rest stands in for the end of the round."""
FULL_ROUND = 1000
"""A playout length that always reaches the end of the round."""
MIN_GAIN = 0.5
"""A move must beat the policy's own by at least this many points (and by the noise)."""
NOISE_Z = 1.0
"""... and by this many standard errors of the paired difference (2.0 kept the policy's move
too often: measured 10.3 against 16.1 points a round over the heuristic bot, same deals)."""
OPPONENT_STYLE = CAREFUL
"""How the opponent is imagined to play in the playouts: like a careful human."""
MAX_CANDIDATES = 6
"""At most this many plays/discards are searched (the policy's best by its own estimate)."""

T = TypeVar("T")
Steps = Generator[None, None, T]
"""Work done in small steps: each ``yield`` is a point where the caller may pause (one
playout apart), the generator's return value is the result."""


def run_steps(steps: Steps[T]) -> T:
    """Run stepwise work to the end and return its result."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Evaluation:
    """A searched candidate: its move, its mean round-score margin and how many playouts."""

    move: MoveJson
    mean: float
    playouts: int


def _candidates(sim: Sim, know: Knowledge, style: Style) -> list[Action]:
    """The root moves worth searching; the policy's own choice first."""
    me = know.me
    if know.phase == DRAW_PHASE:
        peek = know.deck_peek[-1] if know.deck_peek else -1
        first = choose_draw(sim, me, peek, style=style)
        return [first] + [a for a in sim.legal_actions() if a != first]
    k = Colours(sim, me, style)
    if sim.airlift:
        first = choose_play(sim, me, k, style)
        return [first] + [a for a in sim.legal_actions() if a[0] == PLAY and a != first][:3]
    out: list[Action] = []
    if know.skills_on:
        skill = choose_skill(sim, me, bool(know.deck_peek))
        if skill is not None and skill[0] != RADIO:
            out.append(skill)
    scored: list[tuple[float, Action]] = []
    seen: set[tuple[int, int]] = set()
    for card in sim.hands[me]:
        key = (COL[card], card if VAL[card] else -1)
        if key in seen:
            continue
        seen.add(key)
        if sim.can_play(me, card):
            scored.append((play_loss(sim, me, card, k), (PLAY, card)))
        scored.append((discard_loss(sim, me, card, k), (DISCARD, card)))
    scored.sort(key=lambda x: x[0])
    out.extend(a for _, a in scored[:MAX_CANDIDATES])
    return out


def _finish_turn(sim: Sim, me: int, style: Style) -> None:
    """Complete ``me``'s turn in ``sim`` by the policy (after a skill, a play or a discard)."""
    if sim.phase == PLAY_PHASE and sim.to_act == me and not sim.over:
        sim.apply(choose_play(sim, me, style=style))
    if sim.phase == DRAW_PHASE and sim.to_act == me and not sim.over:
        sim.apply(choose_draw(sim, me, style=style))


def search_steps(
    view: dict[str, Any],
    rng: random.Random,
    playouts: int = DEFAULT_PLAYOUTS,
    time_limit: float | None = None,
    style: Style = SHARP,
    turns: int = FULL_ROUND,
) -> Steps[list[Evaluation]]:
    """Evaluate the candidate moves of the view's player (phase play or draw), best first.

    Every candidate is played out in the same worlds, ``playouts`` playouts in all
    (``time_limit`` seconds, if given, stops earlier). The policy's own move comes first and
    stays first unless another beats it by more than ``NOISE_Z`` standard errors of the paired
    difference: noise must not talk the bot out of a sound move. Stepwise: it yields after
    every playout (``run_steps`` runs it at once).
    """
    know = Knowledge.from_view(view)
    me = know.me
    seat_styles = (style, OPPONENT_STYLE) if me == 0 else (OPPONENT_STYLE, style)
    base = know.world(None)
    cands = _candidates(base, know, style)
    if len(cands) == 1:
        return [Evaluation(action_json(cands[0]), 0.0, 0)]
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    scores: list[list[float]] = [[] for _ in cands]
    worlds = max(2, playouts // len(cands))
    for _ in range(worlds):
        if deadline is not None and time.perf_counter() > deadline and len(scores[0]) >= 2:
            break
        world = know.world(random.Random(rng.getrandbits(64)))
        seed = rng.getrandbits(64)
        for i, a in enumerate(cands):
            sim = world.copy(random.Random(seed))
            sim.apply(a)
            _finish_turn(sim, me, style)
            s = playout(sim, turns, style, seat_styles)
            scores[i].append(s[me] - s[1 - me])
            yield
    n = len(scores[0])
    means = [sum(x) / n for x in scores]
    best = 0
    best_gain = 0.0
    for i in range(1, len(cands)):
        diffs = [a - b for a, b in zip(scores[i], scores[0])]
        gain = sum(diffs) / n
        var = sum((d - gain) ** 2 for d in diffs) / (n - 1)
        if gain > NOISE_Z * math.sqrt(var / n) + MIN_GAIN and gain > best_gain:
            best, best_gain = i, gain
    order = [best] + sorted((i for i in range(len(cands)) if i != best), key=lambda i: -means[i])
    return [Evaluation(action_json(cands[i]), means[i], n) for i in order]


class StrongBot:
    """Determinized Monte-Carlo search with the careful-human policy in the playouts."""

    name = "strong"

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS, time_limit: float | None = None,
                 search_deck: int = SEARCH_DECK, style: Style = SHARP,
                 depth: int = DEFAULT_DEPTH):
        if playouts < 1:
            raise ValueError("playouts must be at least 1")
        self.playouts = playouts
        self.time_limit = time_limit
        self.search_deck = search_deck
        self.depth = depth
        self.style = style

    def choose(self, view: dict[str, Any], rng: random.Random) -> MoveJson:
        """The searched move for this view; the same view and rng state give the same move."""
        return run_steps(self.choose_steps(view, rng))

    def choose_steps(self, view: dict[str, Any], rng: random.Random) -> Steps[MoveJson]:
        """``choose`` in steps: yields between playouts, so a browser can breathe."""
        routine = routine_move(view)
        if routine is not None:
            return routine
        know = Knowledge.from_view(view)
        if know.skills_on and know.phase == PLAY_PHASE and know.charges[know.me] >= 4 \
                and not know.used & 1 and not know.deck_peek and know.deck_count >= 2:
            return action_json((RADIO, 0))
        turns = self.depth if know.deck_count > self.search_deck else FULL_ROUND
        found = yield from search_steps(view, rng, self.playouts, self.time_limit, self.style,
                                        turns)
        return found[0].move
