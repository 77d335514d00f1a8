"""A peer cannot make the host (or a save the page) spend time out of proportion to its size.

- The nesting check that runs before json.loads is linear: the work for 16 times the text is
  compared with the work for the text (best of repeated runs: a ratio, not a time budget),
  for the shapes that made the old string pattern quadratic and for the other worst cases.
  It is also exact on valid JSON and safe on any text (json's own parser, instrumented, never
  nests deeper than the limit when the check lets a text through).
- The flood limit counts arrivals and work: time spent handling the other page's messages
  does not refill its budget, and a message costs in proportion to its size.
- The host reads only the guest token from a connection's metadata, never converting the rest.
"""

from __future__ import annotations

import gc
import importlib
import json
import shutil
import subprocess
import sys
import time
import types
from collections.abc import Callable, Iterator
from json.scanner import py_make_scanner  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostile_texts import HOSTILE_SHAPES, hostile
from fairseats import GROUP
from lostcities import Options
from lostcities.fair.wire import MAX_MESSAGE_CHARS
from lostcities.protocol import APP_VERSION, MAX_MESSAGE_BYTES, ProtocolError, decode_json
from webui.online import control
from webui.online.host import FairHost
from webui.online.liveness import BURST, BYTES_PER_TOKEN, MAX_COST, RATE, RateLimit, message_cost
from webui.online.peermeta import MAX_TOKEN_CHARS, token_of

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide" / "pyodide.mjs"
TOKEN = "T" * 20
BIG = 1 << 22
"""A size limit no text here reaches: the nesting check itself is measured."""

# ---- linear work ---------------------------------------------------------------------------


SHAPES = HOSTILE_SHAPES


def best_time(text: str, runs: int, below: float = 0.0) -> float:
    """The shortest of `runs` timed decode_json calls on `text` (limit 8 levels; refusals
    count), stopping early once one takes less than `below` seconds."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(runs):
            start = time.perf_counter()
            try:
                decode_json(text, BIG, 8)
            except ProtocolError:
                pass
            best = min(best, time.perf_counter() - start)
            if best < below:
                break
    finally:
        if enabled:
            gc.enable()
    return best


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_nesting_check_grows_linearly(shape: str) -> None:
    make = SHAPES[shape]
    for small in (256, 4096):
        base = best_time(make(small), 30)
        ratio = best_time(make(small * 16), 10, below=40 * base) / base
        assert ratio < 40, f"{shape}: {small * 16} bytes cost {ratio:.0f}x {small} bytes"


def test_the_hostile_client_message_is_refused_as_too_deep() -> None:
    text = hostile(MAX_MESSAGE_BYTES)
    assert len(text.encode()) <= MAX_MESSAGE_BYTES
    with pytest.raises(ProtocolError, match="nested deeper than 8"):
        decode_json(text)


def deepest_parse(text: str) -> int:
    """How deep json's own parser (its pure-Python scanner, which the C one mirrors) nests on
    `text` before it succeeds or fails."""
    decoder = json.JSONDecoder()
    depth = deepest = 0

    def counted(parse: Callable[..., Any]) -> Callable[..., Any]:
        def parse_nested(*args: Any) -> Any:
            nonlocal depth, deepest
            depth += 1
            deepest = max(deepest, depth)
            try:
                return parse(*args)
            finally:
                depth -= 1
        return parse_nested

    decoder.parse_object = counted(decoder.parse_object)  # type: ignore[attr-defined]
    decoder.parse_array = counted(decoder.parse_array)  # type: ignore[attr-defined]
    decoder.scan_once = py_make_scanner(decoder)  # type: ignore[attr-defined]
    try:
        decoder.decode(text)
    except (ValueError, RecursionError):
        pass
    return deepest


def refused_as_deep(text: str | bytes, max_depth: int) -> bool:
    try:
        decode_json(text, BIG, max_depth)
    except ProtocolError as exc:
        return "nested deeper" in exc.message
    return False


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet='[]{}"\\,:a1 \n', max_size=40) | st.text(max_size=40),
       max_depth=st.integers(0, 4))
def test_json_never_nests_deeper_than_a_text_the_check_lets_through(
        text: str, max_depth: int) -> None:
    assert refused_as_deep(text, max_depth) or deepest_parse(text) <= max_depth


def depth_of(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    return 0


tricky_text = st.text(alphabet='[]{}"\\/ ab\u00e9\U0001f600', max_size=6)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | tricky_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(tricky_text, inner, max_size=3),
    max_leaves=15,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values, max_depth=st.integers(0, 6), ascii_only=st.booleans())
def test_the_check_is_exact_on_valid_json(value: Any, max_depth: int, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert refused_as_deep(text, max_depth) == (depth_of(value) > max_depth)
    assert refused_as_deep(text.encode(), max_depth) == (depth_of(value) > max_depth)


@pytest.mark.parametrize(
    ("text", "deep"),
    [
        ('["[[[[[[[[[[["]', False),  # brackets in a string do not count
        ('["\\"[[[[[[[[[[["]', False),  # nor after an escaped quote
        ('["\\\\", [[[[[[[[]]]]]]]]]', True),  # an escaped backslash ends no string
        ('["\\\\\\"[[[[[[[[["]', False),  # three backslashes: the quote is escaped
        ('["[[[[[[[[[[', False),  # an unterminated string hides nothing json would read
        ("[[[[[[[[[]]]]]]]]]", True),
        ("[[[[[[[[]]]]]]]]", False),
        ('[{"a": [{"b": [{"c": [{"d": []}]}]}]}]', True),
        ("]]]][[[[[[[[[", True),  # unbalanced: counted on the safe side
    ],
)
def test_what_counts_as_nesting(text: str, deep: bool) -> None:
    assert refused_as_deep(text, 8) == deep


# ---- the flood limit -----------------------------------------------------------------------


def test_a_message_costs_in_proportion_to_its_size() -> None:
    assert message_cost(0) == message_cost(BYTES_PER_TOKEN) == 1.0
    assert message_cost(2 * BYTES_PER_TOKEN) == 2.0
    assert message_cost(10 * MAX_MESSAGE_CHARS) == MAX_COST == MAX_MESSAGE_CHARS / 1024
    limit = RateLimit(0.0, rate=10.0, burst=200)
    allowed = [limit.allow(0.0, MAX_MESSAGE_CHARS) for _ in range(10)]
    assert allowed == [True] * int(200 // MAX_COST) + [False] * (10 - int(200 // MAX_COST))


def test_time_spent_handling_refills_nothing() -> None:
    limit = RateLimit(0.0, rate=10.0, burst=3)
    for start in (0.0, 0.5, 1.0):  # all arrived at once; each took 0.5 s to handle
        assert limit.allow(start)  # handed over as soon as the host was free
        limit.handled(start + 0.5)
    assert not limit.allow(1.5)
    assert limit.allow(1.6) and not limit.allow(1.6)  # idle time refills as before


class Clock:
    """A fake page clock, in seconds."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Link:
    """A guest connection: records what the host sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed = False

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self) -> None:
        self.closed = True


def new_room(clock: Clock) -> FairHost:
    host = FairHost.create("ABCDEF", Options(rounds=1), 0, "Ana", clock.t)
    host.load(GROUP)
    return host


def test_a_guest_whose_messages_are_slow_to_handle_is_still_cut_off() -> None:
    clock = Clock()
    host = new_room(clock)
    link = Link()
    assert host.accept(link, {"token": TOKEN}, clock.t) is None
    flood = [control.hello(APP_VERSION, "Ben", 0, 0)] + [control.ping()] * 3000
    handled = 0
    for text in flood:  # all arrived at once: each is handed over when the last one is done
        if link.closed:
            break
        host.receive(link, text, 0.0, clock=clock)
        clock.t += 1.5 / RATE  # each took the time the old bucket would refill 1.5 with
        handled += 1
    assert handled <= BURST + 1  # the hello, then pings up to the burst
    assert link.sent[-1]["lc"] == "refused" and "too many" in link.sent[-1]["message"]
    assert link.closed and host.limit.dropped == 1 and host.peer is not None


# ---- the network layer, with PeerJS and the page stood in for ------------------------------


class JsProxy:
    """Stands in for pyodide.ffi.JsProxy."""


class Metadata(JsProxy):
    """Plain metadata: a token, and a full conversion that works."""

    def __init__(self, token: object) -> None:
        self.token = token

    def to_py(self) -> Any:
        return {"token": self.token}


class HostileMetadata(JsProxy):
    """Metadata whose full conversion fails (as a deeply nested object's does in Pyodide)."""

    def __init__(self, token: object) -> None:
        self.token = token

    def to_py(self) -> Any:
        raise RecursionError("maximum recursion depth exceeded while converting")


class FakeConn:
    """A PeerJS DataConnection: records its handlers; sending takes `cost` of the clock."""

    def __init__(self, clock: Clock, metadata: object, cost: float) -> None:
        self.clock, self.metadata, self.cost = clock, metadata, cost
        self.handlers: dict[str, Callable[..., Any]] = {}
        self.sent: list[dict[str, Any]] = []

    def on(self, event: str, handler: Callable[..., Any]) -> None:
        self.handlers[event] = handler

    def send(self, text: str) -> None:
        self.clock.t += self.cost
        self.sent.append(json.loads(text))

    def close(self) -> None:
        pass


class Anything:
    def __getattr__(self, name: str) -> Any:
        return Anything()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return Anything()


@pytest.fixture
def net(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Clock]]:
    """webui.browser.online.net imported with `js` and `pyodide.ffi` stood in for; its page clock is
    a fake one."""
    clock = Clock()
    js = types.ModuleType("js")
    js.performance = types.SimpleNamespace(now=lambda: clock.t * 1000)  # type: ignore[attr-defined]
    js.__getattr__ = lambda name: Anything()  # type: ignore[method-assign]
    ffi = types.ModuleType("pyodide.ffi")
    ffi.JsProxy = JsProxy  # type: ignore[attr-defined]
    ffi.create_proxy = ffi.create_once_callable = ffi.to_js = (  # type: ignore[attr-defined]
        lambda f, **_: f)
    ffi.jsnull = None  # type: ignore[attr-defined]
    pyodide = types.ModuleType("pyodide")
    pyodide.ffi = ffi  # type: ignore[attr-defined]
    for name, module in (("js", js), ("pyodide", pyodide), ("pyodide.ffi", ffi)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.delitem(sys.modules, "webui.browser.online.net", raising=False)
    try:
        yield importlib.import_module("webui.browser.online.net"), clock
    finally:
        sys.modules.pop("webui.browser.online.net", None)
        online = sys.modules["webui.browser.online"]
        if hasattr(online, "net"):
            delattr(online, "net")


def room(net_module: Any, clock: Clock, conn: FakeConn) -> FairHost:
    """A room on the stood-in broker whose next connection is `conn`, opened."""
    config: dict[str, Any] = {"peer": {}, "iceServers": []}
    hostnet = net_module.HostNet(config, "ABCDEF", True, lambda code: None, lambda: None)
    hostnet.host = new_room(clock)
    hostnet._connection(conn)
    conn.handlers["open"]()
    host: FairHost = hostnet.host
    return host


def test_the_host_reads_only_the_token_from_a_connections_metadata(net: Any) -> None:
    net_module, clock = net
    conn = FakeConn(clock, HostileMetadata(TOKEN), 0.0)
    host = room(net_module, clock, conn)
    assert host.token == TOKEN and conn.sent == []  # accepted, the rest never converted
    stranger = FakeConn(clock, HostileMetadata(["not", "a", "token"]), 0.0)
    room(net_module, clock, stranger)
    assert [(m["lc"], m["code"]) for m in stranger.sent] == [("refused", "forbidden")]


def test_the_network_layer_stamps_arrivals_and_charges_handling(net: Any) -> None:
    net_module, clock = net
    conn = FakeConn(clock, Metadata(TOKEN), 0.0)
    host = room(net_module, clock, conn)
    conn.handlers["data"](control.hello(APP_VERSION, "Ben", 0, 0))
    assert [m.get("lc") for m in conn.sent[:1]] == ["welcome"]
    take = host._take  # noqa: SLF001 - each message takes the page's clock a while

    def slow(raw: str | bytes, now: float) -> None:
        clock.t += 1.5 / RATE  # the time the old bucket would refill 1.5 messages with
        take(raw, now)

    host._take = slow  # type: ignore[method-assign]  # noqa: SLF001
    for _ in range(3 * BURST):  # queued: each handed over when the last one is done
        conn.handlers["data"](control.ping())
    refused = [m for m in conn.sent if m.get("lc") == "refused"]
    assert len(refused) == 1 and "too many" in refused[0]["message"]
    assert host.limit.dropped == 1 and host.peer is not None


# ---- reading the token ---------------------------------------------------------------------


class ThrowingGetter:
    @property
    def token(self) -> str:
        raise RuntimeError("a JavaScript getter threw")


@pytest.mark.parametrize(
    ("metadata", "token"),
    [
        (types.SimpleNamespace(token=TOKEN), TOKEN),
        (types.SimpleNamespace(token="x" * MAX_TOKEN_CHARS), "x" * MAX_TOKEN_CHARS),
        (types.SimpleNamespace(token="x" * (MAX_TOKEN_CHARS + 1)), None),
        (types.SimpleNamespace(token=5), None),
        (types.SimpleNamespace(token=[TOKEN]), None),
        (types.SimpleNamespace(other=TOKEN), None),
        (ThrowingGetter(), None),
        (None, None),
        (TOKEN, None),
    ],
)
def test_the_token_is_read_alone_and_checked(metadata: object, token: str | None) -> None:
    assert token_of(metadata) == token


PYODIDE_METADATA = """
import json
from pyodide.code import run_js
from peermeta import token_of
deep = run_js("(() => { let x = 1; for (let i = 0; i < 100000; i++) x = [x];"
              " return {token: 'T'.repeat(20), junk: x}; })()")
try:
    deep.to_py()
    converted = True
except Exception:
    converted = False
json.dumps({
    "converted": converted,
    "deep": token_of(deep),
    "number": token_of(run_js("({token: 5})")),
    "long": token_of(run_js("({token: 'x'.repeat(100000)})")),
    "missing": token_of(run_js("({})")),
    "null": token_of(run_js("null")),
    "throws": token_of(run_js("({get token() { throw new Error('no') }})")),
    "object": token_of(run_js("({token: {toString() { return 'x' }}})")),
})
"""


@pytest.mark.skipif(shutil.which("node") is None or not PYODIDE.exists(),
                    reason="needs node and node_modules/pyodide (npm ci)")
def test_in_pyodide_deep_metadata_gives_its_token_without_being_converted(
        tmp_path: Path) -> None:
    script = tmp_path / "metadata.py"
    script.write_text(PYODIDE_METADATA)
    result = subprocess.run(
        ["node", str(ROOT / "tests" / "pyodide" / "run_in_pyodide.mjs"), str(PYODIDE),
         str(ROOT / "py"), str(script), str(ROOT / "py" / "webui" / "online" / "peermeta.py")],
        capture_output=True, text=True, timeout=300, check=True,
    )
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen.pop("converted") is False  # what the host used to do fails on it
    assert seen == {"deep": TOKEN, "number": None, "long": None, "missing": None,
                    "null": None, "throws": None, "object": None}
