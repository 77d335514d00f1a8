"""The UI words the engine's refusals: every code in both languages, and the table's "why" line
and pile labels come from the view's refusal codes, never from rules of the UI's own."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from sessionkit import session_render, session_screen

from lostcities import REFUSAL_CODES, Discard, Options, Play, apply
from lostcities.scenario import position
from lostcities.state import PHASES
from webui.match.seats import SEAT_REFUSALS, refused
from webui.match.seats.computer import BotMatch
from webui.match.seats.local import LocalMatch
from webui.match.session import Session
from webui.text.i18n import LANGUAGES, MESSAGES
from webui.text.moves import refusal_key, refusal_text

SAMPLE_DATA: dict[str, Any] = {
    "to_act": 1, "colour": "R", "card": "R4", "top": 7, "skill": "sabotage", "cost": 3,
    "charges": 2, "job": "scout",
}
"""A value for every data key the engine's refusals carry."""


def every_refusal() -> list[dict[str, Any]]:
    """One refusal of each code the engine can give (``wrong-phase`` once per phase)."""
    out = []
    for code, keys in REFUSAL_CODES.items():
        data = {k: SAMPLE_DATA[k] for k in keys if k != "phase"}
        if "phase" in keys:
            out += [{"code": code, "data": {**data, "phase": phase}} for phase in PHASES]
        else:
            out.append({"code": code, "data": data})
    return out


@pytest.mark.parametrize("refusal", every_refusal(), ids=lambda r: refusal_key(r))
def test_every_engine_refusal_is_worded_in_english_and_spanish(refusal: dict[str, Any]) -> None:
    assert refusal_key(refusal) in MESSAGES
    texts = {lang: refusal_text(lang, refusal) for lang in LANGUAGES}
    for text in texts.values():
        assert text.strip() and "{" not in text and "}" not in text
    assert texts["en"] != texts["es"] or refusal["code"] == "not-a-move"


def test_the_data_is_put_into_words() -> None:
    below = {"code": "below-top", "data": {"card": "R4", "colour": "R", "top": 7}}
    assert refusal_text("en", below) == "Red 4 can't follow Red 7."
    assert refusal_text("es", below) == "Rojo 4 no puede ir después de Rojo 7."
    shut = {"code": "pile-shut", "data": {"colour": "W"}}
    assert "blanca" in refusal_text("es", shut) and "white" in refusal_text("en", shut)
    charge = {"code": "no-charge", "data": {"skill": "airlift", "cost": 2, "charges": 1}}
    assert refusal_text("es", charge) == "Puente aéreo cuesta ⚡2; tienes ⚡1."


def _why(html: str) -> str:
    match = re.search(r'<p[^>]*id="why"[^>]*>(.*?)</p>', html, re.S)
    assert match, "no why line"
    return unescape(match.group(1))


def _blocked_session() -> Session:
    state = position(hands=(["R4", "BH", "Y2"], []),
                     expeditions=({"R": ["R2", "R7"], "B": ["B3"]}, {}))
    session = Session(LocalMatch(state))
    if session_screen(session) == "handoff":
        session.handle("ready", {})
    return session


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_why_line_of_a_blocked_card_is_the_engines_reason(lang: str) -> None:
    session = _blocked_session()
    refusals = session.view()["refusals"]["play"]
    assert {"R4", "BH"} <= set(refusals) and "Y2" not in refusals
    for card in ("R4", "BH"):
        session.handle("select", {"card": card})
        assert _why(session_render(session, lang)[1]) == refusal_text(lang, refusals[card])
    assert "Rojo 7" in refusal_text("es", refusals["R4"])


def test_the_why_line_follows_the_code_not_the_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    session = _blocked_session()
    view = dict(session.view())
    view["refusals"] = {"play": {"R4": {"code": "handshake-after-number",
                                        "data": {"colour": "G"}}}, "draw": {}}
    monkeypatch.setattr(session, "view", lambda: view)
    session.handle("select", {"card": "R4"})
    assert _why(session_render(session, "en")[1]) == (
        "A handshake can't follow a number in the green expedition.")


def test_a_playable_card_has_no_reason_and_shows_its_name() -> None:
    session = _blocked_session()
    session.handle("select", {"card": "Y2"})
    assert _why(session_render(session, "en")[1]) == "Yellow 2"


@pytest.mark.parametrize(("lang", "word"), [("en", "Locked"), ("es", "Bloqueada")])
def test_a_locked_pile_says_why_in_the_players_language(lang: str, word: str) -> None:
    state = apply(position(Options(), hands=(["G5", "Y2"], []), discards={"G": ["G2"]}),
                  Discard("G5"))
    session = Session(LocalMatch(state))
    if session_screen(session) == "handoff":
        session.handle("ready", {})
    assert session.view()["refusals"]["draw"]["G"]["code"] == "pile-locked"
    html = session_render(session, lang)[1]
    pile = re.search(r'<button[^>]*data-source="G"[^>]*>', html)
    assert pile and "disabled" in pile.group(0)
    label = unescape(re.search(r'aria-label="([^"]*)"', pile.group(0)).group(1))  # type: ignore
    assert label.endswith(refusal_text(lang, session.view()["refusals"]["draw"]["G"]))
    assert word in label


def test_after_a_play_the_cards_have_no_play_reasons() -> None:
    state = apply(position(hands=(["R4", "Y2"], []), expeditions=({"R": ["R7"]}, {})),
                  Play("Y2"))
    assert Session(LocalMatch(state)).view()["refusals"]["play"] == {}


@pytest.mark.parametrize("code", SEAT_REFUSALS)
def test_every_seat_refusal_is_worded_in_english_and_spanish(code: str) -> None:
    texts = {lang: refusal_text(lang, refused(code)) for lang in LANGUAGES}
    assert all(text.strip() and "{" not in text for text in texts.values())
    assert texts["en"] != texts["es"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_move_is_shown_in_the_players_words(lang: str) -> None:
    session = _blocked_session()
    session.handle("select", {"card": "R4"})
    session.handle("play", {})
    assert session.ui.message == {"code": "below-top",
                                  "data": {"card": "R4", "colour": "R", "top": 7}}
    assert _why(session_render(session, lang)[1]) == refusal_text(lang, session.ui.message)
    assert "message" not in session.ui.to_json()  # a reload clears it: not saved


def test_a_refused_move_against_the_computer_says_whose_turn_it_is() -> None:
    match = BotMatch.new(Options(rounds=1), 3, 1, ("Ana", "Bot"), "easy")
    assert match.to_think() == match.bot
    before = match.to_json()
    assert match.submit({"type": "draw", "source": "deck"}) == refused("not-your-turn",
                                                                      to_act=match.bot)
    assert match.to_json() == before


def test_a_malformed_move_is_not_a_move() -> None:
    session = _blocked_session()
    session.handle("draw", {"source": "??"})
    assert session.ui.message == refused("not-a-move")
