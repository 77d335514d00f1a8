"""`python -m lostcities score`: the expedition calculator.

Most cases call the command's entry point in-process (fast); a few run the real
``python -m lostcities`` in a subprocess.
"""

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from lostcities.__main__ import main

PY = Path(__file__).resolve().parent.parent / "py"


def subprocess_run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PY)}
    return subprocess.run([sys.executable, "-m", "lostcities", *args],
                          capture_output=True, text=True, env=env, timeout=60)


@pytest.fixture
def run(capsys):
    def call(*args: str) -> SimpleNamespace:
        try:
            code = main(["score", *args])
        except SystemExit as exit_:  # argparse refuses bad options this way
            code = exit_.code
        out = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)
    return call


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
def test_scores(run, args: str, out: str) -> None:
    result = run(*args.split())
    assert (result.returncode, result.stdout.strip(), result.stderr) == (0, out, "")


def test_breakdown(run) -> None:
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
def test_bad_input_gets_a_message_and_exit_code_2(run, args: str, message: str) -> None:
    result = run(*args.split())
    assert result.returncode == 2 and result.stdout == "" and message in result.stderr


def test_the_real_command_line() -> None:
    ok = subprocess_run("score", "H", "H", "4", "5", "6", "7", "8", "10")
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "80\n", "")
    bad = subprocess_run("score", "R4", "B5")
    assert bad.returncode == 2 and bad.stdout == "" and "one colour" in bad.stderr
    unknown = subprocess_run("fly")
    assert unknown.returncode == 2 and "unknown command" in unknown.stderr
