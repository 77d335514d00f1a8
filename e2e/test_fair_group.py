"""Fair play's group in the page (libsodium's JavaScript build) gives the native bytes.

The page loads libsodium only with the online libraries; then `webui.browser.online.sodium_group`
runs `lostcities.fair.vectors` in the page's own Pyodide and must give exactly what libsodium
gives natively (rbcl) in this process, give the same bytes for the proofs' calls (base-point
multiplication, point and scalar sums, and a long combination, done in one call to
JavaScript), refuse the same bad points and inputs, and a seat in the page plays a whole match
against a native seat, sending byte for byte what a native seat sends.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import pytest
import rbcl
from conftest import ROOT, STATE_TIMEOUT_MS, AppPage, Server, wait_ready
from playwright.sync_api import Browser, Page, Route

from lostcities import Draw, Move, Options, Undo, move_from_json, move_to_json
from lostcities.fair import FairPeer
from lostcities.fair.group import IDENTITY
from lostcities.fair.sodium import SodiumGroup
from lostcities.fair.vectors import vectors

sys.path.insert(0, str(ROOT / "scripts"))

from page_python import install, run  # noqa: E402  (scripts/ is not a package)

SODIUM_FILES = ("static/vendor/sodium/libsodium-wrappers.js",
                "static/vendor/sodium/libsodium-sumo.js")

# The same probe runs natively and in the page: every call on bad input, and a multiplication,
# a point check, sums and combinations with each candidate point; outcomes as hex, a bool or
# the exception's type.
PROBE = '''
def outcome(call):
    try:
        value = call()
    except Exception as exc:
        return type(exc).__name__
    return value.hex() if isinstance(value, bytes) else value

def probe(group, candidates):
    s = group.scalar(bytes(range(64)))
    good = group.point(bytes(range(64)))
    out = {"points": [[outcome(lambda: group.is_point(p)), outcome(lambda: group.mult(s, p))]
                      for p in candidates]}
    out["calls"] = [outcome(call) for call in (
        lambda: group.point(bytes(63)), lambda: group.point(bytes(65)),
        lambda: group.point("x" * 64), lambda: group.scalar(bytes(63)),
        lambda: group.mul(s, bytes(31)), lambda: group.mul(bytearray(32), s),
        lambda: group.invert(bytes(32)), lambda: group.invert(bytes.fromhex(ORDER_HEX)),
        lambda: group.invert(s[:31]), lambda: group.mult(bytes(32), good),
        lambda: group.mult(s[:31], good), lambda: group.mult(s, good[:31]),
        lambda: group.is_point(good[:31]), lambda: group.is_point(bytearray(good)),
        lambda: group.is_point("x" * 32),
        lambda: group.base(bytes(32)), lambda: group.base(bytes.fromhex(ORDER_HEX)),
        lambda: group.base(s[:31]), lambda: group.base(bytearray(s)),
        lambda: group.add(good[:31], good), lambda: group.add(good, good + bytes(1)),
        lambda: group.sub(good, bytearray(good)), lambda: group.sub("x" * 32, good),
        lambda: group.scalar_add(s, s[:31]), lambda: group.scalar_add(bytearray(s), s),
        lambda: group.scalar_sub(s, bytes(33)), lambda: group.scalar_sub("x" * 32, s),
        lambda: group.combine([], []), lambda: group.combine([s], []),
        lambda: group.combine([s, s], [good]), lambda: group.combine([s], [good, good]),
        lambda: group.combine([s[:31]], [good]), lambda: group.combine([s], [good[:31]]),
        lambda: group.combine([s, s[:31]], [good, good]),
        lambda: group.combine([s, s], [good, good[:31]]),
        lambda: group.combine([s[:31], s + bytes(1)], [good, good]),  # 64 bytes in all
        lambda: group.combine([s, bytearray(s)], [good, good]),
        lambda: group.combine([s, s], [good, "x" * 32]),
        lambda: group.combine([bytes(32)], [good]),
        lambda: group.combine([s, s, bytes(32)], [good, good, good]))]
    out["sums"] = [[outcome(lambda: group.add(good, p)), outcome(lambda: group.add(p, good)),
                    outcome(lambda: group.sub(good, p)), outcome(lambda: group.sub(p, good)),
                    outcome(lambda: group.combine([s], [p])),
                    outcome(lambda: group.combine([s, s, s], [good, p, good]))]
                   for p in candidates]
    return out
'''


def candidate_points() -> list[bytes]:
    """Points a peer could send: good ones, and bad ones of every kind libsodium refuses."""
    g = SodiumGroup()
    good = g.point(bytes(range(64)))
    negated = g.sub(IDENTITY, good)  # -P: in the group too
    odd = bytes([good[0] ^ 1]) + good[1:]  # a negative field element: no encoding
    not_on_curve = next(bytes([good[0] ^ i]) + good[1:] for i in range(2, 256, 2)
                        if not rbcl.crypto_core_ristretto255_is_valid_point(
                            bytes([good[0] ^ i]) + good[1:]))
    p_plus_2 = b"\xef" + b"\xff" * 30 + b"\x7f"  # even, but not below the field's prime
    high_bit = good[:-1] + bytes([good[-1] | 0x80])
    return [good, g.mult(g.scalar(bytes(64 * [7])), good), negated,
            IDENTITY, odd, not_on_curve, p_plus_2, high_bit, b"\xff" * 32]


def online_page(open_app: Callable[..., AppPage], fetched: list[str]) -> AppPage:
    """A booted page with the test runner and the online libraries loaded (libsodium only
    then: `fetched` shows none of its files before)."""
    app = open_app(setup=lambda page: page.on("request", lambda r: fetched.append(r.url)))
    # the online part comes with app-more.zip, which the page mounts once ready
    app.page.wait_for_function("() => document.documentElement.dataset.more === 'loaded'")
    install(app.page)
    assert [u for u in fetched if u.endswith(SODIUM_FILES)] == []
    assert app.page.evaluate("() => typeof window.sodium") == "undefined"
    refused = run(app.page, "from webui.browser.online.sodium_group import JsSodiumGroup\n"
                            "try:\n    JsSodiumGroup()\nexcept RuntimeError as exc:\n"
                            "    result = str(exc)")
    assert "lcOnlineLibraries" in refused
    app.page.evaluate("() => window.lcOnlineLibraries()")
    return app


@pytest.fixture
def page_group(open_app: Callable[..., AppPage]) -> AppPage:
    """The page with libsodium loaded and `group`, a JsSodiumGroup, in the runner."""
    fetched: list[str] = []
    app = online_page(open_app, fetched)
    assert sorted(u[u.index("static/"):] for u in fetched if u.endswith(SODIUM_FILES)) == \
        sorted(SODIUM_FILES)  # once each
    run(app.page, "from webui.browser.online.sodium_group import JsSodiumGroup\n"
                  "group = JsSodiumGroup()")
    return app


def test_a_failed_libsodium_load_is_reported_and_the_next_call_loads_it(
        browser: Browser, lc_server: Server) -> None:
    # no service worker: it would answer from its cache, past the route
    context = browser.new_context(service_workers="block")
    context.set_default_timeout(STATE_TIMEOUT_MS)
    page = context.new_page()
    served: list[str] = []

    def flaky(route: Route) -> None:
        served.append(route.request.url)
        if len(served) == 1:
            route.abort()
        else:
            route.continue_()

    page.route("**/static/vendor/sodium/libsodium-sumo.js", flaky)
    try:
        page.goto(lc_server.url)
        wait_ready(page)
        load = """() => window.lcOnlineLibraries().then(
            () => typeof window.sodium.crypto_scalarmult_ristretto255, (e) => e.message)"""
        assert page.evaluate(load).startswith(
            "Lost Cities: could not load static/vendor/sodium/libsodium-wrappers.js (TypeError")
        assert page.evaluate("() => typeof window.sodium") == "undefined"
        assert page.evaluate(load) == "function"
        assert len(served) == 2
    finally:
        context.close()


def test_the_page_group_gives_the_native_vectors(page_group: AppPage) -> None:
    in_page = run(page_group.page, "from lostcities.fair.vectors import vectors\n"
                                   "result = vectors(group)")
    native = json.loads(json.dumps(vectors(SodiumGroup())))
    assert in_page == native
    assert page_group.page_errors == []


def test_the_page_group_refuses_what_the_native_one_refuses(page_group: AppPage) -> None:
    from lostcities.fair.group import ORDER
    order_hex = ORDER.to_bytes(32, "little").hex()
    candidates = candidate_points()
    code = (f"ORDER_HEX = {order_hex!r}\n{PROBE}\n"
            f"result = probe(group, [bytes.fromhex(h) for h in {[c.hex() for c in candidates]!r}])")
    in_page = run(page_group.page, code)
    namespace: dict[str, Any] = {"ORDER_HEX": order_hex}
    exec(PROBE, namespace)  # noqa: S102 (our own constant code, shared with the page)
    native = namespace["probe"](SodiumGroup(), candidates)
    assert in_page == native
    # the good points are accepted and multiplied; every bad one is refused by both calls
    assert [p[0] for p in native["points"]] == [True] * 3 + [False] * (len(candidates) - 3)
    assert all(p[1] == "ValueError" for p in native["points"][3:])
    assert [c for c in native["calls"] if c not in ("ValueError", False)] == []
    # a combination refuses what a multiplication refuses; a sum, a point off the curve (a sum
    # takes any point on it: small order, off the subgroup, not canonical, as libsodium does)
    assert all(p[4:] == ["ValueError"] * 2 for p in native["sums"][3:])
    assert all("ValueError" not in p for p in native["sums"][:3])
    off_curve = candidates.index(next(c for c in candidates if c[1:] == candidates[0][1:]
                                      and c != candidates[0]))
    assert native["sums"][off_curve] == ["ValueError"] * 6


# The same code runs natively and in the page: the proofs' calls on fixed inputs, their results
# as hex (a combination of TERMS terms among them, done by the page in one call to JavaScript).
SUMS = """
def sums(group):
    scalars = [group.scalar(bytes([i + 1, 7]) * 32) for i in range(TERMS)]
    points = [group.point(bytes([i, 3]) * 32) for i in range(TERMS)]
    p, q, s, t = points[0], points[1], scalars[0], scalars[1]
    odd = [bytes(32), b"\\xff" * 32, (ORDER - 1).to_bytes(32, "little"),
           (ORDER + 1).to_bytes(32, "little"), (1).to_bytes(32, "little")]
    minus_s = group.scalar_sub(bytes(32), s)
    out = {
        "base": [group.base(x) for x in scalars[:4] + odd[1:]],
        "add": [group.add(p, q), group.add(q, p), group.add(p, p), group.add(p, bytes(32)),
                group.add(group.sub(p, q), q)],
        "sub": [group.sub(p, q), group.sub(q, p), group.sub(p, p), group.sub(p, bytes(32))],
        "scalar_add": [group.scalar_add(x, y) for x in (s, *odd) for y in (t, *odd)],
        "scalar_sub": [group.scalar_sub(x, y) for x in (s, *odd) for y in (t, *odd)],
        "combine": [group.combine(scalars, points), group.combine(scalars[:1], points[:1]),
                    group.combine(scalars[:2], points[:2]), group.combine([s, t], [p, p]),
                    group.combine([s, minus_s], [p, p]),  # the identity
                    group.combine(tuple(scalars[:7]), tuple(points[:7]))],
    }
    total = group.mult(scalars[0], points[0])
    for x, point in zip(scalars[1:], points[1:]):
        total = group.add(total, group.mult(x, point))
    out["mult_add"] = [total]
    return {name: [v.hex() for v in values] for name, values in out.items()}
"""
TERMS = 100


def test_the_page_group_gives_the_native_bytes_for_sums_and_combinations(
        page_group: AppPage) -> None:
    from lostcities.fair.group import ORDER
    setup = f"ORDER = {ORDER}\nTERMS = {TERMS}\n{SUMS}"
    in_page = run(page_group.page, f"{setup}\nresult = sums(group)")
    namespace: dict[str, Any] = {}
    exec(setup, namespace)  # noqa: S102 (our own constant code, shared with the page)
    native = namespace["sums"](SodiumGroup())
    assert in_page == native
    # a combination is the sum of its products, and the long one is as the loop makes it
    assert native["combine"][0] == native["mult_add"][0]
    assert native["combine"][4] == IDENTITY.hex()
    assert native["add"][4] == SodiumGroup().point(bytes([0, 3]) * 32).hex()  # (p - q) + q
    assert page_group.page_errors == []


# A seat in the page, driven call by call from this process.
PAGE_SEAT = '''
import json
from lostcities import Options, move_from_json, move_to_json
from lostcities.fair import FairPeer

def seat_call(op, arg):
    if op == "act":
        return peer.act(move_from_json(arg))
    if op == "receive":
        return peer.receive(arg)
    if op == "legal":
        return [move_to_json(m) for m in peer.legal_moves()]
    return peer.start()
'''


class PageSeat:
    """The FairPeer calls a match needs, forwarded to a FairPeer in the page."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def _call(self, op: str, arg: object) -> Any:
        return run(self.page, f"result = seat_call({op!r}, json.loads({json.dumps(arg)!r}))")

    def start(self) -> list[str]:
        return list(self._call("start", None))

    def receive(self, text: str) -> list[str]:
        return list(self._call("receive", text))

    def act(self, move: Move) -> list[str]:
        return list(self._call("act", move_to_json(move)))

    def legal_moves(self) -> tuple[Move, ...]:
        return tuple(move_from_json(m) for m in self._call("legal", None))


def choose(moves: tuple[Move, ...], turn: int) -> Move:
    """A fixed function of the legal moves: a deck draw four times in five (so the round
    ends), else one of the other moves in turn; never an undo."""
    if Draw("deck") in moves and turn % 5:
        return Draw("deck")
    plain = sorted((m for m in moves if m != Undo()), key=repr)
    return plain[turn * 7 % len(plain)]


def play(seats: list[Any]) -> list[tuple[int, str]]:
    """A whole match between two seats (moves by `choose`); every message sent, in order,
    with its sender."""
    sent: list[tuple[int, str]] = []
    flight: list[tuple[int, str]] = []

    def post(seat: int, messages: list[str]) -> None:
        sent.extend((seat, m) for m in messages)
        flight.extend((1 - seat, m) for m in messages)

    for seat in (0, 1):
        post(seat, seats[seat].start())
    turn = 0
    while True:
        while flight:
            to, text = flight.pop(0)
            post(to, seats[to].receive(text))
        movers = [(s, seats[s].legal_moves()) for s in (0, 1)]
        movers = [(s, moves) for s, moves in movers if moves]
        if not movers:
            return sent
        seat, moves = movers[0]
        post(seat, seats[seat].act(choose(moves, turn)))
        turn += 1


def test_a_page_seat_plays_a_native_seat_and_sends_what_a_native_seat_sends(
        page_group: AppPage) -> None:
    options = Options(rounds=1)
    secrets = (b"\x01" * 32, b"\x02" * 32)
    native = [FairPeer(s, options, ("A", "B"), None, secrets[s], SodiumGroup()) for s in (0, 1)]
    reference = play(native)
    run(page_group.page, PAGE_SEAT + f"peer = FairPeer(1, Options(rounds=1), ('A', 'B'), None, "
                                      f"{secrets[1]!r}, group)")
    mixed = [FairPeer(0, options, ("A", "B"), None, secrets[0], SodiumGroup()),
             PageSeat(page_group.page)]
    assert play(mixed) == reference
    assert sum(1 for seat, _ in reference if seat == 1) > 20
    assert native[0].state is not None and native[0].state.phase == "match-end"
    assert mixed[0].error is None and mixed[0].state == native[0].state
    assert page_group.page_errors == []
