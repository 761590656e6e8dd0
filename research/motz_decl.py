"""How strong declares in Motz: P(pass / stand / take_muet | hand class, context) (issue 17,
fourth pass), and the two uses measured for the expert (``research/motz_variants.py``): the model
of the other seats' declarations (``DeclarationModel``) and a determinizer reading the standers
with it (``determinize_declared``). Neither measured better than the shipped expert, so both
stay here, in ``research/``, and the bot does not use them (see ``bot/ai/strong/README.md``).

The table ``research/motz_decl.csv`` is fitted by ``research/motz_declarations.py`` from strong's
own declarations (200 iterations, strong-vs-strong sessions; see its docstring). A row per
(hand class, context) cell, every cell present, smoothed towards coarser cells.

* Hand class (``hand_class``), relative to the trump: trumps held (0-3, the second jack counts),
  the top trump (``J`` a jack of the trump colour, ``H`` the ace or king, ``L`` lower, ``-`` none)
  and the side aces (0 or 1+). E.g. ``2J0``: two trumps, one a jack, no side ace.
* Context (``context``): the muet still there (``m1``/``m0``), seats active before this one
  (0, 1, 2+), seats still to speak after it (0, 1, 2+), the pot in antes per seat (1, 2, 3+).

A lookup reads only the hand it is given (the seat's own, or a determinization's) and public
facts; it never sees a hidden card.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from bot.ai.motz.determinize import MAX_TRIES
from bot.ai.policy import Action, View
from bot.rules.motz import MotzState
from bot.rules.motz.tables import EFF

#: The fitted table (``research/motz_declarations.py fit``).
TABLE = Path(__file__).resolve().parent / "motz_decl.csv"

HEADER = "hand,context,pass,stand,take_muet,n"
DECLARATIONS = ("pass", "stand", "take_muet")
_TOP_HIGH = frozenset(("A", "K"))


def hand_class(hand: list[str], trump: str) -> str:
    """The hand's class relative to ``trump`` (see the module docstring)."""
    eff = EFF[trump]
    trumps = 0
    top = "-"
    aces = 0
    for c in hand:
        r = c[:-1]
        if eff[c] == trump:
            trumps += 1
            if r == "J":
                top = "J"
            elif r in _TOP_HIGH and top != "J":
                top = "H"
            elif top == "-":
                top = "L"
        elif r == "A":
            aces = 1
    return f"{trumps}{top}{aces}"


def context(muet_there: bool, active_before: int, to_speak: int, pot: int, seats: int, ante: int) -> str:
    """The declaration's public context (see the module docstring)."""
    per_seat = pot // max(1, seats * ante)
    return f"m{int(muet_there)}a{min(active_before, 2)}s{min(to_speak, 2)}p{min(max(per_seat, 1), 3)}"


def all_hand_classes() -> list[str]:
    """Every hand class a three-card hand can have."""
    out = ["0-0", "0-1"]
    for t in (1, 2):
        out += [f"{t}{top}{a}" for top in "JHL" for a in (0, 1)]
    out += [f"3{top}0" for top in "JHL"]
    return out


def all_contexts() -> list[str]:
    """Every context."""
    return [f"m{m}a{a}s{s}p{p}" for m in (1, 0) for a in range(3) for s in range(3) for p in (1, 2, 3)]


def parse(text: str) -> dict[tuple[str, str], tuple[float, float, float]]:
    """``{(hand class, context): (p_pass, p_stand, p_muet)}`` from the CSV text."""
    lines = text.strip().splitlines()
    if lines[0] != HEADER:
        raise ValueError("not a Motz declaration table")
    out = {}
    for line in lines[1:]:
        h, ctx, p, s, m, _ = line.split(",")
        out[(h, ctx)] = (float(p), float(s), float(m))
    return out


@cache
def table() -> dict[tuple[str, str], tuple[float, float, float]]:
    """The shipped table (read once)."""
    return parse(TABLE.read_text(encoding="utf-8"))


def probabilities(hand_cls: str, ctx: str, legal: frozenset[str] | None = None) -> dict[str, float]:
    """P(declaration) for the cell, renormalized over ``legal`` (None: all three; without the
    muet in the context, ``take_muet`` has probability 0)."""
    p = dict(zip(DECLARATIONS, table()[(hand_cls, ctx)], strict=True))
    if ctx.startswith("m0"):
        p["take_muet"] = 0.0
    if legal is not None:
        p = {k: (v if k in legal else 0.0) for k, v in p.items()}
    tot = sum(p.values())
    if tot <= 0.0:
        return {k: (1.0 if k == "pass" else 0.0) for k in p}
    return {k: v / tot for k, v in p.items()}


@cache
def _largest(ctx: str, what: str) -> float:
    """The largest P(``what``) over the hand classes, in ``ctx``."""
    i = DECLARATIONS.index(what)
    return max(table()[(h, ctx)][i] for h in all_hand_classes())


def acceptance(hand_cls: str, ctx: str, what: str) -> float:
    """P(``what`` | hand class, ``ctx``) over its largest value in ``ctx`` (in [0, 1]): the
    chance to keep a determinization where a seat that declared ``what`` holds such a hand."""
    top = _largest(ctx, what)
    if top <= 0.0:
        return 1.0
    return table()[(hand_cls, ctx)][DECLARATIONS.index(what)] / top


def declaration_context(decl: list[Any], seat: int, dealer: int, muet_taken_by: int | None, pot: int,
                        ante: int) -> str:
    """The context in which ``seat`` declares (or declared): from the declarations of the seats
    that spoke before it this deal (``decl``, per seat; the order is ``dealer + 1`` onwards)."""
    n = len(decl)
    order = [(dealer + 1 + j) % n for j in range(n)]
    pos = order.index(seat)
    before = order[:pos]
    active = sum(1 for s in before if decl[s] in ("stand", "take_muet"))
    muet_there = muet_taken_by is None or muet_taken_by not in before
    return context(muet_there, active, n - pos - 1, pot, n, ante)


class DeclarationModel:
    """A Motz player that declares as strong does (sampled from the table) and plays its cards as
    easy does: a candidate model of the other seats for the expert (``GameSpec.model_policy``)."""

    def __init__(self) -> None:
        from bot.ai.motz.easy import EasyPolicy

        self.easy = EasyPolicy()

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        """A declaration drawn from the table, or easy's card."""
        kinds = {a["type"]: a for a in legal}
        if "pass" not in kinds:
            return self.easy.choose(view, legal, rng)
        seat = view["to_act"][0]
        ctx = declaration_context(view["declarations"], seat, view["dealer"], view["muet_taken_by"],
                                  view["pot"], ante_of(view))
        p = probabilities(hand_class(view["hand"], view["trump"]), ctx, frozenset(kinds))
        x = rng.random()
        for k in DECLARATIONS:
            if k in kinds:
                x -= p[k]
                if x < 0.0:
                    return kinds[k]
        return kinds["pass"]


def ante_of(view: View) -> int:
    """The table's ante as a view shows it: the view has no ante, so it is read from the jetons
    on the table (stacks plus pot: ``seats × buy_in``) at the default buy-in of 100 antes (exact
    with the default options; a table with another buy-in only shifts the pot bucket)."""
    total = sum(view["stacks"]) + view["pot"]
    return max(1, round(total / (100 * len(view["stacks"]))))


def decl_model() -> DeclarationModel:
    """``GameSpec.model_policy``: a new ``DeclarationModel``."""
    return DeclarationModel()


def determinize_declared(state: MotzState, seat: int, rng: random.Random) -> MotzState:
    """A redeal weighted by how strong declares: every other seat that stood is a reader, its
    hand the cards it still holds plus those it played this deal (public); a deal is kept with
    probability the product over readers of P(stand | hand class, context) / (the largest
    P(stand) in that context), else redrawn (up to ``MAX_TRIES``, then the last one is kept).
    The engine's redeal keeps the played cards out and the voids shown. Passers and the hand a
    muet taker gave up are not read: those cards are dead and share the unseen cards with the
    16-card stock, so reading them moved ~0.01 trumps into a live hand (hand-checked deal of
    ``research/tests/test_motz_decl.py``, 4,000 draws) for about half again as many redeals."""
    c = state.redeal(seat, rng)
    trump = state.trump
    if trump is None or state.is_over():
        return c
    shown = state.played_by()
    readers = [
        (s, declaration_context(state.decl, s, state.dealer, state.muet_by, state.P, state.ante),
         shown.get(s, []))
        for s in range(state.n) if s != seat and state.decl[s] == "stand"
    ]
    for _ in range(MAX_TRIES - 1 if readers else 0):
        w = 1.0
        for s, ctx, played in readers:
            w *= acceptance(hand_class(c.hands[s] + played, trump), ctx, "stand")
        if rng.random() < w:
            break
        c = state.redeal(seat, rng)
    return c
