"""Native render time of the screens, click after click: this tree against git revisions.

    .venv/bin/python scripts/bench_render.py [--baseline REV ...] [--runs 5] [--matches 4]

Plays random matches (every option on in one of them) and renders each position's screen for
the player to act, in order, as the page does after each click (so the screens' caches meet
what they meet in play). Each revision runs in its own process (its py/ unpacked from git),
the revisions alternating run after run so that all meet the same machine load. Prints, per
revision, the median and p95 of a render (the best run's) and the ratio to this tree. Asserts
nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, random, sys, time
sys.path[:0] = [sys.argv[1]]
from dataclasses import replace
from lostcities import Draw, Options, apply, legal_moves, new_match, view
from webui.screens.match import render_doc
from webui.kernel.uistate import UiState

times = []
for number in range(int(sys.argv[2])):
    on = number == 0
    options = Options(rounds=1, sixth_colour=on, jobs=on, skills=on, objectives=on, mixups=on)
    rng = random.Random(number)
    state = new_match(options, seed=number, names=("Ana", "Ben"))
    ui = UiState()
    while state.phase != "match-end":
        me = state.to_act if state.to_act is not None else 0
        seen = view(state, me)
        for lang in ("en", "es"):
            began = time.perf_counter()
            render_doc(seen, replace(ui, handoff=False), lang)
            times.append(time.perf_counter() - began)
        moves = legal_moves(state)
        move = Draw("deck") if state.phase == "draw" and rng.random() < 0.8 else rng.choice(moves)
        state = apply(state, move)
print(json.dumps(times))
"""


def tree_of(revision: str, into: Path) -> Path:
    """py/ of `revision`, unpacked under `into`."""
    archive = subprocess.run(["git", "archive", revision, "py"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    target = into / revision.replace("/", "_")
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    return target / "py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", action="append", default=[], help="a git revision")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--matches", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"tree": ROOT / "py"} | {rev: tree_of(rev, Path(tmp)) for rev in args.baseline}
        best: dict[str, list[float]] = {}
        for _ in range(args.runs):
            for name, py in trees.items():
                out = subprocess.run([sys.executable, "-c", CHILD, str(py), str(args.matches)],
                                     check=True, capture_output=True, text=True).stdout
                times = sorted(json.loads(out))
                if name not in best or statistics.median(times) < statistics.median(best[name]):
                    best[name] = times
    base = statistics.median(best["tree"])
    for name, times in best.items():
        median, p95 = statistics.median(times), times[int(len(times) * 0.95)]
        print(f"{name:>12}: {len(times)} renders, median {median * 1e3:.3f} ms, "
              f"p95 {p95 * 1e3:.3f} ms, {median / base:.2f}x the tree's median")


if __name__ == "__main__":
    main()
