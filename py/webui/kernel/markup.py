"""HTML that escapes by default: the one way the screens put values into markup.

`Markup` is a string that is HTML already. The builders here return it, and escape everything
else they are given: text, numbers, names, anything from a view, whatever its type:

- `html(template, **values)` fills a template (a literal written in the code) with values;
- `el(tag, *children, **attributes)` and `void(tag, **attributes)` make elements;
- `attrs(**values)` makes attributes (every value escaped and quoted);
- `join(parts)` and ``markup + other`` join pieces (a part that is not `Markup` is escaped).

So a value reaches the page as markup only if it is `Markup`, made here from parts that are
themselves escaped or literal. A value can't be interpolated without escaping by forgetting
to: the screens build no markup with f-strings (tests/test_webui_escaping.py checks it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from webui.kernel.regions import keyed


class Markup(str):
    """A string of HTML, safe to put into the page as it is (made by this module's builders).

    Joined with ``+`` to a string that is not `Markup`, the other string is escaped first."""

    __slots__ = ()

    def __add__(self, other: str) -> Markup:
        return Markup(str.__add__(self, _escaped(other)))

    def __radd__(self, other: str) -> Markup:
        return Markup(str.__add__(_escaped(other), self))


_SPECIAL = re.compile("[&<>\"']")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})
"""What html.escape(quote=True) writes; not imported from `html`, whose entity table costs the
page's first boot about 70 ms to compile (regions.unescape undoes exactly this)."""
_TAG = re.compile("[a-z][a-z0-9]*")
_ATTRIBUTE = re.compile("[a-zA-Z][a-zA-Z0-9-]*")
EMPTY = Markup("")


def _escaped(value: object) -> str:
    """`value` as HTML text (`Markup` as it is), for the builders' own use."""
    if isinstance(value, Markup):
        return value
    text = value if type(value) is str else str(value)
    return text.translate(_ESCAPES) if _SPECIAL.search(text) else text


def esc(value: object) -> Markup:
    """`value` as HTML: `Markup` as it is, anything else as text, escaped (numbers included)
    for element content and quoted attribute values alike."""
    return value if isinstance(value, Markup) else Markup(_escaped(value))


def html(template: str, /, **values: object) -> Markup:
    """`template` (HTML written in the code, with ``{name}`` fields) filled with `values`,
    each escaped unless it is `Markup`."""
    return Markup(template.format_map({key: _escaped(value) for key, value in values.items()}))


def attrs(**values: object) -> Markup:
    """HTML attributes from keywords (``data_card`` -> ``data-card``), every value escaped.

    None and False leave the attribute out; True writes it bare (``disabled``). ``disabled``
    always comes last, so that enabling or disabling a control in the page keeps the order of
    its attributes (regions.py then sets it in place instead of replacing the element).
    """
    return Markup(_attrs(values))


def _attrs(values: dict[str, object]) -> str:
    parts = []
    for key, value in values.items():
        if value is None or value is False or key == "disabled":
            continue
        name = _NAMES.get(key) or _name(key)
        parts.append(f" {name}" if value is True else f' {name}="{_escaped(value)}"')
    if values.get("disabled"):
        parts.append(" disabled")
    return "".join(parts)


_NAMES: dict[str, str] = {}
"""Attribute names by keyword, as made once by `_name`."""


def _name(key: str) -> str:
    name = key.rstrip("_").replace("_", "-")
    if _ATTRIBUTE.fullmatch(name) is None:
        raise ValueError(f"not an attribute name: {key!r}")
    _NAMES[key] = name
    return name


_TAGS: set[str] = set()
"""Tag names already checked."""


def _tag(tag: str) -> str:
    if tag not in _TAGS:
        if _TAG.fullmatch(tag) is None:
            raise ValueError(f"not a tag name: {tag!r}")
        _TAGS.add(tag)
    return tag


def el(tag: str, *children: object, **attributes: object) -> Markup:
    """An element ``<tag attrs>children</tag>``; children that are not `Markup` are escaped."""
    inner = "".join([_escaped(child) for child in children])
    return Markup(f"<{_tag(tag)}{_attrs(attributes)}>{inner}</{tag}>")


def void(tag: str, **attributes: object) -> Markup:
    """An element without content or end tag (``<input ...>``)."""
    return Markup(f"<{_tag(tag)}{_attrs(attributes)}>")


def join(parts: Iterable[object], sep: str = "") -> Markup:
    """The parts one after the other (with `sep` between), each escaped unless `Markup`."""
    return Markup(_escaped(sep).join([_escaped(part) for part in parts]))


def region(key: str, content: object) -> Markup:
    """`content` (one element, or nothing) as the keyed region `key` (regions.keyed)."""
    return Markup(keyed(key, _escaped(content)))
