"""Mus: team scores (points, games, matches), the lances of this deal, the pending bet."""

from __future__ import annotations

from typing import Any

from bot.render.canvas import GOLD, MUTED, WHITE
from bot.render.fonts import text_width
from bot.render.games.common import per_seat
from bot.render.layout import CX, CY, PLATE_H, TableCtx
from bot.rules.cards import SPANISH_SUITS
from bot.rules.mus.text import lance_name

TEAM_COLOURS = ((150, 200, 255), (255, 165, 150))  # the score on the felt: over 3:1 (large text)
LANCES = ("grande", "chica", "pares")
HAND_SIZE = 4
ORDER = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")
SUITS = {s: i for i, s in enumerate(SPANISH_SUITS)}


def team_name(t: TableCtx, team: int) -> str:
    return t.tr._("{first} & {second}", first=t.name(team), second=t.name(team + 2))


def _result(result: str, t: TableCtx) -> str:
    return {"paso": t.word("en paso"), "no_bet": t.word("no bet"), "accepted": t.word("accepted"),
            "refused": t.word("refused")}.get(result, result)


def draw(t: TableCtx) -> None:
    v = t.view
    mano = v.get("mano")
    declared = v.get("declared") or {}
    pares, juego = declared.get("pares"), declared.get("juego")
    counts = v.get("discard_counts") or []
    over = v.get("phase") == "session_end"
    for i, plate in enumerate(t.plates):
        plate.hidden = 0 if over else HAND_SIZE
        plate.marks.append(("AB"[i % 2], TEAM_COLOURS[i % 2]))
        if mano == i:
            plate.marks.append((t.word("mano"), GOLD))
        parts = []
        if pares is not None:
            parts.append(f"{lance_name('pares', t.tr)} {'✓' if pares[i] else '✗'}")
        if juego is not None:
            parts.append(f"{lance_name('juego', t.tr)} {'✓' if juego[i] else '✗'}")
        if not parts and counts:
            parts.append(t.word("discarded {n}", n=counts[-1][i]))
        plate.line = " · ".join(parts)
    if over and (v.get("last_hand") or {}).get("hands"):
        _revealed(t, v["last_hand"]["hands"])
    _scoreboard(t, v)
    _sidebar(t, v)


def _revealed(t: TableCtx, hands: list[list[str]]) -> None:
    """At the session's end, the last deal's four hands (public after SCORING) by their seats."""
    width, step = 40, 30
    h = round(width * 1.4)
    for seat, cards in enumerate(hands[: t.n]):
        w = width + step * (len(cards) - 1)
        px, py = t.seat_xy(seat)
        if abs(px - CX) > 120:  # side seats: above the plate, clear of the scoreboard
            x, y = px - w / 2, py - PLATE_H / 2 - 14 - h
        else:
            x, y = t.beside(seat, w, h, gap=8)
        t.c.card_row(list(cards), x, y, width, w, spanish=True)


def _scoreboard(t: TableCtx, v: dict[str, Any]) -> None:
    """Points per team large in the middle, games and matches under them, the pending bet."""
    points = per_seat(v, "points", 2, 0)
    games = per_seat(v, "games", 2, 0)
    matches = per_seat(v, "matches_won", 2, 0)
    c = t.c
    for team, dx in ((0, -60), (1, 60)):
        colour = TEAM_COLOURS[team]
        c.text((CX + dx, CY - 58), "AB"[team], 20, colour, bold=True, anchor="mm")
        c.text((CX + dx, CY - 20), str(points[team]), 40, colour, bold=True, anchor="mm")
        c.text((CX + dx, CY + 14), t.word("games {n}", n=games[team]), 16, WHITE, anchor="mm")
        c.text((CX + dx, CY + 32), t.word("matches {n}", n=matches[team]), 14, MUTED, anchor="mm")
    c.text((CX, CY - 20), "–", 34, WHITE, bold=True, anchor="mm")
    bet = v.get("bet")
    if bet:
        team = bet.get("team")
        label = t.word("bet {total} · team {team}", total=bet.get("total"),
                       team="AB"[team] if team in (0, 1) else "?")
        half = max(80, text_width(label, 17, True) / 2 + 12)  # "apustua 2 · A taldea" is wider than 160
        c.panel((CX - half, CY + 46, CX + half, CY + 74), fill=(60, 40, 10), outline=GOLD, radius=12)
        c.text((CX, CY + 60), label, 17, GOLD, bold=True, anchor="mm")


def _lance_name(index: int, v: dict[str, Any], t: TableCtx) -> str:
    if index < 3:
        return lance_name(LANCES[index], t.tr, capital=True)
    juego = (v.get("declared") or {}).get("juego")
    return lance_name("juego" if juego and any(juego) else "punto", t.tr, capital=True)


def _sidebar(t: TableCtx, v: dict[str, Any]) -> None:
    s = t.side
    s.kv(t.word("Pot"), t.tr.number(v.get("pot", 0)), GOLD, size=22)
    s.line(f"A  {team_name(t, 0)}", 16, TEAM_COLOURS[0])
    s.line(f"B  {team_name(t, 1)}", 16, TEAM_COLOURS[1], gap=6)
    if v.get("mus_round"):
        s.kv(t.word("Mus round"), str(v["mus_round"]))
    if v.get("stock_count") is not None:
        s.kv(t.word("Stock"), str(v["stock_count"]))
    lances = v.get("lances") or []
    if lances:
        s.line(t.word("Lances"), 16, MUTED, gap=2)
        for k, lance in enumerate(lances):
            result = lance.get("result")
            if lance.get("lance"):
                name = lance_name(str(lance["lance"]), t.tr, capital=True)
            else:
                name = _lance_name(k, v, t)
            text = f"{name}: {_result(result, t)}"
            if result == "accepted":
                text += f" {lance.get('total')}"
            elif result == "refused":
                text += f" ({lance.get('held')})"
            team = lance.get("team")
            s.line(text, 17, TEAM_COLOURS[team] if team in (0, 1) else WHITE)
    last = v.get("last_hand")
    if last:
        s.gap(2)
        s.line(t.word("Last deal"), 16, MUTED, gap=2)
        for lance, team, bet_points, bonus in (last.get("counted") or [])[:5]:
            s.line(f"{lance_name(str(lance), t.tr, capital=True)} {'AB'[team]} +{bet_points + bonus}", 16,
                   TEAM_COLOURS[team])
        if last.get("ordago"):
            s.line(t.word("órdago in {lance}", lance=lance_name(last["ordago"], t.tr)), 16, GOLD, bold=True)
        winner = last.get("game_winner")
        if winner in (0, 1):
            s.line(t.word("game to team {team}", team="AB"[winner]), 17, GOLD, bold=True)


def hand_key(view: dict[str, Any]):
    """Canonical order: suits oros, copas, espadas, bastos; ranks 1…7, sota, caballo, rey."""
    return lambda code: (SUITS.get(code[-1], 9), ORDER.index(code[:-1]) if code[:-1] in ORDER else 99)
