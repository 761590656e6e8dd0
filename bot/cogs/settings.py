"""``/settings`` for server admins (issue 29), and what ``/table new`` asks of them.

Subcommands with autocomplete rather than an embed of selects and a modal: one key, one value, one
answer that says old -> new, works the same on a phone and from the keyboard, and every key
(including each game's options, typed as ``options:`` is) fits one shape; ``show`` is the embed.

- ``/settings show``: every key, its value now, and whether it is the operator's default.
- ``/settings set key: value:``: checked (``bot.settings.model``; channels and roles must be this
  server's), stored and logged; the answer says when it applies (most keys: from the next
  table; ``public_reviews``, ``ai_levels`` and the grants sooner), and a channel listed where
  the bot lacks what a table needs is named. A value set again changes and logs nothing.
- ``/settings reset key:``: back to the operator's default, logged.
- ``/settings log [page:]``: the changes, newest first, who, when, old -> new (pages of 2,000
  characters at most).

Discord hides the group from members without Manage Server (``default_member_permissions``); Tapis
checks the permission again, since a server can override what Discord shows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import guild_only, is_admin
from bot.cogs.errors import UserError
from bot.cogs.options import parse_options
from bot.i18n import NATIVE_NAMES, Translator, msg
from bot.i18n.commands import command
from bot.i18n.languages import LANGUAGES
from bot.i18n.lazy import Msg
from bot.outbox.respond import run_soon, send
from bot.rules import GAMES
from bot.rules.base import PACES, Game
from bot.settings.model import (
    OPTIONS_PREFIX,
    SETTINGS,
    ServerSettings,
    Setting,
    SettingError,
    bounds,
    effective,
    parse,
    setting,
    table_pace_default,
    threads_enabled,
)
from bot.store.settings import OPERATOR
from bot.views.locale import reader
from bot.views.texts import fit

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.config import Config
    from bot.store.settings import Change

#: Changes listed per page of ``/settings log`` (each line is cut to fit: 10 lines < 2,000 characters).
LOG_PAGE = 10
LOG_LINE = 190


def _check_admin(interaction: discord.Interaction[TapisBot]) -> int:
    guild_id = guild_only(interaction)
    if not is_admin(interaction):
        raise UserError(msg("Only members with the Manage Server permission may see or change Tapis's "
                            "settings."))
    return guild_id


def _read_options(text: str, game: Game) -> dict[str, Any]:
    return parse_options(text, game)


def shown(key: str, value: Any, tr: Translator, guild: discord.Guild | None = None) -> str:
    """A setting's value in the reader's words (``None``: the operator's default for that key);
    with ``guild``, a channel or role it no longer has is named as deleted (Discord would draw a
    bare ``#unknown`` or ``@deleted-role``)."""
    spec = SETTINGS.get(key)
    kind = spec.kind if spec else ""
    if value is None or (kind == "places" and not value):
        if kind == "places":
            return tr._("anywhere")
        if kind == "role":
            return tr._("none")
        if kind == "language":
            return tr._("the server's Discord language")
        if kind == "options":
            return tr._("the game's defaults")
        return tr._("default")
    if kind == "language":
        return NATIVE_NAMES.get(str(value), str(value))
    if kind == "bool":
        return tr._("on") if value else tr._("off")
    if kind == "places":
        return ", ".join(f"<#{int(v)}>" if guild is None or guild.get_channel(int(v)) is not None
                         else _deleted(int(v), tr) for v in value)
    if kind == "role":
        return (f"<@&{int(value)}>" if guild is None or guild.get_role(int(value)) is not None
                else _deleted(int(value), tr))
    if kind in ("cap", "grant"):
        return tr.number(int(value))
    if kind == "hours":  # in the reader's decimal sign: 1,5 h in French
        return tr._("{n} h", n=tr.number(float(value)))
    if kind == "options":
        return " ".join(f"{k}={v}" for k, v in value.items()) or tr._("the game's defaults")
    if kind == "levels":
        return ", ".join(value) or "—"
    return str(value)


def _deleted(item_id: int, tr: Translator) -> str:
    """A channel or role a setting names that the server deleted since."""
    return tr._("{id} (deleted)", id=f"`{item_id}`")


def _named_default(key: str, value: Any, tr: Translator, config: Config,
                   guild: discord.Guild | None = None) -> str:
    """``shown``, naming what the bot's default is where "default" alone would not say it:
    ``default (off)``, ``default (3)`` (``anywhere``, ``none`` and the like already say it)."""
    text = shown(key, value, tr, guild)
    if value is not None or text != tr._("default"):
        return text
    return tr._("default ({value})", value=shown(key, _current(effective({}, config), key, config), tr))


def _current(server: ServerSettings, key: str, config: Config) -> Any:
    """The effective value of ``key`` (for ``show``): a pace or threads the server left to the
    operator is shown as the operator's (``normal``, ``on``), not as a bare "default"."""
    if key.startswith(OPTIONS_PREFIX):
        return server.options_for(key[len(OPTIONS_PREFIX):])
    if key == "channels":
        return sorted(server.places)
    if key == "pace":
        return table_pace_default(server, config.default_pace)
    if key == "threads":
        return threads_enabled(server, config.table_threads)
    return getattr(server, key)


class Settings(commands.Cog):
    """``/settings``: each server's own defaults and limits, within the operator's."""

    settings = app_commands.Group(name="settings", description="Tapis's settings for this server (admins)",
                                  guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @settings.command(name="show", description="Every setting of this server and its value")
    async def show(self, interaction: discord.Interaction[TapisBot]) -> None:
        guild_id = _check_admin(interaction)
        tr = await reader(self.bot, interaction)
        store = self.bot.settings
        stored = await run_soon(interaction, store.stored(guild_id))
        server = await store.for_guild(guild_id)
        lines = []
        for key in SETTINGS:
            value = shown(key, _current(server, key, self.bot.config), tr, interaction.guild)
            mark = "" if key in stored else " · " + tr._("default")
            lines.append(fit(f"**{key}**: {value}{mark}", 900 if key == "channels" else 200))
        lines += ["⚠️ " + w.render(tr) for w in _place_warnings(interaction, sorted(server.places))]
        embed = discord.Embed(title=tr._("Tapis settings of this server"),
                              description=fit("\n".join(lines), 4096), colour=0x2F855A)
        embed.set_footer(text=tr._("Change one with /settings set, undo with /settings reset; "
                                   "each answer says when the change applies."))
        await send(interaction, embed=embed)

    @settings.command(name="set", description="Change one setting of this server")
    @app_commands.describe(key="The setting", value="Its new value")
    async def set_(self, interaction: discord.Interaction[TapisBot], key: str, value: str) -> None:
        guild_id = _check_admin(interaction)
        try:
            spec = setting(key)
            checked = parse(spec.key, value, self.bot.settings.config, _read_options)
        except SettingError as exc:
            raise UserError(exc.message) from None
        warnings: list[Msg] = []
        if spec.kind == "places":
            self._check_places(interaction, checked)
            warnings = _place_warnings(interaction, checked)
        elif spec.kind == "role" and checked is not None:
            self._check_role(interaction, checked)
        elif spec.key == "threads" and checked:
            places = (await run_soon(interaction, self.bot.settings.for_guild(guild_id))).places
            warnings = _thread_warnings(interaction, sorted(places))
        old = await run_soon(interaction, self.bot.settings.set(guild_id, spec.key, checked,
                                                                interaction.user.id))
        await self._changed(interaction, spec, old, checked, warnings)

    @settings.command(name="reset", description="Put one setting back to the bot's default")
    @app_commands.describe(key="The setting")
    async def reset(self, interaction: discord.Interaction[TapisBot], key: str) -> None:
        guild_id = _check_admin(interaction)
        try:
            spec = setting(key)
        except SettingError as exc:
            raise UserError(exc.message) from None
        old = await run_soon(interaction, self.bot.settings.reset(guild_id, spec.key, interaction.user.id))
        await self._changed(interaction, spec, old, None)

    async def _changed(self, interaction: discord.Interaction[TapisBot], spec: Setting, old: Any,
                       new: Any, warnings: Sequence[Msg] = ()) -> None:
        """Tell the admin what changed (``None``: the bot's default) and when it applies, or that
        nothing did, in their language; then ``warnings`` (allowed channels no table can use)."""
        tr = await reader(self.bot, interaction)
        key = spec.key
        if old == new:
            text = (tr._("**{key}** already follows the bot's default: nothing changed.", key=key)
                    if new is None else
                    tr._("**{key}** is already {value}: nothing changed.", key=key,
                         value=shown(key, new, tr)))
        else:
            config = self.bot.config
            text = tr._("**{key}**: {old} → {new}. {applies}", key=key,
                        old=_named_default(key, old, tr, config, interaction.guild),
                        new=_named_default(key, new, tr, config), applies=tr._(spec.when))
        lines = [text, *("⚠️ " + w.render(tr) for w in warnings)]
        await send(interaction, fit("\n".join(lines), 2000))

    @settings.command(name="log", description="Who changed which setting, when")
    @app_commands.describe(page="Page of the log (1 = the latest changes)")
    async def log(self, interaction: discord.Interaction[TapisBot],
                  page: app_commands.Range[int, 1, 100_000] = 1) -> None:
        guild_id = _check_admin(interaction)
        tr = await reader(self.bot, interaction)
        changes, total = await run_soon(interaction,
                                        self.bot.settings.log(guild_id, LOG_PAGE, (page - 1) * LOG_PAGE))
        pages = max(1, math.ceil(total / LOG_PAGE))
        if not changes:
            text = (tr._("No setting has been changed on this server yet.") if total == 0
                    else tr.n_("There is only {n} page.", "There are only {n} pages.", pages))
            await send(interaction, text)
            return
        head = tr._("Settings changes, page {page} of {pages}:", page=page, pages=pages)
        await send(interaction, fit("\n".join([head, *(_log_line(c, tr) for c in changes)]), 2000))

    # ------------------------------------------------------------------ checks against the server

    def _check_places(self, interaction: discord.Interaction[TapisBot], ids: list[int]) -> None:
        guild = interaction.guild
        for cid in ids:
            channel = guild.get_channel(cid) if guild is not None else None
            if not isinstance(channel, (discord.TextChannel, discord.CategoryChannel, discord.ForumChannel)):
                quoted = f"`{cid}`"
                raise UserError(msg("{id} is not a text channel or category of this server (deleted, or "
                                    "another server's).", id=quoted))

    def _check_role(self, interaction: discord.Interaction[TapisBot], role_id: int) -> None:
        guild = interaction.guild
        role = guild.get_role(role_id) if guild is not None else None
        if role is None or role.is_default():
            quoted = f"`{role_id}`"
            raise UserError(msg("{id} is not a role of this server (deleted, another server's, or @everyone: "
                                "use none).", id=quoted))

    # ------------------------------------------------------------------ autocomplete

    @set_.autocomplete("key")
    @reset.autocomplete("key")
    async def _key_choices(self, interaction: discord.Interaction[TapisBot],
                           current: str) -> list[app_commands.Choice[str]]:
        tr = await reader(self.bot, interaction)
        typed = current.strip().lower()[:60]
        by_key = [s for s in SETTINGS.values() if typed in s.key]
        by_help = [s for s in SETTINGS.values() if s not in by_key and typed in tr._(s.help).lower()]
        return [app_commands.Choice(name=fit(f"{s.key} — {tr._(s.help)}", 100), value=s.key)
                for s in [*by_key, *by_help]][:25]  # the keys are English: found by their help too

    @set_.autocomplete("value")
    async def _value_choices(self, interaction: discord.Interaction[TapisBot],
                             current: str) -> list[app_commands.Choice[str]]:
        key = str(getattr(interaction.namespace, "key", "") or "").strip().lower()
        spec = SETTINGS.get(key)
        if spec is None or len(current) > 100:
            return []
        values: list[str]
        if spec.kind == "bool":
            values = ["on", "off"]
        elif spec.kind == "pace":
            values = list(PACES)
        elif spec.kind == "language":
            values = list(LANGUAGES)
        elif spec.kind in ("cap", "grant", "hours"):
            low, high = bounds(key, self.bot.settings.config)
            values = [f"{low:g}", f"{getattr(self.bot.settings.config, key):g}", f"{high:g}"]
        elif spec.kind == "levels":
            from bot.ai import LEVELS

            values = [" ".join(LEVELS[:n]) for n in range(len(LEVELS), 0, -1)]
        elif spec.kind == "options":
            game = GAMES[key[len(OPTIONS_PREFIX):]]
            values = [f"{o.name}={o.default}" for o in game.options
                      if not o.hidden and not callable(o.default)]
        else:
            values = ["none"]
        typed = current.strip().lower()
        tr = await reader(self.bot, interaction)
        return [app_commands.Choice(name=_value_name(spec.kind, v, tr)[:100], value=v[:100])
                for v in dict.fromkeys(values) if v.lower().startswith(typed) or not typed][:25]


def _value_name(kind: str, value: str, tr: Translator) -> str:
    """A value choice as the admin reads it: ``on — activé``, ``eu — Euskara`` (the value typed
    stays the plain ``on``, ``eu``)."""
    word = (tr._("on") if value == "on" else tr._("off")) if kind == "bool" else (
        NATIVE_NAMES.get(value, value) if kind == "language" else value)
    return value if word == value else f"{value} — {word}"


def _log_line(change: Change, tr: Translator) -> str:
    who = f"<@{change.user_id}>" if change.user_id != OPERATOR else tr._("(the operator's bounds)")
    line = tr._("<t:{at}:f> {who} **{key}**: {old} → {new}", at=int(change.at), who=who,
                key=change.key, old=shown(change.key, change.old, tr), new=shown(change.key, change.new, tr))
    return fit(line, LOG_LINE)


def _place_warnings(interaction: discord.Interaction[TapisBot], ids: list[int]) -> list[Msg]:
    """Each listed channel or category where the bot lacks what a table needs (``bot.permissions``,
    from the cache; one it cannot read is not named): a setting that would lock members out of
    tables is named to the admin who makes it, not left for members to find."""
    from bot.permissions import cached, place_warning

    guild = interaction.guild
    out = []
    for cid in ids:
        channel = guild.get_channel(cid) if guild is not None else None
        perms = cached(channel)
        warning = None if perms is None else place_warning(
            perms, f"<#{cid}>", thread=isinstance(channel, discord.ForumChannel))
        if warning is not None:
            out.append(warning)
    return out


def _thread_warnings(interaction: discord.Interaction[TapisBot], places: list[int]) -> list[Msg]:
    """Where tables would get no thread for want of a permission: each allowed channel the cache
    knows (a forum's posts are threads already), or, tables being allowed anywhere, this channel."""
    from bot.permissions import cached, thread_warning

    if not places:
        if isinstance(interaction.channel, discord.Thread):  # no thread in a thread: nothing to say
            return []
        here = thread_warning(interaction.app_permissions, f"<#{interaction.channel_id}>")
        return [] if here is None else [here]
    guild = interaction.guild
    out = []
    for cid in places:
        channel = guild.get_channel(cid) if guild is not None else None
        perms = None if isinstance(channel, discord.ForumChannel) else cached(channel)
        warning = None if perms is None else thread_warning(perms, f"<#{cid}>")
        if warning is not None:
            out.append(warning)
    return out


def _parents(channel: object, guild: discord.Guild | None) -> tuple[int, ...]:
    """The category of ``channel``; for a thread, its channel and that one's category (when the bot
    knows it: a thread's parent may not be cached)."""
    if isinstance(channel, discord.Thread):
        parent = guild.get_channel(channel.parent_id) if guild is not None else None
        category = getattr(parent, "category_id", None)
        return (channel.parent_id, *((category,) if isinstance(category, int) else ()))
    category = getattr(channel, "category_id", None)
    return (category,) if isinstance(category, int) else ()


def _place(interaction: discord.Interaction[TapisBot], channel_id: int | None) -> tuple[int, tuple[int, ...]]:
    """Where the table opens and that place's parents: ``channel_id``, else the interaction's channel."""
    if channel_id is None or channel_id == interaction.channel_id:
        return interaction.channel_id or 0, _parents(interaction.channel, interaction.guild)
    guild = interaction.guild
    return channel_id, _parents(guild.get_channel_or_thread(channel_id) if guild is not None else None, guild)


class Opening(NamedTuple):
    """What the server's settings make of a table about to open (``opening``)."""

    options: dict[str, Any]  # the raw options: the server's defaults under the host's
    language: str | None  # the table's language: the host's, else the server's
    ai_levels: tuple[str, ...]  # the AI levels that may sit (the lobby's buttons)


def _check_opener(server: ServerSettings, interaction: discord.Interaction[TapisBot]) -> None:
    """Refuse a member without the server's opener role (admins always may open)."""
    if server.opener_role is None or is_admin(interaction):
        return
    guild = interaction.guild
    role = guild.get_role(server.opener_role) if guild is not None else None
    mine = {int(r) for r in getattr(interaction.user, "_roles", ())}
    if server.opener_role in mine:
        return
    if role is None and guild is not None:
        raise UserError(msg("The role that may open tables here no longer exists: ask an admin to "
                            "change {settings_set} `opener_role`.", settings_set=command("settings set")))
    mention = f"<@&{server.opener_role}>"
    raise UserError(msg("Only members with the role {role} may open tables on this server.", role=mention))


def _check_place(server: ServerSettings, interaction: discord.Interaction[TapisBot],
                 channel_id: int | None) -> None:
    """Refuse a table outside the server's allowed channels (``channel_id``: where it opens)."""
    place, parents = _place(interaction, channel_id)
    if not server.places or server.may_open_in(place, parents):
        return
    guild = interaction.guild
    live = sorted(p for p in server.places if guild is None or guild.get_channel(p) is not None)
    if not live:  # every listed channel was deleted since: say so rather than list dead links
        raise UserError(msg("The channels where tables may be opened no longer exist: ask an admin to "
                            "change {settings_set} `channels`.", settings_set=command("settings set")))
    places = ", ".join(f"<#{p}>" for p in live)
    raise UserError(msg("Tables cannot be opened in this channel. Open one in: {places}.", places=places))


def _check_permissions(interaction: discord.Interaction[TapisBot], channel_id: int | None) -> None:
    """Refuse a table where the bot lacks a permission a table needs (``bot.permissions``): read
    from the interaction where it opens there, else from the cache (unknown there: not refused)."""
    from bot.permissions import cached, refusal

    channel: object
    if channel_id is None or channel_id == interaction.channel_id:
        perms, channel = interaction.app_permissions, interaction.channel
    else:
        guild = interaction.guild
        channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
        known = cached(channel)
        if known is None:
            return
        perms = known
    refused = refusal(perms, thread=isinstance(channel, discord.Thread))
    if refused is not None:
        raise UserError(refused)


async def opening(bot: TapisBot, interaction: discord.Interaction[TapisBot], game: Game,
                  raw: dict[str, Any], language: str | None, *, channel_id: int | None = None,
                  again: bool = False) -> Opening:
    """What the server's settings ask of a table about to open: ``/table new``, ``/tournament create``
    and Play again (``bot.views.seating``) all come here. Read from the store: the next table follows
    a change at once, in every shard process.

    Refused, with the same message for all three: a member without the opener role, a table outside
    the allowed channels (``channel_id``: where it opens, by default the interaction's channel; Play
    again opens in the finished table's), a channel where the bot lacks a permission a table needs
    (``bot.permissions``), options the game refuses. Hints the server does not allow
    are refused when the host typed them; with ``again`` (Play again: nobody typed them now) they are
    turned off instead, so that a session can still be played again under the server's new rule.

    Returns the raw options (the server's defaults under ``raw``, ``rated`` off if the server plays
    unrated), the table's language (the host's, else the server's) and the AI levels that may sit,
    read once."""
    from bot.cogs.options import check_options

    server = await bot.settings.for_guild(interaction.guild_id)
    _check_opener(server, interaction)
    _check_place(server, interaction, channel_id)
    _check_permissions(interaction, channel_id)
    defaults = {**bot.config.options_for(game.name), **server.options_for(game.name)}
    options = check_options(game, defaults, raw)
    if options.get("hints") and not server.hints:
        if not again:
            raise UserError(msg("This server does not allow hints at its tables."))
        raw = {**raw, "hints": False}
    out = {**server.options_for(game.name), **raw}
    if "pace" not in out and server.pace is not None:  # the server's default pace (issue 28's option)
        out["pace"] = server.pace
    if not server.rated:
        out["rated"] = False
    return Opening(out, language or server.language, server.ai_levels)


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Settings(bot))
