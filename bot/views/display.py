"""Embeds: the channel's table message and a player's private hand (text, suit symbols).

Only reads a ``Table`` (``bot.tables``) and the rules' views; never changes anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.ai.levels import LOBBY
from bot.i18n import Translator, english
from bot.i18n.commands import command
from bot.render.hand import sort_hand
from bot.render.words import phase_name
from bot.rules import GAMES, is_spanish
from bot.rules.base import signed as rules_signed
from bot.rules.cards import JOKERS
from bot.tables.length import DEAL_CAP, LOST_CHANNEL, UNATTENDED
from bot.views.direction import without_direction
from bot.views.vocab import field_text, over_field, pools_text, pot_name, view_field, view_value

if TYPE_CHECKING:
    from bot.rules.base import Game
    from bot.tables import Table

COLOUR = {"lobby": 0x3B82F6, "playing": 0x16A34A, "finished": 0x6B7280, "cancelled": 0x6B7280}
STANDARD_VIEW_KEYS = {"phase", "to_act", "stacks", "pot", "dealer", "deal", "closing", "hand"}
LOG_LINES = 8


def card(code: Any, game: str, tr: Translator | None = None) -> str:
    """A card code as short text in the reader's language (``D♥``, ``rey de copas``); else unchanged."""
    if not isinstance(code, str):
        return str(code)
    try:
        return (tr or english()).card(code, spanish=(is_spanish(game) and code not in JOKERS))
    except (KeyError, ValueError, IndexError):
        return code


def cards(codes: Iterable[Any], game: str, tr: Translator | None = None) -> str:
    sep = ", " if is_spanish(game) else " "
    out = sep.join(card(c, game, tr) for c in codes)
    return out or "—"


def clip(text: str, size: int) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def signed(value: int, tr: Translator) -> str:
    """``+12`` / ``−3`` (a true minus sign) / ``+0`` with the language's digits: a jeton result."""
    return rules_signed(value, tr, plus_zero=True)


def chunks(lines: Iterable[str], size: int = 1024) -> list[str]:
    """``lines`` joined into as few texts of at most ``size`` characters as they fit in (an embed's
    fields), none cut between lines; a line longer than ``size`` is clipped."""
    out = [""]
    for line in lines:
        line = clip(line, size)
        if out[-1] and len(out[-1]) + 1 + len(line) > size:
            out.append("")
        out[-1] += ("\n" if out[-1] else "") + line
    return [text for text in out if text]


def latest(lines: list[str], size: int) -> str:
    """The newest of ``lines`` (the last ones) joined, within ``size`` characters: older lines are
    left out first (a ``…`` line says so), never the latest move (cut itself only if alone too long)."""
    kept: list[str] = []
    for line in reversed(lines):
        trial = [line, *kept]
        text = "\n".join((["…"] if len(trial) < len(lines) else []) + trial)
        if len(text) > size:
            break
        kept = trial
    if not kept:
        return clip(lines[-1], size)
    return "\n".join((["…"] if len(kept) < len(lines) else []) + kept)


#: Characters a name could use to format, link or mention: each is shown literally after a ``\\``.
_MARKUP = re.compile(r"([\\*_~`|>#\-\[\]()<@:])")


def safe_name(name: Any) -> str:
    """A user-chosen name (player, server, channel) as literal text in a Discord message.

    Like ``discord.utils.escape_markdown``, but every markup character is escaped wherever it
    stands, so two names on one line cannot form a masked link (``[x`` … ``](url)``) together,
    and ``<@id>``, ``@everyone`` or ``https://`` show as typed instead of mentioning or linking.
    """
    return _MARKUP.sub(r"\\\1", without_direction(str(name)))  # and no control reorders its line


def refusal_text(error: BaseException, tr: Translator) -> str:
    """A table, ledger or daily refusal in the reader's language (numbers, plurals, names)."""
    from bot.store.ledger import DailyNotReady, InsufficientFunds
    from bot.tables.errors import TableError

    if isinstance(error, TableError):
        return error.render(tr, safe_name)
    if isinstance(error, (InsufficientFunds, DailyNotReady)):
        return error.render(tr)
    return tr._(str(error))


#: The name an AI seat gets when it sits down (``bot.tables.lobby``, tournaments' rounds): "AI 3".
AI_SEAT_NAME = re.compile(r"AI (\d+)")


def player_name(name: str, ai: bool, tr: Translator | None = None) -> str:
    """A seat's name as ``tr``'s reader says it: an AI seat's stored "AI 3" in their language ("IA 3"
    in French); a person's name as it is (not escaped; without direction controls)."""
    found = AI_SEAT_NAME.fullmatch(name) if ai else None
    return (tr or english())._("AI {n}", n=found[1]) if found else without_direction(name)


def seat_name(table: Table, seat: int, tr: Translator | None = None) -> str:
    """The seat's player name in the reader's words (``player_name``), escaped for a message."""
    try:
        info = table.seats[seat]
        return safe_name(player_name(info.name, info.ai, tr))
    except (IndexError, AttributeError):
        return (tr or english())._("seat {n}", n=seat)


def _pot_text(pot: Any, game: str, tr: Translator) -> str:
    """The pot: jetons, or its pools each after the card naming it (``vocab.pot_cards``: Michigan's
    "A♥ 4 / K♣ 0 / Q♦ 4 / J♠ 8"), with their total."""
    if isinstance(pot, (list, tuple)):
        pools = pools_text(pot, game, tr, lambda code: card(code, game, tr))
        return tr._("{pools} (total {total})", pools=pools, total=tr.jetons(sum(pot)))
    return tr.jetons(pot) if isinstance(pot, int) else str(pot)


def option_value(value: Any, tr: Translator) -> str:
    """An option's value for a reader: ``on``/``off``, a number in their digits, a choice as typed."""
    if isinstance(value, bool):
        return tr.p_("option value", "on") if value else tr.p_("option value", "off")
    if isinstance(value, int):
        return tr.number(value)
    return str(value)


def _options_text(table: Table, tr: Translator) -> str:
    """The lobby's options, ``name: value`` each (names as typed in ``/table new``, values in ``tr``)."""
    game = GAMES.get(table.game)
    hidden = {s.name for s in game.options if s.hidden} if game else set()
    parts = [tr.p_("option", "{name}: {value}", name=k, value=option_value(v, tr))
             for k, v in (table.options or {}).items() if k not in hidden and v is not None]
    return clip(", ".join(parts), 1000) or tr._("defaults")


def length_text(table: Table, tr: Translator) -> str | None:
    """How long the session lasts, for whoever comes by mid-session: the game's ``length_options`` as
    set at this table ("rotations: 2, max_extra_deals: 3"), named as in the lobby's options; None
    when the game declares none or none is set."""
    game = GAMES.get(table.game)
    options = table.options or {}
    parts = [tr.p_("option", "{name}: {value}", name=k, value=option_value(options[k], tr))
             for k in (game.length_options if game else ()) if options.get(k) is not None]
    return tr._("Session length: {options}", options=", ".join(parts)) if parts else None


def game_title(game_name: str, tr: Translator) -> str:
    """A game's title in the reader's language ("Mariáš" in Czech)."""
    game = GAMES.get(game_name)
    return tr._(game.title) if game else game_name


def table_embed(table: Table, log: Iterable[str] = (), notices: Iterable[str] = (),
                tr: Translator | None = None, clock: str = "", reactions: str | None = None) -> discord.Embed:
    """The channel message of a table: status, seats, stacks, pot, whose turn (and ``clock``, its
    deadline: ``bot.outbox.clock``), the latest quick ``reactions``, last events."""
    tr = tr or english()
    title = tr._("{game} · table #{id}", game=game_title(table.game, tr), id=table.id)
    embed = discord.Embed(title=title, colour=COLOUR.get(table.status, 0x6B7280))
    state = table.state
    view = state.view(None) if state is not None else {}
    to_act = set(state.to_act()) if state is not None and table.status == "playing" else set()
    seats = []
    for i, s in enumerate(table.seats):
        marks = []
        if s.ai:
            marks.append(tr._("🤖 AI"))
        if s.away:
            marks.append(tr._("💤 away"))
        if s.dm_closed:
            marks.append(tr._("📪 DMs closed"))
        if i == view.get("dealer"):
            marks.append(tr._("dealer"))
        stack = f" — {tr.jetons(view['stacks'][i])}" if "stacks" in view and i < len(view["stacks"]) else ""
        arrow = "▶ " if i in to_act else ""
        marked = " · " + ", ".join(marks) if marks else ""
        seats.append(f"{arrow}`{i + 1}.` **{seat_name(table, i, tr)}**{stack}{marked}")
    if table.status == "lobby":
        seats = lobby_seats(table, tr)
        embed.description = lobby_text(table, tr)
        if table.deadline is not None:
            embed.description += "\n" + lobby_clock(table.deadline, tr)
    elif table.status == "playing":
        waiting = ", ".join(seat_name(table, s, tr) for s in sorted(to_act)) or "—"
        phase = phase_name(str(view.get("phase", "")), table.game, tr)
        deal = view.get("deal")
        if isinstance(deal, int):
            embed.description = tr._("Deal {n} · {phase} · waiting for **{who}**", n=deal + 1, phase=phase,
                                     who=waiting)
        else:
            embed.description = tr._("{phase} · waiting for **{who}**", phase=phase, who=waiting)
        length = length_text(table, tr)
        if length:
            embed.description += "\n" + length
        if clock:
            embed.description += "\n" + clock
        if view.get("closing"):
            embed.description += "\n" + closing_text(table, tr)
    else:
        over = table.status == "finished"
        embed.description = tr._("The session is over.") if over else tr._("The table was cancelled.")
    embed.add_field(name=tr._("Seats"), value=clip("\n".join(seats) or tr._("nobody yet"), 1024),
                    inline=False)
    if "pot" in view:
        embed.add_field(name=pot_name(table.game, tr), value=_pot_text(view["pot"], table.game, tr),
                        inline=True)
    extra = public_fields(view, table.game, tr, names=seat_names(table, tr))
    if extra:
        embed.add_field(name=tr._("Table"), value=clip(extra, 1024), inline=True)
    notes = list(notices)
    if notes:
        embed.add_field(name=tr._("Notice"), value=clip("\n".join(notes), 1024), inline=False)
    if reactions:  # the latest quick reactions (bot.tables.reactions)
        embed.add_field(name=tr._("Reactions"), value=clip(reactions, 1024), inline=False)
    lines = list(log)[-LOG_LINES:]
    if lines:
        embed.add_field(name=tr._("Last moves"), value=latest(lines, 1024), inline=False)
    embed.set_footer(text=tr._("table {id} · version {version}", id=table.id, version=table.version))
    return embed


def seat_bounds(game: Game, seats: int | None = None) -> tuple[int, int]:
    """How few and how many may play ``game``; at a table of ``seats`` seats, from the game's least
    to that (3 and 4 at a Motz table of 4)."""
    low = game.min_seats
    return low, game.max_seats if seats is None else max(low, min(seats, game.max_seats))


def players_text(game: Game, tr: Translator, seats: int | None = None) -> str:
    """How many play ``game``: "3–6 players", or "4 players" where the number is fixed; at a table of
    ``seats`` seats, from the game's least to that ("3–4 players" at a Motz table of 4)."""
    low, high = seat_bounds(game, seats)
    if low == high:
        return tr.n_("{n} player", "{n} players", low)
    return tr._("{low}–{high} players", low=low, high=high)


def lobby_text(table: Table, tr: Translator) -> str:
    """A lobby's description for someone who never saw one: who may sit, what to press, the buy-in,
    how the host fills seats with the AI (if the server lets any level sit) and starts; the options."""
    game = GAMES.get(table.game)
    players = players_text(game, tr, table.capacity) if game else "?"
    join = tr._("Waiting for players ({seated} seated, {players}): press **{join}** to sit down, with a "
                "buy-in of {buy_in}.", seated=len(table.seats), players=players, join=tr._("Join"),
                buy_in=tr.jetons(table.buy_in))
    ai = [tr._(button.label) for level, button, _ in LOBBY
          if table.plan.ai_levels is None or level in table.plan.ai_levels]
    if ai:
        host = tr._("The host <@{host}> may fill free seats with **{ai}**, then presses **{start}**.",
                    host=table.host_id, ai=ai[0], start=tr._("Start"))
    else:
        host = tr._("The host <@{host}> presses **{start}** once everyone is seated.", host=table.host_id,
                    start=tr._("Start"))
    return "\n".join([join, host, tr._("Options: {options}", options=_options_text(table, tr))])


def timestamp(at: float, style: str = "R") -> str:
    """A Discord timestamp markup, shown by each reader's client in their language and time zone
    (``R``: relative, "in 5 minutes"; ``d``: a date)."""
    return f"<t:{int(at)}:{style}>"


#: A pace at least this long (seconds) shows a deadline's date and time besides "in 2 days": a
#: relative time that far off is rounded to the day, and a player in another time zone could not
#: tell whether it ends in their morning or their night.
DATED_FROM = 3 * 3600.0


def deadline_text(deadline: float, pace_seconds: float) -> str:
    """A deadline as Discord timestamps each client shows in its reader's language and time zone:
    relative ("in 5 minutes"), with the date and time first at a pace of hours or days."""
    if pace_seconds >= DATED_FROM:
        return f"{timestamp(deadline, 'f')} ({timestamp(deadline)})"
    return timestamp(deadline)


def lobby_clock(deadline: float, tr: Translator) -> str:
    """When an unstarted lobby closes (``bot.tables.autoplay.expire_lobby``), as a Discord timestamp
    each reader's client shows in their language and time zone."""
    when = timestamp(deadline)
    return tr._("⏳ Unless the game starts, the lobby closes {when} and every buy-in is refunded.", when=when)


def seat_pair(game: str, seat: int, tr: Translator) -> str | None:
    """The fixed team a seat plays in (``Game.teams``: Mus's pairs), "pair A" for the first, with the
    letter the table image marks its plates with; None in a game without teams."""
    rules = GAMES.get(game)
    for n, team in enumerate(rules.teams if rules is not None else ()):
        if seat in team:
            return tr._("pair {team}", team="ABCDEFGH"[n])
    return None


def lobby_seats(table: Table, tr: Translator) -> list[str]:
    """A lobby's seats by number: who sits there, kept for an invitee (a mention in an embed, which
    never notifies), or free; then whether only invitees may sit."""
    sitting = dict(zip(table.plan.places, table.seats, strict=False))
    kept = {place: uid for uid, place in table.plan.invited.items()}
    lines = []
    for place in range(max(table.capacity, len(table.seats))):
        info = sitting.get(place)
        if info is not None:
            mark = " · " + tr._("🤖 AI") if info.ai else ""
            line = f"`{place + 1}.` **{safe_name(player_name(info.name, info.ai, tr))}**{mark}"
        elif place in kept:
            line = f"`{place + 1}.` " + tr._("kept for <@{user}>", user=kept[place])
        else:
            line = f"`{place + 1}.` " + tr._("free")
        pair = seat_pair(table.game, place, tr)
        lines.append(f"{line} · {pair}" if pair else line)
    if table.plan.invite_only:
        lines.append(tr._("By invitation only."))
    return lines


def seat_names(table: Table, tr: Translator) -> list[str]:
    """Every seat's name in the reader's words (``seat_name``), in seat order."""
    return [seat_name(table, i, tr) for i in range(len(table.seats))]


def public_fields(view: dict[str, Any], game: str, tr: Translator | None = None,
                  names: list[str] | None = None) -> str:
    """The game-specific scalar and card fields of a view, one ``key: value`` per line; a field naming
    a seat or seats (the game's ``Vocabulary.seat_fields``, ``seat_list_fields``) by their names in
    ``names`` (else "seat 2": ``vocab.seats_text``), a figure per team (``team_fields``) after each
    team's names (``vocab.teams_text``), one the game writes itself (``field_texts``) its way."""
    tr = tr or english()
    lines = []
    for key, value in view.items():
        if key in STANDARD_VIEW_KEYS or isinstance(value, dict):
            continue
        if over_field(key, view, game):  # a deal no longer in play
            continue
        own = field_text(key, value, game, names, tr)  # a game may say what an empty field means
        if value is None and own is None:
            continue
        if own is not None:
            text = own
        elif isinstance(value, (list, tuple)):
            if not value or isinstance(value[0], (dict, list, tuple)):
                continue
            if all(isinstance(v, str) and view_value(v, game, tr) is None for v in value):
                text = cards(value, game, tr)
            else:
                text = " · ".join(_value(v, game, tr) for v in value)
        else:
            text = _value(value, game, tr)
        lines.append(f"{view_field(key, game, tr)}: {text}")
    return "\n".join(lines[:12])


def _value(value: Any, game: str, tr: Translator) -> str:
    word = view_value(value, game, tr)
    if word is not None:
        return word
    return card(value, game, tr) if isinstance(value, str) else str(value)


def hand_embed(table: Table, seat: int, guild: str, channel: str, note: str = "",
               tr: Translator | None = None, clock: str = "", link: str | None = None,
               view: dict[str, Any] | None = None) -> discord.Embed:
    """A player's private message: where the table is (with ``link``, the table message's jump link,
    under the title: a DM read days later finds the table, and its Play again, however far up it
    scrolled), their cards, and whose turn it is (with ``clock``, their deadline: ``bot.outbox.clock``).
    ``view``: the seat's view when the caller has it already (else read here)."""
    assert table.state is not None, "a hand is shown only once the table has started"
    tr = tr or english()
    view = table.state.view(seat) if view is None else view
    to_act = table.state.to_act()
    title = tr._("Your hand — {game} #{id}", game=game_title(table.game, tr), id=table.id)
    embed = discord.Embed(title=title, colour=0x16A34A, url=link)
    held = [f"**{cards(held_in_order(table.game, view), table.game, tr)}**", *kept_moves(table, view, tr)]
    embed.description = clip("\n".join(held), 4096)
    where = tr._("{server} · #{channel} · table #{id}", server=safe_name(guild), channel=safe_name(channel),
                 id=table.id)
    embed.add_field(name=tr._("Where"), value=clip(where, 1024), inline=False)
    if "stacks" in view:
        embed.add_field(name=tr._("Your stack"), value=tr.number(view["stacks"][seat]), inline=True)
    if "pot" in view:
        embed.add_field(name=pot_name(table.game, tr), value=_pot_text(view["pot"], table.game, tr),
                        inline=True)
    extra = public_fields(view, table.game, tr, names=seat_names(table, tr))
    if extra:
        embed.add_field(name=tr._("Table"), value=clip(extra, 1024), inline=False)
    if table.status != "playing":
        turn = tr._("The session is over.") + " " + tr._(
            "{history} shows its deals, {stats} your record.", history=command("history"),
            stats=command("stats"))
        if table.status == "finished" and table.results is not None:  # heard by DM, maybe days later
            turn += "\n" + tr._("Results: {results}.", results=results_text(table, tr))
    elif seat in to_act and not table.seats[seat].away:  # an away seat: the AI moves (no buttons)
        turn = tr._("**Your turn.** Choose a move below.")
        if clock:
            turn += "\n" + clock
    else:
        turn = tr._("Waiting for {who}.", who=", ".join(seat_name(table, s, tr) for s in to_act))
    embed.add_field(name=tr._("Turn"), value=clip(turn if not note else f"{note}\n{turn}", 1024),
                    inline=False)
    footer = tr._("table {id} · version {version}", id=table.id, version=table.version)
    rules = tr._("How to play: /rules")  # for a newcomer to the game
    embed.set_footer(text=f"{footer} · {rules}")
    return embed


def held_in_order(game: str, view: dict[str, Any]) -> list[Any]:
    """The view's hand in the hand image's order (Marias's suit contracts rank the ten between the ace
    and the king: A 10 K), so the DM's text and its image list the cards alike."""
    hand = list(view.get("hand") or [])
    try:
        return sort_hand(game, view, hand)
    except (KeyError, ValueError, TypeError):
        return hand


def results_text(table: Table, tr: Translator) -> str:
    """Each seat's result of a finished session, in jetons: "alice +12 · bob −12 · AI 1 0"."""
    results = table.results or []
    return " · ".join(f"{seat_name(table, i, tr)} {tr.signed(r)}"
                      for i, r in enumerate(results[:len(table.seats)]))


def kept_moves(table: Table, view: dict[str, Any], tr: Translator) -> list[str]:
    """What the seat did that only it may see and must keep in mind (the Maître's sealed Coffre: its
    mineure and majeure), as that move's label: a private field of its view holding one of the game's
    own kinds of move."""
    rules = GAMES.get(table.game)
    if rules is None or table.state is None:
        return []
    kept = [(key, value) for key, value in view.items()
            if isinstance(value, dict) and value and key in rules.vocabulary.move_kinds]
    public = table.state.view(None) if kept else {}  # (a whole view: only when a field may be private)
    out = []
    for key, value in kept:
        if public.get(key) is None:
            try:
                out.append(rules.label({"type": key, **value}, tr))
            except (KeyError, ValueError, TypeError):
                continue
    return out


def closing_text(table: Table, tr: Translator) -> str:
    """Why the table ends after this deal: the host's or an admin's close, or an automatic one
    (its logged reason, ``bot.tables.length``; 'system' for one logged without a reason)."""
    reason = table.closed_by
    if reason == "system":  # logged without its reason: the one that fits the table now
        reason = DEAL_CAP if any(s.human and not s.away for s in table.seats) else UNATTENDED
    if reason == "admin":
        return tr._("An admin closed the table: it ends after this deal.")
    if reason == UNATTENDED:
        return tr._("No player is left at the table: it ends after this deal.")
    if reason == DEAL_CAP:
        return tr._("The table has reached its limit of deals: it ends after this deal.")
    if reason == LOST_CHANNEL:
        return tr._("Tapis can no longer reach this table's channel: it ends after this deal.")
    return tr._("The host closed the table: it ends after this deal.")
