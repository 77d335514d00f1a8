"""Escaping is the default of the HTML layer (webui.kernel.markup): the builders escape every value
that is not Markup, and no module of the page builds markup around a value any other way.

The static part reads the source of every module under py/webui: no f-string, ``%`` or
``.format`` puts values into a string that holds a tag, no ``+`` joins such a string, every
`html()` template is a literal, and only webui.kernel.markup makes `Markup` out of a plain string.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from webui.kernel.markup import EMPTY, Markup, attrs, el, esc, html, join, region, void
from webui.screens.html import button
from webui.screens.online import render_guest_waiting, status_bar

WEBUI = Path(__file__).resolve().parent.parent / "py" / "webui"
MECHANISM = WEBUI / "kernel" / "markup.py"
NOT_PAGE_HTML = {("kernel/symbols.py", "_url")}
"""(module, function) that build markup that is not the page's: the symbols' SVG for a CSS
data URL, from constants only."""
TRUSTED_MARKUP = {("features/replay.py", "replay_doc")}
"""(module, function) that may call Markup() on a string: the replay's table is the table's own
HTML (webui.screens.match.render_doc) with its top bar swapped and its region markers removed."""
HOSTILE = '<img src=x onerror="alert(1)">&\''


def _is_markup_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and "<" in node.value


def _faults(path: Path) -> list[str]:
    return _source_faults(path.read_text(encoding="utf-8"), path.relative_to(WEBUI).as_posix())


def _source_faults(source: str, where: str) -> list[str]:
    """What builds markup around values by hand in the module `where` (its `source`)."""
    tree = ast.parse(source)
    faults = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        exempt = (where, function) in NOT_PAGE_HTML
        line = f"{where}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.JoinedStr) and not exempt:
            if any(_is_markup_literal(part) for part in node.values) and any(
                    isinstance(part, ast.FormattedValue) for part in node.values):
                faults.append(f"{line}: an f-string puts values into markup")
        elif isinstance(node, ast.BinOp) and not exempt:
            if isinstance(node.op, (ast.Add, ast.Mod)) and (
                    _is_markup_literal(node.left) or _is_markup_literal(node.right)):
                faults.append(f"{line}: markup joined or formatted with an operator")
        elif isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Attribute) and func.attr in ("format", "format_map")
                    and _is_markup_literal(func.value)):
                faults.append(f"{line}: markup filled by str.format")
            name = func.id if isinstance(func, ast.Name) else None
            if name == "html" and not (node.args and isinstance(node.args[0], ast.Constant)):
                faults.append(f"{line}: an html() template that is not a literal")
            if (name == "Markup" and where != MECHANISM.relative_to(WEBUI).as_posix()
                    and (where, function) not in TRUSTED_MARKUP):
                faults.append(f"{line}: Markup made outside webui.kernel.markup")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "")
    return faults


def test_no_module_of_the_page_builds_markup_around_values_by_hand() -> None:
    modules = sorted(p for p in WEBUI.rglob("*.py") if p != MECHANISM)
    assert len(modules) > 20
    faults = [fault for path in modules for fault in _faults(path)]
    assert faults == []


def test_the_static_check_finds_each_way_around() -> None:
    sources = {
        "f-string": "def f(x):\n    return f'<b>{x}</b>'\n",
        "operator": "def f(x):\n    return '<b>' + x\n",
        "percent": "def f(x):\n    return '<b>%s</b>' % x\n",
        "format": "def f(x):\n    return '<b>{}</b>'.format(x)\n",
        "template": "def f(x, t):\n    return html(t, x=x)\n",
        "markup": "def f(x):\n    return Markup(x)\n",
    }
    for kind, source in sources.items():
        assert len(_source_faults(source, "table.py")) == 1, kind
    assert _source_faults("def f(x):\n    return html('<b>{x}</b>', x=x)\n", "table.py") == []


@pytest.mark.parametrize("value", [HOSTILE, 7, -3, None, 1.5, ["<i>"]])
def test_every_builder_escapes_what_is_not_markup(value: object) -> None:
    text = str(value)
    escaped = (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
               .replace('"', "&quot;").replace("'", "&#x27;"))
    assert esc(value) == escaped
    assert html("<p>{v}</p>", v=value) == f"<p>{escaped}</p>"
    assert el("p", value) == f"<p>{escaped}</p>"
    assert join([value, value], " ") == f"{escaped} {escaped}"
    assert button("go", value).endswith(f">{escaped}</button>")
    assert el("b") + text == f"<b></b>{escaped}" and text + el("b") == f"{escaped}<b></b>"
    if value is not None:  # None leaves an attribute out
        assert el("p", title=value) == f'<p title="{escaped}"></p>'
        assert attrs(data_x=value) == f' data-x="{escaped}"'
        assert void("input", value=value) == f'<input value="{escaped}">'


def test_markup_passes_as_it_is_and_keeps_being_markup() -> None:
    bold = el("b", "x")
    assert html("<p>{v}</p>", v=bold) == "<p><b>x</b></p>" and esc(bold) is bold
    assert isinstance(bold + bold, Markup) and isinstance(join([bold]), Markup)
    assert isinstance(region("k", bold), Markup) and region("k", EMPTY) == ""
    with pytest.raises(ValueError):
        el("b onclick=x", "y")
    with pytest.raises(ValueError):
        attrs(**{"on click": "x"})


def test_region_keys_from_a_peer_are_refused() -> None:
    with pytest.raises(ValueError):
        region(f"card-{HOSTILE}", el("b"))


def test_the_online_screens_show_hostile_text_as_text() -> None:
    problem = {"code": "host-refused", "data": {"message": HOSTILE}}  # the host's own words
    html_ = render_guest_waiting("en", HOSTILE, HOSTILE, problem)
    html_ += status_bar("en", "connected", HOSTILE, HOSTILE, HOSTILE, problem, None, True)
    assert "<img" not in html_ and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html_
