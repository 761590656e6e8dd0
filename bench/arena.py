"""Arena: whole sessions between two AI levels; duplicate edges, win rates, decision times.

Usage (from the project root):
    python bench/arena.py mus --a easy --b random --sessions 400
    python bench/arena.py marias --a strong --b easy --pairs 200 --seed 3201 --out runs/marias-se.json
    python bench/arena.py marias --a strong --b easy --pairs 200 --seed 3201 --part 2/4 --out runs/p2.jsonl
    python bench/arena.py --resume runs/p2.jsonl          # finish a part (or run) cut short
    python bench/arena.py --report runs/p1.jsonl runs/p2.jsonl runs/p3.jsonl runs/p4.jsonl
    python bench/arena.py --check runs/p2.jsonl 3         # replay its first 3 sessions: the same?
    python bench/arena.py motz --a easy --b random --sessions 600 --seats 5 --seed 7
    python bench/arena.py mus --a strong --b easy --sessions 60 --budget-ms 200
    python bench/arena.py michigan --a strong --b easy --iterations 400 --budget-ms 10000  # by iterations
    python bench/arena.py motz --a expert --b strong --iterations 200 --budget-ms 1e9  # expert: 5x
    python bench/arena.py michigan --a strong --b easy --iterations 200 --budget-ms 1e9 --spec prior_z=1.0

Sessions come in duplicate groups on the same deals (``bot.ai.arena.arrangements``: the mirrored
pair ABAB/BABA with an even number of seats, Mus seats 0/2 against 1/3; the six seatings AAB … BBA
with three). ``--pairs K`` plays K groups (``--sessions N``: N must be whole groups). The plan (K,
the seatings, the table seeds) is printed before the first session and never grows: ``--out FILE``
creates FILE with the plan before playing and refuses a FILE that exists (no appending sessions to
a run; a new run is a new seed and a new file). FILE is a journal (``bench/journal.py``): each
session is written as soon as it is played, so a run cut short is finished by
``--resume FILE`` (the same command, only the missing sessions); ``--part I/N`` plays the I-th of
N fixed slices of the plan's groups (two cores, or several sittings, share one run), and
``--report FILE…`` prints the run's tables once every part is finished (never before).
``--check FILE [N]`` replays the first N sessions (2) of a journal at fixed iteration counts with
its own command and says whether each came out the same: that another interpreter (Debian's
PGO-built ``/usr/bin/python3`` runs the searches ≈ 10% faster), machine or refactor leaves the
run's sessions as they were.
The **duplicate statistics** (``bench/duplicate.py``,
issue 32): the duplicate win rate W with its Wilson interval, the mean edge Ē per session and per
deal with 95% intervals, the within-group correlation, and the session win rate clustered by group.
Per policy, as before: head-to-head win rate (sessions where its seats averaged more
jetons than the other policy's; ties half) with a 95% Wilson interval, mean jetons per session
(stack − buy_in, averaged over its seats) with a 95% interval, and decision time p50/p95.
Deterministic for a given --seed (apart from the times, and a strong side's choices when its
time budget, not ``--iterations``, ends its searches). ``--budget-ms``/``--iterations`` are
strong's limits; an expert side gets 5 times each (the ratio of their default budgets).
``--spec FIELD=JSON`` (repeatable) overrides a field of the game's search spec
(``bot.ai.strong.spec.GameSpec``) for this run, to try a lever before changing the code; a
function is named ``"module:name"`` (``--spec 'determinize="bot.ai.marias.determinize:determinize_shown"'``).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import shlex
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # bench/duplicate.py when imported

import journal  # noqa: E402  (bench/journal.py)
from duplicate import Duplicate, duplicate  # noqa: E402  (bench/duplicate.py)

from bot.ai.arena import ArenaReport, SessionResult, arrangements, group_size, run_arena, session_seed  # noqa: E402
from bot.ai.levels import EASY, LEVELS, RANDOM, level_of  # noqa: E402
from bot.rules import GAMES  # noqa: E402


def duplicate_of(report: ArenaReport) -> Duplicate:
    """The duplicate statistics of a run of whole groups (``ValueError`` otherwise)."""
    return duplicate(report.diffs(), report.deals, report.group)


def format_duplicate(report: ArenaReport) -> str:
    """The duplicate table (A's edge over B) as Markdown."""
    d = duplicate_of(report)
    a, b = report.names
    return "\n".join([
        f"Duplicate, {a} (A) against {b} (B): {d.groups} groups of {d.size} sessions on the same deals"
        f" ({d.ties} tied groups)",
        "",
        "| W, groups won (95% CI) | Ē jetons/session (95% CI) | Ē jetons/deal (95% CI) "
        "| within-group r | sessions won (95% CI, clustered) |",
        "|---|---|---|---|---|",
        d.cells(),
    ])


def format_report(report: ArenaReport, game: str, seats: int) -> str:
    """The result table as Markdown."""
    lines = [
        f"{GAMES[game].title}, {seats} seats, {report.sessions} sessions, {report.actions} actions",
        "",
        "| policy | win rate (95% CI) | jetons/session (95% CI) | decision p50 | decision p95 |",
        "|---|---|---|---|---|",
    ]
    for who, name in enumerate(report.names):
        lo, hi = report.win_interval(who)
        mlo, mhi = report.mean_interval(who)
        label = f"{'AB'[who]}: {name}"
        p50, p95 = (f"{report.time_ms(who, q):.3f} ms" if report.times[who] else "—" for q in (0.5, 0.95))
        lines.append(
            f"| {label} | {100 * report.win_rate(who):.1f}% ({100 * lo:.1f}–{100 * hi:.1f}) "
            f"| {report.mean(who):+.2f} ({mlo:+.2f} … {mhi:+.2f}) "
            f"| {p50} | {p95} |"
        )
    its = sorted(report.iterations)
    if its:
        lines.append(f"\nsearched decisions: {len(its)}, iterations p5/p50/p95: "
                     f"{its[len(its) // 20]}/{its[len(its) // 2]}/{its[19 * len(its) // 20]}")
    for who, name in enumerate(report.names):
        side = sorted(report.side_iterations[who])
        if side:
            lines.append(f"{'AB'[who]}: {name}: {len(side)} searched decisions, iterations "
                         f"p5/p50/p95: {side[len(side) // 20]}/{side[len(side) // 2]}/"
                         f"{side[19 * len(side) // 20]}")
    return "\n".join(lines)


def override_spec(game: str, pairs: list[str]) -> None:
    """Replace fields of ``game``'s search spec from ``FIELD=JSON`` pairs (``null`` for None)."""
    from bot.ai.registry import game_ai, spec_for
    from bot.ai.strong.spec import GameSpec

    changes = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name not in {f.name for f in dataclasses.fields(GameSpec)}:
            raise SystemExit(f"--spec: GameSpec has no field {name!r}")
        changes[name] = spec_value(json.loads(value))
    game_ai(game).spec = dataclasses.replace(spec_for(game), **changes)


def spec_value(value: Any) -> Any:
    """A ``--spec`` value: the JSON value, or for a string ``"module:name"`` that function (a
    determinizer, an endgame test...), e.g. ``determinize="bot.ai.marias.determinize:determinize_shown"``."""
    if isinstance(value, str) and ":" in value:
        module, _, attr = value.partition(":")
        try:
            return getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise SystemExit(f"--spec: no function {value!r} ({e})") from None
    return value


def parse(argv: list[str] | None, apply_spec: bool = True
          ) -> tuple[argparse.ArgumentParser, argparse.Namespace, int, int]:
    """``(parser, args, seats, sessions)``; applies ``--spec`` (unless ``apply_spec`` is False: the
    caller applied it and put its own changes on top, ``research/ceiling.py``); exits on bad options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--a", default=str(EASY), choices=LEVELS, help="level of policy A")
    parser.add_argument("--b", default=str(RANDOM), choices=LEVELS, help="level of policy B")
    parser.add_argument("--sessions", type=int, default=None,
                        help="sessions, whole duplicate groups (default: 100 groups)")
    parser.add_argument("--pairs", type=int, default=None,
                        help="duplicate groups (pairs with an even seat count, six seatings with three)")
    parser.add_argument("--out", default=None,
                        help="write the plan, then every session's results, to this new JSON file")
    parser.add_argument("--part", default="1/1", metavar="I/N",
                        help="play only the I-th of N equal slices of the plan's groups (needs --out)")
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}", help="host options as JSON")
    parser.add_argument("--budget-ms", type=float, default=None,
                        help="strong: time per decision (expert: 5x)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="strong: iteration cap per decision (expert: 5x)")
    parser.add_argument("--spec", action="append", default=[], metavar="FIELD=JSON",
                        help="override a field of the strong search's GameSpec (experiments)")
    args = parser.parse_args(argv)
    game = GAMES[args.game]
    if args.spec and apply_spec:
        override_spec(args.game, args.spec)
    seats = args.seats or game.default_seats or game.min_seats
    if not game.min_seats <= seats <= game.max_seats:
        parser.error(f"{game.title} is played by {game.min_seats} to {game.max_seats} players")
    size = group_size(seats)
    if args.pairs is not None and args.sessions is not None:
        parser.error("give --pairs or --sessions, not both")
    if args.pairs is not None:
        sessions = args.pairs * size
    else:
        sessions = 100 * size if args.sessions is None else args.sessions
    if sessions <= 0 or sessions % size:
        parser.error(f"--sessions {sessions}: not whole duplicate groups of {size} sessions "
                     f"({seats} seats)")
    return parser, args, seats, sessions


def run(args: argparse.Namespace, seats: int, sessions: int, first: int = 0,
        on_session: Callable[[int, SessionResult], None] | None = None) -> ArenaReport:
    """Play ``sessions`` sessions of the run ``parse`` described, from its session ``first``
    (``bot.ai.arena.run_arena``)."""
    return run_arena(
        args.game, args.a, args.b, sessions, seats=seats, seed=args.seed,
        options=json.loads(args.options), budget_ms=args.budget_ms, max_iterations=args.iterations,
        first=first, on_session=on_session,
    )


def main(argv: list[str] | None = None, extras: dict[str, Any] | None = None, apply_spec: bool = True) -> int:
    """Parse, print the plan, play the run (or its part, or finish it), print its tables.

    ``--report FILE…`` and ``--resume FILE`` come first and alone (module docstring). ``extras``
    are written into the plan (``research/ceiling.py``: which peek side A plays with);
    ``apply_spec`` False leaves the search spec as the caller set it (``parse``).
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--report"]:
        return report_journals(argv[1:])
    if argv[:1] == ["--resume"]:
        if len(argv) != 2:
            raise SystemExit("usage: bench/arena.py --resume FILE")
        return resume(argv[1], extras, apply_spec)
    if argv[:1] == ["--check"]:
        if len(argv) not in (2, 3) or (len(argv) == 3 and not argv[2].isdigit()):
            raise SystemExit("usage: bench/arena.py --check FILE [N]")
        return check(argv[1], int(argv[2]) if len(argv) == 3 else 2)
    parser, args, seats, sessions = parse(argv, apply_spec)
    print("$ " + shlex.join(["python", "bench/arena.py", *argv]))
    plan = run_plan(args, seats, sessions, extras)
    print(format_plan(plan))
    try:
        part = journal.parse_part(args.part)
        groups = journal.part_groups(plan["groups"], *part)
    except ValueError as e:
        parser.error(str(e))
    if part != (1, 1) and args.out is None:
        parser.error("--part needs --out (a part is read with the other parts by --report)")
    if args.out is None:
        return play(args, seats, plan, None, groups)
    try:
        jn = journal.create(args.out, plan, _plan_argv(argv), part, groups)
    except FileExistsError:
        parser.error(f"--out {args.out} exists: a run's sessions are fixed before it starts, "
                     "so results are never appended (--resume FILE finishes an interrupted run; "
                     "a new run is a new seed and a new file)")
    return play(args, seats, plan, jn, groups)


def _plan_argv(argv: list[str]) -> list[str]:
    """The command's options without ``--out FILE`` (what ``--resume`` replays)."""
    out, skip = [], False
    for word in argv:
        if skip:
            skip = False
        elif word == "--out":
            skip = True
        elif not word.startswith("--out="):
            out.append(word)
    return out


def play(args: argparse.Namespace, seats: int, plan: dict[str, Any], jn: journal.Journal | None,
         groups: tuple[int, int]) -> int:
    """Play the part's sessions not yet in the journal; print the tables when the run is whole."""
    size = group_size(seats)
    first = groups[0] * size + (len(jn.sessions) if jn else 0)
    count = groups[1] * size - first
    if jn is not None and jn.part != (1, 1):
        print(f"part {jn.part[0]}/{jn.part[1]}: groups {groups[0]}–{groups[1] - 1}, "
              f"sessions {groups[0] * size}–{groups[1] * size - 1}")
    if jn is not None and jn.sessions:
        print(f"resuming at session {first} ({len(jn.sessions)} of {jn.expected} already played)")

    searching = any(level_of(lv).search is not None for lv in (args.a, args.b))
    timed = searching and args.iterations is None and (args.budget_ms is None or args.budget_ms < 1e8)

    def record(i: int, res: SessionResult) -> None:
        if jn is not None:
            line = session_line(i, res)
            if timed:  # a run at real time budgets: its decision times are what it measures
                line["times_ms"] = [[round(1000 * t, 3) for t in side] for side in res.times]
            journal.append(jn, line)

    resumed = first > groups[0] * size
    t0 = time.perf_counter()
    report = run(args, seats, count, first, record) if count else None
    elapsed = time.perf_counter() - t0
    if jn is not None and jn.part != (1, 1):
        print(f"\n{jn.path}: {len(jn.sessions)}/{jn.expected} sessions ({elapsed:.1f} s); "
              "the run is read whole, with its other parts: bench/arena.py --report FILE…")
        return 0
    if jn is not None and (resumed or report is None):
        print(format_run(report_of(jn.sessions, plan), plan))  # the whole run, from its journal
    elif report is not None:
        print(format_run(report, plan))
    print(f"\n({elapsed:.1f} s)")
    return 0


def session_line(i: int, res: SessionResult) -> dict[str, Any]:
    """One session as a journal line (``bench/journal.py``): each policy's mean seat result."""
    means = res.side_means()
    return {"i": i, "seed": res.seed, "seating": "".join("AB"[x] for x in res.assignment),
            "a": means[0], "b": means[1], "deals": res.deals, "actions": res.actions,
            "iterations": res.side_iterations}


def resume(path: str, extras: dict[str, Any] | None = None, apply_spec: bool = True) -> int:
    """Finish the run journaled in ``path`` (the same command; only the missing sessions;
    ``apply_spec`` as in ``main``)."""
    try:
        jn = journal.load(path, repair=True)
    except (OSError, ValueError) as e:
        raise SystemExit(f"--resume {path}: {e}") from None
    args, seats, plan = command_of(jn, "--resume", extras, apply_spec)
    if plan != jn.plan and "peek" in jn.plan and extras is None:
        raise SystemExit(f"--resume {path}: a peeking run: research/ceiling.py --resume {path}")
    if plan != jn.plan:
        raise SystemExit(f"--resume {path}: its plan is not what its command gives today")
    print("$ " + shlex.join(["python", "bench/arena.py", *jn.argv, "--out", path]) + "   (resumed)")
    print(format_plan(plan))
    return play(args, seats, plan, jn, jn.groups)


def command_of(jn: journal.Journal, flag: str, extras: dict[str, Any] | None = None,
               apply_spec: bool = True) -> tuple[argparse.Namespace, int, dict[str, Any]]:
    """``(args, seats, plan)`` of the command the journal ``jn`` was played with, parsed today
    (``--spec`` applied unless ``apply_spec`` is False); a run of the former format has none."""
    if not jn.argv:
        raise SystemExit(f"{flag} {jn.path}: a finished run of the former format (its command is not kept)")
    _, args, seats, sessions = parse(jn.argv, apply_spec)
    return args, seats, run_plan(args, seats, sessions, extras)


def check(path: str, count: int) -> int:
    """Replay the first ``count`` sessions of the journal ``path`` with its own command; print
    whether each is the session in the journal; 1 if one differs. Only a run at fixed iteration
    counts can be replayed (a timed search's choices depend on the clock). A run played before a
    level changed comes out different, as it should (Marias's runs from before the ``shown``
    reading shipped, unless their command pinned ``determinize_plain``)."""
    try:
        jn = journal.load(path)
    except (OSError, ValueError) as e:
        raise SystemExit(f"--check {path}: {e}") from None
    if "peek" in jn.plan:
        raise SystemExit(f"--check {path}: a peeking run (research/ceiling.py): not replayed here")
    args, seats, plan = command_of(jn, "--check")
    if plan != jn.plan:
        raise SystemExit(f"--check {path}: its plan is not what its command gives today")
    searching = any(level_of(lv).search is not None for lv in (args.a, args.b))
    if searching and (args.iterations is None or args.budget_ms is None or args.budget_ms < 1e8):
        raise SystemExit(f"--check {path}: a search stopped by the clock (not --iterations N "
                         "--budget-ms 1e9): its sessions cannot be replayed")
    lines = jn.sessions[:count]
    if not lines:
        raise SystemExit(f"--check {path}: no session played yet")
    got: dict[int, dict[str, Any]] = {}
    run(args, seats, len(lines), jn.first, lambda i, res: got.__setitem__(i, session_line(i, res)))
    differs = 0
    for line in lines:
        mine = {k: v for k, v in got[line["i"]].items() if k in line}
        same = mine == line
        differs += not same
        print(f"session {line['i']}: " + ("same" if same else f"DIFFERENT: {mine} against {line}"))
    return 1 if differs else 0


def report_journals(paths: list[str]) -> int:
    """The tables of a run read whole from its journals (every part of its plan, each finished)."""
    if not paths:
        raise SystemExit("usage: bench/arena.py --report FILE [FILE…]")
    try:
        first, sessions = journal.read_run(paths)
    except (OSError, ValueError) as e:
        raise SystemExit(f"--report: {e}") from None
    plan, argv = first.plan, first.argv
    if argv:
        at = argv.index("--part") if "--part" in argv else len(argv)
        print("$ " + shlex.join(["python", "bench/arena.py", *argv[:at], *argv[at + 2:]]))
    print(format_plan(plan) + f"; read from {len(paths)} file(s)")
    print(format_run(report_of(sessions, plan), plan))
    return 0


def report_of(sessions: list[dict[str, Any]], plan: dict[str, Any]) -> ArenaReport:
    """An ``ArenaReport`` of journaled sessions (decision times only from runs at real time budgets:
    the others' times depend on the machine's load, not on what the levels do)."""
    per_session = [[float(s["a"]) for s in sessions], [float(s["b"]) for s in sessions]]
    side: list[list[int]] = [[], []]
    times: list[list[float]] = [[], []]
    for s in sessions:
        for who in (0, 1):
            side[who].extend(s.get("iterations", [[], []])[who])
            times[who].extend(t / 1000 for t in s.get("times_ms", [[], []])[who])
    return ArenaReport(
        (plan["a"], plan["b"]), len(sessions), per_session, times,
        sum(s.get("actions", 0) for s in sessions), side[0] + side[1], side, len(plan["seatings"]),
        [s["deals"] for s in sessions], [s["seed"] for s in sessions],
    )


def format_run(report: ArenaReport, plan: dict[str, Any]) -> str:
    """The duplicate table, then the per-policy table."""
    return format_duplicate(report) + "\n\n" + format_report(report, plan["game"], plan["seats"])


def run_plan(args: argparse.Namespace, seats: int, sessions: int,
             extras: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a run will play, fixed before its first session (with ``extras``, if any)."""
    size = group_size(seats)
    seeds = sorted({session_seed(args.seed, i, size) for i in range(sessions)})
    return {
        "game": args.game, "a": args.a, "b": args.b, "seats": seats, "options": json.loads(args.options),
        "groups": sessions // size, "sessions": sessions, "seed": args.seed,
        "seatings": ["".join("AB"[x] for x in s) for s in arrangements(seats)],
        "table_seeds": [seeds[0], seeds[-1]], "budget_ms": args.budget_ms, "iterations": args.iterations,
        "spec": args.spec, **(extras or {}),
    }


def same_players(plan: dict[str, Any], other: dict[str, Any], free: frozenset[str] = frozenset()) -> bool:
    """Whether two runs' plans play the same deals with the same search but for the keys in ``free``
    and the determinizer a ``--spec determinize=…`` names (issue 32: a reading, or a peek pinned to
    the determinizer its honest run played with)."""
    def core(p: dict[str, Any]) -> dict[str, Any]:
        kept = {k: v for k, v in p.items() if k not in free}
        if all(pair.startswith("determinize=") for pair in kept.get("spec", [])):
            kept.pop("spec", None)
        return kept
    return core(plan) == core(other)


def format_plan(plan: dict[str, Any]) -> str:
    """The plan as one line, printed before the first session."""
    first, last = plan["table_seeds"]
    return (f"plan (fixed before the run): {plan['groups']} groups × {len(plan['seatings'])} seatings "
            f"({' '.join(plan['seatings'])}) = {plan['sessions']} sessions, "
            f"table seeds {first}…{last} (--seed {plan['seed']})")


if __name__ == "__main__":
    raise SystemExit(main())
