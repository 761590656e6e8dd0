"""Jeu du Maître: contract, mode, the trick pile (jokers with their identity), points, strikes."""

from __future__ import annotations

from typing import Any

from bot.render.canvas import GOLD, MUTED, RED, WHITE
from bot.render.games.common import french_key, per_seat, suit_sym
from bot.render.layout import CX, CY, TableCtx
from bot.rules.base import signed
from bot.rules.cards import JOKERS

TRICK_W = 58
TRICK_MAX_W = 330


def draw(t: TableCtx) -> None:
    v, n = t.view, t.n
    counts = per_seat(v, "hand_counts", n, 0)
    points = per_seat(v, "points", n, 0)
    strikes = per_seat(v, "strikes", n, 0)
    eliminated = per_seat(v, "eliminated", n, False)
    won = per_seat(v, "tricks_won", n, 0)
    for i, plate in enumerate(t.plates):
        plate.hidden = counts[i]
        parts = [t.word("{n} pts", n=t.tr.number(points[i]))]
        if won[i]:
            parts.append(t.word("{n} won", n=won[i]))
        if strikes[i]:
            parts.append("✗" * strikes[i])
        plate.line = " · ".join(parts)
        plate.line_colour = RED if strikes[i] else MUTED
        plate.dim = bool(eliminated[i])
        if v.get("maitre") == i:
            plate.marks.append((t.word("maître"), GOLD))
        if v.get("leader") == i:
            plate.marks.append((t.word("lead"), (150, 200, 255)))
    _trick(t, v)
    _sidebar(t, v)


def _mode(mode: str, t: TableCtx) -> str:
    """The seed's mode names, kept in every language."""
    return {"couleur": t.word("couleur"), "valeur": t.word("valeur"), "tete": t.word("tête")}.get(mode, mode)


def _trick(t: TableCtx, v: dict[str, Any]) -> None:
    """The pile of the current trick in play order, jokers labelled with what they stand for."""
    trick = v.get("trick") or []
    mode = v.get("mode")
    if mode:
        label = _mode(mode, t)
        if mode == "valeur" and v.get("muet"):
            label += " · " + t.word("muet {suit}", suit=suit_sym(v["muet"]))
        t.c.text((CX, CY - 78), label, 20, GOLD, bold=True, anchor="mm")
    if not trick:
        t.centre_amount(t.word("pot"), t.tr.number(v.get("pot", 0)))
        return
    codes = [p.get("card") for p in trick]
    h = round(TRICK_W * 1.4)
    step = min(TRICK_W + 4, (TRICK_MAX_W - TRICK_W) / max(1, len(codes) - 1))
    width = TRICK_W + step * (len(codes) - 1)
    x0, y0 = CX - width / 2, CY - h / 2 - 6
    t.c.card_row(codes, x0, y0, TRICK_W, width)
    for k, play in enumerate(trick):
        if play.get("card") in JOKERS and play.get("as"):
            ident = play["as"]
            t.c.text((x0 + k * step + 4, y0 + h + 4), f"={ident[:-1]}{suit_sym(ident[-1])}", 15, WHITE,
                     bold=True)
    last = v.get("last_player")
    if last is not None:
        # between the plates of a six-seat ring's lower seats (a 32-letter name ran over them)
        t.c.text((CX, y0 + h + 26), t.word("last: {who}", who=t.name(last)), 15, MUTED, anchor="mt",
                 max_width=240)


def _sidebar(t: TableCtx, v: dict[str, Any]) -> None:
    s = t.side
    contract = v.get("contract")
    s.kv(t.word("Maître"), t.name(v.get("maitre")), GOLD, size=20)
    s.kv(t.word("Contract"), f"{contract}%" if contract is not None else "—", GOLD, size=22)
    s.kv(t.word("Mode"), _mode(v["mode"], t) if v.get("mode") else "—")
    if v.get("manche") is not None:
        s.kv(t.word("Manche"), str(v["manche"] + 1))
    s.kv(t.word("Pot"), t.tr.number(v.get("pot", 0)))
    last = v.get("last_manche")
    if last:
        s.gap(2)
        s.line(t.word("Last manche"), 16, MUTED, gap=2)
        ok = last.get("validated", last.get("contract_ok"))
        who, contract = t.name(last.get("maitre")), last.get("contract")
        contract = f"{contract}%"
        result = (t.word("{who}: {contract} validated", who=who, contract=contract) if ok
                  else t.word("{who}: {contract} failed", who=who, contract=contract))
        s.line(result, 16, GOLD if ok else RED)
        majeure, mineure = last.get("majeure"), last.get("mineure")
        if majeure:
            s.line(t.word("majeure {majeure} · mineure {mineure}", majeure=suit_sym(majeure),
                          mineure=suit_sym(mineure)), 16, WHITE)
        pts = last.get("manche_points") or []
        if pts:
            s.line(", ".join(f"{t.name(i)} {signed(p, t.tr)}" for i, p in enumerate(pts)), 16, WHITE)
    ranking = v.get("ranking")
    if ranking:
        s.gap(2)
        s.line(t.word("Ranking"), 16, MUTED, gap=2)
        for k, seat in enumerate(ranking[:6]):
            seat = seat[0] if isinstance(seat, list | tuple) else seat
            s.line(f"{k + 1}. {t.name(seat)}", 17, GOLD if k == 0 else WHITE)


def hand_key(view: dict[str, Any]):
    """Canonical order: suits S H D C, A 2 … 10 J Q K, then the jokers."""
    return french_key(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
