"""The careful-human policy: fast rules of thumb over a ``Sim``, from the acting player's side.

Used by the heuristic bot for its moves and by the strong bot for its playouts. A decision
reads only what the acting player may see: their own hand, the expeditions, the discard piles,
the deck size, the charges and their own objectives (plus cards of the deck top they were shown,
passed in as ``peek``). It never reads the opponent's hand or the deck's order.

The rules of thumb:
- hold the cards of colours you are committed to and play them in ascending order, smallest
  gap first;
- open an expedition only if the cards you hold (and can still play in the turns left) pay for
  it;
- play handshakes early, on a strong colour, or not at all;
- discard what neither you nor your opponent can use; never feed the opponent a card that fits
  their expedition;
- take a discard when it fits your expedition, and late in the round when you need more turns.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..fast import AIRLIFT, AIRLIFT_COST, COL, DECK, DISCARD, DRAW, PLAY, RADIO, SABOTAGE, \
    SABOTAGE_COST, VAL, Action, Sim

_BIG = 1e9


@dataclass(frozen=True)
class Style:
    """The knobs of the policy.

    ``margin``: a new expedition must be projected to score at least this much;
    ``share``: how much of the unseen cards above an expedition's top it counts on drawing
    (scaled by the deck left); ``hs_deadline``: handshakes are played only while the deck holds
    at least this many cards; ``start_cards``: numbers of a colour needed in hand to open it;
    ``sharp``: when there are more cards to lay than turns left, lay the most valuable first.
    """

    margin: float = 4.0
    share: float = 0.25
    hs_deadline: int = 20
    start_cards: int = 1
    sharp: bool = False


CAREFUL = Style()
"""The heuristic bot's style."""
SHARP = Style(sharp=True)
"""The strong bot's style (in its playouts too)."""


class Colours:
    """Per-colour facts about the acting player's position, computed once per decision."""

    __slots__ = ("psum", "hs", "started", "value", "committed", "hs_ok", "turns", "pending",
                 "share", "gone", "style")

    def __init__(self, sim: Sim, p: int, style: Style = CAREFUL) -> None:
        self.style = style
        ncol = sim.ncol
        hand = sim.hands[p]
        tops = sim.tops[p]
        rules = sim.cur_rules[p]
        ten_extra = rules.ten_value - 10
        cost = rules.cost
        loss_mult = rules.loss_multiplied
        bonus_cards = rules.bonus_cards
        deck_n = len(sim.deck)
        turns = (deck_n + 1) // 2
        self.turns = turns
        opp_n = len(sim.hands[1 - p])
        share = style.share * deck_n / (deck_n + opp_n) if deck_n else 0.0
        self.share = share
        psum = [0] * ncol
        pcnt = [0] * ncol
        hs = [0] * ncol
        held = [0] * ncol
        for card in hand:
            c = COL[card]
            v = VAL[card]
            if v == 0:
                if tops[c] == 0:
                    hs[c] += 1
            elif v > tops[c]:
                psum[c] += v
                pcnt[c] += 1
                held[c] |= 1 << v
        gone = sim.gone
        objs = sim.objectives[p]
        margin = style.margin
        hs_bonus = 0.0
        if objs:
            n_started = sum(1 for e in sim.exps[p] if e)
            if "grand-tour" in objs and n_started >= 2:
                margin -= 8
            if "in-the-black" in objs or "minimalist" in objs:
                margin += 5
            if "investor" in objs or "high-stakes" in objs:
                hs_bonus = 6.0
        esums = sim.esum[p]
        ehss = sim.ehs[p]
        exps = sim.exps[p]
        started = [False] * ncol
        value = [0.0] * ncol
        committed = [False] * ncol
        hs_ok = [False] * ncol
        pending = 0
        early = deck_n >= style.hs_deadline
        start_cards = style.start_cards
        for c in range(ncol):
            top = tops[c]
            n_exp = len(exps[c])
            st = n_exp > 0
            started[c] = st
            above = _ABOVE_SUM[(_ABOVE_MASK[top] & ~(gone[c] | held[c])) >> 2]
            s = psum[c]
            n = pcnt[c]
            if n > turns:
                vals = sorted((VAL[x] for x in hand if COL[x] == c and VAL[x] > top),
                              reverse=True)
                s = sum(vals[:turns])
                n = turns
            if ten_extra and (top == 10 or (held[c] >> 10) & 1):
                s += ten_extra
            base = esums[c] + s + share * above - cost
            mult = 1 + ehss[c]
            val = base * mult if base >= 0 or loss_mult else base
            bonus = rules.bonus if n_exp + n >= bonus_cards else 0
            h = hs[c]
            ok = False
            if h and early and base > 6 - hs_bonus:
                ok = base * h + hs_bonus > 6 * h
            if ok:
                val += base * h
            val += bonus
            hs_ok[c] = ok
            value[c] = val
            if st:
                com = True
            else:
                com = val >= margin and n + (h if ok else 0) <= turns and pcnt[c] >= start_cards
            committed[c] = com
            if com:
                pending += n + (h if ok else 0)
        self.psum = psum
        self.hs = hs
        self.started = started
        self.value = value
        self.committed = committed
        self.hs_ok = hs_ok
        self.pending = pending
        self.gone = gone


_ABOVE_MASK = tuple(sum(1 << v for v in range(max(top + 1, 2), 11)) for top in range(11))
"""Bits of the numbers above a top value."""
_ABOVE_SUM = tuple(sum(v + 2 for v in range(9) if m >> v & 1) for m in range(512))
"""The sum of the numbers whose bits (shifted down by 2) are set."""


def _feed(sim: Sim, p: int, card: int) -> float:
    """How much discarding (or leaving) ``card`` would help the opponent of ``p``."""
    q = 1 - p
    c = COL[card]
    v = VAL[card]
    top = sim.tops[q][c]
    started = bool(sim.exps[q][c])
    if v == 0:
        if top:
            return 0.0
        return 4.0 if started else 1.0
    if v <= top:
        return 0.0
    gap = v - max(top, 1) - 1
    if started:
        return v * (1.0 if gap <= 2 else 0.6)
    return v * 0.25


def play_loss(sim: Sim, p: int, card: int, k: Colours) -> float:
    """The expected points lost by playing ``card`` now (``_BIG`` if out of the question)."""
    c = COL[card]
    v = VAL[card]
    tops = sim.tops[p]
    if not k.committed[c]:
        return _BIG
    if v == 0:
        return -3.0 if k.hs_ok[c] else _BIG
    if k.hs[c] and k.hs_ok[c]:
        return _BIG  # handshakes first
    top = tops[c]
    loss = 0.0
    if k.style.sharp and k.pending >= k.turns and k.value[c] > 0:
        mult = 1 + sim.ehs[p][c]
        for x in sim.hands[p]:
            if COL[x] == c and top < VAL[x] < v:
                loss += 0.3 * VAL[x] * mult
        return loss - v * mult
    for x in sim.hands[p]:
        if COL[x] == c:
            w = VAL[x]
            if top < w < v:
                loss += w
            elif w == 0 and top == 0:
                loss += 3.0
    if loss == 0.0:
        # Unseen numbers skipped: the chance to draw and play them later is lost.
        gone = k.gone[c]
        skipped = 0
        for w in range(top + 1 if top else 2, v):
            if not (gone >> w) & 1:
                skipped += w
        loss += skipped * k.share * 0.8
    return loss - 1.0


def discard_loss(sim: Sim, p: int, card: int, k: Colours) -> float:
    """The expected points lost by discarding ``card`` now."""
    c = COL[card]
    v = VAL[card]
    top = sim.tops[p][c]
    mine = 0.0
    if v == 0:
        if top == 0:
            mine = 8.0 if k.hs_ok[c] else (1.5 if k.committed[c] else 0.5)
    elif v > top:
        if k.committed[c]:
            mine = v + 4.0
        elif k.value[c] > -10:
            mine = v * 0.35
        else:
            mine = v * 0.1
    loss = mine + _feed(sim, p, card)
    if k.pending >= k.turns:
        loss += 10.0 if k.style.sharp else 4.0
    objs = sim.objectives[p]
    if objs and "thrift" in objs and sim.discards[p] >= 3:
        loss += 10.0
    return loss


def choose_play(sim: Sim, p: int, k: Colours | None = None, style: Style = CAREFUL) -> Action:
    """The play or discard of player ``p`` (to act, phase play)."""
    if k is None:
        k = Colours(sim, p, style)
    hand = sim.hands[p]
    if sim.airlift:
        return _airlift_play(sim, p, k)
    best: Action = (DISCARD, hand[0])
    best_loss = _BIG * 2
    for card in hand:
        if sim.can_play(p, card):
            loss = play_loss(sim, p, card, k)
            if loss < best_loss:
                best_loss = loss
                best = (PLAY, card)
        loss = discard_loss(sim, p, card, k)
        if loss < best_loss:
            best_loss = loss
            best = (DISCARD, card)
    return best


def _airlift_gain(sim: Sim, p: int, card: int, k: Colours) -> float:
    """Points gained by laying ``card`` with Airlift where it could not normally go."""
    c = COL[card]
    if not k.started[c] or sim.can_play_normally(p, card):
        return 0.0
    v = VAL[card]
    if v == 0:
        return max(0.0, k.value[c] / max(1, 1 + sum(1 for x in sim.exps[p][c] if VAL[x] == 0)))
    return float(v) if k.value[c] > 0 else 0.0


def _airlift_play(sim: Sim, p: int, k: Colours) -> Action:
    best_card = -1
    best_gain = 0.0
    for card in sim.hands[p]:
        gain = _airlift_gain(sim, p, card, k)
        if gain > best_gain:
            best_gain = gain
            best_card = card
    if best_card >= 0:
        return (PLAY, best_card)
    sim.airlift = False
    try:
        return choose_play(sim, p, k)
    finally:
        sim.airlift = True


def choose_skill(sim: Sim, p: int, peek_known: bool) -> Action | None:
    """A skill worth using now, or ``None`` (skills on, phase play)."""
    ch = sim.charges[p]
    used = sim.used
    if sim.airlift:
        return None
    k = Colours(sim, p)
    if ch >= AIRLIFT_COST and not used & 2:
        if max((_airlift_gain(sim, p, c, k) for c in sim.hands[p]), default=0.0) >= 8:
            return (AIRLIFT, 0)
    if ch >= SABOTAGE_COST and not used & 4 and not sim.open_piles:
        best_c = -1
        best = 6.0
        for c in range(sim.ncol):
            pile = sim.piles[c]
            if pile:
                f = _feed(sim, p, pile[-1])
                if f > best and bool(sim.exps[1 - p][c]):
                    best = f
                    best_c = c
        if best_c >= 0:
            return (SABOTAGE, best_c)
    if ch >= 4 and not used & 1 and not peek_known and len(sim.deck) >= 2:
        return (RADIO, 0)
    return None


def _take_gain(sim: Sim, p: int, card: int, k: Colours) -> float:
    """How much player ``p`` gains by holding ``card`` (drawn now)."""
    c = COL[card]
    v = VAL[card]
    top = sim.tops[p][c]
    if v == 0:
        if top == 0 and k.committed[c] and len(sim.deck) >= k.style.hs_deadline and \
                k.value[c] > 10:
            return 6.0
        return -2.0
    if v <= top:
        return -2.0
    if k.committed[c]:
        return v * 0.8 + 1.0
    if k.psum[c] + v >= 16:
        return v * 0.3
    return -1.0


UNKNOWN_DECK_GAIN = 2.5
"""What the policy expects from drawing an unknown deck card."""


def choose_draw(sim: Sim, p: int, peek: int = -1, k: Colours | None = None,
                style: Style = CAREFUL) -> Action:
    """The draw of player ``p`` (to act, phase draw); ``peek`` is the deck top if known.

    ``k`` may pass the facts computed for this turn's play, to save time in playouts.
    """
    if k is None:
        k = Colours(sim, p, style)
    deck_n = len(sim.deck)
    deck_gain = UNKNOWN_DECK_GAIN
    if peek >= 0:
        deck_gain = _take_gain(sim, p, peek, k) + 0.5 * _feed(sim, p, peek)
    # A known bad top card counts as much as an unknown one: drawing it moves the round on, and
    # two players who both know the top could otherwise swap junk (or stall) for ever.
    deck_gain = max(deck_gain, UNKNOWN_DECK_GAIN)
    if deck_n == 1:
        # Drawing the last card ends the round: only worth it if playing on gains nothing.
        deck_gain += 0.0 if k.pending == 0 else -3.0 * min(k.pending, 3)
    best: Action = (DRAW, DECK)
    best_gain = deck_gain
    need_turns = k.pending > k.turns and deck_n <= 12
    for c in range(sim.ncol):
        if c == sim.locked or not sim.can_draw(c):
            continue  # taking back the card just discarded (Open Piles) is a pass: never
            # pass, or two policy players could pass to each other for ever
        card = sim.piles[c][-1]
        gain = _take_gain(sim, p, card, k) + 0.5 * _feed(sim, p, card)
        if need_turns:
            gain += 3.0
        if gain > best_gain:
            best_gain = gain
            best = (DRAW, c)
    return best


def play_turn(sim: Sim, style: Style = CAREFUL) -> None:
    """The acting player plays a whole turn by the policy (no skills): for playouts."""
    p = sim.to_act
    k = Colours(sim, p, style)
    sim.apply(choose_play(sim, p, k))
    sim.apply(choose_draw(sim, p, -1, k))


def estimate(sim: Sim, p: int, style: Style = CAREFUL) -> float:
    """Player ``p``'s projected round score: their committed expeditions, hand included."""
    k = Colours(sim, p, style)
    return sum(v for v, com in zip(k.value, k.committed) if com)


def playout(sim: Sim, turns: int = 1000, style: Style = CAREFUL,
            seat_styles: tuple[Style, Style] | None = None) -> tuple[float, float]:
    """Play on by the policy (in place) for at most ``turns`` turns; return both players'
    round scores if the round ended, else their ``estimate`` (in ``style``).

    ``seat_styles`` gives each seat its own style of play (default: ``style`` for both).
    """
    styles = seat_styles or (style, style)
    if sim.phase == 1 and not sim.over:
        sim.apply(choose_draw(sim, sim.to_act, style=styles[sim.to_act]))
    while not sim.over and turns > 0:
        play_turn(sim, styles[sim.to_act])
        turns -= 1
    if sim.over:
        a, b = sim.round_scores()
        return float(a), float(b)
    return estimate(sim, 0, style), estimate(sim, 1, style)
