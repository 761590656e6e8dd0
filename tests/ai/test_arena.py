"""The one arena plays the strong level with the real state and its search limits."""

from __future__ import annotations

from bot.ai.arena import run_arena


def test_strong_side_searches_with_the_given_cap_and_replays_exactly() -> None:
    a = run_arena("motz", "strong", "easy", 2, seats=3, seed=4, options={"rotations": 1},
                  timed=False, budget_ms=60_000, max_iterations=6)
    b = run_arena("motz", "strong", "easy", 2, seats=3, seed=4, options={"rotations": 1},
                  timed=False, budget_ms=60_000, max_iterations=6)
    # every searched decision ran to the cap: the declarations exactly, the exact trick play (PIMC,
    # counted in leaves) to its last determinization past it
    assert a.iterations and min(a.iterations) == 6 and 6 in a.iterations
    assert a.per_session == b.per_session and a.iterations == b.iterations


def test_other_levels_report_no_search() -> None:
    report = run_arena("motz", "easy", "random", 2, seats=3, seed=4, options={"rotations": 1}, timed=False)
    assert report.iterations == []


def test_expert_side_searches_five_times_strongs_cap() -> None:
    report = run_arena("motz", "expert", "easy", 2, seats=3, seed=4, options={"rotations": 1},
                       timed=False, budget_ms=60_000, max_iterations=3)
    assert report.iterations and min(report.iterations) == 15  # (the trick play: PIMC, see above)


def test_bench_spec_override(monkeypatch) -> None:
    """``bench/arena.py --spec prior_z=2.5`` changes that field of the game's search spec only."""
    import importlib.util
    from pathlib import Path

    import pytest

    from bot.ai.registry import game_ai, spec_for

    path = Path(__file__).resolve().parents[2] / "bench" / "arena.py"
    spec = importlib.util.spec_from_file_location("bench_arena", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.setattr(game_ai("michigan"), "spec", spec_for("michigan"))
    before = spec_for("michigan")
    bench.override_spec("michigan", ["prior_z=2.5"])
    after = spec_for("michigan")
    assert before.prior_z != 2.5 and after.prior_z == 2.5
    assert after.rollout_easy == before.rollout_easy and after.name == "michigan"
    with pytest.raises(SystemExit):
        bench.override_spec("michigan", ["no_such_field=1"])


def test_iterations_are_kept_per_side() -> None:
    """Expert (5 x 3 = 15 iterations) against strong (3): each side's counts are its own."""
    report = run_arena("motz", "expert", "strong", 2, seats=3, seed=4, options={"rotations": 1},
                       timed=False, budget_ms=60_000, max_iterations=3)
    expert, strong = report.side_iterations
    assert expert and strong
    assert min(expert) == 15 and min(strong) == 3
    assert sorted(expert + strong) == sorted(report.iterations)
