"""The player's features wired into the one controller, without a browser: matches recorded as
they end, the Stats screen and the history file, rematch series, replays, the calculator and
the first-game guide, all through the controller's clicks and screens (the page and storage
stood in for)."""

from __future__ import annotations

import asyncio

import json
from html import unescape
from typing import Any

import pytest

import controllerkit
import lostcities as lc
from controllerkit import FORM, MemoryStorage, click_move, first_legal, page_of, run, until
from test_history import play_match
from test_rules_doc import examples
from test_stats_screen import Page
from webui.features.guide import STEPS, GuideMatch
from webui.features.history import APP, load
from webui.features.history_store import HISTORY_KEY
from webui.features.keeper import CURRENT_KEY
from webui.kernel.regions import plain
from webui.match.controller import MatchController
from webui.match.seats import MATCH_KEY, Remote, Seat, View
from webui.match.seats.computer import BotMatch
from webui.match.series import series_key
from webui.player.players import Players


class MemoryPage(controllerkit.MemoryPage):
    """The page in memory; its epoch clock goes on a second at each look."""

    stamp_step = 1000


class Downloads:
    """The page's file downloads, kept."""

    def __init__(self) -> None:
        self.files: list[tuple[str, str]] = []

    def download(self, name: str, text: str) -> None:
        self.files.append((name, text))


def with_players(storage: MemoryStorage, form: dict[str, object] | None = None,
                 downloads: Downloads | None = None) -> tuple[MatchController, Players]:
    """A controller booted as app.py boots it, the player's features plugged in."""
    page = MemoryPage(form)
    controller = MatchController(page, storage, "en")
    controller.pace = 0.0
    controller.resume()
    players = Players(controller, downloads or Downloads())
    players.plug()
    controller.render()
    controller.kick()  # a resumed match where the computer was to move goes on
    return controller, players


def shown(controller: MatchController) -> Page:
    return Page(plain(page_of(controller).shown.doc))


def texts(controller: MatchController, **want: str | None) -> list[str]:
    return [text for _, _, text in shown(controller).find(**want)]


async def play_to_the_end(controller: MatchController) -> dict[str, Any]:
    """Play the human's first legal moves (and Next round) until the match ends; the
    computer thinks in its slices meanwhile."""
    for _ in range(3000):
        session = controller.session
        assert session is not None
        seat = session.seat
        await until(lambda: controller.thinking() is None and seat.to_think() is None)
        view = session.view()
        if view["phase"] == "match-end":
            return view
        if view["phase"] == "round-end":
            controller.click("next-round", {})
        elif session.ui.handoff:
            controller.click("ready", {})
        else:
            click_move(controller, first_legal(view))
    raise AssertionError("the match never ended")


BOT_FORM = {**FORM, "opponent": "easy", "rounds": "1"}


def stat(controller: MatchController, name: str, opponent: str) -> int:
    (text,) = texts(controller, data_stat=name, data_opponent=opponent)
    return int(text)


def test_matches_are_recorded_and_the_stats_screen_counts_them() -> None:
    storage = MemoryStorage()

    async def scenario() -> None:
        controller, _ = with_players(storage, BOT_FORM)
        ends = []
        for number in range(3):
            if number == 0:
                controller.click("start", {})
            else:
                controller.click("play-again", {})  # the same opponent and options
            ends.append(await play_to_the_end(controller))
            page = page_of(controller)
            assert page.shown.screen == "match-end"
            series = {a["data-player"]: int(text) for _, a, text in
                      shown(controller).find(data_series=None, data_player=None)}
            wins = [sum(1 for e in ends if e["winner"] == p) for p in (0, 1)]
            assert series == {"0": wins[0], "1": wins[1]}
            seat = controller.session.seat  # type: ignore[union-attr]
            assert isinstance(seat, BotMatch) and seat.level == "easy"
            assert ends[-1]["options"] == lc.Options(rounds=1).to_json()
        controller.click("stats", {})
        assert page_of(controller).shown.screen == "stats"
        won = sum(1 for e in ends if e["winner"] == 0)
        drawn = sum(1 for e in ends if e["winner"] == "draw")
        assert stat(controller, "played", "easy") == 3
        assert (stat(controller, "won", "easy"), stat(controller, "lost", "easy"),
                stat(controller, "drawn", "easy")) == (won, 3 - won - drawn, drawn)
        assert stat(controller, "played", "hard") == 0
        (best,) = texts(controller, data_record="best-round")
        assert best == str(max(e["round_scores"][0][0] for e in ends))
        assert len(shown(controller).find("li", data_match=None)) == 3
        controller.click("stats-close", {})
        assert page_of(controller).shown.screen == "match-end"
        page_of(controller).paint()

    run(scenario)
    records = load(storage.items[HISTORY_KEY]).records
    assert len(records) == 3 and all(r.replay is not None for r in records)
    assert all(r.opponent == "easy" and r.me == 0 for r in records)
    # a reload: the history is still there, and the series score on the match-end screen too
    again, _ = with_players(storage)
    assert page_of(again).shown.screen == "match-end"
    assert len(shown(again).find(data_series=None, data_player=None)) == 2


def test_a_rematch_continues_the_series_after_a_reload_and_new_match_starts_another() -> None:
    storage = MemoryStorage()
    form = {**FORM, "rounds": "1"}

    async def scenario() -> None:
        controller, players = with_players(storage, form)
        controller.click("start", {})
        await play_to_the_end(controller)
        first = players.series_of(controller.session.seat)  # type: ignore[union-attr]
        controller.click("play-again", {})
        page_of(controller).paint()
        # reloaded mid-match: the same series goes on
        controller, players = with_players(storage, form)
        await play_to_the_end(controller)
        series = players.series_of(controller.session.seat)  # type: ignore[union-attr]
        assert first is not None and series is not None
        assert series.key == first.key and len(series.results) == 2
        assert series.results[0] == first.results[0]
        controller.click("new-match", {})
        assert page_of(controller).shown.screen == "setup"
        controller.click("start", {})
        await play_to_the_end(controller)
        other = players.series_of(controller.session.seat)  # type: ignore[union-attr]
        assert other is not None and other.key != series.key and len(other.results) == 1

    run(scenario)
    assert len(load(storage.items[HISTORY_KEY]).records) == 3


def test_a_match_of_several_rounds_replays_across_a_reload_between_rounds() -> None:
    storage = MemoryStorage()
    form = {**FORM, "rounds": "2", "opponent": "medium"}

    async def scenario() -> None:
        controller, _ = with_players(storage, form)
        controller.click("start", {})
        for _ in range(3000):  # to the first round's end
            session = controller.session
            assert session is not None
            await until(lambda: controller.thinking() is None
                        and session.seat.to_think() is None)
            if session.view()["phase"] == "round-end":
                break
            click_move(controller, first_legal(session.view()))
        page_of(controller).paint()
        controller, _ = with_players(storage, form)  # a reload at the round's end
        assert page_of(controller).shown.screen == "round-end"
        controller.click("next-round", {})
        end = await play_to_the_end(controller)
        final = [text for _, _, text in shown(controller).find(data_total=None,
                                                              data_player=None)]
        controller.click("replay", {})
        assert page_of(controller).shown.screen == "replay"
        (bar,) = shown(controller).find(data_replay_step=None)
        steps = int(bar[1]["data-steps"] or "")
        assert bar[1]["data-step"] == "0"
        for step in range(1, steps + 1):
            controller.click("replay-next", {})
            (bar,) = shown(controller).find(data_replay_step=None)
            assert bar[1]["data-step"] == str(step)
        (nxt,) = shown(controller).find("button", data_action="replay-next")
        assert "disabled" in nxt[1]
        replayed = [text for _, _, text in shown(controller).find(data_total=None,
                                                                 data_player=None)]
        assert replayed == final == [str(t) for t in end["totals"]]
        controller.click("replay-round", {"round": "2"})
        (bar,) = shown(controller).find(data_replay_step=None)
        assert 0 < int(bar[1]["data-step"] or "") < steps
        controller.click("replay-close", {})
        assert page_of(controller).shown.screen == "match-end"

    run(scenario)


def test_a_replay_plays_itself_turn_by_turn_until_paused_or_at_its_end() -> None:
    storage = MemoryStorage()

    async def scenario() -> None:
        controller, players = with_players(storage)
        players.tempo = 0.0
        controller.click("start", {})
        await play_to_the_end(controller)
        controller.click("replay", {})
        bar = lambda: shown(controller).find(data_replay_step=None)[0][1]  # noqa: E731
        controller.click("replay-speed", {"value": "warp"})
        assert "not a replay speed" in (controller.notice or "")
        controller.click("dismiss-notice", {})
        controller.click("replay-speed", {"value": "fast"})
        controller.click("replay-play", {})
        (auto,) = shown(controller).find(data_autoplay="fast")
        assert shown(controller).find("button", data_action="replay-pause")
        await until(lambda: int(bar()["data-step"] or "") > 0)
        controller.click("replay-pause", {})
        paused = bar()["data-step"]
        assert not shown(controller).find(data_autoplay="fast")
        for _ in range(5):  # a turn already on its way shows nothing
            await asyncio.sleep(0)
        assert bar()["data-step"] == paused
        controller.click("replay-play", {})
        await until(lambda: bar()["data-step"] == bar()["data-steps"])
        (play,) = shown(controller).find("button", data_action="replay-play")
        assert "disabled" in play[1]  # at its end it stops by itself
        controller.click("replay-turn-prev", {})
        assert int(bar()["data-step"] or "") < int(bar()["data-steps"] or "")

    run(scenario)


def finished_history(storage: MemoryStorage, matches: int = 2) -> list[dict[str, Any]]:
    """Play `matches` one-round pass-and-play matches to their end here."""
    ends = []

    async def scenario() -> None:
        controller, _ = with_players(storage, {**FORM, "rounds": "1"})
        for _ in range(matches):
            controller.click("start", {})
            ends.append(await play_to_the_end(controller))
            controller.click("new-match", {})

    run(scenario)
    return ends


def test_the_history_file_exports_and_imports_into_another_device() -> None:
    storage = MemoryStorage()
    finished_history(storage)
    downloads = Downloads()
    controller, _ = with_players(storage, downloads=downloads)
    controller.click("stats", {})
    before = texts(controller, data_stat=None, data_opponent=None)
    controller.click("export-stats", {})
    ((name, text),) = downloads.files
    assert name == "lost-cities-history-2023-11-14.json"  # the page's stamp, 1.7e12 ms
    assert json.loads(text)["app"] == APP
    other, _ = with_players(MemoryStorage())  # a fresh device
    other.click("stats", {})
    assert stat(other, "played", "human") == 0
    other.click("import-stats", {"text": text})
    assert texts(other, data_stat=None, data_opponent=None) == before
    assert stat(other, "played", "human") == 2
    assert "2 new matches imported." in texts(other, class_="notice")
    other.click("import-stats", {"text": text})  # again: nothing twice
    assert stat(other, "played", "human") == 2 and "0 new matches imported." in texts(
        other, class_="notice")
    other.click("import-stats", {"text": '{"app": "something else"}'})
    assert stat(other, "played", "human") == 2
    assert any("not a Lost Cities history" in t for t in texts(other, class_="notice"))


def test_a_corrupt_record_is_set_aside_with_a_notice_and_the_rest_is_counted() -> None:
    storage = MemoryStorage()
    finished_history(storage, 3)
    doc = json.loads(storage.items[HISTORY_KEY])
    doc["records"][1]["rounds"][0]["scores"][0] += 1  # no longer adds up
    bad = doc["records"][1]
    storage.setItem(HISTORY_KEY, json.dumps(doc))
    controller, _ = with_players(storage)
    controller.click("stats", {})
    banners = page_of(controller).shown.banners
    assert 'role="alert"' in banners
    assert "1 damaged match record could not be read: it was set aside." in banners
    assert stat(controller, "played", "human") == 2
    (aside,) = [k for k in storage.items if k.startswith(HISTORY_KEY + ".set-aside.")]
    assert json.loads(storage.items[aside])["records"] == [bad]
    assert len(json.loads(storage.items[HISTORY_KEY])["records"]) == 2
    storage.setItem(HISTORY_KEY, "{not json")
    controller, _ = with_players(storage)
    controller.click("stats", {})
    assert "could not be read" in page_of(controller).shown.banners
    assert stat(controller, "played", "human") == 0 and HISTORY_KEY not in storage.items


def test_a_damaged_current_match_record_is_set_aside_and_the_match_goes_on() -> None:
    storage = MemoryStorage()
    controller, _ = with_players(storage, {**FORM, "rounds": "1"})
    controller.click("start", {})
    controller.click("ready", {})
    page_of(controller).paint()
    assert CURRENT_KEY in storage.items
    storage.setItem(CURRENT_KEY, '{"match": 1}')
    controller, _ = with_players(storage)
    controller.click("ready", {})
    assert "set aside" in page_of(controller).shown.banners
    assert page_of(controller).shown.screen == "turn"
    assert any(k.startswith(CURRENT_KEY + ".set-aside.") for k in storage.items)


# ---- the first-game guide --------------------------------------------------------------------


def guide_panel(controller: MatchController) -> dict[str, str | None]:
    (panel,) = shown(controller).find(data_guide=None)
    return panel[1]


def test_the_guide_is_completed_by_its_own_moves_and_refuses_others() -> None:
    storage = MemoryStorage()

    async def scenario() -> None:
        controller, _ = with_players(storage)
        controller.click("guide", {})
        seat = controller.session.seat  # type: ignore[union-attr]
        assert isinstance(seat, GuideMatch) and page_of(controller).shown.screen == "turn"
        for step in range(len(STEPS)):
            await until(lambda: controller.thinking() is None and seat.to_think() is None)
            panel = guide_panel(controller)
            assert (panel["data-guide"], panel["data-step"]) == ("step", str(step))
            move = json.loads(unescape(panel["data-move"] or ""))
            view = seat.view()
            lit = shown(controller).find(class_=None)
            guided = [a for _, a, _ in lit if "guided" in (a.get("class") or "").split()]
            if move["type"] == "draw":  # the pile to draw from (the deck when any will do)
                assert [a["data-source"] for a in guided] == [move.get("source", "deck")]
            else:  # the card asked for; its button once it is picked
                assert [a["data-card"] for a in guided] == [move["card"]]
                controller.click("select", {"card": move["card"]})
                guided = [a for _, a, _ in shown(controller).find(class_=None)
                          if "guided" in (a.get("class") or "").split()]
                assert [a.get("data-action") for a in guided] == ["select", move["type"]]
                controller.click("select", {"card": move["card"]})  # put down again
            if step == 0:  # anything else is refused, and nothing changes
                click_move(controller, {"type": "play", "card": "Y3"})
                assert "The guide asks for another move" in page_of(controller).shown.doc
                assert seat.view() == view
            if move == {"type": "draw"}:
                move = next(m for m in view["legal_moves"] if m["type"] == "draw")
            click_move(controller, move)
            if step == 3:  # a reload in the middle: still guided
                page_of(controller).paint()
                controller, _ = with_players(storage)
                seat = controller.session.seat  # type: ignore[union-attr]
                assert isinstance(seat, GuideMatch) and seat.step == 4
        assert guide_panel(controller)["data-guide"] == "done"
        controller.click("guide-close", {})
        assert not shown(controller).find(data_guide=None)
        await play_to_the_end(controller)
        controller.render()
        doc = page_of(controller).shown.doc  # not counted: no series, Play again nor Stats
        assert page_of(controller).shown.screen == "match-end"
        assert "data-series" not in doc and 'data-action="play-again"' not in doc
        assert 'data-action="stats"' not in doc and "data-guide" not in doc

    run(scenario)
    assert HISTORY_KEY not in storage.items  # the guide's match is not recorded


def test_a_guide_save_with_bad_progress_is_set_aside_not_played_unguided() -> None:
    storage = MemoryStorage()
    controller, _ = with_players(storage)
    controller.click("guide", {})
    page_of(controller).paint()
    good = storage.items[MATCH_KEY]
    doc = json.loads(good)
    doc["match"]["guide"]["step"] = len(STEPS) + 1
    storage.setItem(MATCH_KEY, json.dumps(doc))
    controller, _ = with_players(storage)  # a reload
    assert controller.session is None and page_of(controller).shown.screen == "setup"
    assert "bad guide progress" in page_of(controller).shown.banners
    assert MATCH_KEY not in storage.items  # set aside, kept under its own key
    assert [v for k, v in storage.items.items() if k.startswith(MATCH_KEY + ".set-aside.")] \
        == [json.dumps(doc)]
    storage.setItem(MATCH_KEY, good)
    controller, _ = with_players(storage)  # the good save resumes guided
    assert isinstance(controller.session.seat, GuideMatch)  # type: ignore[union-attr]


def test_the_guide_can_be_skipped() -> None:
    storage = MemoryStorage()
    controller, _ = with_players(storage)
    controller.click("guide", {})
    page_of(controller).paint()
    assert MATCH_KEY in storage.items
    controller.click("guide-skip", {})
    assert page_of(controller).shown.screen == "setup" and controller.session is None
    assert MATCH_KEY not in storage.items


def test_the_guides_clicks_change_nothing_in_another_match() -> None:
    storage = MemoryStorage()
    controller, _ = with_players(storage, BOT_FORM)
    controller.click("start", {})
    session = controller.session
    assert session is not None and not isinstance(session.seat, GuideMatch)
    view = session.view()
    for action in ("guide-skip", "guide-close"):  # a stale click: the match goes on
        controller.click(action, {})
        assert controller.session is session and session.view() == view
        assert controller.notice is None and page_of(controller).shown.screen == "turn"


# ---- the calculator --------------------------------------------------------------------------


@pytest.mark.parametrize("example", [e for e in examples() if e.cards][:6],
                         ids=lambda e: " ".join(e.cards))
def test_the_calculator_screen_scores_the_worked_examples(example: Any) -> None:
    storage = MemoryStorage()
    controller, _ = with_players(storage)
    controller.click("calculator", {})
    assert page_of(controller).shown.screen == "calculator"
    if example.job:
        controller.click("calc-job", {"value": example.job})
    copies = 0
    for card in example.cards:
        copies += card == "H"
        controller.click("calc-toggle", {"colour": "B", "card": "B" + card,
                                         "copy": str(copies) if card == "H" else ""})
    (score,) = texts(controller, data_calc_score=None, data_colour="B")
    assert score == str(example.score)
    controller.click("calc-toggle", {"colour": "X", "card": "X2"})  # refused: nothing changes
    assert texts(controller, data_calc_score=None, data_colour="B") == [score]
    controller.click("calc-close", {})
    controller.click("calculator", {})  # kept
    assert texts(controller, data_calc_score=None, data_colour="B") == [score]
    again, _ = with_players(storage)
    again.click("calculator", {})
    assert texts(again, data_calc_score=None, data_colour="B") == [score]


def test_escape_closes_the_stats_replay_and_calculator_screens_and_the_rules_first() -> None:
    controller, _ = with_players(MemoryStorage())
    for action in ("stats", "calculator"):
        controller.click(action, {})
        assert page_of(controller).shown.screen == action
        controller.click("rules", {})
        controller.escape()  # the Rules page over the screen closes first
        assert not controller.rules_open and page_of(controller).shown.screen == action
        controller.escape()
        assert page_of(controller).shown.screen == "setup"
    controller.escape()  # nothing to close: nothing changes
    assert page_of(controller).shown.screen == "setup"


def test_escape_closes_a_replay_back_to_the_match_end() -> None:
    async def scenario() -> None:
        controller, _ = with_players(MemoryStorage(), BOT_FORM)
        controller.click("start", {})
        await play_to_the_end(controller)
        controller.click("replay", {})
        assert page_of(controller).shown.screen == "replay"
        controller.escape()
        assert page_of(controller).shown.screen == "match-end"

    run(scenario)


def test_the_new_words_exist_in_both_languages() -> None:
    controller, _ = with_players(MemoryStorage())
    controller.click("lang", {})
    controller.click("guide", {})
    assert "Guía: paso 1 de 8" in page_of(controller).shown.doc
    controller.click("guide-skip", {})
    controller.click("stats", {})
    assert "Tus estadísticas" in page_of(controller).shown.doc


# ---- online matches --------------------------------------------------------------------------


class OnlineStub(Seat):
    """An online seat as the controller sees it: the guest's side of a finished match."""

    mode = "online"

    def __init__(self, state: lc.State) -> None:
        self.state = state
        self.local_players = frozenset({1})

    def view(self) -> View:
        return lc.view(self.state, 1)

    def remote(self, now: float) -> Remote:
        return Remote("connected", "Ana", "K7M2QX")


def test_an_online_match_is_recorded_without_its_moves_and_its_series_is_the_rooms() -> None:
    storage = MemoryStorage()
    controller, players = with_players(storage)
    seat = OnlineStub(play_match(lc.Options(rounds=1), 77).state)
    end = seat.view()
    players.keeper.seen(end, seat)
    players.keeper.ended(end, seat)
    (record,) = load(storage.items[HISTORY_KEY]).records
    assert (record.mode, record.opponent, record.me, record.replay) == ("online", "online", 1,
                                                                        None)
    assert CURRENT_KEY not in storage.items  # kept in memory only: its seed is not known here
    series = players.series_of(seat)
    assert series is not None and series.results == (tuple(end["totals"]),)
    assert series.key == series_key(mode="online", names=end["names"],
                                    options=lc.Options(rounds=1), room="K7M2QX")
    html = players.part(end, seat, "match-end", "en")
    assert 'data-action="play-again"' not in html and 'data-action="stats"' in html
    assert "data-series" in html
    # a rematch the two pages agreed on goes on counting in the same series
    rematch = OnlineStub(play_match(lc.Options(rounds=1), 78).state)
    players.continue_series(rematch, series)
    players.keeper.ended(rematch.view(), rematch)
    after = players.series_of(rematch)
    assert after is not None and after.key == series.key and len(after.results) == 2
    assert len(load(storage.items[HISTORY_KEY]).records) == 2
