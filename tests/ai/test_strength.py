"""Easy beats random: mirrored arena sessions with a fixed seed (statistical, deterministic)."""

from __future__ import annotations

import pytest

from bot.ai.arena import run_arena
from bot.rules import GAMES

#: game -> (seats, sessions, options); sized to keep the whole file to a few seconds.
PLAN = {
    "motz": (4, 120, {}),
    "mus": (4, 120, {}),
    "marias": (3, 60, {"rounds": 1}),
    "michigan": (4, 160, {}),
    "maitre": (3, 60, {"tours": 1}),
}


@pytest.mark.parametrize("name", [n for n in PLAN if n in GAMES])
def test_easy_beats_random(name: str) -> None:
    seats, sessions, options = PLAN[name]
    report = run_arena(name, "easy", "random", sessions, seats=seats, seed=2024, options=options, timed=False)
    lo, _ = report.mean_interval(0)
    assert report.mean(0) > report.mean(1), (report.mean(0), report.mean(1))
    assert lo > 0, f"{name}: easy's 95% interval of jetons/session reaches {lo:.2f}"
    assert report.win_interval(0)[0] > 0.5, f"{name}: win rate {report.win_rate(0):.2f}"


def test_arena_is_deterministic_and_mirrored() -> None:
    a = run_arena("michigan", "easy", "random", 6, seats=3, seed=5, timed=False)
    b = run_arena("michigan", "easy", "random", 6, seats=3, seed=5, timed=False)
    assert a.per_session == b.per_session and a.wins == b.wins
    assert sum(a.wins) == 6


def test_easy_against_itself_is_even() -> None:
    report = run_arena("mus", "easy", "easy", 40, seed=3, timed=False)
    assert report.mean(0) == pytest.approx(-report.mean(1))
