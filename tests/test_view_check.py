"""lostcities.viewcheck: every real view passes; a view that is not one is refused, one test per
kind of fault (a program on the command-line protocol checks what it is sent with it)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from lostcities import Options
from lostcities.viewcheck import MAX_POINTS, ViewError, check_match_end, check_view
from real_views import ALL_OPTIONS, playout_views

HOSTILE = "<img src=x onerror=alert(1)>"
ALL_ON = Options(rounds=2, sixth_colour=True, jobs=True, skills=True, objectives=True,
                 mixups=True)

View = dict[str, Any]


def wire(v: View) -> View:
    """The view as a guest receives it: through JSON."""
    return json.loads(json.dumps(v))  # type: ignore[no-any-return]


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=lambda o: "".join(
    k[0] for k, on in o.to_json().items() if on is True) or "plain")
def test_every_view_of_a_random_match_passes(options: Options) -> None:
    phases = set()
    for v in playout_views(options, seed=ALL_OPTIONS.index(options)):
        check_view(wire(v))
        phases.add((v["phase"], v["player"]))
    wanted = {"play", "draw", "round-end", "match-end"} | ({"jobs"} if options.jobs else set())
    assert phases == {(phase, p) for phase in wanted for p in (0, 1)}


def playout(options: Options, seed: int, until: Callable[[View], bool]) -> View:
    """The first view (of either player) of a random match that `until` accepts."""
    for v in playout_views(options, seed):
        if until(v):
            return wire(v)
    raise AssertionError("no such view in this match")


@pytest.fixture(scope="module")
def busy() -> View:
    """A view with much in it: every option, cards on the expeditions and piles, a log,
    legal moves, running scores, a finished round, a job and objectives."""
    return playout(ALL_ON, 3, lambda v: v["round"] == 2 and v["phase"] == "play"
                   and v["to_act"] == v["player"] and len(v["log"]) > 12
                   and any(p["size"] for p in v["discards"].values()))


@pytest.fixture(scope="module")
def final() -> View:
    """A match-end view (breakdown, winner, totals)."""
    return playout(ALL_ON, 4, lambda v: v["phase"] == "match-end")


def test_the_base_views_pass(busy: View, final: View) -> None:
    check_view(busy)
    check_view(final)
    check_match_end(final, final["winner"], final["totals"])
    assert busy["round_scores"] and busy["jobs"][busy["player"]] and busy["legal_moves"]
    assert busy["objectives"][busy["player"]] and busy["log"]


def setter(path: str, value: Any) -> Callable[[View], None]:
    """A change to `view` at `path` (``a.b[0].c``: keys and list indexes)."""
    keys: list[Any] = []
    for part in path.replace("[", ".[").split("."):
        keys.append(int(part[1:-1]) if part.startswith("[") else part)

    def change(v: View) -> None:
        node: Any = v
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return change


def delete(key: str) -> Callable[[View], None]:
    return lambda v: v.pop(key)


def colour_card(v: View, colour: str) -> str:
    """A number card of `colour` shown nowhere in `v`."""
    shown = json.dumps(v)
    return next(f"{colour}{n}" for n in range(2, 11) if f'"{colour}{n}"' not in shown)


def show_twice(v: View) -> None:
    """A number card of the hand shown on the opponent's expedition too (one card fewer in
    the deck, so that the count still adds up)."""
    card = next(c for c in v["hand"] if c[1] != "H")
    theirs = v["expeditions"][1 - v["player"]]
    v["deck_count"] += len(theirs[card[0]]) - 1
    theirs[card[0]] = [card]


# (what is wrong, change to the busy view, words of the expected message)
FAULTS: list[tuple[str, Callable[[View], None], str]] = [
    ("extra key", setter("script", HOSTILE), "unexpected script"),
    ("missing key", delete("totals"), "missing totals"),
    ("extra nested key", lambda v: v["discards"]["Y"].update(x=1), "discards.Y has the wrong"),
    ("markup for a number", setter("totals[0]", HOSTILE), "totals[0] must be a whole number"),
    ("number as text", setter("deck_count", "30"), "deck_count must be a whole number"),
    ("float for an int", setter("deck_count", 30.0), "deck_count must be a whole number"),
    ("bool for an int", setter("round", True), "round must be a whole number"),
    ("huge int", setter("scores[0].Y", 10 ** 5000), "scores[0].Y must be a whole number"),
    ("negative count", setter("deck_count", -1), "deck_count must be a whole number"),
    ("round out of range", setter("round", 3), "round must be a whole number from 1 to 2"),
    ("seat out of range", setter("player", 2), "player must be a whole number from 0 to 1"),
    ("pile size", setter("discards.R.size", 13), "discards.R.size must be"),
    ("markup in a pile size", setter("discards.R.size", HOSTILE), "discards.R.size must be"),
    ("markup in the round scores", setter("round_scores[0][1]", HOSTILE), "round_scores[0][1]"),
    ("list too long", lambda v: v["totals"].append(0), "totals must hold 2 items"),
    ("object for a list", setter("hand", {"0": "R7"}), "hand must be a list"),
    ("unknown card", lambda v: v["hand"].__setitem__(0, "Z9"), "hand[0] must be a card"),
    ("card eleven", lambda v: v["hand"].__setitem__(0, "R11"), "hand[0] must be a card"),
    ("markup for a card", lambda v: v["hand"].__setitem__(0, HOSTILE), "hand[0] must be a card"),
    ("card on the wrong expedition",
     lambda v: v["expeditions"][1]["R"].append(colour_card(v, "B")), "must be a card of colour R"),
    ("unknown colour key", lambda v: v["discards"].update({HOSTILE: {"top": None, "size": 0}}),
     "discards has the wrong fields"),
    ("colours that are not the options'", setter("colours", ["Y", "B", "W", "G", "R"]),
     "colours must be"),
    ("markup in a name", setter("names[1]", "<b>" + "x" * 40), "names[1] must be a name"),
    ("empty name", setter("names[0]", "  "), "names[0] must be a name"),
    ("region marker in a name", setter("names[0]", "Ana\x02"), "clean name"),
    ("bidi override in a name", setter("names[1]", "Ben\u202e"), "clean name"),
    ("name not text", setter("names[0]", ["Ana"]), "names[0] must be a name"),
    ("zero-width space in a name", setter("names[1]", "B\u200ben"), "clean name"),
    ("name with spaces around", setter("names[1]", " Ben"), "clean name"),
    ("unknown phase", setter("phase", HOSTILE), "phase must be a phase"),
    ("unknown job", setter("jobs[0]", HOSTILE), "jobs[0] must be a job id"),
    ("unknown mixup", setter("mixup", "chaos"), "mixup must be a mixup id"),
    ("unknown objective", lambda v: v["objectives"][v["player"]].__setitem__(0, HOSTILE),
     "must be an objective id"),
    ("unknown skill", setter("skills_used", ["teleport"]), "skills_used[0] must be a skill id"),
    ("shut pile of no colour", setter("shut_piles[0]", "X"), "shut_piles[0] must be a colour"),
    ("unknown log event", lambda v: v["log"].append({"player": 0, "type": HOSTILE}),
     "must be a log event type"),
    ("log event with an extra key",
     lambda v: v["log"].append({"player": 0, "type": "radio", "note": HOSTILE}),
     "has the wrong fields"),
    ("log event by a third player",
     lambda v: v["log"].append({"player": 2, "type": "radio"}), ".player must be"),
    ("log card that is markup",
     lambda v: v["log"].append({"player": 0, "type": "play", "card": HOSTILE}), ".card must be"),
    ("malformed legal move", lambda v: v["legal_moves"].append({"type": "play", "card": 7}),
     "legal_moves["),
    ("legal move with markup", lambda v: v["legal_moves"].append({"type": HOSTILE}),
     "unknown move type"),
    ("unknown refusal", lambda v: v["refusals"]["draw"].update(
        deck={"code": HOSTILE, "data": {}}), "refusals.draw.deck.code"),
    ("refusal for no card of the hand", lambda v: v["refusals"]["play"].update(
        {HOSTILE: {"code": "deck-empty", "data": {}}}), "may only name a card of the hand"),
    ("running total that is not the sum", lambda v: v["scores"][0].update(
        total=v["scores"][0]["total"] + 1), "scores[0].total must be the sum"),
    ("totals that are not the sums", lambda v: v["totals"].__setitem__(
        0, v["totals"][0] + 1), "totals[0] must be the sum"),
    ("a card more than the match has", lambda v: v.update(deck_count=v["deck_count"] + 1),
     "not the 72 of the match"),
    ("a card shown twice", lambda v: show_twice(v), "shown more than once"),
    ("hand count that is not the hand", lambda v: v["hand_counts"].__setitem__(
        v["player"], len(v["hand"]) + 1), "must be the size of the hand"),
    ("breakdown before the round is scored",
     lambda v: v.update(breakdown=[{}, {}]), "breakdown must be null"),
    ("winner before the end", setter("winner", 0), "winner must be null"),
    ("other format", setter("format", 2), "format must be 1"),
    ("too many legal moves", lambda v: v["legal_moves"].extend([{"type": "undo"}] * 64),
     "legal_moves must hold"),
    ("points out of every range", setter("scores[1].B", MAX_POINTS + 1), "scores[1].B"),
]


def assert_refused(view: View, change: Callable[[View], None], words: str) -> None:
    """`view` with `change` made to a copy is refused, with a short message that says `words`
    (a hostile value is shown cut short)."""
    hostile = copy.deepcopy(view)
    change(hostile)
    assert hostile != view
    with pytest.raises(ViewError) as caught:
        check_view(hostile)
    assert words in str(caught.value)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("fault", FAULTS, ids=[f[0] for f in FAULTS])
def test_a_view_with_a_fault_is_refused_with_a_clear_message(
        busy: View, fault: tuple[str, Callable[[View], None], str]) -> None:
    _, change, words = fault
    assert_refused(busy, change, words)


@pytest.mark.parametrize("value", [None, [], "view", 1, HOSTILE])
def test_what_is_not_an_object_is_refused(value: object) -> None:
    with pytest.raises(ViewError, match="view must be an object"):
        check_view(value)


FINAL_FAULTS: list[tuple[str, Callable[[View], None], str]] = [
    ("winner that the totals deny", lambda v: v.update(
        winner=1 - v["winner"] if v["winner"] != "draw" else 0), "winner must be"),
    ("markup for the winner", setter("winner", HOSTILE), "winner must be"),
    ("markup in a breakdown figure", setter("breakdown[0].expeditions.R.sum", HOSTILE),
     "breakdown[0].expeditions.R.sum"),
    ("markup in an objective's points", lambda v: v["breakdown"][0]["objectives"].__setitem__(
        0, {"id": "thrift", "achieved": True, "points": HOSTILE}), "objectives[0].points"),
    ("round scores missing", lambda v: v["round_scores"].pop(), "round_scores must hold"),
    ("no breakdown at the end", setter("breakdown", None), "breakdown must be there"),
    ("a player to act at the end", setter("to_act", 0), "to_act must be null"),
]


@pytest.mark.parametrize("fault", FINAL_FAULTS, ids=[f[0] for f in FINAL_FAULTS])
def test_a_final_view_with_a_fault_is_refused(
        final: View, fault: tuple[str, Callable[[View], None], str]) -> None:
    _, change, words = fault
    assert_refused(final, change, words)


def test_a_match_end_message_must_agree_with_its_view(final: View, busy: View) -> None:
    winner, totals = final["winner"], final["totals"]
    with pytest.raises(ViewError, match="winner"):
        check_match_end(final, 1 if winner != 1 else 0, totals)
    with pytest.raises(ViewError, match="winner"):
        check_match_end(final, True if winner == 1 else False, totals)
    with pytest.raises(ViewError, match="totals"):
        check_match_end(final, winner, [totals[0] + 1, totals[1]])
    with pytest.raises(ViewError, match="phase must be match-end"):
        check_match_end(busy, busy["winner"], busy["totals"])
