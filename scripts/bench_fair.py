"""Fair play, measured natively (rbcl): two honest peers play whole matches in one process.

Prints, per round and per seat: the CPU time to shuffle and deal (every shuffle step and its
proof, the check of the other's, and the shares that deal the hands, up to the moment the seat
holds its hand), the round's audit, and the bytes each seat sent; then the move latency (a
move, the other page's processing and any reply, in one process: no network) and the time to
resume each page from its save at the end.

    .venv/bin/python scripts/bench_fair.py [--matches N] [--plain]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))

from lostcities import Draw, Move, Options, Undo  # noqa: E402
from lostcities.fair import FairPeer  # noqa: E402
from lostcities.fair.sodium import SodiumGroup  # noqa: E402
from lostcities.fair.table import Table  # noqa: E402

GROUP = SodiumGroup()
BUDGET_DEAL_MS = 300.0
BUDGET_DEAL_OPTIONS_MS = 400.0


def deal_budget(options: Options) -> float:
    """The browser budget to shuffle and deal a round: more with any option (more decks)."""
    plain = Options(rounds=options.rounds)
    return BUDGET_DEAL_MS if options == plain else BUDGET_DEAL_OPTIONS_MS
BUDGET_MOVE_MS = 50.0


class CountingGroup(SodiumGroup):
    """The native group, counting its multiplications (base-point ones too; a batch or a long
    sum counts its terms) and point checks: the costly calls."""

    def __init__(self) -> None:
        super().__init__()
        self.ops = 0
        self._batching = 0

    def _count(self, n: int) -> None:
        if not self._batching:  # a batch counted its terms already
            self.ops += n

    def _counted(self, n: int, call: Callable[[], Any]) -> Any:
        self._count(n)
        self._batching += 1
        try:
            return call()
        finally:
            self._batching -= 1

    def mult(self, s: bytes, p: bytes) -> bytes:
        self._count(1)
        return super().mult(s, p)

    def base(self, s: bytes) -> bytes:
        self._count(1)
        return super().base(s)

    def is_point(self, p: bytes) -> bool:
        self._count(1)
        return super().is_point(p)

    def mults(self, scalars: Sequence[bytes], points: Sequence[bytes]) -> list[bytes]:
        return self._counted(len(scalars), lambda: super(CountingGroup, self).mults(scalars,
                                                                                points))

    def bases(self, scalars: Sequence[bytes]) -> list[bytes]:
        return self._counted(len(scalars), lambda: super(CountingGroup, self).bases(scalars))

    def are_points(self, points: Sequence[bytes]) -> list[bool]:
        return self._counted(len(points), lambda: super(CountingGroup, self).are_points(points))

    def combine(self, scalars: Sequence[bytes], points: Sequence[bytes]) -> bytes:
        return self._counted(len(scalars), lambda: super(CountingGroup, self).combine(scalars,
                                                                                  points))


class TimedTable(Table):
    """A table that adds the time its audits take to ``audit_seconds``."""

    audit_seconds: dict[int, float] = defaultdict(float)
    audit_ops: dict[int, int] = defaultdict(int)

    def _audit(self, scope: int) -> None:
        assert isinstance(self.group, CountingGroup)
        ops, start = self.group.ops, time.perf_counter()
        super()._audit(scope)
        self.audit_seconds[self.me] += time.perf_counter() - start
        self.audit_ops[self.me] += self.group.ops - ops


class TimedPeer(FairPeer):
    table_class = TimedTable


class Bench:
    """One match, timed call by call."""

    def __init__(self, options: Options, seed: int) -> None:
        self.groups = [CountingGroup(), CountingGroup()]
        self.peers = [TimedPeer(s, options, ("A", "B"), None, bytes([s + 1, seed]) * 16,
                                self.groups[s]) for s in (0, 1)]
        self.setup_ops: dict[tuple[int, int], int] = defaultdict(int)
        self.flight: list[tuple[int, str]] = []
        self.setup_ms: dict[tuple[int, int], float] = defaultdict(float)
        self.audit_ms: dict[tuple[int, int], float] = defaultdict(float)
        self.audit_ops: dict[tuple[int, int], int] = defaultdict(int)
        self.bytes: dict[tuple[int, int], int] = defaultdict(int)
        self.latencies: list[float] = []
        self.seed = seed

    def _round(self, seat: int) -> int:
        st = self.peers[seat].state
        return 1 if st is None else st.round + (st.phase in ("round-end", "match-end"))

    def _call(self, seat: int, call: Callable[[], list[str]], setup: bool) -> None:
        peer = self.peers[seat]
        audit_before = TimedTable.audit_seconds[seat]
        audit_ops_before = TimedTable.audit_ops[seat]
        round_before = self._round(seat)
        hand_before = peer.table.visible_known()
        ops_before = self.groups[seat].ops
        start = time.perf_counter()
        out = call()
        spent = time.perf_counter() - start
        audit = TimedTable.audit_seconds[seat] - audit_before
        audit_ops = TimedTable.audit_ops[seat] - audit_ops_before
        if audit:
            self.audit_ms[(round_before, seat)] += audit * 1000
            self.audit_ops[(round_before, seat)] += audit_ops
        dealing = setup or any('"shuffle"' in m for m in out) or (
            not hand_before and peer.table.visible_known())
        if dealing:
            ops = self.groups[seat].ops - ops_before - audit_ops
            self.setup_ms[(self._round(seat), seat)] += (spent - audit) * 1000
            self.setup_ops[(self._round(seat), seat)] += ops
        for text in out:
            self.bytes[(round_before if audit else self._round(seat), seat)] += len(text)
            self.flight.append((1 - seat, text))

    def deliver(self) -> None:
        while self.flight:
            to, text = self.flight.pop(0)
            self._call(to, lambda: self.peers[to].receive(text), '"shuffle"' in text)

    def play(self) -> None:
        for seat in (0, 1):
            self._call(seat, self.peers[seat].start, True)
        self.deliver()
        turn = 0
        while True:
            movers = [p for p in self.peers if p.legal_moves()]
            if not movers:
                return
            peer = movers[0]
            move = self.choose(peer.legal_moves(), turn)
            start = time.perf_counter()
            self._call(peer.seat, lambda: peer.act(move), move.__class__.__name__ == "NextRound")
            self.deliver()
            self.latencies.append((time.perf_counter() - start) * 1000)
            turn += 1

    def choose(self, moves: tuple[Move, ...], turn: int) -> Move:
        """Deck draws mostly; otherwise the moves in turn (a cheap stand-in for a player)."""
        plain = [m for m in moves if m != Undo()]
        if Draw("deck") in moves and turn % 5:
            return Draw("deck")
        return plain[(turn * 7 + self.seed) % len(plain)]


def group_costs() -> tuple[float, float]:
    point = GROUP.point(bytes(range(64)))
    scalar = GROUP.scalar(bytes(range(64)))
    n = 200
    start = time.perf_counter()
    for _ in range(n):
        GROUP.mult(scalar, point)
    mult = (time.perf_counter() - start) / n * 1e6
    start = time.perf_counter()
    for _ in range(n):
        GROUP.is_point(point)
    return mult, (time.perf_counter() - start) / n * 1e6


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(options: Options, matches: int) -> dict[str, Any]:
    setup: dict[tuple[int, int], list[float]] = defaultdict(list)
    ops: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    audits: dict[tuple[int, int], list[float]] = defaultdict(list)
    sent: dict[tuple[int, int], list[int]] = defaultdict(list)
    latencies: list[float] = []
    restores: list[float] = []
    for seed in range(1, matches + 1):
        bench = Bench(options, seed)
        bench.play()
        for key, ms in bench.setup_ms.items():
            setup[key].append(ms)
            ops[key].append((bench.setup_ops[key], bench.audit_ops[key]))
        for key, ms in bench.audit_ms.items():
            audits[key].append(ms)
        for key, n in bench.bytes.items():
            sent[key].append(n)
        latencies += bench.latencies
        for peer in bench.peers:
            saved = json.loads(json.dumps(peer.save()))
            start = time.perf_counter()
            FairPeer.restore(saved, GROUP)
            restores.append((time.perf_counter() - start) * 1000)
    return {"setup": setup, "ops": ops, "audits": audits, "sent": sent, "latencies": latencies,
            "restores": restores}


def report(title: str, options: Options, found: dict[str, Any], mult_us: float) -> None:
    print(f"\n{title}: {json.dumps(options.to_json())}")
    print(f"{'round':>5} {'seat':>4} {'shuffle+deal ms':>16} {'(ops)':>6} {'audit ms':>9} "
          f"{'(ops)':>6} {'bytes sent':>11}")
    worst, worst_ops = 0.0, 0
    for r in range(1, options.rounds + 1):
        for seat in (0, 1):
            deal = statistics.median(found["setup"].get((r, seat), [0.0]))
            deal_ops, audit_ops = max(found["ops"].get((r, seat), [(0, 0)]))
            audit = statistics.median(found["audits"].get((r, seat), [0.0]))
            sent = statistics.median(found["sent"].get((r, seat), [0]))
            worst, worst_ops = max(worst, deal), max(worst_ops, deal_ops)
            print(f"{r:>5} {seat:>4} {deal:>16.1f} {deal_ops:>6} {audit:>9.1f} {audit_ops:>6} "
                  f"{sent:>11.0f}")
    per_round = sum(statistics.median(v) for v in found["sent"].values()) / options.rounds
    lat = found["latencies"]
    print(f"bytes on the wire per round (both seats): {per_round:.0f}")
    budget = deal_budget(options)
    print(f"shuffle+deal, worst seat and round: {worst:.1f} ms "
          f"({worst / budget:.2f} of the browser budget of {budget:.0f} ms); "
          f"{worst_ops} group operations, at most {worst_ops * mult_us / 1000:.0f} ms at this "
          "machine's cost of a multiplication")
    print(f"move latency p50 {pct(lat, 0.5):.2f} ms, p95 {pct(lat, 0.95):.2f} ms over "
          f"{len(lat)} moves ({pct(lat, 0.95) / BUDGET_MOVE_MS:.2f} of the {BUDGET_MOVE_MS:.0f} "
          "ms budget)")
    print(f"resume from a save at match end: median {statistics.median(found['restores']):.0f}"
          f" ms, max {max(found['restores']):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="matches per setting (3)")
    parser.add_argument("--plain", action="store_true", help="only the plain 3-round match")
    args = parser.parse_args()
    mult, valid = group_costs()
    print(f"group ({GROUP.name}): {mult:.0f} us a multiplication, {valid:.0f} us a point check")
    settings = [("plain", Options(rounds=3))]
    if not args.plain:
        settings.append(("every option", Options(rounds=3, sixth_colour=True, jobs=True,
                                                 skills=True, objectives=True, mixups=True)))
    for title, options in settings:
        report(title, options, run(options, args.matches), mult)


if __name__ == "__main__":
    main()
