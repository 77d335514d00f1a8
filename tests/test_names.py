"""Players' names: hidden characters never survive an entry point, and no name breaks a screen.

A name holding the region markers' control characters once made every render raise, and the
match (saved before it was shown) then failed every later boot the same way.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from sessionkit import session_render_doc

from lostcities import Options, new_match, state_from_json, state_to_json
from lostcities.cli.host import MatchHost
from lostcities.names import MAX_NAME_CHARS, clean_name
from lostcities.protocol import APP_VERSION, PROTOCOL_VERSION
from webui.kernel.regions import diff, keyed, parse, plain
from webui.match.seats.local import LocalMatch
from webui.match.session import Session
from webui.match.setup import NAME_MAX, parse_setup
from webui.screens.html import esc

HIDDEN = {
    "STX (a region marker before)": "\x02",
    "EOT (a region marker before)": "\x04",
    "NUL": "\x00",
    "ESC": "\x1b",
    "right-to-left override": "\u202e",
    "left-to-right isolate": "\u2066",
    "zero-width space": "\u200b",
    "byte-order mark": "\ufeff",
    "soft hyphen": "\u00ad",
}
KINDS = list(HIDDEN)


@pytest.mark.parametrize("kind", KINDS)
def test_clean_name_drops_each_hidden_character(kind: str) -> None:
    char = HIDDEN[kind]
    assert clean_name(f"{char}An{char}a{char}") == "Ana"
    assert clean_name(f"  Ana {char} Bel  ") == "Ana Bel"
    assert clean_name(char * 5) == ""


def test_clean_name_keeps_what_shows_and_bounds_the_length() -> None:
    assert clean_name("José 北京 😀") == "José 北京 😀"
    assert clean_name(" a \t\n b\u2028c ") == "a b c"
    assert clean_name("x" * 100) == "x" * MAX_NAME_CHARS
    assert clean_name("abcd   efgh", 5) == "abcd"  # collapsed, cut, then trimmed
    assert clean_name("\u3164\u115f") == ""  # Hangul fillers show nothing


def _render_everything(session: Session) -> None:
    """Every language's screen, parsed into regions and diffed as the page does."""
    shown = None
    for lang in ("en", "es"):
        _, doc = session_render_doc(session, lang)
        tree = parse(doc)
        assert not any(c in plain(doc) for c in "\x02\x03\x04")
        diff(shown, tree)
        shown = tree


@pytest.mark.parametrize("kind", KINDS)
def test_a_name_typed_in_the_form_starts_saves_reloads_and_renders(kind: str) -> None:
    char = HIDDEN[kind]
    setup = parse_setup({"name1": f"An{char}a", "name2": char * 3, "rounds": "1"}, "en")
    assert setup.names == ("Ana", "Player 2")  # nothing left once cleaned: the default
    session = Session(LocalMatch.new(setup.options, 5, 0, setup.names))
    _render_everything(session)
    back = Session.from_save_text(session.save_text())
    assert back.view()["names"] == ["Ana", "Player 2"]
    _render_everything(back)


@pytest.mark.parametrize("kind", KINDS)
def test_a_save_holding_a_hidden_character_loads_cleaned_and_renders(kind: str) -> None:
    """A save written before names were cleaned (the engine takes any text as a name)."""
    char = HIDDEN[kind]
    options = Options(rounds=2, jobs=True, skills=True, objectives=True, mixups=True)
    session = Session(LocalMatch.new(options, 9, 0, (f"Ana{char}", f"{char}Ben{char}")))
    text = session.save_text()
    assert json.dumps(char)[1:-1] in text or char in text  # the raw name is in the save
    back = Session.from_save_text(text)
    assert back.view()["names"] == ["Ana", "Ben"]
    back.handle("ready", {})
    _render_everything(back)
    only_hidden = json.loads(text)
    only_hidden["match"]["state"]["names"] = [char, char * 2]
    assert Session.from_save_text(json.dumps(only_hidden)).view()["names"] == [
        "Player 1", "Player 2"]


def test_form_names_keep_the_forms_bound() -> None:
    setup = parse_setup({"name1": "y" * 50, "name2": "\u202e" + "z" * 19 + "!"}, "en")
    assert setup.names == ("y" * NAME_MAX, "z" * 19 + "!")


@pytest.mark.parametrize("text", ["Ana\x02", "\x04Ben", "<\x02x\x03", "\x02k\x03<p>",
                                  "<\x04k\x03", "a\x03b"])
def test_no_escaped_text_opens_closes_or_unbalances_a_region(text: str) -> None:
    doc = keyed("outer", f"<div><p>{esc(text)}</p>{keyed('inner', f'<b>{esc(text)}</b>')}</div>")
    tree = parse(doc)
    assert tree.child_keys() == ["outer"] and tree.children[0].child_keys() == ["inner"]
    assert esc(text) in tree.html
    with pytest.raises(ValueError):
        keyed("k<", "<p></p>")


def _hello(seq: int, name: Any) -> str:
    return json.dumps({"v": PROTOCOL_VERSION, "seq": seq, "type": "hello", "name": name,
                       "app": APP_VERSION})


@pytest.mark.parametrize("kind", KINDS)
def test_a_hello_with_a_hidden_character_is_refused_and_changes_nothing(kind: str) -> None:
    host = MatchHost()
    host.connect(1)
    [(peer, reply)] = host.receive(1, _hello(1, f"Ben{HIDDEN[kind]}"))
    assert (peer, reply["type"], reply["code"]) == (1, "error", "bad-message")
    assert "invisible characters" in reply["message"]
    assert not host.is_greeted(1) and host.name_of(1) is None


def test_a_hello_name_is_kept_cleaned_and_a_blank_one_is_refused() -> None:
    host = MatchHost()
    host.connect(1)
    assert host.receive(1, _hello(1, "   "))[0][1]["code"] == "bad-message"
    assert host.receive(1, _hello(2, "  Ben   Bo  "))[0][1]["type"] == "welcome"
    assert host.name_of(1) == "Ben Bo"


def test_a_host_snapshot_holding_a_hidden_name_restores_cleaned() -> None:
    host = MatchHost()
    host.connect(1)
    host.receive(1, _hello(1, "Ben"))
    snapshot = host.snapshot()
    snapshot["peers"]["1"]["name"] = "\x02Ben\u202e"
    snapshot["state"] = state_to_json(new_match(Options(), seed=1, names=("A\x04", "\u200b")))
    back = MatchHost.restore(json.loads(json.dumps(snapshot)))
    assert back.name_of(1) == "Ben"
    assert back.state is not None and back.state.names == ("A", "Player 2")
    snapshot["peers"]["1"]["name"] = "\ufeff"
    assert MatchHost.restore(snapshot).name_of(1) is None  # as if it had given none


def test_state_from_json_cleans_names() -> None:
    data = state_to_json(new_match(Options(), seed=4, names=("Ana", "Ben")))
    data["names"] = ["\x02Ana", "Ben\x04"]
    assert state_from_json(data).names == ("Ana", "Ben")
