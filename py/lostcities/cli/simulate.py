"""``python -m lostcities simulate``: bot-vs-bot matches, win rates with a 95% interval.

Match ``i`` (0-based) uses the seed ``--seed + i`` and is started by player ``i % 2``, so the
starting seat alternates. ``--workers`` plays matches in parallel processes; the results do not
depend on it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import BOT_NAMES, make_bot
from ..bots.match import MatchResult, play_match
from ..options import MAX_ROUNDS, MIN_ROUNDS, Options


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion ``wins / n``."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def build_parser() -> argparse.ArgumentParser:
    """The ``simulate`` command's argument parser."""
    p = argparse.ArgumentParser(
        prog="python -m lostcities simulate",
        description="Play bot-vs-bot matches and print the win rates (95% Wilson interval), "
        "draws and games per second. Starts alternate between the seats.",
    )
    p.add_argument("--games", type=int, default=100, help="number of matches (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first match (default 0)")
    p.add_argument("--p0", choices=BOT_NAMES, default="heuristic", help="bot in seat 0")
    p.add_argument("--p1", choices=BOT_NAMES, default="random", help="bot in seat 1")
    p.add_argument("--playouts", type=int, default=None,
                   help="the strong bot's playout budget per decision")
    p.add_argument("--rounds", type=int, default=3, help="rounds per match, 1-5 (default 3)")
    p.add_argument("--sixth-colour", action="store_true", help="play with the sixth colour")
    p.add_argument("--jobs", action="store_true", help="option: Jobs")
    p.add_argument("--skills", action="store_true", help="option: Skills")
    p.add_argument("--objectives", action="store_true", help="option: Objectives")
    p.add_argument("--mixups", action="store_true", help="option: Endgame mixups")
    p.add_argument("--all-options", action="store_true",
                   help="every option on (sixth colour, jobs, skills, objectives, mixups)")
    p.add_argument("--workers", type=int, default=1,
                   help="parallel processes (default 1; results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--progress", type=int, default=0, metavar="K",
                   help="report the running tally on stderr every K matches")
    return p


@dataclass(frozen=True)
class _Job:
    names: tuple[str, str]
    playouts: int | None
    options: Options
    seed: int


def _play(job: _Job) -> MatchResult:
    bots = (make_bot(job.names[0], job.playouts), make_bot(job.names[1], job.playouts))
    return play_match(bots, job.options, job.seed, first_player=job.seed % 2)


def summarise(names: tuple[str, str], options: Options, results: Sequence[MatchResult],
              seconds: float, workers: int) -> dict[str, Any]:
    """The figures printed by the command, as a JSON-ready dict."""
    n = len(results)
    wins = [sum(1 for r in results if r.winner == s) for s in (0, 1)]
    draws = n - wins[0] - wins[1]
    out: dict[str, Any] = {
        "bots": list(names), "games": n, "options": options.to_json(),
        "wins": wins, "draws": draws, "win_rate": [w / n if n else 0.0 for w in wins],
        "win_rate_ci95": [list(wilson(w, n)) for w in wins],
        "average_totals": [sum(r.totals[s] for r in results) / n if n else 0.0 for s in (0, 1)],
        "seconds": seconds, "games_per_second": n / seconds if seconds > 0 else 0.0,
        "workers": workers,
    }
    return out


def _text(s: dict[str, Any]) -> str:
    names = s["bots"]
    opts = ", ".join(f"{k}={v}" for k, v in s["options"].items())
    lines = [f"{s['games']} matches, {names[0]} (seat 0) vs {names[1]} (seat 1); {opts}"]
    for seat in (0, 1):
        lo, hi = s["win_rate_ci95"][seat]
        lines.append(
            f"  {names[seat]:<10} seat {seat}: {s['wins'][seat]} wins "
            f"({100 * s['win_rate'][seat]:.1f}%, 95% CI {100 * lo:.1f}-{100 * hi:.1f}%), "
            f"average total {s['average_totals'][seat]:.1f}")
    lines.append(f"  draws: {s['draws']}")
    lines.append(f"  {s['games_per_second']:.2f} games/s ({s['seconds']:.1f} s, "
                 f"{s['workers']} worker{'s' if s['workers'] != 1 else ''})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the matches and print the summary; 2 on bad arguments."""
    args = build_parser().parse_args(argv)
    if args.games < 1:
        print("lostcities simulate: error: --games must be at least 1", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("lostcities simulate: error: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.playouts is not None and args.playouts < 1:
        print("lostcities simulate: error: --playouts must be at least 1", file=sys.stderr)
        return 2
    if not MIN_ROUNDS <= args.rounds <= MAX_ROUNDS:
        print("lostcities simulate: error: --rounds must be from 1 to 5", file=sys.stderr)
        return 2
    every = args.all_options
    options = Options(
        rounds=args.rounds, sixth_colour=every or args.sixth_colour, jobs=every or args.jobs,
        skills=every or args.skills, objectives=every or args.objectives,
        mixups=every or args.mixups,
    )
    names = (args.p0, args.p1)
    jobs = [_Job(names, args.playouts, options, args.seed + i) for i in range(args.games)]
    start = time.perf_counter()
    results: list[MatchResult] = []

    def record(result: MatchResult) -> None:
        results.append(result)
        if args.progress and len(results) % args.progress == 0:
            wins = sum(1 for r in results if r.winner == 0)
            print(f"{len(results)} matches: {names[0]} won {wins}", file=sys.stderr, flush=True)

    if args.workers == 1:
        for job in jobs:
            record(_play(job))
    else:
        from multiprocessing import Pool

        with Pool(args.workers) as pool:
            for result in pool.imap(_play, jobs, chunksize=1):
                record(result)
    seconds = time.perf_counter() - start
    summary = summarise(names, options, results, seconds, args.workers)
    print(json.dumps(summary) if args.json else _text(summary))
    return 0
