"""Benchmark the bots natively: playouts per second of the bots' simulator, and how long the
strong bot thinks per move (mean, 95th percentile and max) at a given budget.

    PYTHONPATH=py python scripts/bench_bots.py [--playouts 300] [--matches 2] [--all-options]

Prints figures only; nothing here is a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from lostcities import Options, apply, move_from_json, new_match, view
from lostcities.bots import HeuristicBot, StrongBot
from lostcities.bots.knowledge import Knowledge
from lostcities.bots.policy import SHARP, playout


def playouts_per_second(options: Options, seconds: float = 3.0) -> float:
    """Whole-round policy playouts per second from the first position of a match."""
    state = new_match(options, seed=1)
    while state.phase == "jobs":
        state = apply(state, move_from_json(view(state, state.to_act or 0)["legal_moves"][0]))
    know = Knowledge.from_view(view(state, state.to_act or 0))
    rng = random.Random(0)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        playout(know.world(rng), style=SHARP)
        n += 1
    return n / (time.perf_counter() - start)


def decision_times(options: Options, playouts: int, matches: int) -> list[float]:
    """Seconds per strong-bot decision over whole matches against the heuristic bot."""
    times: list[float] = []
    for seed in range(matches):
        bots = (StrongBot(playouts), HeuristicBot())
        state = new_match(options, seed=seed, first_player=seed % 2)
        rng = random.Random(seed)
        while state.phase != "match-end":
            seat = state.to_act if state.to_act is not None else 0
            v = view(state, seat)
            start = time.perf_counter()
            move = bots[seat].choose(v, rng)
            if seat == 0 and state.phase in ("play", "draw"):
                times.append(time.perf_counter() - start)
            state = apply(state, move_from_json(move))
    return times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--playouts", type=int, default=300)
    p.add_argument("--matches", type=int, default=2)
    p.add_argument("--all-options", action="store_true")
    args = p.parse_args()
    every = args.all_options
    options = Options(sixth_colour=every, jobs=every, skills=every, objectives=every,
                      mixups=every)
    label = "all options" if every else "base rules"
    print(f"{label}: {playouts_per_second(options):.0f} whole-round policy playouts/s")
    times = decision_times(options, args.playouts, args.matches)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"{label}: strong bot, {args.playouts} playouts: {len(times)} decisions, "
          f"mean {statistics.mean(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
          f"max {times[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
