"""Engine benchmark: random full-match playouts per second (a script, not a test).

A playout is a whole match (``--rounds``, default 1) from the deal to match end, every decision
chosen uniformly at random among the legal moves (undo excluded). Figures are per process CPU
second (``time.process_time``, robust on a busy machine) and per wall second, on one core.

    PYTHONPATH=py python scripts/bench_engine.py [--seconds 5] [--rounds 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))

from lostcities import Options, Undo, apply, legal_moves, new_match  # noqa: E402
from lostcities.fast import FastMatch  # noqa: E402


def fast_playout(options: Options, seed: int, rng: random.Random) -> None:
    """One playout on the compact mutable path."""
    FastMatch.new(options, seed).playout(rng)


def api_playout(options: Options, seed: int, rng: random.Random) -> None:
    """One playout through the public immutable API (legal_moves + apply)."""
    state = new_match(options, seed=seed)
    while state.phase != "match-end":
        moves = [m for m in legal_moves(state) if not isinstance(m, Undo)]
        state = apply(state, rng.choice(moves))


def measure(run: Callable[[Options, int, random.Random], None], options: Options,
            seconds: float) -> tuple[float, float, int]:
    """(playouts per CPU second, per wall second, playouts) over about ``seconds``."""
    rng = random.Random(1)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    n = 0
    while time.process_time() - cpu0 < seconds:
        run(options, n, rng)
        n += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return n / cpu, n / wall, n


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
        cpu_rate, wall_rate, n = measure(run, options, secs)
        print(f"{label}: {cpu_rate:8.0f} playouts/s CPU  {wall_rate:8.0f} /s wall  ({n} played)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
