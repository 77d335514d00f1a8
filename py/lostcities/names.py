"""Players' names: what is kept of the text a person, a peer or a save gives.

A name is shown on both screens and sent over the wire, so it holds only characters that
show: control and format characters (Unicode categories Cc and Cf: C0/C1 controls, bidi
overrides and isolates, zero-width spaces and joiners, the byte-order mark, the soft hyphen),
lone surrogates (Cs) and the blank-looking fillers are dropped, runs of white space become one
space, and the ends are trimmed. Every entry point (the setup form, the lobby, a peer's
``hello``, a save) goes through `clean_name`.
"""

from __future__ import annotations

import unicodedata
from typing import Final

MAX_NAME_CHARS: Final = 40
"""Longest player name (in characters), wherever it comes from; the wire protocol checks the
same bound (and uses it for the app version text)."""

_DROPPED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs"})
_BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0")
"""Hangul fillers: letters by category, but they show nothing."""


def is_hidden(char: str) -> bool:
    """Whether `char` is one that a name never keeps (see the module's docstring)."""
    return char in _BLANK_LETTERS or unicodedata.category(char) in _DROPPED_CATEGORIES


def clean_name(text: str, limit: int = MAX_NAME_CHARS) -> str:
    """`text` as a name: hidden characters dropped, white space collapsed and trimmed, at most
    `limit` characters. The result may be empty: the caller refuses it or uses its default."""
    shown = "".join(ch for ch in text if not is_hidden(ch))
    return " ".join(" ".join(shown.split())[:limit].split())
