"""What the page shows at one moment: the controller makes a `Frame`, webui/browser/page.py writes
it.

Browser-free and light (the boot shows its first frame before the controller is imported:
docs/boot.md).
"""

from __future__ import annotations

from typing import NamedTuple


class Frame(NamedTuple):
    """One screen and what goes around it, as HTML the page writes where it changed."""

    lang: str
    """The language (``en``, ``es``): the static setup form is put into it."""
    screen: str
    """``body[data-screen]``: ``setup``, a table screen (``handoff``, ``jobs``, ``turn``,
    ``round-end``, ``match-end``), an online one (``lobby``, ``waiting``) or a plugged one's."""
    doc: str = ""
    """The screen's HTML with its keyed regions marked (webui/kernel/regions.py); empty for the
    setup, whose form is in index.html."""
    banners: str = ""
    """Over the screen (``#notice``): a notice, the abandon question, the update offer."""
    rules: str = ""
    """The Rules page's HTML while it is open (it then hides the screen), else empty."""
    thinking: bool = False
    """``body[data-thinking]``: the computer is thinking about its move."""
    focus: str | None = None
    """A control to focus (a question's safe answer, the Rules' close button); None: the
    page's own rule (a new screen's heading, or the twin of a replaced control)."""
