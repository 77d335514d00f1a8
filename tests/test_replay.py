"""Replaying a finished match from its record: every move stepped through with the table's
own rendering, both hands shown, and the same final scores as the match-end screen."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from fairseats import ALL, Pair, finished

import lostcities as lc
from lostcities import Options
from test_history import ALL_ON, play_match, record_of
from test_stats_screen import Page
from test_webui_table import Elements
from webui.features.history import MatchLog, MatchRecord, Replay, record_from_json
from webui.features.replay import replay_doc, replay_of, replay_step
from webui.kernel.uistate import UiState
from webui.screens.match import render_screen

ALLOWED_ACTIONS = {"replay-prev", "replay-next", "replay-turn-prev", "replay-turn-next",
                   "replay-round", "replay-round-end", "replay-play", "replay-close", "rules",
                   "lang", "new-match"}


def _totals_shown(html: str) -> list[str]:
    page = Page(html)
    return [text for _, _, text in page.find(data_total=None, data_player=None)]


@pytest.mark.parametrize(("options", "seed", "me"), [(Options(rounds=2), 301, 0),
                                                     (Options(rounds=1, jobs=True, skills=True,
                                                              mixups=True, objectives=True,
                                                              sixth_colour=True), 302, 1)])
def test_a_replay_steps_through_every_move_to_the_match_end_scores(
        options: Options, seed: int, me: int) -> None:
    played = play_match(options, seed)
    record = record_of(played, me=me)
    assert record.replay is not None
    steps = len(record.replay.moves)
    end_view = lc.view(played.state, me)
    end_screen = render_screen(end_view, UiState(handoff=False), "en")
    step, seen = 0, []
    while True:
        tags = Elements(replay_doc(record, step, "en")).tags
        (bar,) = [a for _, a in tags if "data-replay-step" in a]
        assert (bar["data-step"], bar["data-steps"]) == (str(step), str(steps))
        buttons = [a for tag, a in tags if tag == "button"]
        (prev,) = [a for a in buttons if a.get("data-action") == "replay-prev"]
        (nxt,) = [a for a in buttons if a.get("data-action") == "replay-next"]
        assert ("disabled" in prev) == (step == 0)
        assert ("disabled" in nxt) == (step == steps)
        actions = {a.get("data-action") for a in buttons if "disabled" not in a}
        assert actions <= ALLOWED_ACTIONS, actions - ALLOWED_ACTIONS
        seen.append(step)
        if "disabled" in nxt:
            break
        step = replay_step(record, "replay-next", {}, step)
    assert seen == list(range(steps + 1))
    final = replay_doc(record, steps, "en")
    assert _totals_shown(final) == _totals_shown(end_screen)
    assert _totals_shown(final) == [str(x) for x in played.state.totals]
    assert 'data-winner="' in final


def test_both_hands_are_shown_at_every_step() -> None:
    played = play_match(Options(rounds=1), 310)
    record = record_of(played)
    replay = replay_of(record)
    for step in (0, 1, 2, replay.steps // 2, replay.steps):
        html = replay_doc(record, step, "es")
        section = html[html.index("data-replay-hands"):html.index('class="replay-table"')]
        items = re.findall(r'<li data-replay-hand data-player="(\d)" data-count="(\d+)">'
                           r'(.*?)</li>', section)
        assert [int(p) for p, _, _ in items] == [0, 1]
        for player, count, inner in items:
            want = [lc.card_text(c) for c in replay.states[step].hands[int(player)]]
            assert re.findall(r'data-card="([A-Z0-9]+)"', inner) == want
            assert count == str(len(want))
        assert any(replay.states[step].hands) or step == 0


def test_going_back_and_jumping_to_a_round() -> None:
    played = play_match(Options(rounds=3), 320)
    record = record_of(played)
    replay = replay_of(record)
    starts = replay.round_starts()
    assert len(starts) == 3 and starts[0] == 0
    for number, start in enumerate(starts, start=1):
        assert replay_step(record, "replay-round", {"round": str(number)}, 5) == start
        assert replay.states[start].round == number
        assert start == 0 or replay.states[start - 1].phase == "round-end"
    assert replay_step(record, "replay-prev", {}, 0) == 0
    assert replay_step(record, "replay-prev", {}, 7) == 6
    assert replay_step(record, "replay-next", {}, replay.steps) == replay.steps
    page = Page(replay_doc(record, starts[1] + 3, "en"))
    current = [a["data-round"] for _, a, _ in page.find("button", data_action="replay-round")
               if a.get("aria-current") == "step"]
    assert current == ["2"]
    for action, data in (("replay-round", {"round": "4"}), ("replay-round", {"round": "x"}),
                         ("replay-round", {}), ("replay-jump", {})):
        with pytest.raises(ValueError):
            replay_step(record, action, data, 3)


def test_each_step_says_its_move() -> None:
    played = play_match(ALL_ON, 330)
    record = record_of(played)
    replay = replay_of(record)
    assert replay.event(0) is None
    kinds = set()
    assert record.replay is not None
    moves = record.replay.move_list()
    for step in range(1, replay.steps + 1):
        event = replay.event(step)
        assert event is not None
        move = moves[step - 1]
        assert event["type"] == move["type"]
        if move["type"] in ("play", "discard"):
            assert event["card"] == move["card"]
        if move["type"] == "draw":
            assert event["source"] == move["source"] and event["card"]
        kinds.add(event["type"])
    assert {"play", "discard", "draw", "next-round", "pick-job"} <= kinds
    said = Page(replay_doc(record, 1, "en")).find("p", class_="replay-said")
    assert said and re.search(r"Move 1 of \d+", said[0][2])


def test_the_step_is_clamped_to_the_match() -> None:
    record = record_of(play_match(Options(rounds=1), 340))
    steps = replay_of(record).steps
    assert 'data-step="0"' in replay_doc(record, -5, "en")
    assert f'data-step="{steps}"' in replay_doc(record, steps + 100, "en")


def _with_replay(record: MatchRecord, replay: Replay | None) -> MatchRecord:
    return dataclasses.replace(record, replay=replay)


def test_only_a_record_that_replays_to_its_own_rounds_is_replayed() -> None:
    record = record_of(play_match(Options(rounds=2), 350))
    assert record.replay is not None
    moves = record.replay.moves
    with pytest.raises(ValueError, match="can't be replayed"):
        replay_of(_with_replay(record, None))
    cut = moves[:len(moves) // 2]  # a live match's moves: it never ends
    with pytest.raises(ValueError, match="before the end"):
        replay_of(_with_replay(record, Replay(record.replay.seed, record.replay.first_player,
                                              cut)))
    with pytest.raises(ValueError):  # another deal: the moves are illegal or score otherwise
        replay_of(_with_replay(record, dataclasses.replace(record.replay,
                                                           seed=record.replay.seed + 1)))
    other = record_of(play_match(Options(rounds=2), 351))
    with pytest.raises(ValueError):  # another match's moves
        replay_of(_with_replay(record, other.replay))
    with pytest.raises(ValueError):
        replay_doc(_with_replay(record, None), 0, "en")


def test_names_are_escaped_in_the_replay() -> None:
    played = play_match(Options(rounds=1), 360)
    record = record_of(played)
    sneaky = dataclasses.replace(record, names=("<img src=x onerror=alert(1)>", "Ben & Co"))
    html = replay_doc(sneaky, 3, "en")
    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "Ben &amp; Co" in html


def test_the_computers_stored_name_is_worded_in_the_language_shown() -> None:
    record = dataclasses.replace(record_of(play_match(Options(rounds=1), 361)),
                                 names=("Ana", "Computer (hard)"))
    spanish = replay_doc(record, 4, "es")
    assert "Ordenador (difícil)" in spanish and "Computer (hard)" not in spanish
    assert "Computer (hard)" in replay_doc(record, 4, "en")
    state = lc.new_match(Options(rounds=1), seed=5, names=("Ordenador (fácil)", "Ben"))
    table = render_screen(lc.view(state, 0), UiState(handoff=False), "en")
    assert "Computer (easy)" in table and "Ordenador" not in table and "Ben" in table


def test_a_turn_at_a_time_and_each_rounds_end() -> None:
    record = record_of(play_match(Options(rounds=2, skills=True), 370))
    replay = replay_of(record)
    stops = replay.turn_stops()
    assert stops[0] == 0 and stops[-1] == replay.steps
    for before, after in zip(stops, stops[1:]):  # each turn is one player's, whole
        assert len({replay.movers[k] for k in range(before + 1, after + 1)}) == 1
        assert after == replay.steps or replay.movers[after + 1] != replay.movers[after]
    step, visited = 0, [0]
    while step < replay.steps:
        step = replay_step(record, "replay-turn-next", {}, step)
        visited.append(step)
    assert tuple(visited) == stops
    assert replay_step(record, "replay-turn-prev", {}, stops[3] + 1) == stops[3]
    assert replay_step(record, "replay-turn-prev", {}, 0) == 0
    assert any(replay.movers[k] is not None and k - prev >= 2
               for prev, k in zip(stops, stops[1:]))  # a play and its draw in one turn
    ends = replay.round_ends()
    assert len(ends) == 2 and ends[-1] == replay.steps
    for number, end in enumerate(ends, start=1):
        assert replay_step(record, "replay-round-end", {"round": str(number)}, 0) == end
        assert replay.states[end].phase in ("round-end", "match-end")
    page = Page(replay_doc(record, ends[0], "es"))
    (end_button,) = [a for _, a, _ in page.find("button", data_action="replay-round-end")
                     if a.get("aria-current") == "step"]
    assert end_button["data-round"] == "1" and end_button["aria-label"] == "Final de la ronda 1"
    with pytest.raises(ValueError):
        replay_step(record, "replay-round-end", {"round": "3"}, 0)


def _online_record(
        pair: Pair, which: str, learnt: Callable[[lc.Dealt], lc.Dealt] = lambda d: d,
) -> tuple[MatchRecord, list[dict[str, Any]]]:
    """Play the pair's match to its end, each page's log observing every view it shows,
    and record it as `which` page's keeper would, with the draws it learnt (as `learnt`
    gives them); also every view that page showed."""
    logs = {"host": MatchLog(), "guest": MatchLog()}
    shown: list[dict[str, Any]] = []
    while True:
        for name, seat in (("host", pair.host), ("guest", pair.guest)):
            if seat.has_match:
                logs[name].observe(seat.view())
        if pair.host.has_match:
            shown.append(getattr(pair, which).view())
        if not pair.step():
            break
    finished(pair)
    seat = getattr(pair, which)
    record = logs[which].record(seat.view(), date="2026-12-05T10:00:00.000Z", mode="online",
                                level=None, me=seat.seat, seed=None,
                                dealt=learnt(seat.dealt()))
    return record_from_json(json.loads(json.dumps(record.to_json()))), shown


@pytest.mark.parametrize("which", ["host", "guest"])
def test_an_online_match_replays_from_the_deals_its_page_learnt_the_other_hand_hidden(
        which: str) -> None:
    record, shown = _online_record(Pair(ALL, seed=4), which)
    assert record.replay is not None and record.replay.dealt is not None
    replay = replay_of(record)
    me = record.me
    # every view the page showed at a turn's start is a step of the replay, in order, as it
    # was shown (a play taken back is not in the replay, as in any other match's)
    def plain(view: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in view.items() if k not in ("legal_moves", "refusals", "fair")}

    replayed = [plain(replay.view(k)) for k in range(replay.steps + 1)]
    at, turns = 0, 0
    for view in shown:
        if view["phase"] == "play" and not view["fair"]["waiting"]:
            at = replayed.index(plain(view), at)  # ValueError: not shown in the replay
            turns += 1
    assert turns > 40
    assert replay.states[-1].totals == tuple(shown[-1]["totals"])
    for step in (0, replay.steps // 2, replay.steps):
        html = replay_doc(record, step, "es")
        hands = re.findall(r'<li data-replay-hand data-player="(\d)" data-count="(\d+)"'
                           r'( data-hidden)?>(.*?)</li>', html)
        assert [(int(p), bool(h)) for p, _, h, _ in hands] == [(0, me == 1), (1, me == 0)]
        (hidden,) = [inner for p, _, h, inner in hands if h]
        assert "data-card" not in hidden and "ocultas" in hidden
        # every card the screen shows is one this page's view of the step shows
        seen = set(re.findall(r"'([A-Z][0-9H]{1,2})'", str(replay.view(step))))
        assert set(re.findall(r'data-card="([A-Z0-9]+)"', html)) <= seen


def test_an_online_record_whose_deal_was_altered_does_not_replay() -> None:
    record, _ = _online_record(Pair(Options(rounds=1), seed=6), "guest")
    assert record.replay is not None and record.replay.dealt is not None
    dealt = record.replay.dealt
    deal = dealt.deals[0]
    swapped = lc.Deal((deal.hands[1], deal.hands[0]), deal.deck)  # each the other's hand
    for bad in (dataclasses.replace(dealt, deals=(swapped,)),  # another deal of the cards
                dataclasses.replace(dealt, deals=())):  # no deal
        with pytest.raises(ValueError, match="can't be replayed"):
            replay_of(_with_replay(record, dataclasses.replace(record.replay, dealt=bad)))
    doc = record.to_json()
    doc["replay"]["deals"][0]["deck"][0] = 99
    with pytest.raises(ValueError, match="card"):
        record_from_json(doc)


def test_an_online_match_whose_draws_were_not_all_learnt_records_no_replay() -> None:
    options = Options(rounds=2, jobs=True)
    for learnt in (lambda d: dataclasses.replace(d, offers=None),  # the offers never revealed
                   lambda d: dataclasses.replace(d, deals=d.deals[:1])):  # a round missing
        record, _ = _online_record(Pair(options, seed=8), "host", learnt)
        assert record.replay is None
    record, _ = _online_record(Pair(options, seed=8), "host")
    assert record.replay is not None and replay_of(record).steps > 0
