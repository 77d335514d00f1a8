"""``python -m lostcities protocol``: the real subprocess, JSON lines on stdin/stdout."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from lostcities import Options, apply, move_from_json, new_match, view
from lostcities.cli.protocol import read_line, serve
from lostcities.protocol import MAX_MESSAGE_BYTES, parse_host_message

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "py"))


class Cli:
    """The protocol command as a child process, one request line and one reply line at a time."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "lostcities", "protocol"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
        )
        self.seq = 0
        self.replies: list[dict[str, Any]] = []

    def line(self, raw: bytes) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        last = self.replies[-1]["seq"] if self.replies else 0
        assert parse_host_message(line, last).type in ("welcome", "view", "match-end", "error")
        reply: dict[str, Any] = json.loads(line)
        self.replies.append(reply)
        return reply

    def blank(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"  \t\n")

    def send(self, kind: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        reply = self.line(json.dumps({"v": 1, "seq": self.seq, "type": kind, **fields}).encode())
        assert reply["ref_seq"] == self.seq
        return reply

    def close(self) -> tuple[int, bytes, bytes]:
        out, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, out, err


HOSTILE: list[tuple[bytes, str]] = [
    (b"garbage", "bad-json"),
    (b"\xff\xfe\xfd", "bad-json"),
    (b"[1, 2]", "not-object"),
    (b'{"v": 1, "seq": 1, "type": "get-view", "seat": 0}', "replayed"),
    (b'{"v": 7, "seq": 99999, "type": "get-view", "seat": 0}', "version-mismatch"),
    (b'{"v": 1, "seq": 99999, "type": "shuffle"}', "unknown-type"),
    (b'{"v": 1, "seq": 99999, "type": "move", "seat": 0, "move": {"type": "play"}}', "bad-move"),
    (b'{"v": 1, "seq": 99999, "type": "get-view", "seat": "0"}', "bad-message"),
    (b'{"v": 1, "seq": 99999, "type": "ping", "x": ' + b"0" * 200_000 + b"}", "too-large"),
]


def test_a_whole_match_through_the_subprocess_with_hostile_lines_in_between() -> None:
    rng = random.Random(5)
    cli = Cli()
    assert cli.send("hello", name="test")["type"] == "welcome"
    options = {"rounds": 2, "jobs": True, "skills": True, "objectives": True, "mixups": True}
    reply = cli.send("start", options=options, seed=77, names=["Ana", "Ben"], first_player=1)
    shadow = new_match(Options(**options), seed=77, first_player=1, names=("Ana", "Ben"))
    hostile_sent = turns = 0
    while reply["type"] != "match-end":
        assert reply["type"] == "view", reply
        seen = reply["view"]
        assert seen == view(shadow, seen["player"])
        turns += 1
        if turns % 5 == 0:
            raw, code = HOSTILE[hostile_sent % len(HOSTILE)]
            error = cli.line(raw)
            assert (error["type"], error["code"]) == ("error", code), error
            hostile_sent += 1
            cli.blank()  # gets no reply: the next reply read must answer the next request
        seat = seen["to_act"] if seen["to_act"] is not None else seen["player"]
        if seat != seen["player"]:
            reply = cli.send("get-view", seat=seat)
            continue
        if rng.random() < 0.1:  # out of turn: the other seat tries to move
            error = cli.send("move", seat=1 - seat, move=seen["legal_moves"][0])
            if seen["to_act"] is not None:
                assert error["code"] == "not-your-turn"
            else:
                shadow = apply(shadow, move_from_json(seen["legal_moves"][0]))
                reply = error
                continue
        deck = {"type": "draw", "source": "deck"}
        legal = [m for m in seen["legal_moves"] if m["type"] != "undo"]
        move = deck if deck in legal and rng.random() < 0.75 else rng.choice(legal)
        reply = cli.send("move", seat=seat, move=move)
        shadow = apply(shadow, move_from_json(move))
    assert hostile_sent >= len(HOSTILE)
    final = view(shadow, 0)
    assert reply["view"] == view(shadow, reply["view"]["player"])
    assert reply["winner"] == final["winner"] and reply["totals"] == final["totals"]
    status, rest, err = cli.close()
    assert (status, rest, err) == (0, b"", b"")
    seqs = [r["seq"] for r in cli.replies]
    assert seqs == list(range(1, len(seqs) + 1))


def test_each_non_blank_line_gets_exactly_one_reply_line_and_eof_ends() -> None:
    lines = [
        b'{"v": 1, "seq": 1, "type": "hello", "name": "x"}',
        b"",
        b"   \t",
        b'{"v": 1, "seq": 2, "type": "ping", "t": 3}\r',
        b"not json",
        b"x" * 100_000,
        b'{"v": 1, "seq": 3, "type": "get-view", "seat": 0}',
    ]
    done = subprocess.run(
        [sys.executable, "-m", "lostcities", "protocol"], input=b"\n".join(lines) + b"\n",
        capture_output=True, env=ENV, timeout=60,
    )
    assert done.returncode == 0 and done.stderr == b""
    replies = [json.loads(x) for x in done.stdout.decode("ascii").splitlines()]
    assert [(r["type"], r.get("code")) for r in replies] == [
        ("welcome", None), ("pong", None), ("error", "bad-json"), ("error", "too-large"),
        ("error", "no-match"),
    ]
    assert replies[1]["t"] == 3


def test_the_example_bot_plays_a_match_through_the_protocol() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "random_bot.py"), "4"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("match over after ")


def test_read_line_bounds_what_it_reads() -> None:
    limit = MAX_MESSAGE_BYTES
    just = b"a" * limit
    over = b"b" * (limit + 1)
    huge = b"c" * (10 * limit)
    stream = io.BytesIO(just + b"\n" + just + b"\r\n" + over + b"\n" + huge + b"\nlast")
    assert read_line(stream) == just
    assert read_line(stream) == just
    assert read_line(stream) == over
    assert read_line(stream) == huge[: limit + 1]  # the rest of the line is skipped
    assert read_line(stream) == b"last"
    assert read_line(stream) is None


def test_serve_writes_one_ascii_line_per_message() -> None:
    stdin = io.BytesIO(
        '{"v": 1, "seq": 1, "type": "hello", "name": "Zoë"}\n'.encode()
        + b'{"v": 1, "seq": 2, "type": "start", "options": {}, "seed": 1, '
        + '"names": ["Zoë", "Ñandú"]}\n'.encode()
    )
    stdout = io.StringIO()
    serve(stdin, stdout)
    lines = stdout.getvalue().split("\n")
    assert lines[-1] == "" and len(lines) == 3
    assert all(line.isascii() for line in lines)
    assert json.loads(lines[1])["view"]["names"] == ["Zoë", "Ñandú"]

