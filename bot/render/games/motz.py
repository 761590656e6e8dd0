"""Motz: turn-up and trump, the bête (pot), declarations, the trick, tricks per seat."""

from __future__ import annotations

from typing import Any

from bot.render.canvas import GOLD, MUTED, RED, WHITE
from bot.render.games.common import FRENCH_SUIT_ORDER, per_seat, plural, suit_sym
from bot.render.layout import TableCtx
from bot.rules.cards import SAME_COLOUR

SPANISH = False
DECLARED = {"pass": "passes", "stand": "stands", "take_muet": "took muet"}
PLAIN = ("A", "K", "Q", "J", "10", "9", "8", "7")


def draw(t: TableCtx) -> None:
    v, n = t.view, t.n
    for seat, card in v.get("trick") or []:
        t.trick_card(seat, card)
    declarations = per_seat(v, "declarations", n, None)
    tricks = per_seat(v, "tricks", n, 0)
    sizes = per_seat(v, "hand_sizes", n, 0)
    for i, plate in enumerate(t.plates):
        plate.hidden = sizes[i]
        said = declarations[i]
        parts = [DECLARED.get(said, said)] if said else []
        if tricks[i]:
            parts.append(plural(tricks[i], "trick"))
        plate.line = " · ".join(parts)
        plate.line_colour = GOLD if said in ("stand", "take_muet") else MUTED
        plate.dim = said == "pass"
    t.centre_amount("la bête", v.get("pot", 0))
    _sidebar(t, v)


def _sidebar(t: TableCtx, v: dict[str, Any]) -> None:
    s = t.side
    s.kv("Bête", str(v.get("pot", 0)), GOLD, size=22)
    s.kv("Fine at risk", str(v.get("fine", "—")))
    s.kv("Antes (k)", str(v.get("k", "—")))
    s.gap(4)
    turn_up = v.get("turn_up")
    if turn_up:
        trump = v.get("trump") or turn_up[-1]
        s.line("Turn-up", 16, MUTED, gap=2)
        s.cards([turn_up], 56, caption=f"trump {suit_sym(trump)}")
    last = v.get("last_result")
    if last:
        s.line("Last deal", 16, MUTED, gap=2)
        if last.get("cancelled"):
            s.line("cancelled (nobody stood)", 17, WHITE)
        else:
            for i, amount in enumerate(last.get("payouts") or []):
                if amount:
                    s.line(f"{t.name(i)} +{amount}", 17, GOLD)
            for i, amount in enumerate(last.get("fines") or []):
                if amount:
                    s.line(f"{t.name(i)} fined {amount}", 17, RED)


def hand_key(view: dict[str, Any]):
    """Trumps first (both jacks on top), then the other suits S H D C, high to low."""
    trump = view.get("trump")
    if trump not in FRENCH_SUIT_ORDER:
        return lambda code: (FRENCH_SUIT_ORDER.get(code[-1], 9), PLAIN.index(code[:-1]))
    second = "J" + SAME_COLOUR[trump]
    trump_order = ["J" + trump, second] + [r + trump for r in PLAIN if r != "J"]

    def key(code: str) -> tuple[int, int]:
        if code in trump_order:
            return (-1, trump_order.index(code))
        return (FRENCH_SUIT_ORDER.get(code[-1], 9), PLAIN.index(code[:-1]))

    return key
