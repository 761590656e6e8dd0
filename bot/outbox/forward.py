"""DM clicks for a table another shard process owns: forwarded over PostgreSQL LISTEN/NOTIFY.

Discord delivers every DM interaction to shard 0. A move clicked in a DM for a table of a guild on
another shard reaches the shard-0 process, which does not hold that table. That process answers at
once with a deferred update (Discord's 3 s are met), finds the table's guild in the store, and
sends the click to the owning process with ``pg_notify('tapis_<space>_shard_<n>', payload)``; the payload is
trimmed to what the handler needs (a whole DM message would pass NOTIFY's 8,000 bytes). The owner,
listening on its shards' channels on the connection that holds their locks, rebuilds the
interaction as an already deferred one and runs the usual handler: the move is applied under the
table's lock with its version check (a replayed click is refused, nothing applied twice), the DM is
edited through the interaction's token and any refusal is an ephemeral follow-up. NOTIFY is not
durable: if the owner is down, the click is answered "restarting, try again" (no lock holder) or,
if it dies in between, not at all, and the player clicks again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import N_
from bot.sharding import HOLDERS_SQL, ShardLocks, ShardPlan, shard_of
from bot.views.locale import reader

if TYPE_CHECKING:
    from bot.app import TapisBot

log = logging.getLogger(__name__)

#: Refusals of a forwarded click, translated for the clicking player (``tr._``).
RESTARTING = N_("This table's server is restarting; try again in a moment.")
GONE = N_("Table #{id} does not exist any more.")


def channel_name(space: int, shard: int) -> str:
    """The NOTIFY channel of a shard's owner (per lock space: NOTIFY is database-wide, like the locks)."""
    return f"tapis_{space}_shard_{shard}"


def trim(interaction: discord.Interaction[TapisBot], custom_id: str, values: list[str] | None) -> dict[str,
         Any]:
    """What the owner needs to answer a DM click by its token (ids as strings, as Discord sends them);
    the clicked message only by its id (a whole DM message would not fit a NOTIFY)."""
    user = interaction.user
    return {"id": str(interaction.id), "token": interaction.token,
            "application_id": str(interaction.application_id),
            "user": {"id": str(user.id), "username": user.name, "discriminator": "0", "avatar": None,
                     "global_name": getattr(user, "global_name", None)},
            "channel_id": str(interaction.channel_id), "custom_id": custom_id, "values": values,
            "locale": str(interaction.locale),
            "message_id": str(interaction.message.id) if interaction.message is not None else None}


def rebuild(bot: TapisBot, p: dict[str, Any]) -> discord.Interaction[TapisBot]:
    """A ``discord.Interaction`` from a forwarded click, already answered (deferred update)."""
    data: dict[str, Any] = {
        "id": p["id"], "application_id": p["application_id"], "type": 3, "token": p["token"], "version": 1,
        "data": {"custom_id": p["custom_id"], "component_type": 3 if p["values"] is not None else 2,
                 **({"values": p["values"]} if p["values"] is not None else {})},
        "user": p["user"], "channel_id": p["channel_id"],
        "channel": {"id": p["channel_id"], "type": 1, "recipients": [p["user"]]},
        "locale": p["locale"], "attachment_size_limit": 10 * 1024 * 1024, "context": 1,
        "entitlements": [], "authorizing_integration_owners": {}, "app_permissions": "0",
    }
    me = bot.user
    if p.get("message_id") and me is not None:  # the clicked DM, by id only (the presenter edits it)
        data["message"] = {
            "id": p["message_id"], "channel_id": p["channel_id"], "type": 0, "content": "", "tts": False,
            "author": {"id": str(me.id), "username": me.name, "discriminator": "0",
                       "avatar": None, "bot": True},
            "timestamp": "2024-01-01T00:00:00+00:00", "edited_timestamp": None, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "attachments": [], "embeds": [], "components": [],
            "pinned": False, "flags": 0}
    interaction = discord.Interaction(data=data, state=bot._connection)  # type: ignore[arg-type]
    interaction.response._response_type = discord.InteractionResponseType.deferred_message_update
    return interaction


class Forwarder:
    """Both ends of the hand-off: ``forward`` on the process that got the click, ``start`` on owners."""

    def __init__(self, bot: TapisBot, locks: ShardLocks, plan: ShardPlan) -> None:
        self.bot = bot
        self.locks = locks
        self.plan = plan
        self.received: list[str] = []  # interaction ids handled for another process (tests, logs)
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """LISTEN on this process's shards, on the connection holding their locks."""
        conn = self.locks.connection
        for shard in self.plan.ids:
            await conn.add_listener(channel_name(self.locks.space, shard), self._on_notify)

    async def forward(self, interaction: discord.Interaction[TapisBot], custom_id: str, table_id: int,
                      values: list[str] | None) -> bool:
        """Hand a DM click for a table this process does not hold to its owner; False if the table
        belongs to this process's own shards (then it really is unknown) or was forwarded already."""
        if interaction.response.is_done():
            return False  # a click forwarded to us: never passed on again
        await interaction.response.defer()  # deferred update: answered now, edited by the owner
        row = await self.bot.db.fetchone("SELECT guild_id FROM tables WHERE id = ?", (table_id,))
        if row is None:
            tr = await reader(self.bot, interaction)
            await interaction.followup.send(f"⚠️ {tr._(GONE, id=table_id)}", ephemeral=True)
            return True
        shard = shard_of(row[0], self.plan.count)
        if shard in self.plan.ids:
            return False
        held = await self.bot.db.fetchall(HOLDERS_SQL, (self.locks.space,))
        if shard not in {r[0] for r in held}:
            tr = await reader(self.bot, interaction)
            await interaction.followup.send(f"⚠️ {tr._(RESTARTING)}", ephemeral=True)
            return True
        payload = json.dumps(trim(interaction, custom_id, values), separators=(",", ":"))
        await self.bot.db.fetchone("SELECT pg_notify(?, ?)", (channel_name(self.locks.space, shard), payload))
        return True

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        task = asyncio.get_running_loop().create_task(self._answer(json.loads(payload)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, p: dict[str, Any]) -> None:
        self.received.append(p["id"])
        await self.bot.handle_component(rebuild(self.bot, p), p["custom_id"], p["values"])

    async def idle(self) -> None:
        """Wait for the forwarded clicks being answered."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
