"""The AI levels' table of the README (issue 32): per game, easy vs random, strong vs easy and expert
vs strong as duplicate W and Ē with their intervals, read from the runs' journals.

Usage (from the project root):
    python bench/ai_table.py                  # bench/runs/issue32
    python bench/ai_table.py --runs DIR
    python bench/ai_table.py --write README.md    # between its <!-- ai-table --> markers

A row's run is the journal ``GAME-A-B.json`` (or ``.jsonl``) or its parts ``GAME-A-B.pK.jsonl``
(``bench/arena.py --out``, ``--part``), read whole (``bench/journal.py``); a run not finished yet
is shown as such, with how many of its groups are in, and no figure. Decision times come from
the row's check at the shipped budgets, ``GAME-A-B.budget.jsonl`` (``bench/arena.py GAME --a A
--b B --pairs 2 --out …`` without ``--iterations``/``--budget-ms``), since the main runs play
fixed iteration counts. The bars (issue 32 item 2): strong vs easy W ≥ 70% and Ē's lower bound
> 0; expert vs strong Ē's lower bound > 0 and W ≥ 60% where the search is not saturated
(``SATURATED_AT``: Motz); a W within 5 points of its bar calls for the plan's one second run.

The second table is item 3, what each hidden card is worth: the peeking runs
``GAME-strong-easy.peek-MODE[.pK].jsonl`` (``research/ceiling.py --peek MODE … --out``) against
the strong-vs-easy run of the same plan, group by group. A missed strong-vs-easy bar names the
edge the game's peeks buy, the gap an inference could close.

The third is item 4, what an inference buys: strong with a reading of what it observed
(``GAME-strong-easy.read-NAME[.pK].jsonl``: ``bench/arena.py`` with ``--spec determinize=…`` at
the iteration count the reading's cost leaves in the same time) against the same honest run, on
the same deals; it ships where ΔĒ's lower bound is above 0, and, once a reading of the game has
shipped (``SHIPPED``), where its ΔĒ over that reading's run on the same deals is above 0 too.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import duplicate  # noqa: E402  (bench/duplicate.py)
import journal  # noqa: E402  (bench/journal.py)
from arena import duplicate_of, report_of, same_players  # noqa: E402  (bench/arena.py)

from bot.rules import GAMES  # noqa: E402

RUNS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs", "issue32")
GAME_ORDER = ("motz", "mus", "marias", "michigan", "maitre")
MATCHES = (("easy", "random"), ("strong", "easy"), ("expert", "strong"))
#: (W's bar, whether Ē's lower bound must be above 0) per match.
BARS = {("strong", "easy"): (0.70, True), ("expert", "strong"): (0.60, True)}
FACTOR = {"strong": 1, "expert": 5}
#: Strong's agreement with itself (the same search, another rng) on the 200 searched decisions of
#: ``bench/decision_agreement.py --points 200`` (docs/benchmarks.md, "is the search saturated?").
SELF_AGREEMENT = {"motz": 0.975, "michigan": 0.89, "mus": 0.825, "marias": 0.70, "maitre": 0.315}
#: The expert's W ≥ 60% holds "where the search is not already saturated" (issue 32, item 2): a
#: game is saturated where strong plays the same move with another rng at this share of its
#: searched decisions or more — five times the search has almost no move left to decide (Motz
#: only). There Ē's lower bound > 0 is the expert's bar. Declared before any expert-vs-strong
#: figure of Motz or Michigan was read.
SATURATED_AT = 0.95


def run_files(runs: str, game: str, a: str, b: str, second: bool = False) -> list[str]:
    """The journal files of a row's main run (whole or in parts; not its budget check), or of its
    second run (``GAME-A-B.second…``, the plan's one second run where W ended near its bar)."""
    stem = os.path.join(runs, f"{game}-{a}-{b}" + (".second" if second else ""))
    return sorted(glob.glob(stem + ".json") + glob.glob(stem + ".jsonl") + glob.glob(stem + ".p[0-9]*.jsonl"))


def read(paths: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]] | None, int]:
    """A run's plan, its sessions when every part is in (else None), and how many groups are in."""
    journals = [journal.load(p) for p in paths]
    plan = journals[0].plan
    try:
        return plan, journal.whole(journals), plan["groups"]
    except ValueError:
        return plan, None, sum(len(j.sessions) for j in journals) // len(plan["seatings"])


def row(runs: str, game: str, a: str, b: str) -> str:
    """One Markdown row (a row whose run has not started says so). With a finished second run the
    figures are the two runs pooled, group by group (the plan: "reported pooled with the first")."""
    paths = run_files(runs, game, a, b)
    if not paths:
        title = GAMES[game].title
        return f"| {title} | {a} vs {b} | | | | not run yet | | | | | {timing(runs, game, a, b)} | |"
    plan, sessions, done = read(paths)
    size = len(plan["seatings"])
    groups, seeds, note = f"{plan['groups']}", f"{plan['seed']}", ""
    if sessions is not None and run_files(runs, game, a, b, second=True):
        plan2, sessions2, done2 = read(run_files(runs, game, a, b, second=True))
        if sessions2 is None:
            note = f" (second run: {done2} of {plan2['groups']} groups in)"
        else:
            sessions, groups, seeds = sessions + sessions2, f"{groups} + {plan2['groups']}", \
                f"{seeds} + {plan2['seed']}"
    total = len(sessions) if sessions is not None else plan["sessions"]
    head = (f"| {GAMES[game].title} | {a} vs {b} | {groups} × {size} ({total}) "
            f"| {seeds} | {iterations(plan)} ")
    if sessions is None:
        running = f"running: {done} of {plan['groups']} groups in"
        return head + f"| {running} | | | | | {timing(runs, game, a, b)} | |"
    d = duplicate_of(report_of(sessions, plan))
    said = explained(verdict((a, b), d, pooled=" + " in groups, game=game), (a, b),
                     {mode: gain for mode, (_, gain, _) in peeks(runs, game).items()})
    return head + f"{d.cells()} {timing(runs, game, a, b)} | {said}{note} |"


def explained(said: str, match: tuple[str, str], gains: dict[str, Any]) -> str:
    """A searched level's missed bar (strong vs easy, expert vs strong) followed by what reading
    each kind of hidden card would buy strong (item 3's peeks, where the gain's interval is above
    0): the issue's "or the gap explained by (3)". Other verdicts are returned as they are."""
    if not said.startswith("not met") or match not in (("strong", "easy"), ("expert", "strong")):
        return said
    bought = [f"reading {mode} would buy ΔĒ {gain.signed()}"
              for mode, gain in gains.items() if gain is not None and gain.low > 0]
    return said + ("; " + "; ".join(bought) if bought else "")


Peek = tuple[int, "duplicate.Estimate | None", "duplicate.Estimate | None"]


#: What may differ between a variant's plan and the honest run's, besides the determinizer a
#: ``--spec`` names (``arena.same_players``): a peek's name (item 3); the iteration count a
#: reading leaves at equal time (item 4).
VARIES = {"peek-": frozenset({"peek"}), "read-": frozenset({"iterations", "budget_ms"})}


def peeks(runs: str, game: str) -> dict[str, Peek]:
    """Per peek mode of ``game``: (groups in, ΔĒ bought over the honest strong-vs-easy run, the
    share of groups where it bought); the two estimates are None until both runs are whole."""
    return variants(runs, game, "peek-")


def variant_files(runs: str, game: str, kind: str) -> dict[str, list[str]]:
    """Per variant of ``game``'s strong-vs-easy run (``kind``: ``peek-`` or ``read-``), its journals."""
    stem = os.path.join(runs, f"{game}-strong-easy.{kind}")
    modes: dict[str, list[str]] = {}
    for path in sorted(glob.glob(stem + "*.jsonl")):
        modes.setdefault(path[len(stem):].split(".")[0], []).append(path)
    return modes


def variants(runs: str, game: str, kind: str) -> dict[str, Peek]:
    """Per variant of the strong-vs-easy run (``kind``: ``peek-`` or ``read-``), its name mapped to
    (groups in, ΔĒ over the honest run, share of groups where it bought)."""
    free = VARIES[kind]
    honest = run_files(runs, game, "strong", "easy")
    base_plan, base, _ = read(honest) if honest else ({}, None, 0)
    out: dict[str, Peek] = {}
    for mode, paths in variant_files(runs, game, kind).items():
        plan, sessions, done = read(paths)
        if sessions is None or base is None:
            out[mode] = (done, None, None)
            continue
        if not same_players(plan, base_plan, free):
            raise SystemExit(f"{paths[0]}: not the deals of {honest[0]} (game, levels, seeds, groups)")
        out[mode] = (plan["groups"], *paired_gain(base, sessions, plan))
    return out


def paired_gain(base: list[dict[str, Any]], sessions: list[dict[str, Any]],
                plan: dict[str, Any]) -> tuple[duplicate.Estimate, duplicate.Estimate]:
    """ΔĒ of ``sessions`` over ``base``, two runs on ``plan``'s deals, group by group, and the
    share of groups where it bought (``duplicate.gain``)."""
    return duplicate.gain(report_of(base, plan).diffs(), report_of(sessions, plan).diffs(),
                          len(plan["seatings"]))


#: The readings each game shipped, in order, the last in force (item 4; ``bot.ai.marias``): a
#: later reading of that game ships only if it also beats the one in force, group by group on the
#: same deals.
SHIPPED = {"marias": ("shown", "calls")}


def gain_over(runs: str, game: str, shipped: str, mode: str) -> duplicate.Estimate | None:
    """ΔĒ of reading ``mode`` over reading ``shipped`` on the same deals (None until both are whole)."""
    files = variant_files(runs, game, "read-")
    if shipped not in files:
        return None
    (plan, base, _), (other_plan, sessions, _) = read(files[shipped]), read(files[mode])
    if base is None or sessions is None:
        return None
    if not same_players(plan, other_plan, VARIES["read-"]):
        raise SystemExit(f"{files[mode][0]}: not the deals of {files[shipped][0]}")
    return paired_gain(base, sessions, plan)[0]


def ships(runs: str, game: str, mode: str, gain: duplicate.Estimate) -> str:
    """The ships cell of a finished reading: its ΔĒ over the honest run must be above 0, and over
    the reading in force before it too, when there was one (``SHIPPED``)."""
    shipped = SHIPPED.get(game, ())
    if mode in shipped[:-1]:
        return f"shipped, then replaced by {shipped[shipped.index(mode) + 1]}"
    if gain.low <= 0:
        return "no: ΔĒ's interval reaches 0"
    yes = "yes: shipped" if mode in shipped else "yes"
    earlier = shipped[:shipped.index(mode)] if mode in shipped else shipped  # the readings it must beat
    if not earlier:
        return yes
    over = gain_over(runs, game, earlier[-1], mode)
    if over is None:
        return f"once {earlier[-1]}'s run is whole"
    return f"{yes if over.low > 0 else 'no'}: ΔĒ over {earlier[-1]} {over.signed()}"


def peek_table(runs: str, kind: str = "peek-") -> str:
    """Item 3's table (``peek-``: every peek run) or item 4's (``read-``: every reading), each
    finished or how far it is; a reading says whether it ships."""
    what = "strong (A) reads" if kind == "peek-" else "strong (A) infers"
    lines = [f"| game | {what} | groups | edge bought ΔĒ jetons/session (95% CI) "
             "| groups where it bought (95% CI) |", "|---|---|---|---|---|"]
    if kind == "read-":
        lines = [lines[0] + " ships |", lines[1] + "---|"]
    for game in GAME_ORDER:
        for mode, (groups, gain, share) in variants(runs, game, kind).items():
            if gain is None or share is None:
                cells = f"| {GAMES[game].title} | {mode} | running: {groups} in | | |"
                lines.append(cells + (" |" if kind == "read-" else ""))
                continue
            cells = f"| {GAMES[game].title} | {mode} | {groups} | {gain.signed()} | {share.percent()} |"
            if kind == "read-":
                cells += f" {ships(runs, game, mode, gain)} |"
            lines.append(cells)
    return "\n".join(lines)


def iterations(plan: dict[str, Any]) -> str:
    """The fixed iteration counts of the searching sides (``—`` for none)."""
    n = plan.get("iterations")
    sides = [f"{n * FACTOR[lv]:,}" for lv in (plan["a"], plan["b"]) if lv in FACTOR and n]
    return " / ".join(sides) or "—"


def timing(runs: str, game: str, a: str, b: str) -> str:
    """Decision p50 / p95 of the searching sides at the shipped budgets, from the budget check."""
    path = os.path.join(runs, f"{game}-{a}-{b}.budget.jsonl")
    if a not in FACTOR and b not in FACTOR:
        return "—"
    if not os.path.exists(path):
        return "not measured"
    jn = journal.load(path)
    report = report_of(jn.sessions, jn.plan)
    ms = lambda x: f"{x:.0f}" if x >= 10 else f"{x:.2f}"  # noqa: E731
    out = [f"{lv} {ms(report.time_ms(who, 0.5))} / {ms(report.time_ms(who, 0.95))} ms"
           for who, lv in enumerate((a, b)) if lv in FACTOR and report.times[who]]
    return "; ".join(out) or "—"


def saturated(game: str) -> bool:
    """Whether ``game``'s search is saturated (``SATURATED_AT``): the expert's W bar does not apply."""
    return SELF_AGREEMENT.get(game, 0.0) >= SATURATED_AT


def verdict(match: tuple[str, str], d: Any, pooled: bool = False, game: str = "") -> str:
    """Whether the match's bar is met (module docstring); a pooled result is final (no third run).
    The expert's W bar is waived where ``game``'s search is saturated (``saturated``)."""
    if match not in BARS:
        return "—"
    bar, edge = BARS[match]
    if match == ("expert", "strong") and saturated(game):
        waived = f"W bar waived: strong agrees with itself at {100 * SELF_AGREEMENT[game]:.1f}%"
        return ("**met**" if d.edge.low > 0 else "not met: Ē's interval reaches 0") + f" ({waived})"
    w_ok, e_ok = d.win_rate.value >= bar, d.edge.low > 0 or not edge
    if abs(d.win_rate.value - bar) <= 0.05 and not pooled:
        return f"W within 5 points of {100 * bar:.0f}%: second run"
    if w_ok and e_ok:
        return "**met**"
    missing = [f"W < {100 * bar:.0f}%"] * (not w_ok) + ["Ē's interval reaches 0"] * (not e_ok)
    return "not met: " + ", ".join(missing)


def table(runs: str) -> str:
    """The whole table: every game and match, run or not."""
    lines = ["| game | match (A vs B) | groups × seatings (sessions) | seed | iterations A / B "
             "| W (95% CI) | Ē jetons/session (95% CI) | Ē jetons/deal (95% CI) | r "
             "| sessions won (95% CI, clustered) | decision p50 / p95 (shipped budgets) | bar |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for game in GAME_ORDER:
        for a, b in MATCHES:
            lines.append(row(runs, game, a, b))
    return "\n".join(lines)


START, END = "<!-- ai-table -->", "<!-- /ai-table -->"
#: What introduces item 3's table under the main one.
PEEK_HEAD = ("What each hidden card is worth (item 3): strong's search reading one kind of hidden card "
             "(`research/ceiling.py --peek`) against easy, on the deals of its strong-vs-easy run; ΔĒ is "
             "the edge that buys per group over the honest run.")


#: What introduces item 4's table.
READ_HEAD = ("What an inference buys (item 4): strong with a reading of what it observed, at the iteration "
             "count its cost leaves in the same time, against easy on the same deals; ΔĒ per group over the "
             "honest run. `shown`: Marias's redeal keeps what the plays showed (`bot.rules.marias.shown`); "
             "`calls`: on top, the other seats' calls read with the easy model (`bot.ai.marias.calls`). "
             "The ships column: ΔĒ's lower bound above 0, and over the reading in force before it.")


def write_into(path: str, text: str) -> None:
    """Replace what stands between the ``<!-- ai-table -->`` markers of ``path`` with ``text``."""
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    if doc.count(START) != 1 or doc.count(END) != 1 or doc.index(START) > doc.index(END):
        raise SystemExit(f"{path}: needs one {START} … {END} pair")
    head, rest = doc.split(START)
    _, tail = rest.split(END)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"{head}{START}\n{text}\n{END}{tail}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default=RUNS)
    parser.add_argument("--write", metavar="FILE", help="put the table between FILE's markers")
    args = parser.parse_args(argv)
    text = table(args.runs) + "\n\n" + PEEK_HEAD + "\n\n" + peek_table(args.runs)
    if glob.glob(os.path.join(args.runs, "*-strong-easy.read-*.jsonl")):
        text += "\n\n" + READ_HEAD + "\n\n" + peek_table(args.runs, "read-")
    if args.write:
        write_into(args.write, text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
