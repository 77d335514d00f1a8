"""Texts that stress the nesting check of `lostcities.protocol.decode_json`, by size.

Shared by tests/test_protocol_hardening.py (work grows linearly) and scripts/bench_protocol.py
(the figures). Each maker returns a text of about `size` characters.
"""

from __future__ import annotations

from collections.abc import Callable


def hostile(size: int) -> str:
    """Nine brackets, a quote, then escaped quotes: an unterminated string of backslashes
    (the message that froze the host)."""
    head = "[" * 9 + '"'
    return head + '\\"' * ((size - len(head)) // 2)


def nested(size: int) -> str:
    """One run of opening brackets, then as many closing ones."""
    return "[" * (size // 2) + "]" * (size // 2)


def groups(size: int) -> str:
    """Groups at the limit side by side: the most passes of pair stripping."""
    group = "[" * 8 + "]" * 8
    return group * (size // len(group))


def strings(size: int) -> str:
    """Many short strings holding brackets, quotes and backslashes, nested one too deep."""
    item = '"[\\"{\\\\",'
    return "[" * 9 + item * ((size - 30) // len(item)) + '""' + "]" * 9


def stairs(size: int) -> str:
    """Nesting that climbs one level per group, never with a long run of brackets."""
    step = '[[[[[[[[],"x",'
    return step * (size // len(step))


def flat(size: int) -> str:
    """A valid, shallow array of small arrays (what a big honest message looks like)."""
    return "[" + ",".join(["[1,2]"] * ((size - 2) // 6)) + "]"


HOSTILE_SHAPES: dict[str, Callable[[int], str]] = {
    "hostile": hostile, "nested": nested, "groups": groups, "strings": strings,
    "stairs": stairs,
}
"""The shapes an attacker would send."""
SHAPES: dict[str, Callable[[int], str]] = {**HOSTILE_SHAPES, "flat": flat}
"""Those, and a big honest message for comparison."""
