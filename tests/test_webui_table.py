"""The table without a browser: real engine, real rendering, moves taken only from the buttons.

A "click-bot" reads the enabled buttons of the rendered HTML (their data-* hooks) and hands them
to the Session, exactly as the page's click handler does.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from html import unescape

import pytest
from sessionkit import session_render, session_screen

from lostcities import Options
from webui.match.seats.computer import BotMatch
from webui.match.seats.local import LocalMatch
from webui.match.session import Session
from webui.match.setup import parse_setup
from webui.screens.match import render_doc
from webui.screens.table import Extras

ALL_ON = Options(rounds=3, sixth_colour=True, jobs=True, skills=True, objectives=True,
                 mixups=True)
PAGE_ACTIONS = {"rules", "lang", "abandon", "new-match"}


TAG = re.compile(r"<([a-z0-9]+)((?:\s+[a-z-]+(?:=\"[^\"]*\")?)*)\s*/?>")
ATTR = re.compile(r'([a-z-]+)(?:="([^"]*)")?')


class Elements:
    """Every start tag with its attributes, in document order (our HTML is regular)."""

    def __init__(self, html: str) -> None:
        self.tags: list[tuple[str, dict[str, str | None]]] = [
            (m.group(1), {k: (unescape(v) if v else None) for k, v in ATTR.findall(m.group(2))})
            for m in TAG.finditer(html)
        ]

    def buttons(self, enabled: bool = True) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == "button" and ("disabled" not in a) == enabled]


def data_of(button: dict[str, str | None]) -> dict[str, str]:
    return {k[5:]: v or "" for k, v in button.items() if k.startswith("data-")}


def new_session(options: Options = Options(), seed: int = 1) -> Session:
    return Session(LocalMatch.new(options, seed, 0, ("Ana", "Ben")))


def click_bot_step(session: Session, rng: random.Random, html: str | None = None) -> str:
    """Click one enabled game button, as a player would: mostly moving the game on, with a
    skill or an undo now and then."""
    if html is None:
        html = session_render(session, "en")[1]
    buttons = [data_of(b) for b in Elements(html).buttons()]
    choices = [b for b in buttons if b["action"] not in PAGE_ACTIONS | {"cancel"}]
    assert choices, "no enabled button"
    by_action: dict[str, list[dict[str, str]]] = {}
    for b in choices:
        by_action.setdefault(b["action"], []).append(b)
    extras = [b for b in choices if b["action"] in ("undo", "radio", "airlift", "sabotage")]
    if extras and rng.random() < 0.08:
        pool = extras
    elif session.ui.selected and ("play" in by_action or "discard" in by_action):
        pool = by_action.get("play", []) + by_action.get("discard", [])
    elif "draw" in by_action and rng.random() < 0.8:  # keep the deck running down
        pool = [b for b in by_action["draw"] if b.get("source") == "deck"] or by_action["draw"]
    else:
        pool = [b for b in choices if b not in extras] or choices
    pick = dict(rng.choice(pool))
    action = pick.pop("action")
    session.handle(action, pick)
    return action


@pytest.mark.parametrize("options", [Options(), ALL_ON], ids=["plain", "all-options"])
def test_a_whole_match_by_buttons_only(options: Options) -> None:
    rng = random.Random(7)
    session = new_session(options, seed=11)
    steps = 0
    screens = []
    for _ in range(20_000):
        view = session.view()
        screen, html = session_render(session, rng.choice(["en", "es"]))
        screens.append(screen)
        if screen == "match-end":
            break
        steps += 1
        if screen == "turn":
            tags = Elements(html).tags
            hand = [a["data-card"] for t, a in tags if a.get("data-action") == "select"]
            assert sorted(hand) == sorted(view["hand"])  # own hand only, every card shown
        before = view["to_act"]
        action = click_bot_step(session, rng, html)
        assert session.ui.message is None, f"an offered {action} was refused"
        after = session.view()
        if after["phase"] in ("play", "jobs", "draw") and after["to_act"] != before:
            assert session_screen(session) == "handoff"
    else:
        pytest.fail("the match did not end")
    assert screens.count("round-end") == 2
    assert "handoff" in screens
    if options.jobs:
        assert "jobs" in screens
    view = session.view()
    html = session_render(session, "en")[1]
    for p in (0, 1):
        assert f'data-total data-player="{p}">{view["totals"][p]}<' in html
        assert sum(r[p] for r in view["round_scores"]) == view["totals"][p]


def test_a_saved_match_resumes_identical_at_every_step() -> None:
    rng = random.Random(3)
    session = new_session(ALL_ON, seed=5)
    for _ in range(300):
        click_bot_step(session, rng)
        text = session.save_text()
        resumed = Session.from_save_text(text)
        assert session_render(resumed, "es") == session_render(session, "es")
        assert json.loads(resumed.save_text()) == json.loads(text)


@pytest.mark.parametrize(
    "mangle",
    [
        lambda doc: "not json at all",
        lambda doc: json.dumps({**doc, "app": "other"}),
        lambda doc: json.dumps({**doc, "version": 99}),
        lambda doc: json.dumps({**doc, "match": {**doc["match"], "state": {"format": "x"}}}),
        lambda doc: json.dumps({**doc, "match": {**doc["match"], "seat": 1}}),
        lambda doc: json.dumps({**doc, "ui": {"handoff": "yes"}}),
    ],
    ids=["not-json", "foreign", "version", "state", "seat", "ui"],
)
def test_a_corrupt_save_is_refused_with_a_reason(mangle: object) -> None:
    session = new_session()
    session.handle("ready", {})
    doc = json.loads(session.save_text())
    assert doc["match"]["seat"] == 0
    with pytest.raises(ValueError):
        Session.from_save_text(mangle(doc))  # type: ignore[operator]


def test_names_are_escaped() -> None:
    session = Session(LocalMatch.new(Options(), 1, 0, ("<img src=x>", 'Ben"&')))
    for _ in range(3):
        html = session_render(session, "en")[1]
        assert "<img src=x>" not in html and 'Ben"&' not in html
        session.handle("ready", {})
    assert "&lt;img src=x&gt;" in session_render(session, "en")[1]


def test_handoff_hides_both_hands_until_ready() -> None:
    session = new_session()
    screen, html = session_render(session, "en")
    assert screen == "handoff"
    assert "data-card" not in html
    assert 'data-action="ready"' in html
    session.handle("ready", {})
    assert session_screen(session) == "turn"


def _turn_with_blocked_card(seed: int) -> tuple[Session, str]:
    """Play a match until the player to act holds a card that cannot follow their expedition."""
    rng = random.Random(seed)
    session = new_session(seed=seed)
    for _ in range(3000):
        view = session.view()
        if session_screen(session) == "turn" and view["phase"] == "play":
            for card in view["hand"]:
                if {"type": "play", "card": card} not in view["legal_moves"]:
                    return session, card
        click_bot_step(session, rng)
    raise AssertionError("no blocked card found")


def test_an_illegal_play_is_not_offered_and_says_why() -> None:
    session, card = _turn_with_blocked_card(2)
    session.handle("select", {"card": card})
    html = session_render(session, "en")[1]
    tags = Elements(html).tags
    play = next(a for t, a in tags if a.get("data-action") == "play")
    discard = next(a for t, a in tags if a.get("data-action") == "discard")
    assert "disabled" in play and "disabled" not in discard
    assert "can&#x27;t follow" in html or "can't follow" in html or "handshake can" in html


def _targets_of(session: Session, lang: str = "en") -> dict[str, tuple[str | None, str]]:
    """The lit targets on the table: action -> (the zone's colour, its label)."""
    html = session_render(session, lang)[1]
    found: dict[str, tuple[str | None, str]] = {}
    zone_colour: str | None = None
    for _, attrs in Elements(html).tags:
        if attrs.get("data-zone") in ("expedition", "discard"):
            zone_colour = attrs.get("data-colour")
        action = attrs.get("data-action") or ""
        if action.endswith("-here"):
            assert action not in found  # one target of each kind at most
            found[action] = (zone_colour, attrs.get("aria-label") or "")
    return found


@pytest.mark.parametrize("lang, play, discard", [("en", "Play here: ", "Discard here: "),
                                                 ("es", "Jugar aquí: ", "Descartar aquí: ")])
def test_a_tapped_card_lights_its_legal_places_and_a_tap_there_moves_it(
        lang: str, play: str, discard: str) -> None:
    session, blocked = _turn_with_blocked_card(2)
    assert _targets_of(session) == {}  # nothing picked: nothing lit
    session.handle("select", {"card": blocked})  # it can't be played: only its pile is lit
    found = _targets_of(session, lang)
    assert list(found) == ["discard-here"] and found["discard-here"][0] == blocked[0]
    assert found["discard-here"][1].startswith(discard)
    view = session.view()
    card = next(c for c in view["hand"] if {"type": "play", "card": c} in view["legal_moves"])
    session.handle("select", {"card": card})
    found = _targets_of(session, lang)
    assert found["play-here"][0] == found["discard-here"][0] == card[0]
    assert found["play-here"][1].startswith(play)
    mine = session.view()["expeditions"][session.view()["player"]].get(card[0], [])
    session.handle("play-here", {})
    after = session.view()
    assert after["expeditions"][view["player"]][card[0]] == [*mine, card]
    assert after["phase"] == "draw" and _targets_of(session) == {}  # to the draw: none lit


def test_discarding_locks_that_pile_and_undo_takes_it_back() -> None:
    session = new_session(seed=4)
    session.handle("ready", {})
    view = session.view()
    card = view["hand"][0]
    session.handle("select", {"card": card})
    session.handle("discard", {})
    html = session_render(session, "en")[1]
    pile = next(a for t, a in Elements(html).tags
                if a.get("data-action") == "draw" and a.get("data-source") == card[0])
    assert "disabled" in pile and "Locked" in (pile.get("aria-label") or "")
    session.handle("undo", {})
    assert sorted(session.view()["hand"]) == sorted(view["hand"])
    assert session.view()["phase"] == "play"


def test_setup_form_values_become_options() -> None:
    setup = parse_setup({"name1": "  Ana   María ", "name2": "", "rounds": "5",
                         "starts": "random", "jobs": True, "mixups": True}, "es")
    assert setup.names == ("Ana María", "Jugador 2")
    assert setup.options == Options(rounds=5, jobs=True, mixups=True)
    assert setup.first_player is None
    with pytest.raises(ValueError):
        parse_setup({"rounds": "6"}, "en")
    with pytest.raises(ValueError):
        parse_setup({"starts": "2"}, "en")


def _discard_turn(session: Session) -> None:
    """One plain turn: pass the hand-off, discard the first card, draw from the deck."""
    if session_screen(session) == "handoff":
        session.handle("ready", {})
    session.handle("select", {"card": session.view()["hand"][0]})
    session.handle("discard", {})
    session.handle("draw", {"source": "deck"})
    assert session.ui.message is None


def test_sabotage_opens_a_chooser_and_shuts_the_pile_for_the_opponent() -> None:
    session = new_session(Options(skills=True), seed=8)
    for _ in range(6):
        _discard_turn(session)
    session.handle("ready", {})
    assert session.view()["charges"][session.view()["player"]] == 3
    toggle = next(a for t, a in Elements(session_render(session, "en")[1]).tags
                  if a.get("data-action") == "sabotage")
    assert "disabled" not in toggle and toggle.get("aria-expanded") == "false"
    session.handle("sabotage", {})
    chooser = [data_of(b) for b in Elements(session_render(session, "en")[1]).buttons()
               if b.get("data-colour")]
    assert {b["colour"] for b in chooser} == set(session.view()["colours"])
    session.handle("sabotage", {"colour": "R"})
    assert session.ui.message is None and not session.ui.sabotage_menu
    session.handle("select", {"card": session.view()["hand"][0]})
    session.handle("discard", {})
    session.handle("draw", {"source": "deck"})
    session.handle("ready", {})
    view = session.view()
    assert view["shut_pile"] == "R"
    red = next(a for t, a in Elements(session_render(session, "en")[1]).tags
               if a.get("data-action") == "draw" and a.get("data-source") == "R")
    assert "disabled" in red and "Shut by sabotage" in (red.get("aria-label") or "")


def test_the_mixup_is_announced_to_each_player_once() -> None:
    session = new_session(Options(rounds=1, mixups=True), seed=9)
    while session.view()["mixup"] is None:
        _discard_turn(session)
    mixup = session.view()["mixup"]
    assert session_screen(session) == "handoff"
    assert f'data-mixup="{mixup}"' in session_render(session, "en")[1]
    for _ in range(2):  # each player sees the news on the table and dismisses it
        session.handle("ready", {})
        html = session_render(session, "es")[1]
        assert 'role="alert"' in html and 'data-action="dismiss-mixup"' in html
        session.handle("dismiss-mixup", {})
        assert 'data-action="dismiss-mixup"' not in session_render(session, "es")[1]
        assert f'data-mixup="{mixup}"' in session_render(session, "es")[1]  # the card stays face up
        session.handle("select", {"card": session.view()["hand"][0]})
        session.handle("discard", {})
        session.handle("draw", {"source": "deck"})


@pytest.mark.parametrize("options", [Options(), ALL_ON], ids=["plain", "all-options"])
def test_parts_made_once_are_what_a_fresh_render_makes(options: Options) -> None:
    """The table's parts are kept from one render to the next (expeditions, piles, hand
    cards, log lines): each render is the same as one made with nothing kept."""
    from webui.screens import match, table

    kept = (table._expedition_html, table._pile_html, table._hand_card, match._log_item)
    rng = random.Random(4)
    session = new_session(options, seed=6)
    for step in range(20_000):
        lang = "es" if step % 5 == 0 else "en"
        if step % 97 == 0:  # the same match with other names
            session.seat._state = replace(session.seat._state, names=("Zoë", f"Ben {step}"))
        extras = Extras(log_open=step % 3 == 0)
        view = session.view()
        made = render_doc(view, session.ui, lang, extras)
        for cache in kept:
            cache.cache_clear()
        assert made == render_doc(view, session.ui, lang, extras)
        screen, html = session_render(session, "en")
        if screen == "match-end":
            break
        click_bot_step(session, rng, html)
    else:
        pytest.fail("the match did not end")


def test_the_save_is_the_match_and_its_ui_state_and_resumes_exactly() -> None:
    """A match on this device is saved as the app's document (the seat's JSON and the UI
    state), at every step of a pass-and-play match and of one against the computer, and
    resumes to the same view and UI state."""
    rng = random.Random(8)
    for session in (new_session(ALL_ON, seed=4),
                    Session(BotMatch.new(Options(), 5, 0, ("Ana", "Bot"), "easy"))):
        for _ in range(150):
            text = session.save_text()
            assert text is not None
            assert json.loads(text) == {"app": "lostcities-webui", "version": 1,
                                        "match": session.seat.to_json(),
                                        "ui": session.ui.to_json()}
            again = Session.from_save_text(text)
            assert again.view() == session.view() and again.ui == session.ui
            if session.seat.to_think() is not None:
                steps = session.seat.think()
                while True:  # the bot's thinking, all at once
                    try:
                        next(steps)
                    except StopIteration as done:
                        session.seat.play_thought(done.value)
                        break
            else:
                click_bot_step(session, rng)


@pytest.mark.parametrize("lang, said", [("en", "Ana discarded"), ("es", "Ana descartó")])
def test_the_last_move_is_read_out_from_a_live_region(lang: str, said: str) -> None:
    session = new_session(seed=4)
    session.handle("ready", {})
    live = re.compile(r'<p data-region="last-move" class="visually-hidden" data-last-move '
                      r'role="status" aria-live="polite">([^<]*)</p>')
    assert live.findall(session_render(session, lang)[1]) == [""]  # nothing played yet
    card = session.view()["hand"][0]
    session.handle("select", {"card": card})
    session.handle("discard", {})
    (text,) = live.findall(session_render(session, lang)[1])
    assert text.startswith(said)
