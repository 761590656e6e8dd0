"""Motz: turn-up and trump, the bête (pot), declarations, the trick, tricks per seat."""

from __future__ import annotations

from typing import Any

from bot.render.canvas import GOLD, MUTED, RED, WHITE
from bot.render.games.common import FRENCH_SUIT_ORDER, per_seat, suit_sym
from bot.render.layout import CX, CY, TableCtx
from bot.rules.cards import SAME_COLOUR

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
        parts = [_declared(said, t)] if said else []
        if tricks[i]:
            parts.append(t.tr.n_("{n} trick", "{n} tricks", tricks[i]))
        plate.line = " · ".join(parts)
        plate.line_colour = GOLD if said in ("stand", "take_muet") else MUTED
        plate.dim = said == "pass"
    t.centre_amount(t.word("la bête"), t.tr.number(v.get("pot", 0)))
    _muet(t, v)
    _sidebar(t, v)


def _sidebar(t: TableCtx, v: dict[str, Any]) -> None:
    s = t.side
    s.kv(t.word("Bête"), t.tr.number(v.get("pot", 0)), GOLD, size=22)
    if v.get("phase") != "session_end":  # no deal, nothing at risk
        s.kv(t.word("Fine at risk"), _num(v.get("fine"), t))
        s.kv(t.word("Antes per player"), _num(v.get("k"), t))
    s.gap(4)
    turn_up = v.get("turn_up")
    if turn_up:
        trump = v.get("trump") or turn_up[-1]
        s.line(t.word("Turn-up"), 16, MUTED, gap=2)
        s.cards([turn_up], 56, caption=t.word("trump {suit}", suit=suit_sym(trump)))
    last = v.get("last_result")
    if last:
        s.line(t.word("Last deal"), 16, MUTED, gap=2)
        if last.get("cancelled"):
            s.line(t.tr.p_("motz deal", "cancelled"), 17, WHITE, gap=2)
            s.line(t.word("fewer than two players in"), 17, WHITE)
        else:
            for i, amount in enumerate(last.get("payouts") or []):
                if amount:
                    won = f" +{t.tr.number(amount)}"

                    def paid(who: str, won: str = won) -> str:
                        return who + won

                    s.line(t.named(i, paid, 17, s.width), 17, GOLD)
            for i, amount in enumerate(last.get("fines") or []):
                if amount:
                    fine = t.tr.number(amount)

                    def fined(who: str, fine: str = fine) -> str:
                        return t.word("{who} fined {amount}", who=who, amount=fine)

                    s.line(t.named(i, fined, 17, s.width), 17, RED)


def _muet(t: TableCtx, v: dict[str, Any]) -> None:
    """The muet lying face down in the middle of the table, under the bête, while it may still be
    taken (the declarations, nobody took it): three backs and their name."""
    if v.get("phase") != "declare" or v.get("muet_taken_by") is not None:
        return
    width, step = 30, 14
    x, y = CX - (width + 2 * step) / 2, CY + 44
    for i in range(3):  # not a seat's hidden hand (``Canvas.backs``, counted on its plate)
        t.c.back(x + i * step, y, width)
    t.c.text((CX, y + round(width * 1.4) + 4), t.word("Muet (face down)"), 14, MUTED, anchor="mt")


def _declared(said: str, t: TableCtx) -> str:
    words = {"pass": t.word("passes"), "stand": t.word("stands"), "take_muet": t.word("took muet")}
    return words.get(said, said)


def _num(value: Any, t: TableCtx) -> str:
    return t.tr.number(value) if isinstance(value, int) else "—"


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
