"""The Discord bot: ``TapisBot`` wires the cogs, the persistent components and the table service.

Dependencies come in through the constructor (config, database, ledger, table service), so
``__main__`` owns their lifetime and tests can build a bot on a SQLite file in ``tmp_path``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.cogs.errors import TapisTree
from bot.i18n import commands as command_ids
from bot.i18n.slash import CatalogueTranslator
from bot.member_check import MemberCheck
from bot.outbox.budget import budget_for
from bot.outbox.presenter import Presenter
from bot.store.card_faces import CardFaceStore
from bot.store.languages import LanguageStore
from bot.store.preferences import PreferenceStore
from bot.store.settings import SettingsStore
from bot.tournaments.runner import TournamentService
from bot.views.handlers import ForeignItem, TableItem, handle_component

if TYPE_CHECKING:
    from bot.config import Config
    from bot.outbox.forward import Forwarder
    from bot.store.base import Store
    from bot.store.ledger import Ledger
    from bot.tables import Table, TableService

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.cogs.wallet", "bot.cogs.rules", "bot.cogs.table", "bot.cogs.admin", "bot.cogs.history",
              "bot.cogs.language", "bot.cogs.hint", "bot.cogs.cards", "bot.cogs.tournament",
              "bot.cogs.review", "bot.cogs.settings", "bot.cogs.preferences", "bot.cogs.help")


class DevGuildRefused(Exception):
    """Discord refused the slash commands' sync to ``dev_guild_id``: the bot is not in that server,
    or was added without the ``applications.commands`` scope."""

    def __init__(self, guild_id: int, reason: str) -> None:
        super().__init__(guild_id, reason)
        self.guild_id = guild_id
        self.reason = reason


class TapisBot(commands.Bot):
    """One process serving every guild; all game state lives in the ``TableService``."""

    def __init__(self, config: Config, db: Store, ledger: Ledger, tables: TableService, *,
                 edit_interval: float = 1.0, sync_commands: bool = True, **options: Any) -> None:
        # Tapis has no voice: discord.py's two start-up WARNINGs about voice libraries are noise that
        # would hide the warnings an operator has to read.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        # privileged (enabled on the bot's page first): GUILD_MEMBER_REMOVE, see on_raw_member_remove.
        # Only removals are heard: members are neither requested at start-up nor cached.
        intents.members = config.member_events
        options.setdefault("chunk_guilds_at_startup", False)
        options.setdefault("member_cache_flags", discord.MemberCacheFlags.none())
        # Nothing Tapis posts may ping anyone: player names are user input.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         tree_cls=TapisTree, **options)
        self.config = config
        self.db = db
        self.ledger = ledger
        self.tables = tables
        self.languages = LanguageStore(db)
        self.card_faces = CardFaceStore(db)
        #: Each server's /settings (read from the store at every table) and each person's /preferences.
        self.settings = SettingsStore(db, config)
        self.preferences = PreferenceStore(db)
        tables.rt.guild_config = self.guild_config
        self.sync_commands = sync_commands
        self.presenter = Presenter(self, tables, edit_interval=edit_interval)
        self.member_check = MemberCheck(self)
        self.tournaments = TournamentService(db, tables, config)
        self.presenter.budget = budget_for(db)  # one budget for all shard processes on PostgreSQL
        self.failed_extensions: list[str] = []
        self.resumed_tables: list[Table] = []
        #: A shard process's forwarder of DM clicks to the shard that owns the table (``__main__``).
        self.forwarder: Forwarder | None = None
        #: Set once ``setup_hook`` has resumed this process's open tables: a DM click forwarded by
        #: another shard process waits for it (before, its table would look unknown).
        self.tables_resumed = asyncio.Event()
        self._background: set[asyncio.Task[Any]] = set()

    async def guild_config(self, guild_id: int) -> Config:
        """The configuration ``guild_id``'s tables follow: its ``/settings`` caps over the operator's."""
        config = self.tables.config  # the service's (which tests and tools may replace)
        return (await self.settings.for_guild(guild_id, config)).caps(config)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        await self.languages.load()
        await self.card_faces.load()
        clamped = await self.settings.clamp_to_bounds()  # the operator's file stays the bound
        if clamped:
            log.info("%d server setting(s) brought within the operator's bounds", clamped)
        for ext in EXTENSIONS:
            try:
                await self.load_extension(ext)
            except Exception:
                self.failed_extensions.append(ext)
                log.exception("could not load extension %s", ext)
        self.add_dynamic_items(TableItem, ForeignItem)
        self.tables.listeners.append(self.presenter.on_change)
        resumed = await self.tables.resume_all()
        self.resumed_tables = list(resumed) if isinstance(resumed, (list, tuple)) else []
        for table in self.resumed_tables:
            self.presenter.prime(table)  # before the AI moves: a restart does not DM everybody again
        self.tables_resumed.set()
        log.info("resumed %s open table(s)", len(self.resumed_tables) if self.resumed_tables else resumed)
        await self.tournaments.resume_all()  # after the tables: a round's tables are live again
        self.tournament_ticker = asyncio.get_running_loop().create_task(self.tournaments.run())
        if self.sync_commands:
            await self._sync()
        else:
            await self._read_command_ids()

    async def _sync(self) -> None:
        guild_id = self.config.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.Forbidden as exc:
                raise DevGuildRefused(guild_id, f"{exc.status} {exc.text}") from None
        else:
            synced = await self.tree.sync()
        where = f" to guild {guild_id}" if guild_id else ""
        log.info("synced %d application command(s)%s", len(synced), where)
        command_ids.learn(mentionable(synced))  # texts mention the commands from now on

    async def _read_command_ids(self) -> None:
        """A bot that does not sync (another process does) reads the commands' ids once, so that its
        texts mention them too; without them they name the commands as plain text."""
        guild_id = self.config.dev_guild_id
        try:
            found = await self.tree.fetch_commands(guild=discord.Object(id=guild_id) if guild_id else None)
        except discord.HTTPException:
            log.warning("could not read the application commands: texts name them as plain text",
                        exc_info=True)
            return
        command_ids.learn(mentionable(found))

    async def on_ready(self) -> None:
        log.info("connected as %s (%s)%s to %d guild(s)%s", self.user, getattr(self.user, "id", "?"),
                 shards_of(self), len(self.guilds), guild_list(self.guilds))
        self.spawn(self.presenter.refresh_open_tables())
        self.spawn(self.member_check.run())  # removals missed while not listening (member_events)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        log.info("added to guild %s: %d guild(s) now", guild_list([guild]).removeprefix(": "),
                 len(self.guilds))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        log.info("removed from guild %s (kicked, or the server deleted): %d guild(s) now",
                 guild_list([guild]).removeprefix(": "), len(self.guilds))

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left the server (or was removed): they leave every table of that server they sit at,
        and its open tournaments (``TournamentService.member_gone``).

        Discord sends this only with the GUILD_MEMBERS intent (``Config.member_events``).
        """
        await self.member_gone(payload.guild_id, payload.user.id)

    async def member_gone(self, guild_id: int, user_id: int, *, while_away: bool = False) -> list[int]:
        """A member is no longer in a server: off every table of that server (``TableService.member_gone``)
        and out of its open tournaments (a round's seat: the event too). Returns the tables left.

        ``while_away``: found by the restart's look-up (``bot.member_check``), said so in the log.
        """
        when = " while the bot was away" if while_away else ""
        left = await self.tables.member_gone(guild_id, user_id)
        if left:
            log.info("user %s left guild %s%s: off table(s) %s", user_id, guild_id, when, left)
        events = await self.tournaments.member_gone(guild_id, user_id)
        if events:
            log.info("user %s left guild %s%s: out of tournament(s) %s", user_id, guild_id, when, events)
        return left

    async def handle_component(self, interaction: discord.Interaction[TapisBot], custom_id: str,
                               values: list[str] | None) -> None:
        """Answer a click as if it had come through the gateway (a DM click forwarded by another shard
        process, ``bot.outbox.forward``): the outbox reaches the handlers only through here."""
        await handle_component(interaction, custom_id, values)

    async def reread_person(self, user_id: int) -> None:
        """Read a person's ``/language``, ``/cards`` and ``/preferences`` choices again: another shard
        process stored a new one (``bot.outbox.forward``)."""
        await self.languages.refresh(user_id)
        await self.card_faces.refresh(user_id)
        await self.preferences.refresh(user_id)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` in the background; its failure is logged, never lost."""
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def quiesce(self) -> None:
        """Wait until every background task (DMs, table edits) has finished (tests, shutdown)."""
        while True:
            pending = [t for t in (self._background | self.presenter.pending()) if not t.done()]
            if not pending:
                return
            await asyncio.wait(pending)

    async def close(self) -> None:
        ticker = getattr(self, "tournament_ticker", None)
        if ticker is not None:
            ticker.cancel()
        await self.tournaments.close()
        await self.presenter.close()
        for task in list(self._background):
            task.cancel()
        try:
            await self.languages.close()  # the client locales noted since the last batch
        except Exception:
            log.warning("could not write the noted client locales at shutdown", exc_info=True)
        await super().close()


#: Guilds named one by one in the log line at connection; past it, how many more.
LOGGED_GUILDS = 20


def guild_list(guilds: Sequence[discord.Guild]) -> str:
    """``": Casino (123), Club (456)"``: the guilds a connection serves, for the log (names on one line)."""
    if not guilds:
        return ""
    ordered = sorted(guilds, key=lambda g: g.id)
    shown = [f"{' '.join(str(g.name).split())} ({g.id})" for g in ordered[:LOGGED_GUILDS]]
    more = len(ordered) - LOGGED_GUILDS
    return ": " + ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def shards_of(client: discord.Client) -> str:
    """``" on shard(s) 0, 1, 2, 3 of 16"`` for a sharded connection, else ``""``."""
    count = client.shard_count
    if not count or count == 1:
        return ""
    ids = getattr(client, "shard_ids", None) or [client.shard_id or 0]
    return f" on shard(s) {', '.join(map(str, sorted(ids)))} of {count}"


def mentionable(synced: list[discord.app_commands.AppCommand]) -> dict[str, int]:
    """Every full command name Discord can mention (``"daily"``, ``"table new"``, not the group
    ``"table"``) -> the id of its top-level command, from what the sync returned."""
    out: dict[str, int] = {}

    def walk(name: str, options: list[Any], top: int) -> None:
        groups = [o for o in options if isinstance(o, discord.app_commands.AppCommandGroup)]
        if not groups:
            out[name] = top
        for group in groups:
            walk(f"{name} {group.name}", group.options, top)

    for cmd in synced:
        walk(cmd.name, cmd.options, cmd.id)
    return out
