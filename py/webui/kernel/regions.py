"""Keyed regions: update only the parts of a screen whose HTML changed.

The screens mark their parts with `keyed(key, html)`: the element gets ``data-region="key"``,
and invisible markers around it let `parse` rebuild the tree of regions from the finished
document. `diff(old, new)` compares two trees and lists the DOM operations that turn the old
document into the new one, smallest first:

- a region whose start tag alone changed (a card picked, a button enabled) gets its attributes
  set or removed: the element stays, and so does the keyboard focus on it;
- a list whose items alone changed (the hand, the log) gets items removed or inserted;
- a region whose markup around its child regions changed is replaced;
- when the markup around the top regions changed (another screen, another language), the whole
  container is.

The operations keep the serialized DOM identical to the new document's (attributes keep their
order). `plain` strips the markers, for anyone who wants the HTML only. Browser-free: the page
carries the operations out (app.py).

A marker starts with ``<`` followed by a control character: no element starts that way, and
escaped text (webui.screens.html.esc) holds no ``<`` at all, so no name, log line or other text
shown can open, close or unbalance a region.
"""

from __future__ import annotations

import re
from functools import cached_property, lru_cache
from typing import NamedTuple

_OPEN, _MID, _CLOSE = "<\x02", "\x03", "<\x04"  # a region: <\x02key\x03 ... <\x04key\x03
_MARK = re.compile("<[\x02\x04][^\x03]*\x03")
_PLAIN_KEY = re.compile('[^<>"&\x00-\x1f]+')
_TAG = re.compile(r"<[a-z][a-z0-9]*")
_ATTR = re.compile(r'\s([a-z][a-z0-9-]*)(?:="([^"]*)")?')


def keyed(key: str, html: str) -> str:
    """`html` (one element, or nothing) as the region `key` (unique in its document).

    An empty `html` is no region: the part is simply absent (its parent changes instead)."""
    if not html:
        return ""
    tag = _TAG.match(html)
    if tag is None or _PLAIN_KEY.fullmatch(key) is None:
        raise ValueError(f"not a region: {key!r} must be one element with a plain key")
    end = tag.end()
    return f'{_OPEN}{key}{_MID}{html[:end]} data-region="{key}"{html[end:]}{_CLOSE}{key}{_MID}'


def plain(doc: str) -> str:
    """The HTML of a document without its region markers."""
    return _MARK.sub("", doc)


class Region:
    """One region of a parsed document: where its text lies in the document, and its child
    regions. The text is compared as it is in the document, markers included; the children,
    the HTML and the markup around the children are found only for the regions that changed
    (each region's end marker names it, so a region is stepped over with one search)."""

    def __init__(self, key: str, doc: str, start: int, end: int,
                 outer: tuple[int, int]) -> None:
        self.key = key
        self.doc = doc  # the whole document, markers included
        self.start, self.end = start, end  # the region's text (markers left out): doc[start:end]
        self.outer = outer  # the region with its markers: doc[outer[0]:outer[1]]
        self._children: list[Region] | None = None

    @property
    def text(self) -> str:
        """The region's text in the document, with the markers of its children."""
        return self.doc[self.start:self.end]

    def same_text(self, other: Region) -> bool:
        """Whether the two regions' texts are equal."""
        return (self.end - self.start == other.end - other.start
                and self.doc[self.start:self.end] == other.doc[other.start:other.end])

    @property
    def children(self) -> list[Region]:
        """The direct child regions, in order. Raises ValueError on unbalanced markers."""
        if self._children is None:
            self._children = _children(self.doc, self.start, self.end)
        return self._children

    @cached_property
    def html(self) -> str:
        """The region's HTML."""
        return plain(self.text)

    @cached_property
    def tag(self) -> str:
        """The region's start tag (``""`` for the root)."""
        if not self.key:
            return ""
        return self.doc[self.start:self.doc.index(">", self.start) + 1]  # values escape ">"

    @cached_property
    def shell(self) -> list[str]:
        """The region's own markup before, between and after its children (tag left out)."""
        cuts = [self.start + len(self.tag)]
        for child in self.children:
            cuts += child.outer
        cuts.append(self.end)
        return [self.doc[cuts[i]:cuts[i + 1]] for i in range(0, len(cuts), 2)]

    def child_keys(self) -> list[str]:
        """The keys of the direct children, in order."""
        return [c.key for c in self.children]


def _children(doc: str, start: int, end: int) -> list[Region]:
    """The regions whose markers lie directly in doc[start:end]."""
    found = []
    opening = doc.find(_OPEN, start, end)
    while opening >= 0:
        middle = doc.find(_MID, opening, end)
        if middle < 0:
            raise ValueError("a region's key never ends")
        key = doc[opening + len(_OPEN):middle]
        closing = doc.find(f"{_CLOSE}{key}{_MID}", middle, end)
        if closing < 0:
            raise ValueError(f"region {key!r} never closes")
        after = closing + len(_CLOSE) + len(key) + len(_MID)
        found.append(Region(key, doc, middle + 1, closing, (opening, after)))
        opening = doc.find(_OPEN, after, end)
    return found


def parse(doc: str) -> Region:
    """The region tree of a document made with `keyed` (the root's key is ``""``); the
    regions inside a region are found when they are first asked for.

    Raises ValueError on unbalanced markers (inside a region: when its children are read)."""
    if doc.count(_OPEN) != doc.count(_CLOSE):
        raise ValueError("region markers do not balance")
    root = Region("", doc, 0, len(doc), (0, len(doc)))
    root.children  # the top regions, checked now
    return root


class Op(NamedTuple):
    """A DOM operation on the region `key`. Kinds: ``all`` (the container's whole content
    becomes `html`), ``replace`` (the region's element), ``remove``, ``before`` / ``after``
    (insert `html` next to the region's element), ``set`` (attribute `name` to `html`),
    ``unset`` (remove attribute `name`)."""

    kind: str
    key: str = ""
    html: str = ""
    name: str = ""


def diff(old: Region | None, new: Region) -> list[Op]:
    """The operations that turn the document `old` (None: nothing shown yet) into `new`."""
    if old is not None and old.same_text(new):
        return []
    if old is None or not _comparable(old, new):
        return [Op("all", html=new.html)]
    ops: list[Op] = []
    _diff_children(old, new, ops)
    return ops


def _diff_region(old: Region, new: Region, ops: list[Op]) -> None:
    if old.same_text(new):
        return
    attributes = _attribute_ops(old, new)
    if attributes is None or not _comparable(old, new):
        ops.append(Op("replace", new.key, new.html))
        return
    ops.extend(attributes)
    _diff_children(old, new, ops)


_ENTITY = re.compile("&(amp|lt|gt|quot|#x27);")
_CHARACTERS = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "#x27": "'"}


def unescape(text: str) -> str:
    """An attribute value as the browser reads it, from webui.screens.html.esc's escaping (the only
    one the screens write: the `html` module's full entity table is not worth its boot)."""
    return _ENTITY.sub(lambda match: _CHARACTERS[match.group(1)], text) if "&" in text else text


@lru_cache(maxsize=1024)
def _attributes(tag: str) -> dict[str, str]:
    """The attributes of a start tag (kept: the same tags come back click after click)."""
    return {name: unescape(value or "") for name, value in _ATTR.findall(tag)}


def _attribute_ops(old: Region, new: Region) -> list[Op] | None:
    """The attribute changes from old's start tag to new's; None when they can't keep the
    attributes' order (a new attribute before a kept one) or the element changed."""
    if old.tag == new.tag:
        return []
    if old.tag.split(" ", 1)[0] != new.tag.split(" ", 1)[0]:
        return None
    before, after = _attributes(old.tag), _attributes(new.tag)
    kept = [name for name in before if name in after]
    added = [name for name in after if name not in before]
    if kept + added != list(after):
        return None
    ops = [Op("unset", new.key, name=name) for name in before if name not in after]
    ops += [Op("set", new.key, after[name], name) for name in after
            if before.get(name) != after[name]]
    return ops


def _comparable(old: Region, new: Region) -> bool:
    """Whether only the children differ: the same markup around the same children, or the
    same list whose items changed (same markup before and after the items, nothing between
    them, the items kept in the same order)."""
    if old.shell == new.shell and old.child_keys() == new.child_keys():
        return True
    if not old.children or not new.children:
        return False
    if old.shell[0] != new.shell[0] or old.shell[-1] != new.shell[-1]:
        return False
    if any(old.shell[1:-1]) or any(new.shell[1:-1]):
        return False
    old_keys, new_keys = old.child_keys(), new.child_keys()
    old_set, new_set = set(old_keys), set(new_keys)
    kept_new = [k for k in new_keys if k in old_set]
    return bool(kept_new) and kept_new == [k for k in old_keys if k in new_set]


def _diff_children(old: Region, new: Region, ops: list[Op]) -> None:
    before = {c.key: c for c in old.children}
    wanted = set(new.child_keys())
    ops.extend(Op("remove", c.key) for c in old.children if c.key not in wanted)
    previous: str | None = None
    pending: list[Region] = []  # new items before the first kept one
    for child in new.children:
        if child.key in before:
            ops.extend(Op("before", child.key, p.html) for p in pending)
            pending = []
            _diff_region(before[child.key], child, ops)
            previous = child.key
        elif previous is None:
            pending.append(child)
        else:
            ops.append(Op("after", previous, child.html))
            previous = child.key
