"""Issue 32, item 1: the duplicate statistics (``bench/duplicate.py``) on hand-made numbers, the
seatings of a duplicate group (``bot.ai.arena.arrangements``) and the arena's fixed plan."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bot.ai.arena import arrangements, group_size, run_arena, session_seed

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # (dataclasses look their module up)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


dup = _load("duplicate")


def test_wilson_interval_hand_checked() -> None:
    """8 of 10: centre (0.8 + 1.96²/20) / (1 + 1.96²/10) = 0.71674, half-width
    1.96·√(0.016 + 1.96²/400) / 1.38416 = 0.22658, so 49.02%–94.33% (the textbook figure)."""
    e = dup.wilson(8, 10)
    assert e.value == 0.8
    assert e.low == pytest.approx(0.49016, abs=1e-5)
    assert e.high == pytest.approx(0.94332, abs=1e-5)
    # halves are allowed (ties): 7.5 of 10 lies strictly inside 7 and 8 of 10
    assert dup.wilson(7, 10).low < dup.wilson(7.5, 10).low < dup.wilson(8, 10).low


def test_group_edge_is_a_quarter_of_the_pair_sum_and_ties_count_half() -> None:
    """Pairs of sessions: E_k = ¼·(d(2k) + d(2k+1)). d = (+6, −2) → +1; (−4, +4) → 0 (a tie);
    (+1, −5) → −1; (+8, 0) → +2. W = (1 + ½ + 0 + 1) / 4 = 62.5%."""
    diffs = [6, -2, -4, 4, 1, -5, 8, 0]
    assert dup.group_edges(diffs, 2) == [1.0, 0.0, -1.0, 2.0]
    d = dup.duplicate(diffs, [4] * 8, 2)
    assert d.ties == 1 and d.groups == 4
    assert d.win_rate.value == 0.625
    assert d.win_rate == dup.wilson(2.5, 4)
    # Ē = 0.5, sd of (1, 0, −1, 2) = √(5/3), half-width 1.96·√(5/3)/2
    assert d.edge.value == 0.5
    assert d.edge.high - d.edge.value == pytest.approx(1.96 * math.sqrt(5 / 3) / 2)
    # per deal: four deals in every session
    assert d.edge_per_deal.value == pytest.approx(0.125)
    # groups of six (three seats): E_k = Σd / 12
    assert dup.group_edges([1, 2, 3, 0, 0, 6], 6) == [1.0]


def test_a_tie_is_an_exact_zero_only() -> None:
    assert dup.outcome(0.0) == 0.5 and dup.outcome(1e-12) == 0.5
    assert dup.outcome(0.25) == 1.0 and dup.outcome(-0.25) == 0.0


def test_within_group_correlation_hand_checked() -> None:
    """Mirrored pairs that cancel exactly: r = −1; pairs of equal sessions: r = +1; and
    (1, 3), (−1, 1), (2, −6): mean 0, cross terms 2·(3 − 1 − 12) = −20, squares 52, r = −20/52."""
    assert dup.intraclass_correlation([1, -1, 2, -2], 2) == pytest.approx(-1.0)
    assert dup.intraclass_correlation([1, 1, -1, -1], 2) == pytest.approx(1.0)
    assert dup.intraclass_correlation([1, 3, -1, 1, 2, -6], 2) == pytest.approx(-20 / 52)
    assert math.isnan(dup.intraclass_correlation([2, 2, 2, 2], 2))


def test_session_win_rate_clustered_by_pair_hand_checked() -> None:
    """Outcomes (1, 0), (1, 1), (0, 0), (1, 0): p = ½; group sums of w − p: 0, 1, −1, 0; squares
    2; variance 4/3 · 2 / 64 = 1/24; half-width 1.96·0.204124 = 0.40008, so 9.99%–90.01%.
    Independent sessions would say ±0.3465: pairs that win or lose together widen it."""
    e = dup.clustered_rate([1, 0, 1, 1, 0, 0, 1, 0], 2)
    assert e.value == 0.5
    assert e.low == pytest.approx(0.5 - 0.400083, abs=1e-6)
    assert e.high == pytest.approx(0.5 + 0.400083, abs=1e-6)
    # clipped to [0, 1]: (1, 1), (1, 1), (0, 0), (1, 1): p = ¾, half-width 1.96·√(4/3·3/64) = 0.49
    assert dup.clustered_rate([1, 1, 1, 1, 0, 0, 1, 1], 2).high == 1.0
    # pairs that split (one won, one lost) every time: no spread between pairs at all
    split = dup.clustered_rate([1, 0, 0, 1, 1, 0, 0, 1], 2)
    assert (split.value, split.low, split.high) == (0.5, 0.5, 0.5)


def test_only_whole_groups_are_analysed() -> None:
    with pytest.raises(ValueError):
        dup.group_edges([1, 2, 3], 2)
    with pytest.raises(ValueError):
        dup.duplicate([1, 2], [3], 2)


def test_three_seats_play_all_six_seatings() -> None:
    """AAB … BBA: every seating of two policies over three seats in which both play, once."""
    six = arrangements(3)
    assert len(six) == 6 == group_size(3)
    assert sorted("".join("AB"[x] for x in s) for s in six) == ["AAB", "ABA", "ABB", "BAA", "BAB", "BBA"]
    # each seat holds each policy three times; each policy holds nine seats in all
    assert all(sum(s[j] for s in six) == 3 for j in range(3))
    # an even seat count keeps the mirrored pair (Mus: seats 0/2 against 1/3, its teams)
    assert arrangements(4) == [[0, 1, 0, 1], [1, 0, 1, 0]]
    # five seats: the five rotations and their mirrors, balanced per seat
    ten = arrangements(5)
    assert len(ten) == 10 and len({tuple(s) for s in ten}) == 10
    assert all(sum(s[j] for s in ten) == 5 for j in range(5))


def test_a_group_shares_its_deals() -> None:
    """The six sessions of a three-seat group have one table seed; the next group another."""
    seeds = [session_seed(7, i, 6) for i in range(12)]
    assert len(set(seeds[:6])) == 1 and len(set(seeds[6:])) == 1 and seeds[0] != seeds[6]
    report = run_arena("marias", "easy", "easy", 6, seed=2, timed=False)
    assert report.group == 6 and len(set(report.seeds)) == 1
    assert all(d > 0 for d in report.deals)
    # easy against itself on the same deals in every seating: the group's edge is exactly zero
    diffs = [a - b for a, b in zip(report.per_session[0], report.per_session[1], strict=True)]
    assert any(diffs) and dup.group_edges(diffs, 6) == [0.0]


def test_the_plan_is_printed_and_never_appended(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arena = _load("arena")
    out = tmp_path / "run.json"
    argv = ["marias", "--a", "easy", "--b", "random", "--pairs", "1", "--seed", "3", "--out", str(out)]
    assert arena.main(argv) == 0
    text = capsys.readouterr().out
    assert "plan (fixed before the run): 1 groups × 6 seatings" in text
    assert "table seeds 300009…300009" in text
    saved = out.read_text()
    lines = [json.loads(line) for line in saved.splitlines()]
    assert lines[0]["plan"]["groups"] == 1 and [s["i"] for s in lines[1:]] == list(range(6))
    with pytest.raises(SystemExit):
        arena.main(argv)  # the file exists: no sessions added to a finished run
    assert out.read_text() == saved
    with pytest.raises(SystemExit):
        arena.main(["marias", "--sessions", "4"])  # not whole groups of six


# ---------------------------------------------------------------------- journals: parts, resume, report

journal = _load("journal")
RUN = ["marias", "--a", "easy", "--b", "random", "--pairs", "3", "--seed", "5"]


def _sessions(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_parts_are_fixed_slices_of_the_plan() -> None:
    """200 groups in three parts: 0–65, 66–132, 133–199 (every group once)."""
    assert [journal.part_groups(200, i, 3) for i in (1, 2, 3)] == [(0, 66), (66, 133), (133, 200)]
    with pytest.raises(ValueError):
        journal.part_groups(2, 1, 3)  # more parts than groups
    with pytest.raises(ValueError):
        journal.parse_part("0/2")


def test_parts_read_together_are_the_whole_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same plan played whole and in two parts: the same sessions, the same tables."""
    arena = _load("arena")
    assert arena.main([*RUN, "--out", str(tmp_path / "whole.jsonl")]) == 0
    whole_text = capsys.readouterr().out
    for i in (1, 2):
        assert arena.main([*RUN, "--part", f"{i}/2", "--out", str(tmp_path / f"p{i}.jsonl")]) == 0
    part_text = capsys.readouterr().out
    assert "Duplicate" not in part_text  # a part alone prints no statistics
    parts = _sessions(tmp_path / "p1.jsonl") + _sessions(tmp_path / "p2.jsonl")
    assert parts == _sessions(tmp_path / "whole.jsonl")
    with pytest.raises(SystemExit, match="end at group 1 of 3"):
        arena.main(["--report", str(tmp_path / "p1.jsonl")])  # a part missing
    with pytest.raises(SystemExit, match="overlaps"):
        arena.main(["--report", str(tmp_path / "whole.jsonl"), str(tmp_path / "p2.jsonl")])
    assert arena.main(["--report", str(tmp_path / "p2.jsonl"), str(tmp_path / "p1.jsonl")]) == 0
    table = lambda text: text[text.index("Duplicate"):text.index("| policy")]  # noqa: E731
    assert table(capsys.readouterr().out) == table(whole_text)


def test_a_run_cut_short_is_resumed_not_extended(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A journal killed mid-line is refused by the report, repaired by ``--resume``, which plays
    only the missing sessions of the same plan; a finished run resumed plays nothing."""
    arena = _load("arena")
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    assert arena.main([*RUN, "--out", str(whole)]) == 0
    lines = whole.read_text().splitlines()
    cut.write_text("\n".join(lines[:8]) + "\n" + lines[8][:25])  # header, 7 sessions, half a line
    with pytest.raises(SystemExit, match="unfinished"):
        arena.main(["--report", str(cut)])  # the half line is not read
    capsys.readouterr()
    assert arena.main(["--resume", str(cut)]) == 0
    assert "resuming at session 7 (7 of 18 already played)" in capsys.readouterr().out
    assert cut.read_text() == whole.read_text()
    assert arena.main(["--resume", str(cut)]) == 0  # nothing left to play
    assert cut.read_text() == whole.read_text()
    other = tmp_path / "other.jsonl"
    assert arena.main([*RUN[:-1], "6", "--out", str(other)]) == 0
    with pytest.raises(SystemExit, match="another plan"):
        arena.main(["--report", str(whole), str(other)])


def test_a_run_of_the_former_format_reads_as_one_finished_part(tmp_path: Path) -> None:
    """Files written before the journal (one JSON object at the end of a run) still report."""
    arena = _load("arena")
    path = tmp_path / "run.jsonl"
    assert arena.main([*RUN, "--out", str(path)]) == 0
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    former = tmp_path / "former.json"
    kept = ("seed", "seating", "a", "b", "deals")
    sessions = [{k: v for k, v in s.items() if k in kept} for s in lines[1:]]
    former.write_text(json.dumps({"plan": lines[0]["plan"], "sessions": sessions}, indent=1))
    loaded = journal.load(str(former))
    assert loaded.done and loaded.groups == (0, 3) and [s["i"] for s in loaded.sessions] == list(range(18))
    assert journal.whole([loaded])[5]["a"] == lines[6]["a"]


def test_the_readme_table_reads_finished_runs_and_shows_running_ones(tmp_path: Path) -> None:
    """``bench/ai_table.py``: a finished run's W and Ē and its bar; a run in parts with one part
    missing shows how far it is and no figure; decision times from the budget check only."""
    arena, ai_table = _load("arena"), _load("ai_table")
    run = ["mus", "--a", "strong", "--b", "easy", "--iterations", "5", "--budget-ms", "1e9", "--pairs", "2"]
    assert arena.main([*run, "--seed", "4", "--out", str(tmp_path / "mus-strong-easy.json")]) == 0
    assert arena.main(["mus", "--a", "strong", "--b", "easy", "--pairs", "1", "--seed", "5",
                       "--out", str(tmp_path / "mus-strong-easy.budget.jsonl")]) == 0
    assert arena.main(["marias", "--a", "easy", "--b", "random", "--pairs", "2", "--seed", "4",
                       "--part", "1/2", "--out", str(tmp_path / "marias-easy-random.p1.jsonl")]) == 0
    lines = ai_table.table(str(tmp_path)).splitlines()
    [mus] = [line for line in lines if line.startswith("| Mus | strong vs easy")]
    main_run = journal.load(str(tmp_path / "mus-strong-easy.json"))
    d = arena.duplicate_of(arena.report_of(journal.whole([main_run]), main_run.plan))
    assert f"| {100 * d.win_rate.value:.1f}% (" in mus and f"| {d.edge.value:+.2f} (" in mus
    assert "| 2 × 2 (4) | 4 | 5 |" in mus and "strong " in mus and " ms |" in mus  # times from the check
    assert mus.endswith(f"| {ai_table.verdict(('strong', 'easy'), d, game='mus')} |")
    [marias] = [line for line in lines if line.startswith("| Marias | easy")]
    assert "running: 1 of 2 groups in" in marias and "%" not in marias
    assert len(lines) == 2 + 15 and sum("not run yet" in line for line in lines) == 13


def test_the_experts_w_bar_is_waived_only_where_the_search_is_saturated() -> None:
    """Issue 32 item 2: the expert's W ≥ 60% holds where the search is not saturated; Motz's strong
    agrees with itself at 97.5% of its searched decisions, Michigan's at 89%. Ē's bar holds in both."""
    from types import SimpleNamespace as NS
    ai_table = _load("ai_table")
    level = NS(win_rate=NS(value=0.52), edge=NS(low=0.10))
    below = NS(win_rate=NS(value=0.52), edge=NS(low=-0.10))
    match = ("expert", "strong")
    assert ai_table.saturated("motz") and not ai_table.saturated("michigan")
    assert ai_table.verdict(match, level, game="motz").startswith("**met** (W bar waived")
    assert ai_table.verdict(match, below, game="motz").startswith("not met: Ē's interval reaches 0 (W bar")
    assert ai_table.verdict(match, level, game="michigan") == "not met: W < 60%"
    assert ai_table.verdict(("strong", "easy"), level, game="motz") == "not met: W < 70%"


def test_a_missed_bar_says_what_reading_a_hidden_card_would_buy() -> None:
    """Item 3 explains a searched level's miss (strong vs easy, expert vs strong) by the peeks
    whose gain is measurably above 0; a met bar and easy vs random are left as they are."""
    ai_table = _load("ai_table")
    gains = {"dead": dup.Estimate(8.37, 7.05, 9.70), "spare": dup.Estimate(0.5, -0.2, 1.2), "none": None}
    missed = "not met: W < 60%, Ē's interval reaches 0"
    assert ai_table.explained(missed, ("expert", "strong"), gains) == (
        missed + "; reading dead would buy ΔĒ +8.37 (+7.05 … +9.70)")
    strong = ai_table.explained("not met: W < 70%", ("strong", "easy"), gains)
    assert strong == "not met: W < 70%; reading dead would buy ΔĒ +8.37 (+7.05 … +9.70)"
    assert ai_table.explained("**met**", ("expert", "strong"), gains) == "**met**"
    assert ai_table.explained(missed, ("expert", "strong"), {"spare": gains["spare"]}) == missed
    assert ai_table.explained("—", ("easy", "random"), gains) == "—"


def test_the_table_is_written_between_the_markers_only(tmp_path: Path) -> None:
    ai_table = _load("ai_table")
    doc = tmp_path / "README.md"
    doc.write_text("before\n<!-- ai-table -->\nold\n<!-- /ai-table -->\nafter\n")
    ai_table.write_into(str(doc), "| new |")
    assert doc.read_text() == "before\n<!-- ai-table -->\n| new |\n<!-- /ai-table -->\nafter\n"
    doc.write_text("no markers\n")
    with pytest.raises(SystemExit, match="needs one"):
        ai_table.write_into(str(doc), "| new |")


def test_the_queue_runs_resumes_and_skips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench/run_queue.py``: new lines are run, a cut one resumed to the same sessions as a
    whole run, finished ones skipped, a line held by a live worker left alone, a stale lock taken."""
    queue_mod = _load("run_queue")
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    a, b, c = (tmp_path / n for n in ("a.jsonl", "b.p1.jsonl", "c.jsonl"))
    lines = [f"python bench/arena.py {' '.join(RUN)} --out {a}",
             f"python bench/arena.py {' '.join(RUN)} --part 1/2 --out {b}",
             f"python bench/arena.py {' '.join(RUN)} --seed 8 --out {c}"]
    queue = tmp_path / "queue.txt"
    queue.write_text("# the plan\n" + "\n".join(lines) + "\n")
    (tmp_path / "c.jsonl.lock").write_text(str(os.getpid()))  # another worker (alive) holds c
    assert queue_mod.work(str(queue)) == 2
    assert journal.load(str(a)).done and journal.load(str(b)).done and not c.exists()
    whole = a.read_text()
    a.write_text("\n".join(whole.splitlines()[:5]) + "\n")  # cut after four sessions
    (tmp_path / "c.jsonl.lock").write_text("999999999")  # its worker died
    assert queue_mod.work(str(queue)) == 2  # a resumed, c run; b skipped
    assert a.read_text() == whole and journal.load(str(c)).done
    assert queue_mod.work(str(queue)) == 0 and not list(tmp_path.glob("*.lock"))


def test_a_second_run_is_pooled_with_the_first_once_finished(tmp_path: Path) -> None:
    """The plan's one second run (``GAME-A-B.second…``): while in parts the row keeps the first
    run's figures and says how far the second is; once finished the row pools both, group by group."""
    arena, ai_table = _load("arena"), _load("ai_table")
    run = ["mus", "--a", "strong", "--b", "easy", "--iterations", "5", "--budget-ms", "1e9"]
    first, p1, p2 = (str(tmp_path / n) for n in ("mus-strong-easy.json", "mus-strong-easy.second.p1.jsonl",
                                                 "mus-strong-easy.second.p2.jsonl"))
    assert arena.main([*run, "--pairs", "2", "--seed", "4", "--out", first]) == 0
    assert arena.main([*run, "--pairs", "2", "--seed", "6", "--part", "1/2", "--out", p1]) == 0
    [line] = [x for x in ai_table.table(str(tmp_path)).splitlines() if x.startswith("| Mus | strong")]
    assert "| 2 × 2 (4) | 4 |" in line and "(second run: 1 of 2 groups in)" in line
    assert arena.main([*run, "--pairs", "2", "--seed", "6", "--part", "2/2", "--out", p2]) == 0
    [line] = [x for x in ai_table.table(str(tmp_path)).splitlines() if x.startswith("| Mus | strong")]
    assert "| 2 + 2 × 2 (8) | 4 + 6 |" in line and "second run" not in line
    pooled = journal.whole([journal.load(first)]) + journal.whole([journal.load(p1), journal.load(p2)])
    d = arena.duplicate_of(arena.report_of(pooled, journal.load(first).plan))
    assert d.groups == 4 and f"| {100 * d.win_rate.value:.1f}% (" in line


def test_a_journal_is_checked_by_replaying_its_first_sessions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--check FILE N`` replays the journal's first N sessions with its own command: the same
    ones say so; a session whose result was changed is reported different (exit 1); a timed
    search cannot be replayed."""
    arena = _load("arena")
    path = tmp_path / "run.jsonl"
    assert arena.main([*RUN, "--part", "2/3", "--out", str(path)]) == 0
    capsys.readouterr()
    assert arena.main(["--check", str(path), "3"]) == 0
    assert capsys.readouterr().out.splitlines() == [f"session {i}: same" for i in (6, 7, 8)]
    lines = path.read_text().splitlines()
    second = json.loads(lines[2])
    second["a"] += 1.0
    path.write_text("\n".join([lines[0], lines[1], json.dumps(second), *lines[3:]]) + "\n")
    assert arena.main(["--check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "session 6: same" and out[1].startswith("session 7: DIFFERENT")
    timed = tmp_path / "timed.jsonl"
    assert arena.main(["mus", "--a", "strong", "--b", "easy", "--pairs", "1", "--budget-ms", "5",
                       "--out", str(timed)]) == 0
    with pytest.raises(SystemExit, match="cannot be replayed"):
        arena.main(["--check", str(timed)])
