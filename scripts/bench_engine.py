"""Engine benchmark: random full-match playouts per second (a script, not a test).

A playout is a whole match (``--rounds``, default 1) from the deal to match end, every decision
chosen uniformly at random among the legal moves (undo excluded). Figures are playouts per
process CPU second (``time.process_time``) on one core: the mean over the run, and the median
and best of its ~0.25 s batches (on a busy shared machine the best batch is the closest to an
idle core); the wall-clock mean is printed too.

    PYTHONPATH=py python scripts/bench_engine.py [--seconds 5] [--rounds 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tests")]

from fastmatch import FastMatch  # noqa: E402  (a test helper: whole matches on the bots' Sim)
from lostcities import Options, Undo, apply, legal_moves, new_match  # noqa: E402


def fast_playout(options: Options, seed: int, rng: random.Random) -> None:
    """One playout on the bots' mutable simulator (``FastMatch`` over ``Sim``)."""
    FastMatch.new(options, seed).playout(rng)


def api_playout(options: Options, seed: int, rng: random.Random) -> None:
    """One playout through the public immutable API (legal_moves + apply)."""
    state = new_match(options, seed=seed)
    while state.phase != "match-end":
        moves = [m for m in legal_moves(state) if not isinstance(m, Undo)]
        state = apply(state, rng.choice(moves))


def measure(run: Callable[[Options, int, random.Random], None], options: Options,
            seconds: float) -> dict[str, float]:
    """Playouts per CPU second (mean, median and best batch) and per wall second."""
    rng = random.Random(1)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    n = 0
    batches: list[float] = []
    while time.process_time() - cpu0 < seconds:
        start, count = time.process_time(), 0
        while time.process_time() - start < 0.25:
            run(options, n, rng)
            n += 1
            count += 1
        batches.append(count / (time.process_time() - start))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"mean": n / cpu, "median": statistics.median(batches), "best": max(batches),
            "wall": n / wall, "n": n}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per figure")
    parser.add_argument("--rounds", type=int, default=1, help="rounds per match (1-5)")
    args = parser.parse_args()
    base = Options(rounds=args.rounds)
    every = Options(rounds=args.rounds, sixth_colour=True, jobs=True, skills=True,
                    objectives=True, mixups=True)
    print(f"random {args.rounds}-round match playouts, Python {sys.version.split()[0]}")
    for label, run, options, secs in (
        ("fast path, base rules     ", fast_playout, base, args.seconds),
        ("fast path, all options on ", fast_playout, every, args.seconds),
        ("immutable API, base rules ", api_playout, base, args.seconds / 2),
        ("immutable API, all options", api_playout, every, args.seconds / 2),
    ):
        r = measure(run, options, secs)
        print(f"{label}: {r['mean']:6.0f}/s CPU (median batch {r['median']:.0f}, best "
              f"{r['best']:.0f}); {r['wall']:.0f}/s wall; {r['n']:.0f} played")
    return 0


if __name__ == "__main__":
    sys.exit(main())
