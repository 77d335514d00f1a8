"""Our own inline SVG symbols: one per colour (so colour is never the only cue) and the handshake.

The sprite is inserted once into the page; cards refer to it with ``<use href="#sym-R">``.
"""

from __future__ import annotations

_SYMBOLS: dict[str, str] = {
    # yellow: a sun
    "Y": '<circle cx="12" cy="12" r="5"/>'
    '<path d="M12 1v4M12 19v4M1 12h4M19 12h4M4.2 4.2l2.8 2.8M17 17l2.8 2.8'
    'M4.2 19.8l2.8-2.8M17 7l2.8-2.8" stroke="currentColor" stroke-width="2.2" '
    'stroke-linecap="round" fill="none"/>',
    # blue: a water drop
    "B": '<path d="M12 2C12 2 4.5 10.5 4.5 15.2a7.5 7.5 0 0 0 15 0C19.5 10.5 12 2 12 2z"/>',
    # white: a snowy peak
    "W": '<path d="M1 21L9 6l4 7 3-4 7 12z"/>',
    # green: a leaf
    "G": '<path d="M4 20C4 9 11 3.5 21 3.5 21 14 15 20 4 20z"/>'
    '<path d="M4 20L15 9" stroke="rgba(0,0,0,.45)" stroke-width="1.6" fill="none"/>',
    # red: a flame
    "R": '<path d="M12 1.5c1 4 6.5 6.5 6.5 13a6.5 6.5 0 0 1-13 0c0-4 2.8-5.5 3-9 '
    '1.8 1.8 2.3 3.2 2.2 5 .9-2.7 1.9-5.5 1.3-9z"/>',
    # purple: a crystal
    "P": '<path d="M7 3h10l5 6-10 12L2 9z"/>'
    '<path d="M2 9h20M9 3l3 18 3-18" stroke="rgba(0,0,0,.4)" stroke-width="1.2" fill="none"/>',
    # handshake: two sleeves and clasped hands
    "H": '<path d="M0.5 8h4.5v9H0.5zM19 6h4.5v9H19z"/>'
    '<path d="M5 9.5l5-2.5 3.5 1 2-.5L19 7v7l-4.5 4h-5L5 15.5z"/>'
    '<path d="M9.5 11.5l4.5 4M11.5 10.5l4.5 4M8.5 13.5l3.5 3" stroke="rgba(0,0,0,.5)" '
    'stroke-width="1.3" stroke-linecap="round" fill="none"/>',
    # lock, for the pile you just discarded onto (and shut piles)
    "lock": '<path d="M7 10V7a5 5 0 0 1 10 0v3" stroke="currentColor" stroke-width="2.4" '
    'fill="none"/><rect x="4.5" y="10" width="15" height="11" rx="2"/>',
}

SYMBOL_IDS: tuple[str, ...] = tuple(_SYMBOLS)


def sprite() -> str:
    """The hidden ``<svg>`` holding every symbol, to insert once into the page."""
    body = "".join(
        f'<symbol id="sym-{name}" viewBox="0 0 24 24">{paths}</symbol>'
        for name, paths in _SYMBOLS.items()
    )
    return f'<svg class="sprite" aria-hidden="true" focusable="false">{body}</svg>'


def icon(name: str, css_class: str = "sym") -> str:
    """A decorative reference to one symbol (hidden from screen readers)."""
    if name not in _SYMBOLS:
        raise ValueError(f"no symbol {name!r}")
    return (
        f'<svg class="{css_class}" aria-hidden="true" focusable="false">'
        f'<use href="#sym-{name}"/></svg>'
    )
