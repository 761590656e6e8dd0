"""Marias: contract, trump and trump card, flek level, points, the trick, card points per seat."""

from __future__ import annotations

from typing import Any

from bot.render.canvas import GOLD, MUTED, RED, WHITE
from bot.render.games.common import french_key, per_seat
from bot.render.layout import CX, CY, TableCtx
from bot.render.words import deltas_parts
from bot.rules.looks import CZECH
from bot.rules.marias.text import contract as contract_name
from bot.rules.marias.text import flek_text

SUIT_ORDER = ("A", "10", "K", "Q", "J", "9", "8", "7")
PLAIN_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7")
TITLE_RED = (255, 160, 150)  # a red trump's contract on the felt: over 3:1 (large text)


def draw(t: TableCtx) -> None:
    v, n = t.view, t.n
    for seat, card in v.get("trick") or []:
        t.trick_card(seat, card)
    sizes = per_seat(v, "hand_sizes", n, 0)
    points = per_seat(v, "card_points", n, 0)
    marriages = v.get("marriages") or []
    soloist = v.get("soloist")
    for i, plate in enumerate(t.plates):
        plate.hidden = sizes[i]
        parts = [t.word("{n} pts", n=points[i])] if points[i] else []
        parts += [f"{t.suit_sym(s)}{val}" for seat, s, val in marriages if seat == i]
        plate.line = " · ".join(parts)
        if soloist == i:
            plate.marks.append((t.word("soloist"), GOLD))
    _centre(t, v)
    _sidebar(t, v)


def _centre(t: TableCtx, v: dict[str, Any]) -> None:
    """The contract (with its trump) large in the middle; points or flek level under it."""
    contract = v.get("contract")
    if not contract:
        return
    title = contract_name(contract, t.tr)
    if v.get("trump"):
        title += f" {t.suit_sym(v['trump'])}"
    colour = TITLE_RED if v.get("trump") in _reds(t) else WHITE
    t.c.text((CX, CY - 14), title, 30, colour, bold=True, anchor="mm")
    p = v.get("points") or [0, 0]
    flek = v.get("flek") or 0
    under = f"{p[0]} – {p[1]}" if contract not in ("betl", "durch") else ""
    if flek:
        under = (under + " · " if under else "") + _flek(flek, t)
    if under:
        t.c.text((CX, CY + 20), under, 20, MUTED, anchor="mm")


def _sidebar(t: TableCtx, v: dict[str, Any]) -> None:
    s = t.side
    contract = v.get("contract")
    s.kv(t.tr.p_("marias", "Contract"), contract_name(contract, t.tr) if contract else "—", GOLD, size=22)
    if v.get("soloist") is not None:
        s.kv(t.word("Soloist"), t.name(v.get("soloist")))
    flek = v.get("flek") or 0
    s.kv(t.word("Flek"), _flek(flek, t))
    p = v.get("points") or [0, 0]
    if contract not in ("betl", "durch"):
        s.kv(t.word("Points"), f"{p[0]} – {p[1]}")
        if v.get("talon_trumps"):
            s.kv(t.word("Trumps in talon"), str(v["talon_trumps"]))
    trump, card = v.get("trump"), v.get("trump_card")
    if card:
        s.line(t.word("Trump card"), 16, MUTED, gap=2)
        s.cards([card], 50, caption=t.word("trump {suit}", suit=t.suit_sym(trump or card[-1])))
    elif trump:
        s.kv(t.word("Trump"), t.suit_sym(trump), RED if trump in _reds(t) else WHITE)
    s.kv(t.word("Pot"), t.tr.number(v.get("pot", 0)))
    last = v.get("last_result")
    if last:
        s.gap(2)
        s.line(t.word("Last deal"), 16, MUTED, gap=2)
        name = contract_name(last.get("contract"), t.tr)

        def by(who: str) -> str:
            return t.word("{game} by {who}", game=name, who=who)

        s.line(t.named(last.get("soloist"), by, 17, s.width), 17, WHITE)
        s.wrapped(deltas_parts(t.names, last.get("deltas") or [], t.tr), 16, GOLD)


def _reds(t: TableCtx) -> tuple[str, ...]:
    """The suits drawn red: hearts and diamonds, or only hearts (srdce) in the Czech pack."""
    return ("H",) if t.look.pack == CZECH else ("H", "D")


def _flek(level: int, t: TableCtx) -> str:
    return flek_text(level, t.tr)


def hand_key(view: dict[str, Any]):
    """Suits S H D C; inside a suit the contract's trick order (A 10 K … in suit contracts)."""
    plain = view.get("contract") in ("betl", "durch")
    return french_key(PLAIN_ORDER if plain else SUIT_ORDER)
