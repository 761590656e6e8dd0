"""/table new|join|leave|start|end|status and /hand: tables in a channel, through the table service."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import (
    GAME_CHOICES,
    game_or_error,
    guild_only,
    is_admin,
    resolve_table,
    table_autocomplete,
)
from bot.cogs.errors import UserError
from bot.cogs.language import unknown_language
from bot.cogs.my_table import my_table
from bot.cogs.options import MAX_BUY_IN, check_options, options_autocomplete, parse_options
from bot.cogs.settings import opening
from bot.gate import MemberWindow
from bot.i18n import LANGUAGES, NATIVE_NAMES, msg, table_language
from bot.i18n.languages import choosable
from bot.i18n.lazy import Amount, nmsg
from bot.outbox.respond import run_soon, send
from bot.views import texts
from bot.views.display import safe_name, timestamp
from bot.views.lobby_post import invite as invite_members
from bot.views.lobby_post import post_lobby
from bot.views.locale import at_table, reader
from bot.views.mine import message_link, mine_text

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.rules.base import Game
    from bot.tables import TableService

log = logging.getLogger(__name__)
TABLE_ARG = "Table number (default: the latest open table in this channel)"
#: The language of the table message and images (default: the server's language, then English).
LANGUAGE_CHOICES = [app_commands.Choice(name=NATIVE_NAMES[lang], value=lang) for lang in LANGUAGES]
#: Lobbies a member may open with ``/table new`` in any ``OPENS_WINDOW`` seconds, on every server of this
#: process (shard processes count apart, as for ``/hint``). The
#: open-table caps count open tables only: opening and ending lobbies in a loop cost a few database
#: transactions, a thread and its requests under Discord's global limit, and a mention of each
#: invitee, every time, without end.
OPENS_PER_MEMBER = 10
OPENS_WINDOW = 600.0
#: Invitations a host may send one member in any ``INVITES_WINDOW`` seconds. Each mentions the
#: invitee (a notification): within the opening rate alone, a host who opened and ended lobbies
#: inviting the same member pinged them 10 times in 10 minutes, 60 an hour, without end.
INVITES_PER_PAIR = 3
INVITES_WINDOW = 3600.0


class Tables(commands.Cog):
    """Opening, joining and running tables; moves themselves come through the components."""

    table = app_commands.Group(name="table", description="Card tables in this channel", guild_only=True)

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot
        self.opens = MemberWindow(OPENS_PER_MEMBER, OPENS_WINDOW)  # /table new, per member
        self.invites = MemberWindow(INVITES_PER_PAIR, INVITES_WINDOW)  # per (host, invitee)

    @property
    def service(self) -> TableService:
        return self.bot.tables

    @table.command(name="new", description="Open a table in this channel")
    @app_commands.describe(game="The game", players="Number of seats", buy_in="Jetons each player brings",
                           options="More options as key=value key=value (see /rules)",
                           language="The table's language (default: the server's)",
                           invite="A member whose seat is kept (told once, by a mention)",
                           invite2="Another member to invite", invite3="Another member to invite",
                           invite_only="Only the members you invite may sit")
    @app_commands.choices(game=GAME_CHOICES, language=LANGUAGE_CHOICES)
    @app_commands.autocomplete(options=options_autocomplete)
    async def new(self, interaction: discord.Interaction[TapisBot], game: str,
                  players: app_commands.Range[int, 2, 10] | None = None,
                  buy_in: app_commands.Range[int, 1, MAX_BUY_IN] | None = None,
                  options: str | None = None, language: str | None = None,
                  invite: discord.User | None = None, invite2: discord.User | None = None,
                  invite3: discord.User | None = None, invite_only: bool = False) -> None:
        guild_id = guild_only(interaction)
        host = interaction.user
        check_opening_rate(self.opens, host.id)
        rules, chosen = self.table_options(game, players, buy_in, options, language)
        raw, language, allowed = await opening(self.bot, interaction, rules, chosen, language)  # /settings
        invited = invitees(interaction, [invite, invite2, invite3])
        check_invitation_rate(self.invites, host.id, invited)
        if invite_only and not invited:
            raise UserError(msg("An invitation-only table needs at least one `invite:`."))
        channel_id = interaction.channel_id or 0  # always set for a guild command
        table = await run_soon(interaction, self.service.create(
            guild_id, channel_id, host.id, host.display_name, rules.name, raw,
            invite=[m.id for m in invited], invite_only=invite_only, ai_levels=allowed, chosen=chosen),
            ephemeral=False)
        self.opens.note(host.id)
        await self.bot.languages.set_table(table.id, table_language(language, interaction.guild_locale))
        if await post_lobby(interaction, table):
            for member in invited:
                self.invites.note((host.id, member.id))
            await invite_members(interaction, table, invited)

    def table_options(self, game: str, players: int | None, buy_in: int | None, options: str | None,
                      language: str | None) -> tuple[Game, dict[str, Any]]:
        """The game and its options as ``/table new`` was given them, checked (one place, so that
        server defaults can hook in here)."""
        rules = game_or_error(game)
        if language is not None and choosable(language) is None:
            raise UserError(unknown_language())
        raw = parse_options(options, rules)
        names = {s.name for s in rules.options}
        for name, value in (("players", players), ("buy_in", buy_in)):
            if value is None:
                continue
            if name not in names:
                if name == "players":
                    raise UserError(msg("{game} has no players option: it is played by {n}.",
                                        game=rules.title, n=rules.min_seats))
                raise UserError(msg("{game} has no {option} option.", game=rules.title, option=name))
            raw[name] = value
        check_options(rules, self.bot.config.options_for(rules.name), raw)
        return rules, raw

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.bot.presenter.channel_deleted(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.bot.presenter.channel_deleted(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was kicked (or the server deleted): its tables there go on by DM and close."""
        await self.bot.presenter.guild_gone(guild.id)

    @table.command(name="join", description="Sit down at a table (moves the buy-in to the table)")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    async def join(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        t = await resolve_table(self.bot, interaction, table)
        user = interaction.user
        back = t.status == "playing"  # a seat left mid-session taken back: no buy-in
        await run_soon(interaction, self.service.join(t.id, user.id, user.display_name))
        tr = await reader(self.bot, interaction)
        await send(interaction, texts.came_back(t.id, tr) if back else texts.joined(t.id, t.buy_in, tr))

    @table.command(name="leave", description="Leave a table (the AI plays your seat if the game is on)")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    async def leave(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        t = await my_table(self.bot, interaction, table, leaving=True)
        user_id = interaction.user.id
        in_lobby, hosted = t.status == "lobby", t.host_id == user_id  # before the leave changes them
        await run_soon(interaction, self.service.leave(t.id, user_id))
        tr = await reader(self.bot, interaction)
        await send(interaction, texts.left(in_lobby, hosted, await self.service.get(t.id), tr))

    @table.command(name="start", description="Start the game (host only)")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    async def start(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        t = await resolve_table(self.bot, interaction, table)
        await run_soon(interaction, self.service.start(t.id, interaction.user.id))
        await send(interaction, texts.starts(t.id, await reader(self.bot, interaction)))

    @table.command(name="end", description="Close a table (host or admin): at the end of the deal, or now")
    @app_commands.describe(table=TABLE_ARG,
                           now="Void the current deal and end at once (server admins not seated)")
    @app_commands.autocomplete(table=table_autocomplete)
    async def end(self, interaction: discord.Interaction[TapisBot], table: int | None = None,
                  now: bool = False) -> None:
        t = await resolve_table(self.bot, interaction, table, any_channel=True)
        user_id, admin = interaction.user.id, is_admin(interaction)
        allowed_now = self.service.may_end_now(t, user_id, admin)
        await run_soon(interaction, self.service.end(t.id, user_id, admin, now=now))
        tr = await reader(self.bot, interaction)
        if t.status in ("finished", "cancelled"):
            text = tr._("Table #{id} is closed.", id=t.id)
        elif now and not allowed_now:
            text = tr._("Only a server admin who is not seated can end a deal at once: table #{id} will "
                        "close at the end of this deal.", id=t.id)
        else:
            text = tr._("Table #{id} will close at the end of this deal.", id=t.id)
        await send(interaction, text)

    @table.command(name="status", description="Show a table: seats, stacks, pot, whose turn")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    async def status(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        t = await resolve_table(self.bot, interaction, table)
        presenter = self.bot.presenter
        tr = await reader(self.bot, interaction)
        embed = presenter.table_payload(t, tr)["embed"]
        embed.url = message_link(t)  # its title jumps to the table message, however far up it is
        await send(interaction, embed=embed)

    @table.command(name="mine", description="Every table you sit at in this server: whose turn, the deadline")
    async def mine(self, interaction: discord.Interaction[TapisBot]) -> None:
        guild_id = guild_only(interaction)
        tables = await self.service.tables_in_guild(guild_id)
        user_id = interaction.user.id
        elsewhere = await self.service.seats_in_other_guilds(user_id, guild_id)
        tr = await reader(self.bot, interaction)
        await send(interaction, mine_text(tables, user_id, tr, self.bot.config, elsewhere))

    @app_commands.command(name="hand", description="Your hand and your moves, only for you")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        t = await my_table(self.bot, interaction, table)
        tr = await at_table(self.bot, await reader(self.bot, interaction), interaction.user.id, t)
        await self.bot.presenter.show_hand(interaction, t, tr)


def opening_rate(bot: TapisBot) -> MemberWindow | None:
    """The members' opening rate (``OPENS_PER_MEMBER``), shared by ``/table new`` and Play again."""
    cog = bot.get_cog("Tables")
    return cog.opens if isinstance(cog, Tables) else None


def invitation_rate(bot: TapisBot) -> MemberWindow | None:
    """The hosts' invitations per member (``INVITES_PER_PAIR``), shared by ``/table new`` and Play again."""
    cog = bot.get_cog("Tables")
    return cog.invites if isinstance(cog, Tables) else None


def check_opening_rate(opens: MemberWindow, member: int) -> None:
    """Refuse (``UserError``) a lobby ``member`` would open past their opening rate."""
    again = opens.wait(member)
    if again is not None:
        raise UserError(nmsg(
            "You may open at most {n} table in {minutes} minutes: you can open another {when}.",
            "You may open at most {n} tables in {minutes} minutes: you can open another {when}.",
            opens.limit, minutes=Amount(round(opens.window / 60)), when=timestamp(again)))


def check_invitation_rate(invites: MemberWindow, host: int, members: list[discord.Member]) -> None:
    """Refuse (``UserError``) a lobby whose invitation would mention a member more often than
    ``INVITES_PER_PAIR`` times an hour from this host."""
    for member in members:
        again = invites.wait((host, member.id))
        if again is not None:
            raise UserError(nmsg(
                "You have invited {name} {n} time within an hour: you can invite them again {when}.",
                "You have invited {name} {n} times within an hour: you can invite them again {when}.",
                invites.limit, name=safe_name(member.display_name), when=timestamp(again)))


def invitees(interaction: discord.Interaction[TapisBot],
             users: list[discord.User | discord.Member | None]) -> list[discord.Member]:
    """The members ``/table new`` invites, each checked: not a bot, not the host, a member of this
    server, not named twice (each refusal a ``UserError`` in the reader's language)."""
    out: list[discord.Member] = []
    for user in users:
        if user is None:
            continue
        if user.bot:
            raise UserError(msg("{name} is a bot: add AI seats instead of inviting bots.",
                                name=safe_name(user.display_name)))
        if user.id == interaction.user.id:
            raise UserError(msg("You cannot invite yourself: you sit at your table already."))
        if not isinstance(user, discord.Member):
            raise UserError(msg("{name} is not a member of this server.", name=safe_name(user.display_name)))
        if any(m.id == user.id for m in out):
            raise UserError(msg("{name} is invited twice: invite each member once.",
                                name=safe_name(user.display_name)))
        out.append(user)
    return out


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Tables(bot))
