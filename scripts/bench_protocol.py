"""Parse-work benchmark of peer messages and saves (a script, not a test).

Times `decode_json` (size check, nesting check, json.loads) on hostile texts of 4, 64 and
256 KB and 1 MB, beside the same work with the nesting check the protocol used before (a
string pattern, quadratic on an unterminated string of escaped quotes, kept here as the
baseline), and the new nesting check alone with its cost per KB (linear work: the same at
every size, but for the memory caches a 1 MB text no longer fits in). Figures are the best of
repeated runs, in ms. Old runs that would take over ``--old-limit`` seconds (extrapolated
quadratically from the size below) are estimated instead. With ``--pyodide``, the new figures
are measured in Pyodide too (Node and node_modules/pyodide). Last, the flood limit: how many
of a burst of queued messages the host handles when each takes 0.15 s, old bucket and new.

    PYTHONPATH=py python scripts/bench_protocol.py [--old-limit 60] [--pyodide]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tests"))

from hostile_texts import SHAPES, hostile  # noqa: E402
from lostcities.protocol import (  # noqa: E402
    MAX_DEPTH, MAX_MESSAGE_BYTES, ProtocolError, _too_deep, decode_json,
)

SIZES = (4096, 65536, 1 << 18, 1 << 20)
BIG = 1 << 22
"""The size limit used here, above every text: the nesting check itself is measured."""


# ---- the texts -------------------------------------------------------------------------------


# ---- the old nesting check (the baseline) ----------------------------------------------------

_OLD_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_OLD_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_OLD_INNERMOST = re.compile(r"[\[{][\]}]")


def old_too_deep(text: str, max_depth: int) -> bool:
    """The nesting check as it was: strings removed by a pattern, then pairs stripped."""
    if text.count("[") + text.count("{") <= max_depth:
        return False
    brackets = _OLD_NOT_BRACKET.sub("", _OLD_STRING.sub("", text))
    for level in range(max_depth + 1):
        reduced = _OLD_INNERMOST.sub("", brackets)
        if reduced == brackets:
            return level + reduced.count("[") + reduced.count("{") > max_depth
        brackets = reduced
    return True


def old_decode(text: str, max_depth: int) -> Any:
    """decode_json's work as it was (size check, old nesting check, json.loads)."""
    if len(text.encode("utf-8", "surrogatepass")) > BIG:
        raise ProtocolError("too-large", "too large")
    if old_too_deep(text, max_depth):
        raise ProtocolError("bad-json", "nested too deep")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("bad-json", str(exc)) from None


def new_decode(text: str, max_depth: int) -> Any:
    return decode_json(text, BIG, max_depth)


def new_check(text: str, max_depth: int) -> bool:
    """The new nesting check alone (on the UTF-8 bytes decode_json hands it)."""
    return _too_deep(text.encode("utf-8", "surrogatepass"), max_depth)


def client_decode(text: str, _max_depth: int) -> Any:
    """decode_json at a client message's limits (4096 bytes, 8 levels)."""
    return decode_json(text)


# ---- measuring -------------------------------------------------------------------------------


def best_ms(decode: Callable[[str, int], Any], text: str, max_depth: int = MAX_DEPTH,
            budget: float = 0.3) -> float:
    """The best of repeated runs (at least 3, until `budget` seconds or 200 runs), in ms."""
    best, spent, runs = float("inf"), 0.0, 0
    while runs < 3 or (spent < budget and runs < 200):
        start = time.perf_counter()
        try:
            decode(text, max_depth)
        except ProtocolError:
            pass
        took = time.perf_counter() - start
        best, spent, runs = min(best, took), spent + took, runs + 1
        if took > budget:
            break
    return best * 1000


def measure_new() -> dict[str, dict[str, list[float]]]:
    """New figures, [decode_json ms, nesting check ms], for every shape and size (also what
    the Pyodide run returns)."""
    return {name: {str(size): [best_ms(new_decode, make(size)), best_ms(new_check, make(size))]
                   for size in SIZES}
            for name, make in SHAPES.items()}


def measure_old(limit: float) -> dict[str, dict[str, tuple[float, bool]]]:
    """Old figures: (ms, estimated) per shape and size; runs over `limit` s are estimated."""
    figures: dict[str, dict[str, tuple[float, bool]]] = {}
    for name, make in SHAPES.items():
        row: dict[str, tuple[float, bool]] = {}
        previous = (0.0, SIZES[0])  # (ms, size) of the last figure
        for size in SIZES:
            guess = previous[0] * (size / previous[1]) ** 2
            estimated = guess > limit * 1000
            ms = guess if estimated else best_ms(old_decode, make(size))
            row[str(size)] = (ms, estimated)
            previous = (ms, size)
        figures[name] = row
    return figures


def in_pyodide() -> dict[str, Any]:
    """measure_new() run in Pyodide under Node, with this script as a helper module."""
    import subprocess  # noqa: PLC0415  (only for --pyodide)
    import tempfile  # noqa: PLC0415

    runner = ROOT / "tests" / "pyodide" / "run_in_pyodide.mjs"
    pyodide = ROOT / "node_modules" / "pyodide" / "pyodide.mjs"
    code = ("import json, sys, bench_protocol as b\n"
            "json.dumps({'python': sys.version.split()[0], 'new': b.measure_new(),"
            " 'client_4k': b.best_ms(b.client_decode, b.hostile(b.MAX_MESSAGE_BYTES))})\n")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "measure.py"
        script.write_text(code)
        result = subprocess.run(
            ["node", str(runner), str(pyodide), str(ROOT / "py"), str(script), __file__,
             str(ROOT / "tests" / "hostile_texts.py")],
            capture_output=True, text=True, timeout=1800, check=True)
    figures: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


# ---- the flood limit ---------------------------------------------------------------------------


def flood(handling: float, queued: int) -> tuple[int, int]:
    """How many of `queued` messages that arrived at once are handled when each takes
    `handling` seconds: (with the old bucket, with the new one)."""
    from webui.online.liveness import BURST, RATE, RateLimit  # noqa: PLC0415

    tokens, at, old_handled, now = float(BURST), 0.0, 0, 0.0
    for _ in range(queued):  # the old bucket: refilled by the time each is handed over
        tokens, at = min(float(BURST), tokens + (now - at) * RATE), now
        if tokens >= 1:
            tokens, old_handled, now = tokens - 1, old_handled + 1, now + handling
    limit, new_handled, now = RateLimit(0.0), 0, 0.0
    for _ in range(queued):
        if limit.allow(now, 100):
            now += handling
            limit.handled(now)
            new_handled += 1
    return old_handled, new_handled


# ---- report --------------------------------------------------------------------------------------


def size_label(size: int) -> str:
    return f"{size // 1024} KB" if size < 1 << 20 else f"{size >> 20} MB"


def report(new: dict[str, dict[str, list[float]]],
           old: dict[str, dict[str, tuple[float, bool]]], pyodide: dict[str, Any] | None) -> None:
    print("Best ms per text: decode_json (size check, nesting check, json.loads), old and new;"
          "\nthe new nesting check alone, and its us per KB (linear work: the same at every size)")
    header = (f"{'shape':8} {'size':>6}  {'old ms':>13}  {'new ms':>8} {'old/new':>8}"
              f"  {'check ms':>8} {'us/KB':>6}")
    if pyodide is not None:
        header += f"  {'Pyodide ms':>10} {'check':>8} {'us/KB':>6}"
    print(header)
    for name in SHAPES:
        for size in SIZES:
            key, kb = str(size), size / 1024
            old_ms, estimated = old[name][key]
            decode_ms, check_ms = new[name][key]
            old_text = f"{'~' if estimated else ''}{old_ms:,.1f}"
            line = (f"{name:8} {size_label(size):>6}  {old_text:>13}  {decode_ms:8.3f}"
                    f" {old_ms / decode_ms:7.0f}x  {check_ms:8.3f} {check_ms * 1000 / kb:6.1f}")
            if pyodide is not None:
                py_decode, py_check = pyodide["new"][name][key]
                line += f"  {py_decode:10.3f} {py_check:8.3f} {py_check * 1000 / kb:6.1f}"
            print(line)
    print("(~: estimated, quadratically from the size below: the run would exceed --old-limit)")
    client = best_ms(client_decode, hostile(MAX_MESSAGE_BYTES))
    old_client = best_ms(old_decode, hostile(MAX_MESSAGE_BYTES))
    print(f"\nthe hostile 4 KB client message, refused at the client limits: {client:.3f} ms"
          f" natively (old: {old_client:.1f} ms)", end="")
    if pyodide is not None:
        print(f", {pyodide['client_4k']:.3f} ms in Pyodide (Python {pyodide['python']})")
    else:
        print()
    old_flood, new_flood = flood(0.15, 300)
    print(f"flood: 300 messages queued at once, 0.15 s to handle each: the old bucket handles"
          f" {old_flood}, the new {new_flood}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-limit", type=float, default=60.0,
                        help="seconds an old run may take before it is estimated instead")
    parser.add_argument("--pyodide", action="store_true",
                        help="measure the new figures in Pyodide too (needs node)")
    args = parser.parse_args()
    new = measure_new()
    old = measure_old(args.old_limit)
    report(new, old, in_pyodide() if args.pyodide else None)


if __name__ == "__main__":
    main()
