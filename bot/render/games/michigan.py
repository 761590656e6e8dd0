"""Michigan: the four boodle cards with their pools, each seat's played cards, lead and block."""

from __future__ import annotations

from typing import Any

from bot.render.canvas import GOLD, MUTED, RED, WHITE
from bot.render.fonts import text_width
from bot.render.games.common import french_key, per_seat
from bot.render.layout import CX, CY, TableCtx
from bot.render.words import deltas_parts
from bot.rules.cards import SUIT_SYMBOLS

BOODLE = ("AH", "KC", "QD", "JS")  # the order of the view's ``pot`` list
PLAYED_W = 40
PLAYED_SHOWN = 4
BOODLE_W = 46


def draw(t: TableCtx) -> None:
    v, n = t.view, t.n
    _boodle(t, per_seat(v, "pot", 4, 0))
    played = per_seat(v, "played", n, [])
    sizes = per_seat(v, "hand_sizes", n, 0)
    for i, plate in enumerate(t.plates):
        plate.hidden = sizes[i]
        cards = list(played[i] or [])
        if cards:
            _played(t, i, cards)
            plate.line = t.word("played {n}", n=len(cards))
        if v.get("lead_right") == i:
            plate.marks.append((t.word("lead"), (150, 200, 255)))
    _sidebar(t, v)


def _boodle(t: TableCtx, pools: list[int]) -> None:
    """The layout: the four pay cards in a row in the middle, each with its pool under it."""
    h = round(BOODLE_W * 1.4)
    gap = 10
    x0 = CX - 2 * BOODLE_W - 1.5 * gap
    y = CY - h / 2 - 10
    for k, code in enumerate(BOODLE):
        x = x0 + k * (BOODLE_W + gap)
        t.c.layout_card(code, x, y, BOODLE_W)
        amount = t.tr.number(pools[k])
        if text_width(amount, 18, True) <= BOODLE_W + gap - 19:  # up to the next card's chip
            t.c.chip(x + 8, y + h + 13, 7)
            t.c.text((x + 18, y + h + 13), amount, 18, GOLD, bold=True, anchor="lm")
            continue
        # a wide pool (10 000 jetons) drops its chip and shrinks, centred under its card
        room = BOODLE_W + gap - 4
        size = next((z for z in (16, 14, 12, 11) if text_width(amount, z, True) <= room), 10)
        t.c.text((x + BOODLE_W / 2, y + h + 13), amount, size, GOLD, bold=True, anchor="mm", max_width=room)


def _played(t: TableCtx, seat: int, cards: list[str]) -> None:
    """The seat's last few played cards, overlapping, the latest on top (the plate says how many)."""
    crowded = t.n >= 7
    width = PLAYED_W - 4 if crowded else PLAYED_W
    shown = cards[-(PLAYED_SHOWN - 1 if crowded else PLAYED_SHOWN):]
    step = 14
    w = width + step * (len(shown) - 1)
    h = round(width * 1.4)
    x, y = t.beside(seat, w, h, gap=8, nudge=16 if crowded else 0)
    t.c.card_row(shown, x, y, width, w)


def _sidebar(t: TableCtx, v: dict[str, Any]) -> None:
    s = t.side
    pools = per_seat(v, "pot", 4, 0)
    s.kv(t.word("Pools"), t.tr.number(sum(pools)), GOLD, size=22)
    s.kv(t.word("Lead right"), t.name(v.get("lead_right")))
    blocked = v.get("blocked")
    s.kv(t.word("Blocked"), f"{SUIT_SYMBOLS[blocked]}" if blocked in SUIT_SYMBOLS else t.word("none"),
         RED if blocked in ("H", "D") else WHITE)
    bid = v.get("bid")
    if bid:
        s.kv(t.word("Spare hand bid"), f"{t.name(bid[0])} {t.tr.number(bid[1])}")
    if "deals_played" in v:
        s.kv(t.word("Hands played"), str(v["deals_played"]))
    last = v.get("last_result")
    if last:
        s.gap(4)
        s.line(t.word("Last hand"), 16, MUTED, gap=2)

        def out(who: str) -> str:
            return t.word("{who} went out", who=who)

        # Basque's sentence is long: the size goes down until a shortened name fits beside it
        size = next((z for z in (17, 16, 15) if text_width(out(""), z, True) + 40 <= s.width), 14)
        line = t.named(last.get("winner"), out, size, s.width, bold=True)
        s.line(line, size, GOLD, bold=True, gap=21 - size)
        s.wrapped(deltas_parts(t.names, last.get("payments") or [], t.tr), 16, WHITE)
        for card, seat, amount in (last.get("boodle_hits") or [])[:4]:
            s.line(f"{t.tr.card(card)} → {t.name(seat)} {t.tr.number(amount)}", 16, WHITE)


def hand_key(view: dict[str, Any]):
    """Suits S H D C, 2 up to A (the spec's canonical order)."""
    return french_key(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))
