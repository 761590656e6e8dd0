"""Motz expert variants against strong on the same sessions, with per-session results (issue 17).

Usage (from the project root):
    python research/motz_variants.py VARIANT --iterations 200 --sessions 100 --seed 501

``VARIANT``: ``shipped`` (the expert as in ``bot/ai/motz/spec.py``), ``model`` (the declaration model
plays the other seats' declarations in the expert's tree, ``research/motz_decl.py``), ``reading``
(the expert's determinizer weighs the hidden hands by the declarations made), ``both``,
``paired`` (``model``, and each declaration rolled out on the same deals, ``paired_root``).
The expert searches 5x ``--iterations`` (``--budget-ms`` is unlimited), strong ``--iterations``.
Prints the arena's report and one JSON line: the expert's mean result per session (the same
sessions for every variant, so two variants compare session by session).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))

import arena  # noqa: E402  (bench/arena.py)

from bot.ai.arena import run_arena  # noqa: E402
from bot.ai.registry import game_ai, spec_for  # noqa: E402


def _declaring(state: object) -> bool:
    """A declaration: every choice rolled out on the same deals (``paired``)."""
    from bot.rules.motz.tables import DECLARE

    return getattr(state, "phase", None) == DECLARE


def install(variant: str) -> None:
    """Add ``variant``'s changes to the Motz expert's overrides."""
    from motz_decl import decl_model, determinize_declared

    spec = spec_for("motz")
    over = dict(spec.expert_overrides)
    if variant in ("model", "both", "paired"):
        over["model_policy"] = decl_model
    if variant == "paired":
        over["paired_root"] = _declaring
    if variant in ("reading", "both"):
        over["determinize"] = determinize_declared
    game_ai("motz").spec = dataclasses.replace(spec, expert_overrides=tuple(over.items()))


def main(argv: list[str] | None = None) -> int:
    """Run one variant; print the report and the per-session JSON line."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("variant", choices=("shipped", "model", "reading", "both", "paired"))
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--sessions", type=int, default=100)
    p.add_argument("--seed", type=int, default=501)
    p.add_argument("--seats", type=int, default=4)
    args = p.parse_args(argv)
    install(args.variant)
    t0 = time.perf_counter()
    report = run_arena("motz", "expert", "strong", args.sessions, seats=args.seats, seed=args.seed,
                       budget_ms=1e9, max_iterations=args.iterations)
    print(f"$ python research/motz_variants.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    print(arena.format_report(report, "motz", args.seats))
    print(f"\n({time.perf_counter() - t0:.1f} s)")
    print("PER_SESSION " + json.dumps(report.per_session[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
