"""Saves read back from the browser's storage: a hostile one is refused with a clear error.

Saves go through the peer messages' parser (lostcities.protocol.decode_json), which checks size
and nesting before json.loads: in Pyodide, a save nested thousands deep would otherwise exhaust
the WebAssembly stack, a fatal error no ``except`` catches (e2e/test_online.py checks the page).
"""

from __future__ import annotations

import json

import pytest

from fairseats import ALL, GROUP, Pair

from lostcities import Options
from webui.match.seats.local import LocalMatch
from webui.match.session import MAX_SAVE_BYTES, MAX_SAVE_DEPTH, Session, parse_save
from webui.online.guest import FairGuest
from webui.online.host import FairHost

DEEP = "[" * 6000 + "]" * 6000


def test_a_deeply_nested_save_is_refused_before_parsing() -> None:
    with pytest.raises(ValueError, match="nested deeper than 32"):
        parse_save(DEEP)
    with pytest.raises(ValueError, match="not a readable save"):
        Session.from_save_text('{"app": "lostcities-webui", "version": 1, "match": ' + DEEP + "}")
    nested = "[" * MAX_SAVE_DEPTH + "]" * MAX_SAVE_DEPTH
    assert parse_save(nested) is not None  # the limit itself is accepted
    with pytest.raises(ValueError, match="nested deeper"):
        parse_save("[" + nested + "]")


def test_an_oversized_or_broken_save_is_refused() -> None:
    with pytest.raises(ValueError, match="larger than"):
        parse_save('"' + "x" * MAX_SAVE_BYTES + '"')
    for text in ("", "{", "NaN", '{"a": 1, "a": 2}'):
        with pytest.raises(ValueError, match="not a readable save"):
            parse_save(text)


def test_real_saves_still_load() -> None:
    session = Session(LocalMatch.new(Options(rounds=5, jobs=True, skills=True,
                                             objectives=True, mixups=True), 3, 0, ("A", "B")))
    assert Session.from_save_text(session.save_text()).view() == session.view()
    pair = Pair(ALL, first=None, seed=9)
    pair.play(30)
    for seat, cls in ((pair.host, FairHost), (pair.guest, FairGuest)):
        text = json.dumps(seat.to_json())
        assert len(text) < MAX_SAVE_BYTES // 4
        again = cls.from_json(parse_save(text), 0.0)
        again.load(GROUP)
        assert again.to_json() == seat.to_json() and again.view() == seat.view()
