"""DM clicks for a table another shard process owns: forwarded over PostgreSQL LISTEN/NOTIFY.

Discord delivers every DM interaction to shard 0. A move clicked in a DM for a table of a guild on
another shard reaches the shard-0 process, which does not hold that table. That process answers at
once with a deferred update (Discord's 3 s are met), finds the table's guild in the store, and
sends the click to the owning process with ``pg_notify('tapis_<space>_shard_<n>', payload)``; the payload is
trimmed to what the handler needs (a whole DM message would pass NOTIFY's 8,000 bytes). The owner,
listening on its shards' channels on the connection that holds their locks, rebuilds the
interaction as an already deferred one and runs the usual handler: the move is applied under the
table's lock with its version check (a replayed click is refused, nothing applied twice). NOTIFY is
not durable: if the owner is down, the click is answered "restarting, try again" (no lock holder)
or, if it dies in between, not at all, and the player clicks again. An owner listens from the moment
it holds its shards' locks, before its tables are replayed: a click heard then waits until they are
(``RESUME_WAIT``), rather than finding its table unknown.

Authenticated, and no token on the wire: any database role may NOTIFY or LISTEN, so every payload
is sealed (``bot.signing``: HMAC-SHA256 under ``TAPIS_FORWARD_SECRET``, with a time and a nonce; a
forged, altered or replayed one moves nothing) and the interaction's token never leaves the
shard-0 process. The owner answers through that process instead (the first of the issue's two
ways; the second, the owner editing the DM through ordinary REST, would spend the bot's global
REST budget, shared by every process and the limit at scale, on every forwarded move: measured
1.29 requests under the global limit per move instead of 0.24 with two processes):

- A refusal's text goes back over a sealed NOTIFY on the shard-0 process's channel, which sends
  the ephemeral follow-up with the token it kept (``pending``, at most ``TOKEN_LIFE``).
- An edit of the clicked DM (the "You played" answer, then the player's next prompt with its hand
  image: more than a NOTIFY holds) is sent as sealed parts of at most ``PART_CHARS`` characters;
  the shard-0 process puts them together, edits the DM through the kept token (the interaction
  webhook: outside the global limit, as before) and acknowledges. The owner waits for that
  acknowledgement (``ACK_TIMEOUT``), so the player's DMs change in the order the owner made them;
  without it (the token is gone, shard 0 is down or slow) the owner edits the DM through REST
  itself, one request of the shared budget.

The 3-second rule is unchanged: shard 0 defers before anything else, the rest comes after.

The same connection carries one more sealed notice: a person's ``/language``, ``/cards`` or
``/preferences`` choice, which every process keeps in memory. The process that stored it sends
``{"kind": "person"}`` on the bot's ``people`` channel (``people_channel``), and every process (the
sender too) reads that person's rows again (``TapisBot.reread_person``).
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import logging
import secrets
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import N_
from bot.outbox.budget import PROMPT
from bot.outbox.respond import NO_MENTIONS
from bot.outbox.tokens import TOKEN_LIFE
from bot.sharding import HOLDERS_SQL, ShardLocks, ShardPlan, shard_of
from bot.signing import Sealer
from bot.views.locale import reader

if TYPE_CHECKING:
    from bot.app import TapisBot

log = logging.getLogger(__name__)

#: Refusals of a forwarded click, translated for the clicking player (``tr._``).
RESTARTING = N_("This table's server is restarting; try again in a moment.")
GONE = N_("Table #{id} does not exist any more.")
#: Forwarded clicks kept at most at once, oldest dropped first (memory stays bounded).
PENDING_KEEP = 10_000
#: Characters of a refusal sent back over NOTIFY (8,000 bytes at most, even in 4-byte characters).
REPLY_CHARS = 1_500
#: Characters of an edit's JSON (ASCII) per NOTIFY part: escaped again inside the sealed envelope
#: it at most doubles, so a part stays under NOTIFY's 8,000 bytes.
PART_CHARS = 3_500
#: Seconds the owner waits for shard 0 to confirm a relayed edit before editing through REST.
ACK_TIMEOUT = 5.0
#: Seconds the parts of an unfinished edit are kept (an edit whose last part never came is dropped).
PARTS_LIFE = 30.0
#: Seconds a click forwarded to a process still resuming its tables waits for them, before the
#: player is told to try again (the click's token lives 15 minutes with the shard-0 process).
RESUME_WAIT = 120.0
#: Ids of the latest forwarded clicks an owner keeps (``Forwarder.received``; older ones are dropped).
RECEIVED_KEEP = 256


def channel_name(space: int, shard: int) -> str:
    """The NOTIFY channel of a shard's owner (per lock space: NOTIFY is database-wide, like the locks)."""
    return f"tapis_{space}_shard_{shard}"


def people_channel(space: int) -> str:
    """The NOTIFY channel every process of the bot listens on for a person's changed choices."""
    return f"tapis_{space}_people"


def trim(interaction: discord.Interaction[TapisBot], custom_id: str, values: list[str] | None,
         reply_to: str) -> dict[str, Any]:
    """What the owner needs to run a DM click (ids as strings, as Discord sends them): the clicked
    message only by its id (a whole DM message would not fit a NOTIFY), and no token (it stays
    with this process, which answers on ``reply_to``'s behalf)."""
    user = interaction.user
    return {"kind": "click", "id": str(interaction.id), "reply_to": reply_to,
            "user": {"id": str(user.id), "username": user.name, "discriminator": "0", "avatar": None,
                     "global_name": getattr(user, "global_name", None)},
            "channel_id": str(interaction.channel_id), "custom_id": custom_id, "values": values,
            "locale": str(interaction.locale),
            "message_id": str(interaction.message.id) if interaction.message is not None else None}


class _Followup:
    """``interaction.followup`` of a forwarded click: the text goes back to the process holding the
    token, which sends it as the follow-up."""

    def __init__(self, interaction: ForwardedInteraction) -> None:
        self.interaction = interaction

    async def send(self, content: str | None = None, *, ephemeral: bool = False, **extra: Any) -> None:
        """Send ``content`` as a follow-up of the click (text only: a refusal or a notice)."""
        if extra:
            log.warning("a forwarded click's follow-up keeps its text only (dropped: %s)", sorted(extra))
        it = self.interaction
        await it.forwarder.report(it.reply_to, {"kind": "reply", "id": str(it.id),
                                                "content": (content or "")[:REPLY_CHARS],
                                                "ephemeral": ephemeral})


class ForwardedInteraction(discord.Interaction["TapisBot"]):
    """A DM click run by the owning process without its token (see the module's docstring):
    already answered (deferred update); follow-ups go back to the shard-0 process, edits of the
    clicked DM go through REST."""

    forwarder: Forwarder
    reply_to: str

    @property
    def followup(self) -> Any:
        return _Followup(self)

    async def edit_original_response(self, **kwargs: Any) -> discord.Message | None:  # type: ignore[override]
        """Edit the clicked DM: through the shard-0 process and the click's token (free), or if
        that fails through REST (one request of the shared budget, prompt priority)."""
        if await self.forwarder.relay_edit(self, kwargs):
            return None
        message = self.message
        if message is None or self.channel_id is None:
            raise discord.ClientException("a forwarded click without its message cannot edit it")
        for f in kwargs.get("attachments") or ():
            if isinstance(f, discord.File):
                f.reset()
        bot = self.client
        await bot.presenter.budget.take(PROMPT, self.guild_id)
        dm = bot.get_partial_messageable(self.channel_id, type=discord.ChannelType.private)
        return await dm.get_partial_message(message.id).edit(**kwargs)

    async def original_response(self) -> discord.InteractionMessage:
        raise discord.ClientException("a forwarded click has no original response here")

    async def delete_original_response(self) -> None:
        raise discord.ClientException("a forwarded click has no original response here")


def encode_edit(kwargs: dict[str, Any]) -> dict[str, Any]:
    """An ``edit_original_response``'s arguments as JSON: content, embeds, components, files."""
    out: dict[str, Any] = {}
    if "content" in kwargs:
        out["content"] = kwargs["content"]
    if "embed" in kwargs or "embeds" in kwargs:
        embeds = kwargs.get("embeds") or ([kwargs["embed"]] if kwargs.get("embed") is not None else [])
        out["embeds"] = [e.to_dict() for e in embeds]
    if "view" in kwargs:
        out["components"] = kwargs["view"].to_components() if kwargs["view"] is not None else []
    if "attachments" in kwargs:
        files = []
        for f in kwargs["attachments"] or ():
            f.reset()
            files.append({"name": f.filename, "data": base64.b64encode(f.fp.read()).decode()})
        out["files"] = files
    return out


def view_from_components(rows: list[dict[str, Any]]) -> discord.ui.View | None:
    """A stopped view (never stored: clicks go through the dynamic items) holding the buttons and
    selects of ``rows`` (Discord's action rows), or None when there are none."""
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(rows[:5]):
        for c in row.get("components", []):
            emoji = discord.PartialEmoji.from_dict(c["emoji"]) if c.get("emoji") else None
            if c.get("type") == 2:
                view.add_item(discord.ui.Button(
                    label=c.get("label"), style=discord.ButtonStyle(c.get("style", 1)), row=r, emoji=emoji,
                    custom_id=c.get("custom_id"), url=c.get("url"), disabled=bool(c.get("disabled"))))
            elif c.get("type") == 3:
                view.add_item(discord.ui.Select(
                    custom_id=c.get("custom_id", ""), placeholder=c.get("placeholder"), row=r,
                    min_values=c.get("min_values", 1), max_values=c.get("max_values", 1),
                    disabled=bool(c.get("disabled")),
                    options=[discord.SelectOption(label=o["label"], value=o["value"],
                                                  description=o.get("description"),
                                                  default=bool(o.get("default")))
                             for o in c.get("options", [])]))
    if not view.children:
        return None
    view.stop()
    return view


def decode_edit(p: dict[str, Any]) -> dict[str, Any]:
    """``encode_edit``'s JSON back as ``edit_original_response`` arguments (no mentions)."""
    kwargs: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
    if "content" in p:
        kwargs["content"] = p["content"]
    if "embeds" in p:
        kwargs["embeds"] = [discord.Embed.from_dict(d) for d in p["embeds"]]
    if "components" in p:
        kwargs["view"] = view_from_components(p["components"])
    if "files" in p:
        kwargs["attachments"] = [discord.File(io.BytesIO(base64.b64decode(f["data"])), filename=f["name"])
                                 for f in p["files"]]
    return kwargs


def rebuild(bot: TapisBot, p: dict[str, Any], forwarder: Forwarder) -> ForwardedInteraction:
    """The interaction of a forwarded click, already answered (deferred update), without a token."""
    data: dict[str, Any] = {
        "id": p["id"], "application_id": str(bot.application_id or 0), "type": 3, "token": "",
        "version": 1,
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
    interaction = ForwardedInteraction(data=data, state=bot._connection)  # type: ignore[arg-type]
    interaction.forwarder = forwarder
    interaction.reply_to = str(p["reply_to"])
    interaction.response._response_type = discord.InteractionResponseType.deferred_message_update
    return interaction


class Forwarder:
    """Both ends of the hand-off: ``forward`` on the process that got the click, ``start`` on owners.

    Every NOTIFY it sends is sealed with ``secret`` and every one it hears is opened (checked)
    first: a forged, altered, expired or replayed payload is dropped (``sealer.refused``).
    """

    def __init__(self, bot: TapisBot, locks: ShardLocks, plan: ShardPlan, secret: bytes) -> None:
        self.bot = bot
        self.locks = locks
        self.plan = plan
        self.sealer = Sealer(secret)
        #: Interaction ids of the latest ``RECEIVED_KEEP`` clicks handled for another process (tests, logs).
        self.received: list[str] = []
        #: Clicks forwarded by this process, by interaction id: (interaction, loop time), for the
        #: owner's follow-ups (their tokens never leave this process).
        self.pending: OrderedDict[str, tuple[discord.Interaction[TapisBot], float]] = OrderedDict()
        #: Edits relayed by this owner, waiting for shard 0's acknowledgement, by request id.
        self.acks: dict[str, asyncio.Future[bool]] = {}
        #: Parts of edits being received (shard 0): request id -> (loop time of the first, parts).
        self.parts: dict[str, tuple[float, dict[int, str]]] = {}
        self.relayed = 0  # edits made through a kept token for an owner (figures, tests)
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def reply_channel(self) -> str:
        """The channel this process hears the owners' answers on (its first shard's)."""
        return channel_name(self.locks.space, self.plan.ids[0])

    async def start(self) -> None:
        """LISTEN on this process's shards, on the connection holding their locks."""
        conn = self.locks.connection
        for shard in self.plan.ids:
            await conn.add_listener(channel_name(self.locks.space, shard), self._on_notify)
        await conn.add_listener(people_channel(self.locks.space), self._on_notify)
        bot = self.bot
        for store in (bot.languages, bot.card_faces, bot.preferences):
            store.changed = self.person_changed

    async def person_changed(self, user_id: int) -> None:
        """Tell every process (this one too) that ``user_id`` stored a new choice (a failure is
        logged: the choice is stored, other processes see it at their next start)."""
        channel = people_channel(self.locks.space)
        try:
            await self._notify(channel, {"kind": "person", "user": str(user_id)})
        except Exception:  # noqa: BLE001 - the choice itself is saved; never fail the command
            log.warning("could not tell the other processes of user %s's new choice", user_id, exc_info=True)

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
        self._keep(interaction)
        await self._notify(channel_name(self.locks.space, shard),
                           trim(interaction, custom_id, values, self.reply_channel))
        return True

    def _keep(self, interaction: discord.Interaction[TapisBot]) -> None:
        """Keep a forwarded click's interaction for the owner's follow-ups (bounded in time and number)."""
        now = asyncio.get_running_loop().time()
        self.pending[str(interaction.id)] = (interaction, now)
        while self.pending:
            _, (_, at) = next(iter(self.pending.items()))
            if now - at <= TOKEN_LIFE and len(self.pending) <= PENDING_KEEP:
                break
            self.pending.popitem(last=False)

    async def _notify(self, channel: str, body: dict[str, Any]) -> None:
        await self.bot.db.fetchone("SELECT pg_notify(?, ?)", (channel, self.sealer.seal(channel, body)))

    async def report(self, channel: str, body: dict[str, Any]) -> None:
        """Send an answer about a forwarded click back to the process that holds its token."""
        await self._notify(channel, body)

    def _on_notify(self, _conn: Any, _pid: int, channel: str, payload: str) -> None:
        body = self.sealer.open(channel, payload)
        if body is None:
            return  # forged, altered, expired or replayed: nothing moves (counted, warned)
        kind = body.get("kind")
        if kind == "ack":
            future = self.acks.get(str(body.get("req")))
            if future is not None and not future.done():
                future.set_result(bool(body.get("ok")))
            return
        if kind == "part":
            edit = self._assemble(body)
            if edit is None:
                return
            work = self._edit(edit)
        elif kind == "click":
            work = self._answer(body)
        elif kind == "reply":
            work = self._relay(body)
        elif kind == "person" and channel == people_channel(self.locks.space):
            try:
                work = self.bot.reread_person(int(body["user"]))
            except (KeyError, TypeError, ValueError):
                return
        else:
            return
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, p: dict[str, Any]) -> None:
        """Run a forwarded click, once this process has resumed its tables: this process listens
        from the moment it holds its shards' locks, before its tables are replayed from the store,
        and a click run earlier would find its table unknown (``RESUME_WAIT`` at most, then the
        player is told to try again)."""
        self.received.append(p["id"])
        if len(self.received) > RECEIVED_KEEP:
            del self.received[:-RECEIVED_KEEP]
        try:  # (rebuilt after the wait: before its login this process does not know its own user)
            await asyncio.wait_for(self.bot.tables_resumed.wait(), RESUME_WAIT)
        except TimeoutError:
            interaction = rebuild(self.bot, p, self)
            tr = await reader(self.bot, interaction)
            await interaction.followup.send(f"⚠️ {tr._(RESTARTING)}", ephemeral=True)
            return
        await self.bot.handle_component(rebuild(self.bot, p, self), p["custom_id"], p["values"])

    async def _relay(self, p: dict[str, Any]) -> None:
        """An owner's follow-up for a click this process forwarded: sent with the kept token."""
        kept = self.pending.get(str(p.get("id")))
        if kept is None:
            log.info("an answer to forwarded click %s came after its token was dropped", p.get("id"))
            return
        interaction = kept[0]
        try:
            await interaction.followup.send(str(p.get("content") or "")[:2000],
                                            ephemeral=bool(p.get("ephemeral")))
        except discord.HTTPException as exc:
            log.warning("could not relay the answer to forwarded click %s: %s", p.get("id"), exc)

    async def relay_edit(self, interaction: ForwardedInteraction, kwargs: dict[str, Any]) -> bool:
        """Owner: have the shard-0 process edit a forwarded click's DM with its token; True once it
        confirms, False if it refused or did not answer within ``ACK_TIMEOUT``."""
        req = secrets.token_hex(12)
        body = {"kind": "edit", "id": str(interaction.id), "req": req, "ack_to": self.reply_channel,
                **encode_edit(kwargs)}
        text = json.dumps(body, separators=(",", ":"))  # ASCII: every part's size is its length
        chunks = [text[i:i + PART_CHARS] for i in range(0, len(text), PART_CHARS)]
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.acks[req] = future
        try:
            for k, chunk in enumerate(chunks):
                await self._notify(interaction.reply_to, {"kind": "part", "req": req, "k": k,
                                                          "n": len(chunks), "text": chunk})
            return await asyncio.wait_for(future, ACK_TIMEOUT)
        except TimeoutError:
            log.info("no answer from shard 0 about the edit of forwarded click %s: editing by REST",
                     interaction.id)
            return False
        finally:
            self.acks.pop(req, None)

    def _assemble(self, part: dict[str, Any]) -> dict[str, Any] | None:
        """Shard 0: keep a part of an edit; the whole edit once its last part is in."""
        now = asyncio.get_running_loop().time()
        for req in [r for r, (at, _) in self.parts.items() if now - at > PARTS_LIFE]:
            del self.parts[req]
        try:
            req, k, n, text = str(part["req"]), int(part["k"]), int(part["n"]), str(part["text"])
        except (KeyError, TypeError, ValueError):
            return None
        if not 0 <= k < n:
            return None
        got = self.parts.setdefault(req, (now, {}))[1]
        got[k] = text
        if len(got) < n:
            return None
        del self.parts[req]
        try:
            edit = json.loads("".join(got[i] for i in range(n)))
        except (KeyError, ValueError):
            return None
        return edit if isinstance(edit, dict) and edit.get("kind") == "edit" else None

    async def _edit(self, p: dict[str, Any]) -> None:
        """Shard 0: an owner's edit of a forwarded click's DM, made with the kept token, then
        acknowledged (ok or not) to the owner."""
        kept = self.pending.get(str(p.get("id")))
        ok = False
        if kept is not None:
            try:
                await kept[0].edit_original_response(**decode_edit(p))
                ok = True
                self.relayed += 1
            except discord.HTTPException as exc:
                log.info("the token of forwarded click %s could not edit its DM (%s)", p.get("id"), exc)
        await self._notify(str(p["ack_to"]), {"kind": "ack", "req": p.get("req"), "ok": ok})

    async def idle(self) -> None:
        """Wait for the forwarded clicks being answered."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
