"""Our own symbols: one per colour (so colour is never the only cue), the handshake and a lock.

Each symbol is drawn by CSS (static/app.css) as an SVG mask over an empty span in the text's
colour (``currentColor``), with its darker detail lines as a second mask: a card carries
``<span class="sym s-R">`` instead of an inline ``<svg>`` (cheaper to build, parse, style and lay
out). The SVG sources are here; `symbol_css()` makes app.css's block of rules from them
(``python -m webui.kernel.symbols --write`` rewrites it; a test checks that it is up to date).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from webui.kernel.markup import Markup, el


class Symbol(NamedTuple):
    """A 24x24 symbol: `shape` (SVG, black on transparent) is drawn in the text's colour;
    `lines` (SVG strokes, black) are drawn over it in black at `ink` opacity."""

    shape: str
    lines: str = ""
    ink: float = 0.0


_SYMBOLS: dict[str, Symbol] = {
    # yellow: a sun
    "Y": Symbol('<circle cx="12" cy="12" r="5"/>'
                '<path d="M12 1v4M12 19v4M1 12h4M19 12h4M4.2 4.2l2.8 2.8M17 17l2.8 2.8'
                'M4.2 19.8l2.8-2.8M17 7l2.8-2.8" stroke="#000" stroke-width="2.2" '
                'stroke-linecap="round" fill="none"/>'),
    # blue: a water drop
    "B": Symbol('<path d="M12 2C12 2 4.5 10.5 4.5 15.2a7.5 7.5 0 0 0 15 0C19.5 10.5 12 2 12 2z"/>'),
    # white: a snowy peak
    "W": Symbol('<path d="M1 21L9 6l4 7 3-4 7 12z"/>'),
    # green: a leaf
    "G": Symbol('<path d="M4 20C4 9 11 3.5 21 3.5 21 14 15 20 4 20z"/>',
                '<path d="M4 20L15 9" stroke="#000" stroke-width="1.6" fill="none"/>', 0.45),
    # red: a flame
    "R": Symbol('<path d="M12 1.5c1 4 6.5 6.5 6.5 13a6.5 6.5 0 0 1-13 0c0-4 2.8-5.5 3-9 '
                '1.8 1.8 2.3 3.2 2.2 5 .9-2.7 1.9-5.5 1.3-9z"/>'),
    # purple: a crystal
    "P": Symbol('<path d="M7 3h10l5 6-10 12L2 9z"/>',
                '<path d="M2 9h20M9 3l3 18 3-18" stroke="#000" stroke-width="1.2" fill="none"/>',
                0.4),
    # handshake: two sleeves and clasped hands
    "H": Symbol('<path d="M0.5 8h4.5v9H0.5zM19 6h4.5v9H19z"/>'
                '<path d="M5 9.5l5-2.5 3.5 1 2-.5L19 7v7l-4.5 4h-5L5 15.5z"/>',
                '<path d="M9.5 11.5l4.5 4M11.5 10.5l4.5 4M8.5 13.5l3.5 3" stroke="#000" '
                'stroke-width="1.3" stroke-linecap="round" fill="none"/>', 0.5),
    # lock, for the pile you just discarded onto (and shut piles)
    "lock": Symbol('<path d="M7 10V7a5 5 0 0 1 10 0v3" stroke="#000" stroke-width="2.4" '
                   'fill="none"/><rect x="4.5" y="10" width="15" height="11" rx="2"/>'),
}

SYMBOL_IDS: tuple[str, ...] = tuple(_SYMBOLS)

CSS_BEGIN = ("/* symbols: made by py/webui/kernel/symbols.py"
             " (python -m webui.kernel.symbols --write) */")
CSS_END = "/* end of symbols */"


def icon(name: str, css_class: str = "sym") -> Markup:
    """A decorative symbol (an empty span: nothing for screen readers to read)."""
    if name not in _SYMBOLS:
        raise ValueError(f"no symbol {name!r}")
    return _icon(name, css_class)


@lru_cache(maxsize=64)
def _icon(name: str, css_class: str) -> Markup:
    return el("span", class_=f"{css_class} s-{name}")


def _url(svg: str) -> str:
    from urllib.parse import quote  # only natively (tests, --write): not shipped to the page

    doc = f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'>{svg}</svg>"
    return "url(\"data:image/svg+xml," + quote(doc.replace('"', "'"), safe=" '=/:.,-") + "\")"


def symbol_css() -> str:
    """app.css's block of symbol rules (between `CSS_BEGIN` and `CSS_END`)."""
    rules = [
        CSS_BEGIN,
        ".sym { display: inline-grid; width: 1em; height: 1em; flex: none; }",
        ".sym::before, .sym::after {\n  grid-area: 1 / 1; -webkit-mask: var(--sym) center / "
        "contain no-repeat;\n  mask: var(--sym) center / contain no-repeat;\n}",
        '.sym::before { content: ""; background: currentColor; }',
    ]
    for name, symbol in _SYMBOLS.items():
        rules.append(f".s-{name} {{ --sym: {_url(symbol.shape)}; }}")
        if symbol.lines:
            rules.append(f'.s-{name}::after {{\n  content: ""; background: rgba(0, 0, 0, '
                         f'{symbol.ink});\n  --sym: {_url(symbol.lines)};\n}}')
    rules.append(CSS_END)
    return "\n".join(rules)


def css_file_with_symbols(text: str) -> str:
    """`text` (app.css) with its block of symbol rules replaced by `symbol_css()`."""
    start, end = text.find(CSS_BEGIN), text.find(CSS_END)
    if start < 0 or end < start:
        raise ValueError("app.css has no block of symbol rules")
    return text[:start] + symbol_css() + text[end + len(CSS_END):]


if __name__ == "__main__":
    import sys
    from pathlib import Path

    css_path = Path(__file__).resolve().parents[3] / "static" / "app.css"
    current = css_path.read_text(encoding="utf-8")
    wanted = css_file_with_symbols(current)
    if "--write" in sys.argv[1:]:
        css_path.write_text(wanted, encoding="utf-8")
    elif wanted != current:
        sys.exit("static/app.css: the symbol rules are out of date "
                 "(python -m webui.kernel.symbols --write)")
