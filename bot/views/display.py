"""Embeds: the channel's table message and a player's private hand (text, suit symbols).

Only reads a ``Table`` (``bot.tables``) and the rules' views; never changes anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import discord

from bot.rules import GAMES
from bot.rules.cards import JOKERS, display

COLOUR = {"lobby": 0x3B82F6, "playing": 0x16A34A, "finished": 0x6B7280, "cancelled": 0x6B7280}
STANDARD_VIEW_KEYS = {"phase", "to_act", "stacks", "pot", "dealer", "deal", "closing", "hand"}
LOG_LINES = 8


def card(code: Any, game: str) -> str:
    """A card code as short text (``10♥``, ``rey de copas``); anything else unchanged."""
    if not isinstance(code, str):
        return str(code)
    try:
        return display(code, spanish=(game == "mus" and code not in JOKERS))
    except (KeyError, ValueError, IndexError):
        return code


def cards(codes: Iterable[Any], game: str) -> str:
    out = " ".join(card(c, game) for c in codes)
    return out or "—"


def clip(text: str, size: int) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


#: Characters a name could use to format, link or mention: each is shown literally after a ``\\``.
_MARKUP = re.compile(r"([\\*_~`|>#\-\[\]()<@:])")


def safe_name(name: Any) -> str:
    """A user-chosen name (player, server, channel) as literal text in a Discord message.

    Like ``discord.utils.escape_markdown``, but every markup character is escaped wherever it
    stands, so two names on one line cannot form a masked link (``[x`` … ``](url)``) together,
    and ``<@id>``, ``@everyone`` or ``https://`` show as typed instead of mentioning or linking.
    """
    return _MARKUP.sub(r"\\\1", str(name))


def seat_name(table: Any, seat: int) -> str:
    """The seat's player name, escaped for a message (``safe_name``)."""
    try:
        return safe_name(table.seats[seat].name)
    except (IndexError, AttributeError):
        return f"seat {seat}"


def _pot_text(pot: Any) -> str:
    if isinstance(pot, (list, tuple)):
        return " / ".join(str(p) for p in pot) + f" (total {sum(pot)})"
    return str(pot)


def _options_text(table: Any) -> str:
    game = GAMES.get(table.game)
    hidden = {s.name for s in game.options if s.hidden} if game else set()
    parts = [f"{k}={v}" for k, v in (table.options or {}).items() if k not in hidden and v is not None]
    return clip(", ".join(parts), 1000) or "defaults"


def table_embed(table: Any, log: Iterable[str] = (), notices: Iterable[str] = ()) -> discord.Embed:
    """The channel message of a table: status, seats, stacks, pot, whose turn, last events."""
    game = GAMES.get(table.game)
    title = f"{game.title if game else table.game} · table #{table.id}"
    embed = discord.Embed(title=title, colour=COLOUR.get(table.status, 0x6B7280))
    state = table.state
    view = state.view(None) if state is not None else {}
    to_act = set(state.to_act()) if state is not None and table.status == "playing" else set()
    seats = []
    for i, s in enumerate(table.seats):
        marks = []
        if s.ai:
            marks.append("🤖 AI")
        if getattr(s, "away", False):
            marks.append("💤 away")
        if getattr(s, "dm_closed", False):
            marks.append("📪 DMs closed")
        if i == view.get("dealer"):
            marks.append("dealer")
        stack = f" — {view['stacks'][i]} jetons" if "stacks" in view and i < len(view["stacks"]) else ""
        arrow = "▶ " if i in to_act else ""
        marked = " · " + ", ".join(marks) if marks else ""
        seats.append(f"{arrow}`{i + 1}.` **{safe_name(s.name)}**{stack}{marked}")
    if table.status == "lobby":
        n_min = game.min_seats if game else "?"
        n_max = game.max_seats if game else "?"
        embed.description = (f"Waiting for players ({len(table.seats)} seated, {n_min}–{n_max}). "
                             f"The host <@{table.host_id}> starts the game.\nOptions: {_options_text(table)}")
    elif table.status == "playing":
        waiting = ", ".join(seat_name(table, s) for s in sorted(to_act)) or "—"
        phase = str(view.get("phase", "")).replace("_", " ")
        deal = view.get("deal")
        head = f"Deal {deal + 1} · " if isinstance(deal, int) else ""
        embed.description = f"{head}{phase} · waiting for **{waiting}**"
        if view.get("closing"):
            embed.description += "\nThe host closed the table: it ends after this deal."
    else:
        over = table.status == "finished"
        embed.description = "The session is over." if over else "The table was cancelled."
    embed.add_field(name="Seats", value=clip("\n".join(seats) or "nobody yet", 1024), inline=False)
    if "pot" in view:
        embed.add_field(name="Pot", value=_pot_text(view["pot"]), inline=True)
    extra = public_fields(view, table.game)
    if extra:
        embed.add_field(name="Table", value=clip(extra, 1024), inline=True)
    notes = list(notices)
    if notes:
        embed.add_field(name="Notice", value=clip("\n".join(notes), 1024), inline=False)
    lines = list(log)[-LOG_LINES:]
    if lines:
        embed.add_field(name="Last moves", value=clip("\n".join(lines), 1024), inline=False)
    embed.set_footer(text=f"table {table.id} · version {table.version}")
    return embed


def public_fields(view: dict[str, Any], game: str) -> str:
    """The game-specific scalar and card fields of a view, one ``key: value`` per line."""
    lines = []
    for key, value in view.items():
        if key in STANDARD_VIEW_KEYS or isinstance(value, dict) or value is None:
            continue
        if isinstance(value, (list, tuple)):
            if not value or isinstance(value[0], (dict, list, tuple)):
                continue
            text = cards(value, game) if isinstance(value[0], str) else " · ".join(map(str, value))
        else:
            text = card(value, game)
        lines.append(f"{key.replace('_', ' ')}: {text}")
    return "\n".join(lines[:12])


def hand_embed(table: Any, seat: int, guild: str, channel: str, note: str = "") -> discord.Embed:
    """A player's private message: where the table is, their cards, and whose turn it is."""
    game = GAMES.get(table.game)
    view = table.state.view(seat)
    to_act = table.state.to_act()
    embed = discord.Embed(title=f"Your hand — {game.title if game else table.game} #{table.id}",
                          colour=0x16A34A)
    embed.description = clip(f"**{cards(view.get('hand', []), table.game)}**", 4096)
    where = f"{safe_name(guild)} · #{safe_name(channel)} · table #{table.id}"
    embed.add_field(name="Where", value=clip(where, 1024), inline=False)
    if "stacks" in view:
        embed.add_field(name="Your stack", value=str(view["stacks"][seat]), inline=True)
    if "pot" in view:
        embed.add_field(name="Pot", value=_pot_text(view["pot"]), inline=True)
    extra = public_fields(view, table.game)
    if extra:
        embed.add_field(name="Table", value=clip(extra, 1024), inline=False)
    if table.status != "playing":
        turn = "The session is over."
    elif seat in to_act:
        turn = "**Your turn.** Choose a move below."
    else:
        turn = "Waiting for " + ", ".join(seat_name(table, s) for s in to_act) + "."
    embed.add_field(name="Turn", value=clip(turn if not note else f"{note}\n{turn}", 1024), inline=False)
    embed.set_footer(text=f"table {table.id} · version {table.version}")
    return embed
