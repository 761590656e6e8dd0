"""Easy beats random: mirrored arena sessions with a fixed seed (statistical, deterministic)."""

from __future__ import annotations

import pytest

from bot.ai.arena import run_arena

#: game -> (seats, sessions, options); sized to keep the whole file to a few seconds.
PLAN = {
    "motz": (4, 120, {}),
    "mus": (4, 120, {}),
    "marias": (3, 60, {"rounds": 1}),
    "michigan": (4, 160, {}),
    "maitre": (3, 60, {"tours": 1}),
}


@pytest.mark.parametrize("name", sorted(PLAN))
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


def looks_even(report) -> bool:
    """Neither side is measurably better: the 95% intervals hold 0 jetons and a 50% win rate.

    (In Mus side A's mean is always minus side B's, the jetons moving between the two teams, so
    that equality says nothing; the intervals do.)
    """
    lo, hi = report.mean_interval(0)
    wlo, whi = report.win_interval(0)
    return lo < 0 < hi and wlo < 0.5 < whi


def pairs_cancel(report) -> bool:
    """Each mirrored pair (same deals, sides swapped) nets side A exactly 0, and some session is not 0."""
    xs = report.per_session[0]
    return any(xs) and all(xs[k] + xs[k + 1] == 0 for k in range(0, len(xs) - 1, 2))


def test_easy_against_itself_is_even() -> None:
    """Easy against itself: even, and the mirrored pairs cancel the deals' luck exactly."""
    report = run_arena("mus", "easy", "easy", 40, seed=3, timed=False)
    assert looks_even(report), (report.mean_interval(0), report.win_interval(0))
    assert pairs_cancel(report), report.per_session[0]


def test_evenness_check_can_tell_unequal_sides() -> None:
    """The same check on the same deals refuses easy against random (so it can fail)."""
    report = run_arena("mus", "easy", "random", 120, seed=3, timed=False)
    assert not looks_even(report)


def test_pairs_cancel_only_when_the_pairs_share_their_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.ai.arena as arena

    monkeypatch.setattr(arena, "session_seed", lambda seed, session, size=2: seed * 100_003 + session)
    assert not pairs_cancel(run_arena("mus", "easy", "easy", 40, seed=3, timed=False))
