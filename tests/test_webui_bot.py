"""Playing against the computer without a browser: the bot seat, its saves, time slices, hints.

Real engine and real bots throughout; the human's side plays random legal moves.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import replace
from collections.abc import Callable
from pathlib import Path

import pytest

import lostcities
from lostcities import Options
from lostcities.bots import LEVELS
from lostcities.bots.strong import run_steps
from webui.match.hint import can_hint, describe, hint_steps, reason, render_hint
from webui.match.seats.computer import OPPONENTS, BotMatch
from webui.match.session import Session
from webui.match.thinking import level_bot, run_sliced

ALL_ON = Options(rounds=1, sixth_colour=True, jobs=True, skills=True, objectives=True,
                 mixups=True)
ROOT = Path(__file__).resolve().parent.parent


def human_move(match: BotMatch, rng: random.Random) -> None:
    """The human plays a random legal move (never undo) through `submit`."""
    moves = [m for m in match.view()["legal_moves"] if m["type"] != "undo"]
    assert match.submit(rng.choice(moves)) is None


def play_until(match: BotMatch, rng: random.Random, done: Callable[[BotMatch], bool]) -> None:
    """Both sides move until `done(match)` holds (or the match is over)."""
    while not done(match) and match.view()["phase"] != "match-end":
        if match.to_think() is not None:
            match.play_thought(run_steps(match.think()))
        else:
            human_move(match, rng)


@pytest.mark.parametrize("level,options", [
    ("easy", ALL_ON), ("medium", Options(rounds=2)), ("medium", ALL_ON),
    ("hard", Options(rounds=1)),
])
def test_a_whole_match_against_the_computer(level: str, options: Options) -> None:
    match = BotMatch.new(options, seed=5, first_player=1, names=("Ana", "Bot"), level=level)
    match.playouts = 60  # Hard at its full budget is played in the browser (e2e/test_bot.py)
    rng = random.Random(1)
    bot_moves = 0
    while match.view()["phase"] != "match-end":
        view = match.view()
        assert view["player"] == 0 and len(view["hand"]) == view["hand_counts"][0]
        if match.to_think() is not None:
            assert "legal_moves" not in view or not view["legal_moves"]  # not the human's
            match.play_thought(run_steps(match.think()))  # IllegalMove if the bot cheats
            bot_moves += 1
        else:
            human_move(match, rng)
    assert bot_moves > 20
    assert len(match.view()["round_scores"]) == options.rounds


def test_the_computer_never_sees_hidden_cards() -> None:
    """Reshuffling what the bot can't see (the human's hand and the deck) never changes its
    move: it decides from its own view."""
    match = BotMatch.new(Options(rounds=1), seed=9, first_player=0, names=("A", "B"),
                         level="hard")
    match.time_limit, match.playouts = None, 60  # a fixed budget: same view, same move
    rng = random.Random(2)
    checked = 0
    while checked < 2:
        play_until(match, rng, lambda m: m.to_think() is not None
                   and m.view()["deck_count"] <= 12
                   and m.view()["phase"] == "play")  # no undo snapshot to keep in step
        doc = match.to_json()
        state = doc["state"]
        hidden = state["hands"][0] + state["deck"]
        random.Random(checked).shuffle(hidden)
        n = len(state["hands"][0])
        other = json.loads(json.dumps(doc))
        other["state"]["hands"][0], other["state"]["deck"] = hidden[:n], hidden[n:]
        twin = BotMatch.from_json(other)
        twin.time_limit, twin.playouts = None, 60
        assert twin.to_json()["state"]["hands"][0] != state["hands"][0] or n == 0
        move = run_steps(match.think())
        assert run_steps(twin.think()) == move
        match.play_thought(move)
        checked += 1


def test_a_saved_match_resumes_and_the_computer_goes_on() -> None:
    match = BotMatch.new(replace(ALL_ON, rounds=2), seed=3, first_player=0,
                         names=("Ana", "Bot"), level="hard")
    match.time_limit, match.playouts = None, 60
    play_until(match, random.Random(4), lambda m: m.to_think() is not None
               and m.view()["round"] == 1 and m.view()["deck_count"] <= 12)
    session = Session(match)
    assert session.ui.handoff is False  # one human at this device: no hand-off screen
    text = session.save_text()
    assert json.loads(text)["match"]["opponent"] == "hard"
    again = Session.from_save_text(text)
    assert isinstance(again.seat, BotMatch) and again.seat.level == "hard"
    assert again.view() == session.view() and again.seat.to_think() is not None
    again.seat.time_limit, again.seat.playouts = None, 60
    assert run_steps(again.seat.think()) == run_steps(match.think())


def test_bad_input_is_refused_and_changes_nothing() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        level_bot("nightmare")
    with pytest.raises(ValueError):
        BotMatch.new(Options(rounds=1), 1, 0, ("A", "B"), "human")
    match = BotMatch.new(Options(rounds=1), seed=1, first_player=1, names=("A", "B"),
                         level="medium")
    before = match.to_json()
    assert match.to_think() is not None
    human_view_moves = lostcities.legal_moves(lostcities.state_from_json(before["state"]))
    move = lostcities.move_to_json(human_view_moves[0])
    assert match.submit(move) is not None  # the computer's turn: the human can't move for it
    assert match.to_json() == before
    while match.to_think() is not None:
        match.play_thought(run_steps(match.think()))
    assert match.submit({"type": "draw", "source": "nowhere"}) is not None
    with pytest.raises(ValueError):
        match.think()  # the human's turn now
    doc = match.to_json()
    for key, bad in (("opponent", "human"), ("opponent", None), ("seed", -1),
                     ("bot_moves", "2"), ("seat", 2), ("seat", True), ("state", {})):
        with pytest.raises(ValueError):
            BotMatch.from_json({**doc, key: bad})
    with pytest.raises(ValueError):
        BotMatch.from_json([doc])


def test_thinking_pauses_for_the_browser_between_slices() -> None:
    """A Hard search gives the page many pauses and the same move as thinking at once."""
    match = BotMatch.new(Options(rounds=1), seed=2, first_player=0, names=("A", "B"),
                         level="hard")
    match.time_limit, match.playouts = None, 60
    play_until(match, random.Random(3), lambda m: m.to_think() is not None
               and m.view()["deck_count"] <= 8 and m.view()["phase"] == "play")
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    move = asyncio.run(run_sliced(match.think(), slice_s=0.0, pause=pause))
    assert move == run_steps(match.think())
    assert len(pauses) > 10  # a pause after every playout when slices are that short
    pauses.clear()
    quick = BotMatch.new(Options(rounds=1), seed=2, first_player=1, names=("A", "B"),
                         level="easy")
    asyncio.run(run_sliced(quick.think(), pace=0.3, pause=pause))
    assert pauses and pauses[-1] > 0.0  # an instant bot still takes its pace


def test_the_hint_is_a_legal_move_with_a_reason_in_both_languages() -> None:
    match = BotMatch.new(ALL_ON, seed=8, first_player=0, names=("Ana", "Bot"), level="easy")
    rng = random.Random(5)
    kinds = set()
    while match.view()["phase"] != "match-end":
        if match.to_think() is not None:
            match.play_thought(run_steps(match.think()))
            continue
        view = match.view()
        assert can_hint(view) == (view["phase"] in ("play", "draw"))
        for move in view["legal_moves"]:  # every move a bot makes can be said and explained
            if move["type"] == "undo":
                continue
            kinds.add(move["type"])
            for lang in ("en", "es"):
                assert describe(view, move, lang) and reason(view, move, lang)
        human_move(match, rng)
    assert {"play", "discard", "draw", "pick-job"} <= kinds
    match = BotMatch.new(Options(rounds=1), seed=8, first_player=0, names=("A", "B"),
                         level="hard")
    match.time_limit, match.playouts = None, 60
    play_until(match, rng, lambda m: m.to_think() is None and m.view()["deck_count"] <= 12
               and m.view()["phase"] == "play")
    view = match.view()
    move = run_steps(hint_steps(view))
    assert move in view["legal_moves"]
    thinking = render_hint(view, {"view": view, "move": None}, "en")
    assert 'data-action="hint"' in thinking and "disabled" in thinking
    for lang in ("en", "es"):
        html = render_hint(view, {"view": view, "move": move}, lang)
        assert re.search(r'data-action="hint"(?![^>]*disabled)', html)
        assert describe(view, move, lang) in html.replace("&#x27;", "'")
        assert 'class="hint-reason"><' not in html  # a reason is given
    waiting = BotMatch.new(Options(rounds=1), seed=8, first_player=1, names=("A", "B"),
                           level="hard").view()  # the computer's turn: the button waits
    assert not can_hint(waiting)
    assert re.search(r'data-action="hint"[^>]*disabled', render_hint(waiting, None, "en"))
    stale = render_hint(view, {"view": {**view, "deck_count": 1}, "move": move}, "en")
    assert "hint-box" not in stale  # a hint for another position is not shown
    assert match.submit(move) is None
    assert "hint-box" not in render_hint(match.view(), {"view": view, "move": move}, "en")


def test_the_setup_form_offers_every_opponent() -> None:
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    select = re.search(r'<select[^>]*data-option="opponent"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None
    assert tuple(re.findall(r'value="([a-z]+)"', select.group(1))) == OPPONENTS
    assert OPPONENTS == ("human", "easy", "medium", "hard")
    assert OPPONENTS[1:] == tuple(LEVELS)


def test_levels_get_stronger_bots() -> None:
    assert level_bot("easy").name == "random"
    assert level_bot("medium").name == "heuristic"
    hard = level_bot("hard")
    assert hard.name == "strong" and getattr(hard, "time_limit") is not None
