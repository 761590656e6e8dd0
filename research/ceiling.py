"""Ceiling: the arena with side A's search reading the real deal, all of it or one kind of hidden
card at a time (a peeking player, bench only, never a level).

Usage (from the project root; every option of ``bench/arena.py`` is accepted):
    python research/ceiling.py michigan --a strong --b easy --iterations 1600 --budget-ms 1e9 --pairs 100
    python research/ceiling.py motz --a expert --b strong --iterations 200 --budget-ms 1e9 --seats 4
    python research/ceiling.py --peek muet,declared,to_speak motz --a strong --b easy --iterations 200 \\
        --budget-ms 1e9 --pairs 100 --seed 3301

Long runs (issue 32's plan) are journaled one mode at a time, with the arena's ``--out`` and
``--part``, and compared once finished (the honest run is the arena's own journal of the same
command; ``bench/journal.py``)::

    python bench/arena.py marias --a strong --b easy --iterations 1130 --budget-ms 1e9 --pairs 100 \\
        --seed 9113 --out h.jsonl
    python research/ceiling.py --peek talon marias … (the same options) --part 1/2 --out t1.jsonl
    python research/ceiling.py --resume t1.jsonl        # a peeking part cut short
    python research/ceiling.py --compare h.jsonl talon=t1.jsonl,t2.jsonl defenders=d.jsonl

Without ``--peek`` side A's determinizer is replaced by a plain copy of the real state, so every
hidden card (the other hands, the stock, the dead hand) is known to its search; its search,
rollouts, opponent model and prior are otherwise the shipped ones. No level of the bot can do
this (the determinizers only redeal hidden cards, and ``tests/ai/test_no_peeking.py`` proves it):
the figure is an upper bound on what better inference can buy the same search.

``--peek MODE[,MODE…]`` (issue 32 item 3: what each hidden card is worth) runs the plan once
honestly, then once per mode with side A's search reading only that kind of hidden card, on the
same deals, and reports each mode's duplicate edge and the **edge it buys**: per duplicate group
``ΔE_k = E_k(peek) − E_k(honest)``, its mean with a 95% interval and the share of groups where
it is positive (ties ½, Wilson). Modes (``PEEKS``), each read from the searching seat's place:

- Motz: ``muet`` (the muet while it lies untaken), ``declared`` (the hands of the other seats
  that have spoken this deal and still hold cards: those that stood or took the muet; a seat that
  passed threw its hand in), ``to_speak`` (the hands of the other seats still to speak).
- Michigan: ``dead`` (the dead hand).
- Marias: ``talon`` (the two cards the soloist laid, hidden from the defenders), ``defenders``
  (the hands of the defenders other than the searching seat, once a soloist is known).

A mode keeps the read cards where they really are and leaves everything else to the shipped
determinizer: the engine's redeal deals the other hidden cards over the other hidden places,
with the public constraints (voids, pinned cards, talon rules) and the opponent model's
readings as before (``research/tests/test_ceiling.py`` checks, on hand-built deals, that each
mode reveals exactly its cards: states that differ only elsewhere give identical
determinizations). Side A must be ``strong`` against a non-searching side (``easy``/``random``),
or ``expert`` against ``strong`` (the override is then the expert's only).

A peek reads on top of the determinizer its run names with ``--spec determinize=…`` (applied
first), so that it compares with an honest run played before the shipped determinizer changed:
Marias's peeks pin ``bot.ai.marias.determinize:determinize_plain``, what its honest strong-vs-easy
run played with. ``--compare`` and ``bench/ai_table.py`` accept such a pin
(``arena.same_players``).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import os
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))

import arena  # noqa: E402  (bench/arena.py)
import duplicate  # noqa: E402  (bench/duplicate.py)
import journal  # noqa: E402  (bench/journal.py)

import bot.rules.michigan.state as mstate  # noqa: E402
from bot.ai.registry import determinizer, game_ai, spec_for  # noqa: E402
from bot.rules import GAMES  # noqa: E402
from bot.rules.marias.state import TRUMP, MariasState  # noqa: E402
from bot.rules.michigan.tables import DEAD  # noqa: E402
from bot.rules.motz import MotzState  # noqa: E402
from bot.rules.motz.state import END, deal_hidden  # noqa: E402
from bot.rules.motz.tables import EFF, HAND_ORDER  # noqa: E402

#: The kinds of hidden card a search may read, per game (module docstring).
PEEKS: dict[str, tuple[str, ...]] = {
    "motz": ("muet", "declared", "to_speak"),
    "michigan": ("dead",),
    "marias": ("talon", "defenders"),
}

#: The peek in force: set only while side A's determinizer runs (``reading``).
_active: dict[str, Any] = {"seat": None, "mode": None}


def peeking_copy(state: Any, seat: int, rng: Any) -> Any:
    """The real state itself, copied (Michigan's copy gets its own ``hand_only`` config, as the
    honest determinizer's does, so the search stops at the end of the hand)."""
    c = state.clone()
    cfg = getattr(c, "cfg", None)
    if cfg is not None and hasattr(cfg, "hand_only"):
        c.cfg = copy.copy(cfg)
        c.cfg.hand_only = True
    return c


# ---------------------------------------------------------------------- what each mode reads

def motz_seats(state: MotzState, seat: int, mode: str) -> list[int]:
    """The other seats whose hands ``mode`` reads (``declared``/``to_speak``), holding cards."""
    if mode == "declared":
        return [s for s in range(state.n) if s != seat and state.decl[s] is not None and state.hands[s]]
    if mode == "to_speak":
        return [s for s in range(state.n) if s != seat and state.decl[s] is None and state.hands[s]]
    return []


def marias_defenders(state: MariasState, seat: int) -> list[int]:
    """The defenders other than ``seat`` (none before a soloist is known, or while trumps are chosen)."""
    if state.soloist is None or state.phase == TRUMP:
        return []
    return [s for s in range(3) if s not in (seat, state.soloist)]


def revealed(game: str, state: Any, seat: int, mode: str) -> dict[str, list[Any]]:
    """The hidden places ``mode`` reads from ``seat``'s place, with their real cards (tests, reports)."""
    if game == "motz":
        if mode == "muet":
            return {"muet": list(state.muet)} if state.muet is not None else {}
        return {f"hand {s}": list(state.hands[s]) for s in motz_seats(state, seat, mode)}
    if game == "michigan":
        return {"dead": [x for x in range(52) if state.owner[x] == DEAD]}
    if game == "marias":
        if mode == "talon":
            return {"talon": list(state.talon)} if state.talon and seat != state.talon_owner else {}
        return {f"hand {s}": list(state.hands[s]) for s in marias_defenders(state, seat)}
    raise ValueError(f"ceiling: no peek for game {game!r}")


# ---------------------------------------------------------------------- the engines, reading

_plain_motz_redeal = MotzState.redeal
_plain_marias_redeal = MariasState.redeal
_plain_marias_pinned = MariasState._pinned
_plain_known_dead = mstate.known_dead


def _motz_redeal(self: MotzState, seat: int, rng: random.Random) -> MotzState:
    """``MotzState.redeal`` keeping the peeked places' real cards (the engine's own without a peek)."""
    mode = _active["mode"] if _active["seat"] == seat else None
    if mode is None:
        return _plain_motz_redeal(self, seat, rng)
    c = self.clone()
    c.seed = rng.getrandbits(48)
    c.decks = None
    c._legal = None
    if self.phase == END:
        return c
    read_muet = mode == "muet" and self.muet is not None
    read = set(motz_seats(self, seat, mode))
    known = {x for s in read for x in self.hands[s]} | (set(self.muet or ()) if read_muet else set())
    pool = [x for x in self.unseen_cards(seat) if x not in known]
    rng.shuffle(pool)
    others = [(s, len(self.hands[s])) for s in range(self.n) if s != seat and self.hands[s] and s not in read]
    voids = self.shown_voids() if self.played or len(self.trick) > 1 else {}
    dealt = deal_hidden(pool, others, voids, EFF[self.trump or "S"], rng)
    for s, hand in dealt.items():
        c.hands[s] = sorted(hand, key=HAND_ORDER.__getitem__)
    if self.muet is not None and not read_muet:
        c.muet = pool[:len(self.muet)]
    return c


def _marias_redeal(self: MariasState, seat: int, rng: random.Random, shown: bool = False) -> MariasState:
    """``MariasState.redeal`` with the talon seen (as by the seat that laid it) or the defenders'
    cards pinned to them (as public cards are), when side A's search reads them."""
    mode = _active["mode"] if _active["seat"] == seat else None
    if mode == "talon" and self.talon and seat != self.talon_owner:
        seen = self.clone()
        owner, seen.talon_owner = self.talon_owner, seat
        c = _plain_marias_redeal(seen, seat, rng, shown)
        c.talon_owner = owner
        return c
    defenders = marias_defenders(self, seat) if mode == "defenders" else []
    if not defenders:
        return _plain_marias_redeal(self, seat, rng, shown)
    hands = {x: s for s in defenders for x in self.hands[s]}
    MariasState._pinned = lambda st: {**_plain_marias_pinned(st), **hands}  # type: ignore[method-assign]
    try:
        return _plain_marias_redeal(self, seat, rng, shown)
    finally:
        MariasState._pinned = _plain_marias_pinned  # type: ignore[method-assign]


def _known_dead(owner: list[int]) -> set[int]:
    """Michigan's ``known_dead`` plus, while side A reads it, every card of the dead hand."""
    out = _plain_known_dead(owner)
    if _active["mode"] != "dead":
        return out
    return out | {x for x in range(52) if owner[x] == DEAD}


def patch_engines() -> None:
    """Route the engines' redeals through the reading versions (inert while no peek is active)."""
    MotzState.redeal = _motz_redeal  # type: ignore[method-assign]
    MariasState.redeal = _marias_redeal  # type: ignore[method-assign]
    mstate.known_dead = _known_dead


def unpatch_engines() -> None:
    """The engines' own redeals again."""
    MotzState.redeal = _plain_motz_redeal  # type: ignore[method-assign]
    MariasState.redeal = _plain_marias_redeal  # type: ignore[method-assign]
    mstate.known_dead = _plain_known_dead


@contextlib.contextmanager
def reading(seat: int, mode: str) -> Iterator[None]:
    """Make the engines' redeals for ``seat`` read ``mode`` inside the block."""
    before = dict(_active)
    _active.update(seat=seat, mode=mode)
    try:
        yield
    finally:
        _active.update(before)


def peeking(honest: Callable[[Any, int, Any], Any], mode: str) -> Callable[[Any, int, Any], Any]:
    """``honest`` (a determinizer) reading ``mode`` of the real deal."""
    def determinize(state: Any, seat: int, rng: Any) -> Any:
        with reading(seat, mode):
            return honest(state, seat, rng)
    determinize.__name__ = f"peeking_{mode}"
    return determinize


# ---------------------------------------------------------------------- installing side A

def install(game: str, level_a: str, level_b: str, mode: str = "all") -> None:
    """Make side A's search peek (``all``: the whole real deal; else one mode of ``PEEKS``)."""
    spec = spec_for(game)
    if mode != "all" and mode not in PEEKS.get(game, ()):
        raise SystemExit(f"ceiling: {game} peeks: {', '.join(PEEKS.get(game, ())) or 'none'}")
    strong_det = spec.determinize or determinizer(game)
    if level_a == "strong" and level_b in ("easy", "random"):
        det = peeking_copy if mode == "all" else peeking(strong_det, mode)
        game_ai(game).spec = dataclasses.replace(spec, determinize=det)
    elif level_a == "expert" and level_b == "strong":
        expert_det = dict(spec.expert_overrides).get("determinize", strong_det)
        det = peeking_copy if mode == "all" else peeking(expert_det, mode)
        overrides = tuple(o for o in spec.expert_overrides if o[0] != "determinize")
        game_ai(game).spec = dataclasses.replace(spec, expert_overrides=(*overrides, ("determinize", det)))
    else:
        raise SystemExit("ceiling: --a strong against easy/random, or --a expert against strong")
    if mode != "all":
        patch_engines()


@contextlib.contextmanager
def side_a_reading(game: str, level_a: str, level_b: str, mode: str) -> Iterator[None]:
    """``install`` for the duration of a block, then the shipped spec and engines back."""
    spec = spec_for(game)
    try:
        install(game, level_a, level_b, mode)
        yield
    finally:
        game_ai(game).spec = spec
        unpatch_engines()


def compare(game_argv: list[str], modes: list[str]) -> str:
    """Run the plan honestly, then per mode; the edge each mode buys, as a Markdown table."""
    _, args, seats, sessions = arena.parse(game_argv)
    print(arena.format_plan(arena.run_plan(args, seats, sessions)))
    reports = {"honest": arena.run(args, seats, sessions)}
    for mode in modes:
        with side_a_reading(args.game, args.a, args.b, mode):
            reports[mode] = arena.run(args, seats, sessions)
    return format_compare(reports)


def format_compare(reports: dict[str, Any]) -> str:
    """Each run's duplicate edge, and each peek's paired gain over the honest run."""
    honest = reports["honest"]
    size = honest.group
    base = len(honest.diffs()) // size
    lines = [
        f"What each hidden card is worth: {honest.names[0]} (A, reading) against {honest.names[1]} (B), "
        f"{base} groups of {size} sessions on the same deals",
        "",
        "| side A reads | W (95% CI) | Ē jetons/session (95% CI) | edge bought ΔĒ (95% CI) "
        "| groups where it bought (95% CI) |",
        "|---|---|---|---|---|",
    ]
    for mode, report in reports.items():
        d = arena.duplicate_of(report)
        if mode == "honest":
            lines.append(f"| {mode} | {d.win_rate.percent()} | {d.edge.signed()} | — | — |")
            continue
        bought, share = duplicate.gain(honest.diffs(), report.diffs(), size)
        lines.append(f"| {mode} | {d.win_rate.percent()} | {d.edge.signed()} | {bought.signed()} "
                     f"| {share.percent()} |")
    return "\n".join(lines)


def compare_journals(argv: list[str]) -> str:
    """``HONEST[,PART…] MODE=FILE[,PART…] …``: the edge each mode bought, from finished journals."""
    if len(argv) < 2 or "=" in argv[0] or any("=" not in a for a in argv[1:]):
        raise SystemExit("usage: research/ceiling.py --compare HONEST[,PART…] MODE=FILE[,PART…] …")
    runs = {"honest": argv[0].split(",")}
    for word in argv[1:]:
        mode, _, files = word.partition("=")
        runs[mode] = files.split(",")
    reports, plans = {}, {}
    for mode, paths in runs.items():
        try:
            first, sessions = journal.read_run(paths)
            plan = first.plan
        except (OSError, ValueError) as e:
            raise SystemExit(f"--compare {mode}: {e}") from None
        if plan.get("peek", "honest") != mode:
            raise SystemExit(f"--compare: {paths[0]} was played with peek {plan.get('peek', 'honest')!r}, "
                             f"not {mode!r}")
        plans[mode] = plan
        reports[mode] = arena.report_of(sessions, plan)
    if any(not arena.same_players(p, plans["honest"], frozenset({"peek"})) for p in plans.values()):
        raise SystemExit("--compare: the runs are not one plan (game, levels, limits, seeds, groups)")
    print(arena.format_plan(plans["honest"]))
    return format_compare(reports)


def journaled(argv: list[str], modes: list[str]) -> int:
    """One mode played into a journal (``--out``, ``--part``): the arena with side A peeking."""
    if len(modes) != 1:
        raise SystemExit("ceiling: --out journals one mode at a time (compare them with --compare)")
    _, args, _, _ = arena.parse(argv)  # its --spec first (a pinned determinizer), the peek on top
    with side_a_reading(args.game, args.a, args.b, modes[0]):
        print(f"(ceiling: side A's search reads {modes[0]})")
        return int(arena.main(argv, {"peek": modes[0]}, apply_spec=False))


def resume(path: str) -> int:
    """Finish a peeking run's journal with the same peek installed."""
    try:
        jn = journal.load(path, repair=True)
    except (OSError, ValueError) as e:
        raise SystemExit(f"--resume {path}: {e}") from None
    plan, mode = jn.plan, jn.plan.get("peek")
    if mode is None:
        raise SystemExit(f"--resume {path}: an honest run: bench/arena.py --resume {path}")
    arena.parse(jn.argv)  # its --spec first, the peek on top (``journaled``)
    with side_a_reading(plan["game"], plan["a"], plan["b"], mode):
        return int(arena.resume(path, {"peek": mode}, apply_spec=False))


def main(argv: list[str]) -> int:
    """``[--peek MODE[,MODE…]]`` then the arena's own options; or ``--compare``/``--resume``."""
    if argv[:1] == ["--compare"]:
        print(compare_journals(argv[1:]))
        return 0
    if argv[:1] == ["--resume"] and len(argv) == 2:
        return resume(argv[1])
    modes: list[str] = []
    if argv[:1] == ["--peek"]:
        modes, argv = argv[1].split(","), argv[2:]
    game = argv[0] if argv else ""
    a = argv[argv.index("--a") + 1] if "--a" in argv else "easy"
    b = argv[argv.index("--b") + 1] if "--b" in argv else "random"
    if game not in GAMES:
        raise SystemExit(f"ceiling: no search spec for game {game!r}")
    if modes:
        unknown = [m for m in modes if m not in PEEKS.get(game, ())]
        if unknown:
            raise SystemExit(f"ceiling: {game} peeks: {', '.join(PEEKS.get(game, ())) or 'none'}")
        if "--out" in argv:
            return journaled(argv, modes)
        print(f"(ceiling: side A's search reads {', '.join(modes)}, one at a time, against the honest run)")
        print(compare(argv, modes))
        return 0
    install(game, a, b)
    print("(ceiling: side A's search reads the real deal)")
    return int(arena.main(argv))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
