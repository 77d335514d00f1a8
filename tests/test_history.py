"""Match records, the recording of a match from its views, the history document, and the
statistics: real matches played through the engine's public API."""

from __future__ import annotations

import copy
import functools
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

import lostcities as lc
from lostcities import Options, State
from webui.features.history import (
    MAX_MOVES, MatchLog, MatchRecord, Notice, dump, export_name, import_text, load, make_record,
    merge, move_token, record_from_json, record_id, token_move,
)
from webui.features.stats import OPPONENTS, compute_stats

ALL_ON = Options(rounds=3, sixth_colour=True, jobs=True, skills=True, objectives=True,
                 mixups=True)
DATE = "2026-12-01T10:20:30.123Z"


@dataclass
class Played:
    """A finished match: its final state, its log, the states at each round end, and every
    move applied (undone ones included)."""

    state: State
    log: MatchLog
    round_ends: list[State] = field(default_factory=list)
    applied: int = 0


def play_match(options: Options, seed: int, *, undo_rate: float = 0.1,
               first_player: int | None = None, log: MatchLog | None = None) -> Played:
    """Play a match at random (mostly drawing from the deck, taking a play back now and then),
    showing the log the view of a random player after every move, as the page would."""
    rng = random.Random(seed)
    state = lc.new_match(options, seed=seed, first_player=first_player, names=("Ana", "Ben"))
    played = Played(state, log if log is not None else MatchLog())
    while state.phase != "match-end":
        moves = lc.legal_moves(state)
        plain = [m for m in moves if not isinstance(m, lc.Undo)]
        deck = [m for m in plain if isinstance(m, lc.Draw) and m.source == "deck"]
        if deck and rng.random() < 0.75:
            move: lc.Move = deck[0]
        elif len(plain) < len(moves) and rng.random() < undo_rate:
            move = lc.Undo()
        else:
            move = rng.choice(plain)
        state = lc.apply(state, move)
        played.applied += 1
        if state.phase in ("round-end", "match-end"):
            played.round_ends.append(state)
        if state.phase in ("round-end", "match-end") or played.applied % 40 == 0:
            played.log.observe(lc.view(state, rng.randrange(2)))  # the page shows every view
    played.state = state
    return played


def record_of(played: Played, *, me: int = 0, mode: str = "computer",
              level: str | None = "hard", date: str = DATE,
              seed: int | None = None) -> MatchRecord:
    """The record of a played match, seen from seat `me`."""
    return played.log.record(lc.view(played.state, me), date=date, mode=mode, level=level,
                             me=me, seed=played.state.seed if seed is None else seed)


def reid(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with its id recomputed (to test a check other than the id's)."""
    identity = {k: v for k, v in data.items() if k not in ("id", "date", "replay")}
    return {**data, "id": record_id(identity)}


def replay_state(record: MatchRecord) -> State:
    assert record.replay is not None
    state = lc.new_match(record.options, seed=record.replay.seed,
                         first_player=record.replay.first_player, names=record.names)
    for move in record.replay.move_list():
        state = lc.apply(state, lc.move_from_json(move))
    return state


# ---------------------------------------------------------------- moves and recording


def test_every_kind_of_move_has_a_token_that_reads_back() -> None:
    rng = random.Random(3)
    state = lc.new_match(ALL_ON, seed=3)
    seen: set[str] = set()
    while state.phase != "match-end" and len(seen) < 9:
        for move in lc.legal_moves(state):
            data = lc.move_to_json(move)
            token = move_token(data)
            assert token_move(token) == data
            assert " " not in token
            seen.add(data["type"])
        state = lc.apply(state, rng.choice(lc.legal_moves(state)))
    assert seen >= {"pick-job", "play", "discard", "draw", "undo"}
    assert token_move("n") == {"type": "next-round"}
    assert token_move("k") == {"type": "draw", "source": "deck"}
    for bad in ("", "x", "pZ9", "p", "kQ", "jnobody", "sP7", "P R7"):
        with pytest.raises(ValueError):
            token_move(bad)


@pytest.mark.parametrize(("options", "seed"), [(Options(), 11), (ALL_ON, 12),
                                               (Options(rounds=1, mixups=True), 13),
                                               (Options(rounds=2, jobs=True, skills=True), 14)])
def test_a_recorded_match_replays_to_the_same_final_state(options: Options, seed: int) -> None:
    played = play_match(options, seed)
    record = record_of(played)
    assert record.replay is not None
    assert replay_state(record) == played.state
    assert record.totals == played.state.totals
    assert record.winner == played.state.winner
    assert [r.scores for r in record.rounds] == list(played.state.round_scores)
    for rnd, end in zip(record.rounds, played.round_ends):
        assert rnd.expeditions is not None
        for p in (0, 1):
            got = dict(rnd.expeditions[p])
            want = {c: tuple(lc.card_text(x) for x in e)
                    for c, e in zip(end.colours, end.expeditions[p]) if e}
            assert got == want
        assert rnd.mixup == end.mixup
    assert record.jobs == played.state.jobs


def test_undone_plays_are_not_recorded() -> None:
    played = play_match(Options(rounds=1), 21, undo_rate=0.5)
    record = record_of(played)
    assert record.replay is not None
    assert "u" not in record.replay.moves
    assert len(record.replay.moves) < played.applied  # the undos and what they took back
    assert replay_state(record) == played.state


def test_the_first_player_is_worked_out_from_the_last_round() -> None:
    for rounds in (1, 2, 3):
        for first in (0, 1):
            played = play_match(Options(rounds=rounds), 30 + rounds, first_player=first)
            record = record_of(played)
            assert record.replay is not None and record.replay.first_player == first


def test_a_record_reads_back_from_its_json_and_its_text() -> None:
    record = record_of(play_match(ALL_ON, 40), me=1, mode="online", level=None)
    again = record_from_json(json.loads(json.dumps(record.to_json())))
    assert again == record
    assert load(dump([record])).records == [record]
    assert record.opponent == "online"
    assert record.result == {1: "won", 0: "lost", "draw": "drawn"}[record.winner]


def test_the_same_match_recorded_twice_is_kept_once() -> None:
    played = play_match(Options(rounds=1), 41)
    first = record_of(played)
    later = record_of(played, date="2026-12-02T08:00:00Z")
    assert first.id == later.id
    assert merge([first], [later]) == [first]
    assert not played.log.observe(lc.view(played.state, 0))  # seen already: nothing new


def test_a_round_the_page_never_saw_end_leaves_the_record_without_replay() -> None:
    log = MatchLog()
    rng = random.Random(5)
    state = lc.new_match(Options(rounds=2), seed=5)
    while state.phase != "match-end":
        state = lc.apply(state, rng.choice([m for m in lc.legal_moves(state)
                                            if not isinstance(m, lc.Undo)]))
    log.observe(lc.view(state, 0))  # the first round's end was never shown
    record = log.record(lc.view(state, 0), date=DATE, mode="pass-and-play", level=None,
                        me=0, seed=5)
    assert record.replay is None
    assert record.rounds[0].expeditions is None and record.rounds[1].expeditions is not None
    assert record.totals == state.totals
    assert record_from_json(record.to_json()) == record


def test_without_the_seed_a_record_has_no_replay() -> None:
    played = play_match(Options(rounds=1), 42)
    record = played.log.record(lc.view(played.state, 1), date=DATE, mode="online", level=None,
                               me=1, seed=None)
    assert record.replay is None and record.totals == played.state.totals


def test_the_match_log_survives_a_reload_mid_match() -> None:
    options = Options(rounds=2, jobs=True)
    rng = random.Random(7)
    state = lc.new_match(options, seed=7)
    log = MatchLog()
    while state.phase != "match-end":
        state = lc.apply(state, rng.choice([m for m in lc.legal_moves(state)
                                            if not isinstance(m, lc.Undo)]))
        if state.phase in ("round-end", "match-end") or rng.random() < 0.05:
            log.observe(lc.view(state, 0))
            log = MatchLog.from_json(json.loads(json.dumps(log.to_json())), options)
    record = log.record(lc.view(state, 0), date=DATE, mode="pass-and-play", level=None, me=0,
                        seed=7)
    assert replay_state(record) == state


def test_a_match_is_recorded_only_at_its_end() -> None:
    state = lc.new_match(Options(), seed=1)
    with pytest.raises(ValueError):
        MatchLog().record(lc.view(state, 0), date=DATE, mode="computer", level="easy", me=0,
                          seed=1)


# ---------------------------------------------------------------- strict validation


@functools.cache
def _good_text() -> str:
    return json.dumps(record_of(play_match(ALL_ON, 50)).to_json())


def _good() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_good_text())
    return data


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(data: dict[str, Any]) -> dict[str, Any]:
        data = copy.deepcopy(data)
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return data
    return change


def _rewin(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with the winner its totals give."""
    a, b = (sum(r["scores"][p] for r in data["rounds"]) for p in (0, 1))
    return {**data, "winner": 0 if a > b else 1 if b > a else "draw"}


def _drop(key: str) -> Any:
    return lambda data: {k: v for k, v in data.items() if k != key}


BAD_CHANGES = {
    "a score that does not add up": lambda d: _rewin(_set(("rounds", 0, "scores", 0),
                                                          d["rounds"][0]["scores"][0] + 1)(d)),
    "a float score": _set(("rounds", 0, "scores", 0), 1.5),
    "the wrong winner": lambda d: {**d, "winner": "draw" if d["winner"] != "draw" else 0},
    "winner true": lambda d: {**d, "winner": True},
    "a mixup in the first round": _set(("rounds", 0, "mixup"), "big-bonus"),
    "an unknown mixup": _set(("rounds", 2, "mixup"), "no-such"),
    "cards in two expeditions at once": lambda d: _set(
        ("rounds", 0, "expeditions", 1, "Y"),
        list(d["rounds"][0]["expeditions"][0].get("Y") or ["Y5"]) + ["Y2", "Y5"])(d),
    "a card of another colour": _set(("rounds", 0, "expeditions", 0, "Y"), ["B5"]),
    "an empty expedition listed": _set(("rounds", 0, "expeditions", 0, "Y"), []),
    "purple without the sixth colour": lambda d: _set(("options", "sixth_colour"), False)(d),
    "one round missing": lambda d: {**d, "rounds": d["rounds"][:2]},
    "an unknown key": lambda d: {**d, "extra": 1},
    "a missing key": _drop("winner"),
    "a date that is no date": lambda d: {**d, "date": "2026-13-45T10:00:00Z"},
    "a date in another form": lambda d: {**d, "date": "1 Dec 2026"},
    "a level for pass-and-play": lambda d: {**d, "mode": "pass-and-play"},
    "no level against the computer": lambda d: {**d, "level": None},
    "an unknown mode": lambda d: {**d, "mode": "telepathy"},
    "a job missing with jobs on": _set(("jobs", 0), None),
    "a name with a control character": _set(("names", 0), "An\u202ea"),
    "an empty name": _set(("names", 1), ""),
    "me as a boolean": lambda d: {**d, "me": True},
    "a bad move token": lambda d: _set(("replay", "moves"), d["replay"]["moves"] + " zz")(d),
    "a negative seed": _set(("replay", "seed"), -1),
    "moves as a list": _set(("replay", "moves"), ["k"]),
    "too many moves": _set(("replay", "moves"), " ".join(["k"] * (MAX_MOVES + 1))),
}


@pytest.mark.parametrize("name", list(BAD_CHANGES))
def test_a_record_that_does_not_hold_up_is_refused(name: str) -> None:
    good = _good()
    bad = reid(BAD_CHANGES[name](good))
    with pytest.raises(ValueError):
        record_from_json(bad)
    record_from_json(good)  # the original still reads


def test_a_record_whose_id_does_not_match_is_refused() -> None:
    good = _good()
    with pytest.raises(ValueError):
        record_from_json({**good, "id": "0" * 32})
    changed = _set(("names", 0), "Eve")(good)  # a consistent record, but not this id's
    with pytest.raises(ValueError):
        record_from_json(changed)
    record_from_json(reid(changed))


# ---------------------------------------------------------------- the history document


def test_a_corrupt_record_is_set_aside_and_the_rest_loads() -> None:
    a = record_of(play_match(Options(rounds=1), 60), date="2026-12-01T10:00:00Z")
    b = record_of(play_match(Options(rounds=1), 61), date="2026-12-02T10:00:00Z")
    doc = json.loads(dump([a, b]))
    broken = {**doc["records"][0], "winner": "nobody"}
    doc["records"].insert(1, broken)
    doc["records"].append("not even an object")
    loaded = load(json.dumps(doc))
    assert loaded.records == [a, b]
    assert [json.loads(s) for s in loaded.set_aside] == [broken, "not even an object"]
    assert loaded.notice == Notice("records-set-aside", 2)


@pytest.mark.parametrize("text", [
    "{not json", "[]", '{"app": "other", "version": 1, "records": []}',
    '{"app": "lostcities-history", "version": 2, "records": []}',
    '{"app": "lostcities-history", "version": 1, "records": {}}',
    '{"app": "lostcities-history", "version": 1}',
    '{"app": "lostcities-history", "version": 1, "records": [], "app": "x"}',
    "[" * 100_000,
])
def test_an_unreadable_history_is_set_aside_whole(text: str) -> None:
    loaded = load(text)
    assert loaded.records == [] and loaded.set_aside == [text]
    assert loaded.notice == Notice("history-set-aside", 1)


def test_no_history_yet_is_no_notice() -> None:
    assert load(None) == ([], [], None) and load("") == ([], [], None)
    assert load(dump([])) == ([], [], None)


def test_import_merges_without_duplicates() -> None:
    a = record_of(play_match(Options(rounds=1), 70), date="2026-12-01T10:00:00Z")
    b = record_of(play_match(Options(rounds=1), 71), date="2026-12-03T10:00:00Z")
    c = record_of(play_match(Options(rounds=1), 72), date="2026-12-02T10:00:00Z")
    mine = [a, b]
    result = import_text(mine, dump([b, c]))
    assert result.records == [a, c, b]  # oldest first
    assert result.added == 1 and result.set_aside == [] and result.notice is None
    assert mine == [a, b]
    again = import_text(result.records, dump([a, b, c]))
    assert again.records == result.records and again.added == 0


def test_import_sets_bad_records_aside_and_refuses_a_foreign_file() -> None:
    a = record_of(play_match(Options(rounds=1), 73))
    doc = json.loads(dump([a]))
    doc["records"].append({"id": "x"})
    result = import_text([], json.dumps(doc))
    assert result.records == [a] and result.added == 1
    assert result.notice == Notice("records-set-aside", 1)
    for text in ("hello", '{"app": "lostcities-webui", "version": 1}', json.dumps([1])):
        with pytest.raises(ValueError):
            import_text([a], text)


def test_export_name() -> None:
    assert export_name(DATE) == "lost-cities-history-2026-12-01.json"
    with pytest.raises(ValueError):
        export_name("yesterday")


def test_make_record_refuses_an_inconsistent_record() -> None:
    record = record_of(play_match(Options(rounds=1), 80))
    with pytest.raises(ValueError):
        make_record(date=DATE, mode="computer", level="hard", me=0, names=record.names,
                    options=Options(rounds=2), jobs=record.jobs, rounds=record.rounds,
                    replay=record.replay)


# ---------------------------------------------------------------- statistics


def _expected(played: Played, me: int) -> list[tuple[int, int, str]]:
    """(cards, score, colour) of each of `me`'s expeditions, straight from the round-end
    states and the engine's scoring."""
    out = []
    for end in played.round_ends:
        rules = end.rules_for(me)
        for colour, exp in zip(end.colours, end.expeditions[me]):
            if exp:
                out.append((len(exp), lc.score_expedition(list(exp), rules).score, colour))
    return out


def test_statistics_of_real_matches() -> None:
    plan = [("computer", "easy", 0), ("computer", "easy", 1), ("computer", "hard", 0),
            ("pass-and-play", None, 0), ("online", None, 1), ("online", None, 0),
            ("computer", "medium", 1)]
    records, expected_rounds, expeditions, margins = [], [], [], []
    tallies = {name: [0, 0, 0, 0] for name in OPPONENTS}
    for i, (mode, level, me) in enumerate(plan):
        options = ALL_ON if i % 2 else Options(rounds=1 + i % 3)
        played = play_match(options, 100 + i)
        record = record_of(played, me=me, mode=mode, level=level,
                           date=f"2026-12-{10 + i:02d}T10:00:00Z")
        records.append(record)
        kind = level or ("human" if mode == "pass-and-play" else "online")
        winner = played.state.winner
        column = 3 if winner == "draw" else 1 if winner == me else 2
        tallies[kind][0] += 1
        tallies[kind][column] += 1
        expected_rounds += [r[me] for r in played.state.round_scores]
        expeditions += [(*e, i) for e in _expected(played, me)]
        totals = played.state.totals
        margins.append(totals[me] - totals[1 - me])
    stats = compute_stats(list(reversed(records)), last=5)
    for name in OPPONENTS:
        tally = stats.tally(name)
        assert [tally.played, tally.won, tally.lost, tally.drawn] == tallies[name], name
        assert tally.win_rate == (tally.won / tally.played if tally.played else None)
    assert stats.total.played == len(plan)
    assert stats.best_round == max(expected_rounds)
    assert stats.average_round == pytest.approx(sum(expected_rounds) / len(expected_rounds))
    assert stats.rounds == len(expected_rounds)
    longest = max(expeditions, key=lambda e: (e[0], e[1]))
    highest = max(expeditions, key=lambda e: (e[1], e[0]))
    assert stats.longest is not None and stats.highest is not None
    assert (len(stats.longest.cards), stats.longest.score) == longest[:2]
    assert (stats.highest.score, len(stats.highest.cards)) == (highest[1], highest[0])
    assert [m.margin for m in stats.margins] == margins[-5:]
    assert [m.date for m in stats.margins] == sorted(m.date for m in stats.margins)


def test_statistics_of_no_matches() -> None:
    stats = compute_stats([])
    assert all(stats.tally(n).played == 0 and stats.tally(n).win_rate is None
               for n in OPPONENTS)
    assert stats.best_round is None and stats.average_round is None
    assert stats.longest is None and stats.highest is None and stats.margins == ()
    with pytest.raises(ValueError):
        stats.tally("martians")
