"""``python -m lostcities simulate``: the output's shape, determinism and bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lostcities.cli.simulate import main, wilson

ROOT = Path(__file__).resolve().parents[1]


def test_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "3", "--seed", "5", "--rounds", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bots"] == ["heuristic", "random"]
    assert out["games"] == 3
    assert sum(out["wins"]) + out["draws"] == 3
    assert out["options"]["rounds"] == 1
    for (lo, hi), rate in zip(out["win_rate_ci95"], out["win_rate"]):
        assert 0 <= lo <= rate <= hi <= 1
    assert out["games_per_second"] > 0
    # The same seed gives the same matches.
    assert main(["--games", "3", "--seed", "5", "--rounds", "1", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert (again["wins"], again["average_totals"]) == (out["wins"], out["average_totals"])


def test_text_summary_with_all_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--rounds", "1", "--all-options", "--p0", "random",
                 "--p1", "heuristic"]) == 0
    text = capsys.readouterr().out
    assert "sixth_colour=True" in text and "mixups=True" in text
    assert "random" in text and "heuristic" in text
    assert "95% CI" in text and "draws:" in text and "games/s" in text


@pytest.mark.parametrize("args", [
    ["--games", "0"], ["--rounds", "6"], ["--workers", "0"], ["--playouts", "0"],
])
def test_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert "error" in capsys.readouterr().err


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--p0", "grandmaster"])
    assert exc.value.code == 2


def test_command_line_dispatch() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    done = subprocess.run(
        [sys.executable, "-m", "lostcities", "simulate", "--games", "2", "--rounds", "1",
         "--workers", "2"],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "2 matches" in done.stdout and "games/s" in done.stdout


def test_wilson_interval() -> None:
    lo, hi = wilson(95, 100)
    assert 0.88 < lo < 0.89 and 0.97 < hi < 0.98
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    lo, hi = wilson(30, 100)
    lo2, hi2 = wilson(70, 100)
    assert abs(lo - (1 - hi2)) < 1e-12 and abs(hi - (1 - lo2)) < 1e-12
