"""The symbols are CSS masks (webui/kernel/symbols.py): app.css holds the rules made from the SVG
sources, every symbol used has its rule, and a symbol is an empty span, hidden from readers."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_webui_table import new_session

from webui.kernel.symbols import (
    CSS_BEGIN, CSS_END, SYMBOL_IDS, css_file_with_symbols, icon, symbol_css,
)
from webui.screens.match import render_screen

ROOT = Path(__file__).resolve().parent.parent
APP_CSS = ROOT / "static" / "app.css"


def test_app_css_holds_the_symbol_rules_made_from_the_sources() -> None:
    css = APP_CSS.read_text(encoding="utf-8")
    assert css_file_with_symbols(css) == css, "run: cd py && python -m webui.kernel.symbols --write"
    block = css[css.index(CSS_BEGIN):css.index(CSS_END)]
    for name in SYMBOL_IDS:
        assert re.search(rf"\.s-{name} \{{ --sym: url\(\"data:image/svg\+xml,%3Csvg ", block)
    assert "#" not in block.split("*/", 1)[1]  # a raw "#" would end the data URL early


def test_the_check_fails_on_stale_rules(tmp_path: Path) -> None:
    stale = APP_CSS.read_text(encoding="utf-8").replace("stroke-width='2.2'", "stroke-width='9'")
    assert css_file_with_symbols(stale) != stale
    with pytest.raises(ValueError, match="no block"):
        css_file_with_symbols("body { color: red; }")
    checked = subprocess.run([sys.executable, "-m", "webui.kernel.symbols"], cwd=ROOT / "py",
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_detail_lines_are_a_second_mask_in_a_darker_ink() -> None:
    css = symbol_css()
    for name, alpha in (("G", "0.45"), ("P", "0.4"), ("H", "0.5")):
        rule = re.search(rf"\.s-{name}::after \{{([^}}]*)\}}", css)
        assert rule is not None
        assert f"rgba(0, 0, 0, {alpha})" in rule.group(1) and "--sym: url(" in rule.group(1)
    assert "::after" not in css.split(".s-lock")[1]


def test_an_icon_is_an_empty_span_with_its_symbol_class() -> None:
    assert icon("R") == '<span class="sym s-R"></span>'
    assert icon("lock", "sym tiny") == '<span class="sym tiny s-lock"></span>'
    with pytest.raises(ValueError, match="no symbol"):
        icon("X")


def test_every_symbol_a_screen_shows_has_its_rule() -> None:
    session = new_session(seed=3)
    session.ui.handoff = False  # the table itself
    html = render_screen(session.view(), session.ui, "en")
    used = set(re.findall(r'class="sym[^"]* s-([A-Za-z]+)"', html))
    assert used and used <= set(SYMBOL_IDS)
    assert "<svg" not in html and "<use" not in html
