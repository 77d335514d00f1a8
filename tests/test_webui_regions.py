"""Keyed regions (webui/kernel/regions.py): the page's updates give exactly the new screen,
and a click replaces only what it changed.

The operations are carried out on a small document tree (html.parser), as the page does on the
DOM, over whole matches played by the click-bot of test_webui_table.py.
"""

from __future__ import annotations

import html
import random
from dataclasses import replace
from html.parser import HTMLParser

import pytest
from test_webui_table import ALL_ON, click_bot_step, new_session
from sessionkit import session_screen

from lostcities import Options
from webui.kernel.regions import Op, Region, diff, keyed, parse, plain, unescape
from webui.screens.html import EMPTY, Markup, esc
from webui.screens.match import render_doc, render_screen
from webui.screens.table import Extras

Node = list  # [tag, attributes, children]; text is a str child


class _Tree(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root: Node = ["#root", [], []]
        self.stack = [self.root]
        self.feed(html)
        self.close()
        assert self.stack == [self.root], "unbalanced HTML"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node: Node = [tag, [(name, value or "") for name, value in attrs], []]
        self.stack[-1][2].append(node)
        self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1][2].append([tag, [(name, value or "") for name, value in attrs], []])

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1][0] == tag, f"</{tag}> closes <{self.stack[-1][0]}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1][2].append(data)


def tree(html: str) -> list[object]:
    """The nodes of an HTML fragment."""
    return _Tree(html).root[2]


def _find(nodes: list[object], key: str) -> tuple[list[object], int] | None:
    for i, node in enumerate(nodes):
        if isinstance(node, list):
            if ("data-region", key) in node[1]:
                return nodes, i
            found = _find(node[2], key)
            if found:
                return found
    return None


def apply(dom: list[object], ops: list[Op]) -> list[object]:
    """The operations carried out on a document tree, as main.py does on the DOM."""
    for op in ops:
        if op.kind == "all":
            dom = tree(op.html)
            continue
        found = _find(dom, op.key)
        assert found is not None, f"region {op.key} is not in the document"
        siblings, i = found
        attributes: list[tuple[str, str]] = siblings[i][1]  # type: ignore[index]
        names = [name for name, _ in attributes]
        if op.kind == "set" and op.name in names:  # in place, as setAttribute does
            attributes[names.index(op.name)] = (op.name, op.html)
        elif op.kind == "set":  # a new attribute comes last
            attributes.append((op.name, op.html))
        elif op.kind == "unset":
            attributes[:] = [(n, v) for n, v in attributes if n != op.name]
        elif op.kind == "replace":
            siblings[i:i + 1] = tree(op.html)
        elif op.kind == "remove":
            del siblings[i]
        elif op.kind == "before":
            siblings[i:i] = tree(op.html)
        else:
            siblings[i + 1:i + 1] = tree(op.html)
    return dom


def touched(ops: list[Op]) -> set[str]:
    """What the operations do to which kind of region (``replace:card``, ``all:``)."""
    items = ("card-", "exp-", "pile-", "who-")
    return {f"{op.kind}:{op.key.split('-')[0] if op.key.startswith(items) else op.key}"
            for op in ops}


@pytest.mark.parametrize("options", [Options(rounds=2), replace(ALL_ON, rounds=1)],
                         ids=["plain", "all-options"])  # the round's change: plain's
def test_updates_give_the_new_screen_and_a_pick_touches_little(options: Options) -> None:
    rng = random.Random(5)
    session = new_session(options, seed=21)
    shown: Region | None = None
    dom: list[object] = []
    lang = "en"
    kinds: dict[str, set[str]] = {}
    for _ in range(20_000):
        if rng.random() < 0.02:
            lang = "es" if lang == "en" else "en"
        extras = Extras(log_open=rng.random() < 0.1,
                        hint=Markup('<div class="hint">?</div>') if rng.random() < 0.1 else EMPTY)
        doc = render_doc(session.view(), session.ui, lang, extras)
        new = parse(doc)
        assert new.html == plain(doc)
        ops = diff(shown, new)
        dom = apply(dom, ops)
        assert dom == tree(new.html)
        if shown is not None and session_screen(session) == "match-end":
            break
        shown = new
        screen, menu = session_screen(session), session.ui.sabotage_menu
        action = click_bot_step(session, rng, new.html)
        if screen == "turn" and session_screen(session) == "turn" and not (extras.hint or menu):
            kinds.setdefault(action, set()).update(touched(
                diff(shown, parse(render_doc(session.view(), session.ui, lang, extras)))))
    else:
        pytest.fail("the match did not end")
    # picking a card changes attributes of the cards and buttons, and the status line, and
    # lights (or puts out) its expedition and its pile as targets
    assert kinds["select"] <= {"set:card", "set:play", "unset:play", "set:discard",
                               "unset:discard", "replace:status", "replace:exp", "replace:pile"}
    # a play or a discard takes its card out of the hand; no move redraws the whole screen
    assert "remove:card" in kinds["play"] | kinds["discard"]
    moves = set().union(*(kinds[k] for k in ("select", "play", "discard", "undo")))
    assert not any(k.startswith("all:") or k.startswith("replace:hand") for k in moves)
    # cards and buttons are enabled, disabled and picked in place (the focus stays on them)
    assert not moves & {"replace:card", "replace:play", "replace:discard", "replace:undo"}


def test_the_plain_screen_is_the_keyed_one_without_markers() -> None:
    session = new_session(Options(skills=True, objectives=True), seed=3)
    session.handle("ready", {})
    doc = render_doc(session.view(), session.ui, "en")
    html = render_screen(session.view(), session.ui, "en")
    assert "\x02" in doc and not any(c in html for c in "\x02\x03\x04")
    assert html == plain(doc) and 'data-region="hand"' in html


def test_lists_insert_and_remove_items_in_place() -> None:
    def hand(cards: list[str]) -> Region:
        items = "".join(keyed(f"c{c}", f"<b>{c}</b>") for c in cards)
        return parse("<p>top</p>" + keyed("hand", f"<div>{items}</div>"))

    old, new = hand(["1", "2", "4"]), hand(["0", "2", "3", "4", "5"])
    ops = diff(old, new)
    assert [(op.kind, op.key) for op in ops] == [("remove", "c1"), ("before", "c2"),
                                                 ("after", "c2"), ("after", "c4")]
    assert apply(tree(old.html), ops) == tree(new.html)
    # reordered items, or none kept: the list is replaced whole
    assert [op.kind for op in diff(old, hand(["4", "2"]))] == ["replace"]
    assert [op.kind for op in diff(old, hand(["7"]))] == ["replace"]
    assert diff(old, hand(["1", "2", "4"])) == []


def test_markup_outside_the_regions_changing_redraws_everything() -> None:
    old = parse("<h1>A</h1>" + keyed("x", "<p>1</p>"))
    assert diff(old, parse("<h1>B</h1>" + keyed("x", "<p>1</p>"))) == [
        Op("all", html='<h1>B</h1><p data-region="x">1</p>')]
    assert diff(None, old) == [Op("all", html=old.html)]


@pytest.mark.parametrize("bad", ["text", " <p>x</p>", ""])
def test_a_region_is_one_element(bad: str) -> None:
    if bad:
        with pytest.raises(ValueError):
            keyed("k", bad)
    else:
        assert keyed("k", bad) == ""
    with pytest.raises(ValueError):
        keyed('k"', "<p></p>")
    with pytest.raises(ValueError):
        parse(keyed("k", "<p></p>")[:-1])
    with pytest.raises(ValueError):
        parse(keyed("k", "<p></p>").split("</p>")[1])  # a closing marker alone


def test_unescape_reads_back_what_esc_wrote_as_the_html_module_would() -> None:
    """regions.unescape undoes webui.screens.html.esc (which writes what html.escape writes)."""
    samples = ["", "plain", "&", "&amp;", "<b>\"Ann\" & 'Bo'</b>", "&#x27;&quot;&lt;", "a&b;c",
               "tom & jerry's \"<>\" &nbsp;", "&&&;;;"]
    for text in samples:
        assert esc(text) == html.escape(text, quote=True)
        assert unescape(esc(text)) == text == html.unescape(esc(text))
