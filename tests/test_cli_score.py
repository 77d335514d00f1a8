"""`python -m lostcities score`: the expedition calculator."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

PY = Path(__file__).resolve().parent.parent / "py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PY)}
    return subprocess.run([sys.executable, "-m", "lostcities", "score", *args],
                          capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("args, out", [
    ("H H 4 5 6 7 8 10", "80"),
    ("2 3 7 8 10", "10"),
    ("H 4 6 7", "-6"),
    ("H H H", "-80"),
    ("", "0"),
    ("RH RH R4 R5 R6 R7 R8 R10", "80"),
    ("h 4 6 7", "-6"),
    ("--cost 15 H 4 6 7", "4"),
    ("--no-loss-multiplier H 4 6 7", "-3"),
    ("--bonus-cards 7 2 3 4 5 6 7 8", "35"),
    ("--bonus 30 2 3 4 5 6 7 8 9", "54"),
    ("--golden-tens 9 10", "4"),
])
def test_scores(args: str, out: str) -> None:
    result = run(*args.split())
    assert (result.returncode, result.stdout.strip(), result.stderr) == (0, out, "")


def test_breakdown() -> None:
    result = run("--breakdown", "H", "4", "6", "7")
    assert result.stdout.splitlines() == [
        "cards 4, sum 17, cost 20, multiplier 2, bonus 0", "-6"]


@pytest.mark.parametrize("args, message", [
    ("R4 B5", "one colour"),
    ("H 11", "not a card"),
    ("X", "not a card"),
    ("4 4", "only once"),
    ("H H H H", "3 handshakes"),
    ("--cost x 4", "invalid int"),
    ("--bonus-cards 0 4", "at least 1"),
])
def test_bad_input_gets_a_message_and_exit_code_2(args: str, message: str) -> None:
    result = run(*args.split())
    assert result.returncode == 2 and result.stdout == "" and message in result.stderr


def test_unknown_command_exits_2() -> None:
    env = {**os.environ, "PYTHONPATH": str(PY)}
    result = subprocess.run([sys.executable, "-m", "lostcities", "fly"], capture_output=True,
                            text=True, env=env, timeout=60)
    assert result.returncode == 2 and "unknown command" in result.stderr
