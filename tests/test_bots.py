"""The computer opponents: legal moves only, from the view only, seeded, and the hint."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from lostcities import (
    Options, State, apply, card_text, move_from_json, new_match, view,
)
from lostcities.bots import (
    BOT_NAMES, LEVELS, HeuristicBot, RandomBot, StrongBot, hint, make_bot,
)
from lostcities.bots.base import Bot
from lostcities.bots.hint import explain
from lostcities.bots.knowledge import Knowledge
from lostcities.bots.match import play_match
from lostcities.fast import DECK, SABOTAGE
from lostcities.scenario import position

ALL = Options(sixth_colour=True, jobs=True, skills=True, objectives=True, mixups=True)


def random_options(rng: random.Random) -> Options:
    return Options(
        rounds=rng.randint(1, 2), sixth_colour=rng.random() < 0.5, jobs=rng.random() < 0.5,
        skills=rng.random() < 0.6, objectives=rng.random() < 0.5, mixups=rng.random() < 0.6,
    )


def play_checked(bots: tuple[Bot, Bot], options: Options, seed: int,
                 each_view: Any = None) -> State:
    """Play a match; every move must be among the view's legal moves."""
    state = new_match(options, seed=seed, first_player=seed % 2)
    rngs = (random.Random(seed), random.Random(seed + 1))
    while state.phase != "match-end":
        seat = state.to_act if state.to_act is not None else 0
        v = view(state, seat)
        if each_view is not None:
            each_view(state, v)
        move = bots[seat].choose(v, rngs[seat])
        assert move in v["legal_moves"], (move, v["legal_moves"])
        assert move["type"] != "undo"
        state = apply(state, move_from_json(move))
    return state


@pytest.mark.parametrize("seed", range(4))
def test_random_and_heuristic_play_only_legal_moves(seed: int) -> None:
    options = random_options(random.Random(seed))
    play_checked((HeuristicBot(), RandomBot()), options, seed)
    play_checked((RandomBot(), HeuristicBot()), options, seed + 100)


@pytest.mark.parametrize("seed", range(2))
def test_strong_plays_only_legal_moves(seed: int) -> None:
    options = replace(random_options(random.Random(seed)), rounds=1)
    play_checked((StrongBot(playouts=8), HeuristicBot()), options, seed)
    play_checked((HeuristicBot(), StrongBot(playouts=8)), replace(ALL, rounds=1), seed)


def _check_knowledge(state: State, v: dict[str, Any]) -> None:
    if state.phase not in ("play", "draw") or state.to_act is None:
        return
    me = state.to_act
    opp = 1 - me
    know = Knowledge.from_view(v)
    assert [[card_text(c) for c in p] for p in know.piles] == \
        [[card_text(c) for c in p] for p in state.discards]
    true_opp = Counter(card_text(c) for c in state.hands[opp])
    known = Counter(card_text(c) for c in know.opp_known)
    assert not known - true_opp, "a card the bot thinks the opponent holds is not there"
    hidden = true_opp - known + Counter(card_text(c) for c in state.deck)
    seen = Counter(card_text(c) for c in know.unknown + know.deck_peek)
    assert seen == hidden
    world = know.world(random.Random(len(state.log)))
    assert Counter(card_text(c) for c in world.hands[opp]) - true_opp == \
        Counter(card_text(c) for c in world.hands[opp]) - known - (true_opp - known)
    assert len(world.hands[opp]) == len(state.hands[opp])
    assert len(world.deck) == len(state.deck)
    assert Counter(card_text(c) for c in world.hands[me]) == \
        Counter(card_text(c) for c in state.hands[me])
    if know.deck_peek:
        assert [card_text(c) for c in world.deck[-len(know.deck_peek):]] == \
            [card_text(c) for c in state.deck[-len(know.deck_peek):]]
    total = len(world.deck) + sum(len(h) for h in world.hands) + \
        sum(len(p) for p in world.piles) + sum(len(e) for x in world.exps for e in x)
    assert total == 12 * len(state.colours)
    assert len(set(world.deck) | set(world.hands[0]) | set(world.hands[1])) == \
        len(world.deck) + len(world.hands[0]) + len(world.hands[1])


@pytest.mark.parametrize("seed", range(3))
def test_knowledge_rebuilds_piles_and_tracks_opponent_pickups(seed: int) -> None:
    options = random_options(random.Random(seed + 50))
    play_checked((HeuristicBot(), RandomBot()), options, seed, _check_knowledge)


def _permute_hidden(state: State, rng: random.Random) -> State:
    """The same position for the player to act, with the cards they cannot see reshuffled:
    the opponent's hand (except cards they took from the piles) and the deck below any card
    shown to the player."""
    me = state.to_act
    assert me is not None
    opp = 1 - me
    know = Knowledge.from_view(view(state, me))
    known = Counter(card_text(c) for c in know.opp_known)
    opp_hand = list(state.hands[opp])
    keep: list[int] = []
    free: list[int] = []
    for c in opp_hand:
        if known[card_text(c)] > 0:
            known[card_text(c)] -= 1
            keep.append(c)
        else:
            free.append(c)
    shown = len(know.deck_peek)
    deck_free = list(state.deck[: len(state.deck) - shown])
    pool = free + deck_free
    rng.shuffle(pool)
    new_opp = tuple(sorted(keep + pool[: len(free)]))
    new_deck = tuple(pool[len(free):]) + state.deck[len(state.deck) - shown:]
    hands = (state.hands[0], new_opp) if opp == 1 else (new_opp, state.hands[1])
    return replace(state, hands=hands, deck=new_deck)


def test_bots_choose_the_same_whatever_the_hidden_cards() -> None:
    rng = random.Random(7)
    bots: list[Bot] = [HeuristicBot(), StrongBot(playouts=8)]
    checked = 0
    for seed, options in ((1, Options()), (2, ALL), (3, Options(skills=True, jobs=True))):
        state = new_match(options, seed=seed)
        driver = HeuristicBot()
        for _ in range(45):
            if state.phase == "match-end":
                break
            seat = state.to_act if state.to_act is not None else 0
            if state.phase in ("play", "draw"):
                other = _permute_hidden(state, rng)
                assert other.hands != state.hands or other.deck != state.deck
                v1, v2 = view(state, seat), view(other, seat)
                assert v1 == v2
                for bot in bots:
                    assert bot.choose(v1, random.Random(5)) == bot.choose(v2, random.Random(5))
                checked += 1
            state = apply(state, move_from_json(driver.choose(view(state, seat), rng)))
    assert checked >= 80


def test_matches_are_deterministic_in_the_seed() -> None:
    options = Options(rounds=1, skills=True)
    bots = (StrongBot(playouts=10), HeuristicBot())
    first = play_match(bots, options, seed=11)
    again = play_match((StrongBot(playouts=10), HeuristicBot()), options, seed=11)
    assert first == again
    v = view(new_match(Options(), seed=4), 0)
    bot = StrongBot(playouts=30)
    assert {str(bot.choose(v, random.Random(s))) for s in range(3)} == \
        {str(bot.choose(v, random.Random(s))) for s in range(3)}


def test_heuristic_opens_only_what_it_can_pay_for_late() -> None:
    # Four turns left: red 4 and 5 can never pay the 20-point cost; blue is well under way.
    pos = position(
        hands=[["R4", "R5", "B7", "Y2", "Y3", "W2", "G2", "G3"], []],
        expeditions=[{"B": ["B3", "B4", "B5"]}, {"Y": ["Y4"], "W": ["W3"], "G": ["G4"]}],
        deck_size=8,
    )
    move = HeuristicBot().choose(view(pos, 0), random.Random(0))
    assert move == {"type": "play", "card": "B7"}


def test_heuristic_does_not_feed_the_opponent() -> None:
    # The opponent's green runs to 5: the green 9 must not be discarded to them.
    pos = position(
        hands=[["G9", "Y2", "B9", "B10", "W9", "W10", "R9", "R10"], []],
        expeditions=[{}, {"G": ["GH", "G3", "G5"], "Y": ["Y5"]}],
        deck_size=30,
    )
    move = HeuristicBot().choose(view(pos, 0), random.Random(0))
    assert move["type"] == "discard" and move["card"] != "G9"


def test_heuristic_plays_handshakes_early_only() -> None:
    hand = ["RH", "R4", "R6", "R7", "R9", "R10", "Y2", "B3"]
    early = position(hands=[hand, []], deck_size=40)
    late = position(hands=[hand, []], deck_size=8)
    assert HeuristicBot().choose(view(early, 0), random.Random(0)) == \
        {"type": "play", "card": "RH"}
    assert HeuristicBot().choose(view(late, 0), random.Random(0)) != \
        {"type": "play", "card": "RH"}


def test_bots_pick_an_offered_job() -> None:
    state = new_match(Options(jobs=True), seed=9)
    for bot in (RandomBot(), HeuristicBot(), StrongBot(playouts=5)):
        v = view(state, 0)
        move = bot.choose(v, random.Random(0))
        assert move["type"] == "pick-job" and move["job"] in v["job_offer"]


def test_make_bot_and_levels() -> None:
    for name in BOT_NAMES:
        assert make_bot(name).name == name
    for name, _ in LEVELS.values():
        assert name in BOT_NAMES
    with pytest.raises(ValueError):
        make_bot("grandmaster")
    with pytest.raises(ValueError):
        StrongBot(playouts=0)


def test_a_bot_refuses_a_view_where_it_cannot_act() -> None:
    state = new_match(Options(), seed=1, first_player=0)
    with pytest.raises(ValueError):
        HeuristicBot().choose(view(state, 1), random.Random(0))


def test_hint_gives_a_legal_move_and_a_reason() -> None:
    state = new_match(ALL, seed=21)
    rng = random.Random(0)
    driver = HeuristicBot()
    for _ in range(12):
        seat = state.to_act if state.to_act is not None else 0
        v = view(state, seat)
        move, reason = hint(v, playouts=10)
        assert move in v["legal_moves"]
        assert isinstance(reason, str) and reason.endswith(".")
        state = apply(state, move_from_json(driver.choose(v, rng)))
    pos = position(hands=[["R4", "R6", "R7", "R9", "R10", "Y2", "B3", "W2"], []], deck_size=40)
    reason = explain(view(pos, 0), {"type": "play", "card": "R4"})
    assert reason == "Starts the red expedition: you hold 5 red cards worth 36."


def test_strong_takes_a_discard_to_lay_its_last_card() -> None:
    """Two cards left in the deck and a red 9 still to lay: after a deck draw the opponent
    would draw the last card and end the round first, so the strong bot takes a discard (the
    careful-human policy does not see it)."""
    pos = position(
        hands=[["R9", "Y2", "Y3", "B2", "B3", "W2", "G2"],
               ["Y4", "Y5", "B4", "B5", "G4", "G5", "GH", "BH"]],
        expeditions=[{"R": ["R4", "R5", "R6", "R7", "R8"]},
                     {"Y": ["Y8", "Y9", "Y10"], "B": ["B8", "B9", "B10"], "G": ["G9", "G10"]}],
        discards={"W": ["W4"]}, deck_size=2, phase="draw",
    )
    v = view(pos, 0)
    assert HeuristicBot().choose(v, random.Random(0)) == {"type": "draw", "source": "deck"}
    move = StrongBot(playouts=40).choose(v, random.Random(0))
    assert move["type"] == "draw" and move["source"] != "deck"


def test_a_bot_knows_both_shut_piles_and_keeps_them_in_its_worlds() -> None:
    """Player 0 shut red against player 1, who sabotages green back: in every world player 1
    still may not draw red this turn, and player 0 may not draw green on their next turn."""
    s = position(Options(rounds=1, skills=True), charges=(0, 3), to_act=1,
                 shut_piles=(None, "R"), hands=([], ["B2", "B3"]),
                 discards={"R": ["R2"], "G": ["G2"]})
    colours = view(s, 1)["colours"]
    red, green = colours.index("R"), colours.index("G")
    sabotaged = apply(s, move_from_json({"type": "sabotage", "colour": "G"}))
    know = Knowledge.from_view(view(sabotaged, 1))
    assert (know.shut, know.shut_next) == (red, green)
    before = Knowledge.from_view(view(s, 1)).world(random.Random(1))
    before.apply((SABOTAGE, green))  # the same sabotage inside a world
    for sim in (know.world(random.Random(1)), before):
        sim.play(sim.hands[1][0])
        assert not sim.can_draw(red) and sim.can_draw(green)
        sim.draw(DECK)
        sim.play(sim.hands[0][0])
        assert sim.can_draw(red) and not sim.can_draw(green)


def test_bots_who_both_know_a_bad_deck_top_do_not_swap_junk_for_ever() -> None:
    """With Radio, both players knew a useless deck top and took junk from the piles turn
    after turn (1549 moves in this match, and some matches never ended): the deck must win."""
    for seed in (10, 203):  # junk swapped mid-round; both stalling with two cards left
        state = new_match(ALL, seed=seed, first_player=seed % 2)
        bots: tuple[Bot, Bot] = (StrongBot(playouts=100), HeuristicBot())
        rngs = (random.Random(f"{seed}/0"), random.Random(f"{seed}/1"))
        moves = 0
        while state.phase != "match-end" and moves < 800:
            seat = state.to_act if state.to_act is not None else 0
            state = apply(state, move_from_json(bots[seat].choose(view(state, seat), rngs[seat])))
            moves += 1
        assert state.phase == "match-end", seed
