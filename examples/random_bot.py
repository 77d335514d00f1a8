"""A tiny bot that plays a whole match against itself through the wire protocol.

It starts ``python -m lostcities protocol`` as a child process and speaks JSON lines to it:
one message per line in, one reply per line out (docs/protocol.md). It only uses ``json`` and
``subprocess``, so the same loop can be written in any language.

    python examples/random_bot.py [SEED]
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

ENGINE = Path(__file__).resolve().parent.parent / "py"  # where the lostcities package lives


def main() -> int:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    rng = random.Random(seed)
    env = dict(os.environ, PYTHONPATH=str(ENGINE))
    host = subprocess.Popen(
        [sys.executable, "-m", "lostcities", "protocol"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
    )
    assert host.stdin is not None and host.stdout is not None
    seq = 0

    def send(kind: str, **fields: Any) -> dict[str, Any]:
        """Send one message and return the host's one-line reply."""
        nonlocal seq
        seq += 1
        host.stdin.write(json.dumps({"v": 1, "seq": seq, "type": kind, **fields}) + "\n")
        host.stdin.flush()
        reply: dict[str, Any] = json.loads(host.stdout.readline())
        if reply["type"] == "error":
            raise SystemExit(f"refused: {reply['code']}: {reply['message']}")
        return reply

    send("hello", name="random-bot")
    reply = send("start", options={"rounds": 3, "skills": True, "objectives": True},
                 seed=seed, names=["Bot A", "Bot B"])
    moves = 0
    while reply["type"] != "match-end":
        view = reply["view"]
        seat = view["to_act"] if view["to_act"] is not None else view["player"]
        if seat != view["player"]:  # the other seat is to act: look through its eyes
            reply = send("get-view", seat=seat)
            continue
        choices = [m for m in view["legal_moves"] if m["type"] != "undo"]
        deck = {"type": "draw", "source": "deck"}
        move = deck if deck in choices and rng.random() < 0.8 else rng.choice(choices)
        reply = send("move", seat=seat, move=move)
        moves += 1
    host.stdin.close()
    host.wait()
    winner = reply["winner"]
    result = "a draw" if winner == "draw" else f"won by {reply['view']['names'][winner]}"
    print(f"match over after {moves} moves: {result}, totals {reply['totals']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
