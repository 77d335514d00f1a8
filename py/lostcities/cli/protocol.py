"""``python -m lostcities protocol``: the wire protocol as JSON lines over stdin/stdout.

One program drives both seats (the `CONTROLLER` of a `MatchHost`). Each line on stdin is one
message; each gets exactly one line in reply on stdout. Blank lines are skipped; a line over
the size limit is refused without being read into memory whole; end of input ends the session.
See docs/protocol.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import BinaryIO, TextIO

from .host import CONTROLLER, MatchHost
from ..protocol import MAX_MESSAGE_BYTES, encode

_SKIP_CHUNK = 65536


def read_line(stream: BinaryIO, limit: int = MAX_MESSAGE_BYTES) -> bytes | None:
    """The next line of `stream` without its line ending, or None at end of input.

    A line longer than `limit` bytes is consumed to its end but only its first ``limit + 1``
    bytes are returned (enough for the host to refuse it as too large).
    """
    line = stream.readline(limit + 2)
    if not line:
        return None
    if line.endswith(b"\n"):
        line = line[:-1]
        return line[:-1] if line.endswith(b"\r") else line
    if len(line) < limit + 2:  # the last line, without a line ending
        return line
    while True:  # skip the rest of an over-long line
        rest = stream.readline(_SKIP_CHUNK)
        if not rest or rest.endswith(b"\n"):
            return line[: limit + 1]


def serve(stdin: BinaryIO, stdout: TextIO, host: MatchHost | None = None) -> None:
    """Answer each message line of `stdin` with one line on `stdout` until end of input."""
    host = host if host is not None else MatchHost(controller=True)
    while True:
        line = read_line(stdin)
        if line is None:
            return
        if not line.strip():
            continue
        for _peer, message in host.receive(CONTROLLER, line):
            stdout.write(encode(message) + "\n")
        stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the protocol on the process's stdin/stdout until end of input; returns 0."""
    argparse.ArgumentParser(
        prog="python -m lostcities protocol",
        description="Play a match over JSON lines: one message per line on stdin, one reply "
        "line each on stdout, until end of input. The messages are described in "
        "docs/protocol.md.",
    ).parse_args(sys.argv[1:] if argv is None else list(argv))
    try:
        serve(sys.stdin.buffer, sys.stdout)
    except BrokenPipeError:  # the reader went away: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0
