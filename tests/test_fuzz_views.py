"""Fuzzing the views a host sends: hostile markup in any field is refused or shown as text.

Real views (random matches, every phase) are changed in one to five places: a number, a name, a
card, a list or an object replaced by markup, text, a huge or odd value, or given an extra key.
Then either `check_view` refuses the view (ViewError, nothing else), or the guest's whole page
rendered from it (status bar, table or result screens, log, hint) holds no element and no
attribute that came from the view: only the page's own tags, no ``on...`` attribute, no
``<img``. An online guest (a fair seat) fed its host's next real message changed the same way
stops the match with a notice and shows nothing of it. And, as a second line of defence, views
with markup in their fields rendered *without* the check: every value that renders shows as
text.
"""

from __future__ import annotations

import copy
import json
from html.parser import HTMLParser
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fairseats import GROUP, Pair

from lostcities import Options
from lostcities.protocol import APP_VERSION
from lostcities.viewcheck import ViewError, check_view
from real_views import playout_views
from webui.kernel.regions import plain
from webui.kernel.uistate import UiState
from webui.match.hint import render_hint
from webui.online import control
from webui.online.guest import FairGuest
from webui.screens.match import render_doc
from webui.screens.online import render_guest_waiting, status_bar, sync_mark
from webui.screens.table import Extras

View = dict[str, Any]

PAYLOADS = (
    "<img src=x onerror=alert(1)>",
    "<script>window.__pwned=1</script>",
    '"><img src=x onerror=alert(1)>',
    "' onmouseover='alert(1)",
    "</b></span><iframe src=javascript:alert(1)>",
    "&lt;img src=x&gt;",
    "R7<svg onload=alert(1)>",
)
PAGE_TAGS = frozenset({
    "header", "span", "b", "button", "div", "section", "h1", "h2", "h3", "p", "ul", "ol", "li",
    "details", "summary", "small", "table", "caption", "thead", "tbody", "tfoot", "tr", "th",
    "td", "strong",
})
"""Every tag the guest's match screens use: anything else came from the view."""


def _pool() -> list[View]:
    views = []
    for number, options in enumerate((
            Options(rounds=2, sixth_colour=True, jobs=True, skills=True, objectives=True,
                    mixups=True),
            Options(rounds=2), Options(rounds=1, jobs=True, skills=True))):
        for i, v in enumerate(playout_views(options, seed=number + 11)):
            if i % 9 == 0 or v["phase"] in ("round-end", "match-end", "jobs"):
                views.append(json.loads(json.dumps(v)))
    return views


POOL = _pool()
GUEST_POOL = [v for v in POOL if v["player"] == 1]


class Tags(HTMLParser):
    """The start tags of a document and their attributes."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


def assert_nothing_injected(html: str) -> None:
    """No element or attribute in `html` but the page's own."""
    assert "<img" not in html and "<script" not in html and "<iframe" not in html
    for tag, attrs in Tags(html).found:
        assert tag in PAGE_TAGS, tag
        assert not any(name.startswith("on") for name, _ in attrs), (tag, attrs)


def page_of(view: View, lang: str, error: str | None = None) -> list[str]:
    """The guest's page for `view`, in the UI states a player can reach, as the online
    controller composes it: the status bar over the screen (regions stripped)."""
    bar = status_bar(lang, "connected", view["names"][1 - view["player"]], "ABCDEF",
                     sync_mark(view), error, None, True, None)
    hint = render_hint(view, None, lang)
    if view["legal_moves"]:
        hint = render_hint(view, {"view": view, "move": view["legal_moves"][0]}, lang)
    hand = view["hand"]
    states = [UiState(handoff=False), UiState(handoff=True),
              UiState(handoff=False, selected=hand[0] if hand else None, sabotage_menu=True)]
    return [plain(bar + render_doc(view, ui, lang, Extras(hint=hint, log_open=True)))
            for ui in states]


# ---- changing a view ---------------------------------------------------------------------


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (keys and indexes from the top), containers included."""
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, (*prefix, index))
    return found


def at(view: View, path: tuple[Any, ...]) -> Any:
    node: Any = view
    for key in path:
        node = node[key]
    return node


hostile_values = st.one_of(
    st.sampled_from(PAYLOADS),
    st.sampled_from([10 ** 40, -(10 ** 40), 10 ** 5000, 1.5, float("-0"), True, False, None,
                     "", " ", "0", "7", "\x02", "\x04x\x03", [], {}, [PAYLOADS[0]],
                     {PAYLOADS[0]: PAYLOADS[1]}]),
    st.text(alphabet='<>&"\' =/abcimgx()\x02\x04', max_size=12),
    st.integers(),
)


@st.composite
def hostile_views(draw: st.DrawFn, pool: list[View]) -> View:
    """A real view from `pool` with one to five places changed."""
    view = copy.deepcopy(draw(st.sampled_from(pool)))
    for _ in range(draw(st.integers(1, 5))):
        places = paths(view)
        path = places[draw(st.integers(0, len(places) - 1))]
        parent, key = at(view, path[:-1]), path[-1]
        how = draw(st.sampled_from(("replace", "replace", "replace", "extra", "rename")))
        value = copy.deepcopy(draw(hostile_values))  # sampled containers are shared objects
        if how == "extra" and isinstance(parent, dict):
            parent[draw(st.sampled_from(PAYLOADS))] = value
        elif how == "extra" and isinstance(parent, list):
            parent.append(value)
        elif how == "rename" and isinstance(parent, dict):
            parent[draw(st.sampled_from(PAYLOADS))] = parent.pop(key)
        else:
            parent[key] = value
    return view


FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(view=hostile_views(POOL), lang=st.sampled_from(("en", "es")))
def test_a_hostile_view_is_refused_or_rendered_as_text(view: View, lang: str) -> None:
    try:
        check_view(view)
    except ViewError:
        return
    for html in page_of(view, lang):
        assert_nothing_injected(html)


def _next_message() -> tuple[dict[str, Any], dict[str, Any]]:
    """A guest's save mid-match, and the host's next message to it (from the same match)."""
    pair = Pair(Options(rounds=1, skills=True, objectives=True), first=0, seed=4)
    pair.play(7)
    saved = json.loads(json.dumps(pair.guest.to_json()))
    seen = len(saved["peer"]["transcript"])
    pair.play(3)
    later = pair.guest.to_json()["peer"]["transcript"][seen:]
    return saved, next(entry["msg"] for entry in later if entry["dir"] == "in")


GUEST_SAVE, NEXT_MESSAGE = _next_message()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(message=hostile_views([NEXT_MESSAGE]))
def test_the_guest_shows_nothing_of_a_hostile_message_but_a_notice(
        message: dict[str, Any]) -> None:
    try:
        text = json.dumps(message)
    except ValueError:  # a number too long to write: no host can send it
        assume(False)
    guest = FairGuest.from_json(GUEST_SAVE, 0.0)
    guest.load(GROUP)
    before = guest.view()
    guest.opened(lambda _text: None, 0.0)
    guest.receive(control.welcome(APP_VERSION, 1, guest.peer.last_received,  # type: ignore[union-attr]
                                  guest.setup), 0.0)  # type: ignore[arg-type]
    guest.receive(text, 0.0)
    if guest.stopped:  # nothing of the message reaches the table: a notice says why
        assert guest.view()["log"] == before["log"] and guest.view()["hand"] == before["hand"]
        assert guest.problem() and guest.submit(before["legal_moves"][0] if before[
            "legal_moves"] else {"type": "undo"}) == {"code": "stopped", "data": {}}
    for html in page_of(guest.view(), "en", guest.problem()):
        assert_nothing_injected(html)
    assert_nothing_injected(render_guest_waiting("en", guest.code, None, guest.problem()))


# ---- without the check: the renderers escape on their own ----------------------------------


def _busy() -> View:
    for v in playout_views(Options(rounds=2, sixth_colour=True, jobs=True, skills=True,
                                   objectives=True, mixups=True), seed=3):
        if v["round"] == 2 and v["phase"] == "play" and v["to_act"] == v["player"] and len(
                v["log"]) > 12:
            return json.loads(json.dumps(v))  # type: ignore[no-any-return]
    raise AssertionError("no busy view")


def _final() -> View:
    views = playout_views(Options(rounds=2, objectives=True), seed=4)
    final = next(v for v in views if v["phase"] == "match-end")
    return json.loads(json.dumps(final))  # type: ignore[no-any-return]


SHOWN_AS_TEXT = (
    "names.0", "names.1", "totals.0", "totals.1", "deck_count", "scores.0.total",
    "scores.1.total", "scores.0.R", "scores.1.Y",
    "discards.R.size", "discards.Y.size", "charges.0", "charges.1", "round",
)
SHOWN_AS_TEXT_AT_THE_END = (
    "names.0", "names.1", "totals.0", "totals.1", "round_scores.0.0", "round_scores.1.1",
    "breakdown.0.total", "breakdown.1.total", "breakdown.0.expeditions.R.score",
    "breakdown.0.expeditions.R.sum", "breakdown.0.expeditions.R.cost",
    "breakdown.0.expeditions.R.multiplier", "breakdown.0.expeditions.R.bonus",
    "breakdown.1.expeditions.Y.score", "round",
)


def _set(view: View, dotted: str, value: object) -> None:
    keys = [int(k) if k.isdigit() else k for k in dotted.split(".")]
    at(view, tuple(keys[:-1]))[keys[-1]] = value


@pytest.mark.parametrize("base, fields", [(_busy, SHOWN_AS_TEXT),
                                          (_final, SHOWN_AS_TEXT_AT_THE_END)],
                         ids=["table", "match-end"])
def test_markup_in_every_shown_field_renders_as_text_without_the_check(base: Any,
                                                                       fields: tuple[str, ...]
                                                                       ) -> None:
    view = base()
    for number, dotted in enumerate(fields):
        _set(view, dotted, f"<img src=x onerror=alert({number})>")
    with pytest.raises(ViewError):
        check_view(view)
    for lang in ("en", "es"):
        for html in page_of(view, lang):
            assert_nothing_injected(html)
        shown = "".join(page_of(view, lang))
        missing = [dotted for number, dotted in enumerate(fields)
                   if f"&lt;img src=x onerror=alert({number})&gt;" not in shown]
        assert missing == []


@pytest.mark.parametrize("dotted", sorted({".".join(map(str, p)) for p in paths(_busy())
                                           if p[0] not in ("legal_moves", "refusals")}))
def test_markup_in_any_one_field_is_escaped_or_refused_by_the_renderers(dotted: str) -> None:
    view = _busy()
    _set(view, dotted, PAYLOADS[0])
    try:
        pages = page_of(view, "en")
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return  # a renderer refused the value: nothing shown
    for html in pages:
        assert_nothing_injected(html)


def test_the_pool_covers_every_phase() -> None:
    assert {v["phase"] for v in POOL} == {"jobs", "play", "draw", "round-end", "match-end"}
    assert {v["phase"] for v in GUEST_POOL} == {"jobs", "play", "draw", "round-end", "match-end"}
    for v in POOL[:50]:
        check_view(v)
        for html in page_of(v, "en"):
            assert_nothing_injected(html)
