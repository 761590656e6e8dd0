"""The Discord stand-in: an aiohttp REST server and gateway websocket on 127.0.0.1.

The real discord.py client is pointed at it (``Route.BASE`` and ``DEFAULT_GATEWAY``); every REST
call is recorded, messages are stored as Discord would store them, and tests drive the bot by
sending INTERACTION_CREATE events (see :mod:`tests.discord_stub.actions`).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import discord
import yarl
from aiohttp import web

from tests.discord_stub import schema
from tests.discord_stub.model import (
    EPHEMERAL,
    TABLE_PERMISSIONS,
    Attachment,
    Call,
    Channel,
    Guild,
    Interaction,
    Message,
    User,
    snowflake,
)
from tests.discord_stub.ratelimit import RateLimits

JSON = "application/json"
#: Discord's window for the first response to an interaction (seconds from INTERACTION_CREATE);
#: a later callback is refused with 10062 "Unknown interaction", as Discord does.
INTERACTION_WINDOW = 3.0
BODY = web.RequestKey("body", object)
FILES = web.RequestKey("files", list)


def reply(data: Any = None, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response with the exact Content-Type discord.py checks for."""
    if status == 204:
        return web.Response(status=204, headers=headers)
    return web.Response(body=json.dumps(data), status=status, content_type=JSON, headers=headers)


#: The messages of the JSON error codes the stand-in answers a refused channel with.
REFUSALS = {10003: "Unknown Channel", 50001: "Missing Access", 50013: "Missing Permissions"}
MANAGE_THREADS = 1 << 34


def error(status: int, code: int, message: str) -> web.Response:
    return reply({"code": code, "message": message}, status)


@dataclass
class Fault:
    """A planned failure: the next ``count`` requests matching method and route fail this way."""

    method: str
    route: str  # canonical route, e.g. "/channels/{cid}/messages"
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    count: int = 1


class StubServer:
    """REST + gateway; the stored Discord world. Test helpers live in ``DiscordStub``."""

    def __init__(self) -> None:
        self.bot_user = User(snowflake(), "Tapis", bot=True)
        self.app_id = self.bot_user.id
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.member_lookups = 0  # GET /guilds/{g}/members/{u} requests answered
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}  # user id -> DM channel
        self.closed_dms: set[int] = set()
        self.store: dict[int, Message] = {}
        self.by_channel: dict[int, list[Message]] = defaultdict(list)
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.calls: list[Call] = []
        self.unknown_routes: list[str] = []
        self.faults: list[Fault] = []
        self.invalid: list[tuple[Call, dict[str, Any]]] = []  # bodies Discord's schema refused
        self.validate = True
        self.rate_limits: RateLimits | None = None  # set to enforce Discord's rate limits
        self.invalid_expected = False  # a test that sends invalid bodies on purpose sets this
        self.echo_messages = True
        #: The bot's permissions in the interactions' channel (``app_permissions``, a decimal string):
        #: by default what a table needs (``TABLE_PERMISSIONS``), not Create Public Threads.
        self.app_permissions = str(TABLE_PERMISSIONS)
        #: ``(status, code, message)`` every thread creation gets, e.g. (403, 50013, "Missing Permissions").
        self.refuse_threads: tuple[int, int, str] | None = None
        self.ws: web.WebSocketResponse | None = None
        self.connections = 0
        self.intents = 0  # the gateway intents of the last IDENTIFY (Discord sends only what they cover)
        #: Privileged intents not enabled on the bot's page: an IDENTIFY asking for one of these bits is
        #: closed with 4014 ("Disallowed intent(s)"), as Discord does.
        self.disallowed_intents = 0
        #: A close code every IDENTIFY is answered with (4004 a token reset, 4011 sharding required…).
        self.identify_close: int | None = None
        self.seq = 0
        self.ready = asyncio.Event()
        self.changed = asyncio.Condition()
        self.inflight = 0
        self.last_activity = 0.0
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        if self.validate:
            schema.warm()  # fails loudly here if Discord's OpenAPI document is missing
        app = web.Application(middlewares=[self._middleware], client_max_size=32 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        r = app.router
        api = "/api/v10"
        r.add_get(api + "/users/@me", self._me)
        r.add_get(api + "/oauth2/applications/@me", self._app_info)
        r.add_put(api + "/applications/{app}/commands", self._sync)
        r.add_put(api + "/applications/{app}/guilds/{gid}/commands", self._sync)
        r.add_get(api + "/applications/{app}/commands", self._get_commands)
        r.add_get(api + "/applications/{app}/guilds/{gid}/commands", self._get_commands)
        r.add_post(api + "/interactions/{iid}/{token}/callback", self._callback)
        r.add_post(api + "/webhooks/{app}/{token}", self._followup)
        r.add_route("*", api + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_message)
        r.add_post(api + "/users/@me/channels", self._open_dm)
        r.add_get(api + "/guilds/{gid}/members/{uid}", self._get_member)
        r.add_get(api + "/channels/{cid}", self._get_channel)
        r.add_patch(api + "/channels/{cid}", self._edit_channel)
        r.add_post(api + "/channels/{cid}/messages/{mid}/threads", self._start_thread)
        r.add_post(api + "/channels/{cid}/messages", self._send)
        r.add_route("*", api + "/channels/{cid}/messages/{mid}", self._channel_message)
        r.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.last_activity = asyncio.get_running_loop().time()
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"http://127.0.0.1:{self.port}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{self.port}/")

    async def stop(self) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved

    # ------------------------------------------------------------------ world

    def add_guild(self, name: str = "Guild", owner: User | None = None) -> Guild:
        owner = owner or self.add_user(f"{name} owner")
        guild = Guild(snowflake(), name, owner.id, members=[self.bot_user, owner])
        self.guilds[guild.id] = guild
        self.add_channel(guild, "general")
        return guild

    def add_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(snowflake(), name, guild.id)
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    async def add_private_channel(self, guild: Guild, name: str, members: list[User]) -> Channel:
        """A text channel only ``members`` (and admins) can view: @everyone denied View Channel, each
        member allowed it by a member overwrite; the bot learns of it by CHANNEL_CREATE."""
        view = str(0x400)
        channel = self.add_channel(guild, name)
        channel.overwrites = [{"id": str(guild.id), "type": 0, "allow": "0", "deny": view},
                              *({"id": str(u.id), "type": 1, "allow": view, "deny": "0"} for u in members)]
        if self.ws is not None and not self.ws.closed:
            await self.dispatch("CHANNEL_CREATE", channel.payload(len(guild.channels) - 1))
        return channel

    def add_thread(self, parent: Channel, name: str) -> Channel:
        """A public thread (or forum post) in ``parent``: not in the guild's channel list, as on Discord."""
        thread = Channel(snowflake(), name, parent.guild_id, kind=11, parent_id=parent.id)
        self.channels[thread.id] = thread
        return thread

    def lose_channel(self, channel: Channel, status: int = 404, code: int | None = None) -> None:
        """From now on, sends and edits in ``channel`` fail: 404/10003 (deleted), 403/50001 (no access:
        View Channel taken away, the channel made private, the bot removed from the server) or, with
        ``code=50013``, 403/50013 (a permission such as Send Messages, Embed Links or Attach Files taken
        away), in Discord's error shape (``{"code", "message"}``)."""
        code = code if code is not None else (10003 if status == 404 else 50001)
        channel.gone = (status, code, REFUSALS[code])

    def restore_channel(self, channel: Channel) -> None:
        """The bot may use ``channel`` again (a permission given back, the bot invited again)."""
        channel.gone = None

    async def remove_bot(self, guild: Guild) -> None:
        """The bot is kicked from ``guild``: GUILD_DELETE (not ``unavailable``), and every request to the
        guild's channels and threads now gets 403/50001 Missing Access."""
        for channel in self.channels.values():
            if channel.guild_id == guild.id:
                self.lose_channel(channel, 403)
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id)})

    def lock_thread(self, thread: Channel) -> None:
        """A moderator locks and archives ``thread``: only Manage Threads may open it again (the bot
        has not), and its messages cannot be edited while it is archived."""
        thread.archived = thread.locked = True

    def add_user(self, name: str, guild: Guild | None = None, admin: bool = False) -> User:
        user = User(snowflake(), name)
        self.users[user.id] = user
        if guild is not None:
            guild.members.append(user)
            if admin:
                guild.admins.add(user.id)
        return user

    def dm_channel(self, user: User | int) -> Channel:
        uid = user if isinstance(user, int) else user.id
        if uid not in self.dm_channels:
            channel = Channel(snowflake(), "dm", None, self.users[uid])
            self.dm_channels[uid] = channel
            self.channels[channel.id] = channel
        return self.dm_channels[uid]

    async def notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    # ------------------------------------------------------------------ gateway

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        if self.ws is None or self.ws.closed:
            raise AssertionError(f"no bot connected to the gateway to receive {event}")
        self.seq += 1
        await self.ws.send_str(json.dumps({"op": 0, "t": event, "s": self.seq, "d": data}))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.ws = ws
        self.connections += 1
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for frame in ws:
            msg = json.loads(frame.data)
            op = msg.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 2:
                self.intents = int((msg.get("d") or {}).get("intents") or 0)
                if self.intents & self.disallowed_intents:
                    await ws.close(code=4014, message=b"Disallowed intent(s).")
                    break
                if self.identify_close is not None:
                    await ws.close(code=self.identify_close, message=b"Closed by the stand-in.")
                    break
                await self._identify(ws)
        if self.ws is ws:
            self.ready.clear()
        return ws

    async def _identify(self, ws: web.WebSocketResponse) -> None:
        self.seq = 0
        await self.dispatch("READY", {
            "v": 10, "user": self.bot_user.payload(), "session_id": "stub-session",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/",
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
            "application": {"id": str(self.app_id), "flags": 0},
        })
        for guild in self.guilds.values():
            await self.dispatch("GUILD_CREATE", guild.payload())
        self.ready.set()

    # ------------------------------------------------------------------ REST plumbing

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == "/":
            return await handler(request)
        self.inflight += 1
        try:
            body, files = await self._read_body(request)
            request[BODY], request[FILES] = body, files
            route = request.match_info.route.resource.canonical if request.match_info.route.resource else ""
            route = route.removeprefix("/api/v10")
            now = asyncio.get_running_loop().time()
            call = Call(request.method, request.path.removeprefix("/api/v10"), route, body, files, at=now)
            self.calls.append(call)
            limited: dict[str, str] = {}
            if self.rate_limits is not None:
                info = request.match_info
                major = info.get("cid") or info.get("gid") or info.get("token") or ""
                verdict = self.rate_limits.check(request.method, route, major, now)
                call.bucket, call.global_counted = verdict.bucket, verdict.global_counted
                if verdict.refusal is not None:
                    call.status = 429
                    call.bucket = verdict.bucket if verdict.scope == "user" else "global"
                    return reply(verdict.refusal, 429, verdict.headers)
                limited = verdict.headers
            refusal = schema.check(request.method, call.path, body) if self.validate else None
            if refusal is not None:
                self.invalid.append((call, refusal))
                call.status = 400
                return reply(refusal, 400)
            fault = self._take_fault(request.method, route)
            if fault is not None:
                call.status = fault.status
                return reply(fault.body, fault.status, fault.headers)
            response = await handler(request)
            call.status = response.status
            response.headers.update(limited)
            return response
        finally:
            self.inflight -= 1
            self.last_activity = asyncio.get_running_loop().time()
            await self.notify()

    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
        ctype = request.content_type
        if ctype.startswith("multipart/"):
            form = await request.post()
            indexed: list[tuple[int, str, bytes]] = []
            payload: Any = None
            for key, value in form.items():
                if key == "payload_json":
                    payload = json.loads(value if isinstance(value, str) else value.file.read())
                elif hasattr(value, "file"):  # files[n]: the n of payload_json's attachments[].id
                    n = key[6:-1] if key.startswith("files[") and key.endswith("]") else ""
                    at = int(n) if n.isdigit() else len(indexed)
                    indexed.append((at, value.filename, value.file.read()))
            return payload, [(name, raw) for _, name, raw in sorted(indexed, key=lambda f: f[0])]
        raw = await request.read()
        return (json.loads(raw) if raw else None), []

    def _take_fault(self, method: str, route: str) -> Fault | None:
        for fault in self.faults:
            if fault.method == method and fault.route == route and fault.count > 0:
                fault.count -= 1
                if fault.count == 0:
                    self.faults.remove(fault)
                return fault
        return None

    async def _unknown(self, request: web.Request) -> web.Response:
        self.unknown_routes.append(f"{request.method} {request.path}")
        return error(404, 0, f"stand-in has no route {request.method} {request.path}")

    # ------------------------------------------------------------------ REST: login and sync

    async def _me(self, request: web.Request) -> web.Response:
        return reply(self.bot_user.payload())

    async def _app_info(self, request: web.Request) -> web.Response:
        owner = User(self.app_id + 1, "owner").payload()
        return reply({"id": str(self.app_id), "name": "Tapis", "description": "", "icon": None,
                      "bot_public": True, "bot_require_code_grant": False, "owner": owner,
                      "verify_key": "0" * 64, "flags": 0})

    async def _sync(self, request: web.Request) -> web.Response:
        """Bulk overwrite: as Discord, a command already there by that name keeps its id."""
        gid = request.match_info.get("gid")
        before = {c["name"]: c["id"] for c in self.commands.get(int(gid) if gid else None, [])}
        out = []
        for cmd in request[BODY] or []:
            cid = before.get(cmd["name"]) or str(snowflake())
            out.append({**cmd, "id": cid, "application_id": str(self.app_id), "version": "1",
                        "type": cmd.get("type", 1), "default_member_permissions": None,
                        **({"guild_id": gid} if gid else {})})
        self.commands[int(gid) if gid else None] = out
        return reply(out)

    async def _get_commands(self, request: web.Request) -> web.Response:
        gid = request.match_info.get("gid")
        return reply(self.commands.get(int(gid) if gid else None, []))

    # ------------------------------------------------------------------ REST: interactions

    async def _callback(self, request: web.Request) -> web.Response:
        inter = self.interactions.get(int(request.match_info["iid"]))
        if inter is None or inter.token != request.match_info["token"]:
            return error(404, 10062, "Unknown interaction")
        if inter.callback_type is not None:
            return error(400, 40060, "Interaction has already been acknowledged.")
        now = asyncio.get_running_loop().time()
        if inter.sent_at and now - inter.sent_at > INTERACTION_WINDOW:
            inter.late = True  # the token's callback has expired: the user saw "interaction failed"
            inter.answered.set()
            return error(404, 10062, "Unknown interaction")
        body = request[BODY] or {}
        kind = body.get("type")
        data = body.get("data") or {}
        message: Message | None = None
        if kind in (4, 5):
            message = self._create(inter.channel, data, request[FILES], interaction_id=inter.id)
        elif kind == 6:
            message = inter.message
        elif kind == 7 and inter.message is not None:
            message = self._edit(inter.message, data, request[FILES])
        elif kind == 8:
            inter.choices = data.get("choices", [])
        inter.callback_type = kind
        inter.original = message
        inter.answered_at = now
        inter.answered.set()
        resource: dict[str, Any] = {"type": kind}
        if message is not None:
            resource["message"] = self._payload(message)
        return reply({
            "interaction": {"id": str(inter.id), "type": inter.type,
                            "response_message_id": str(message.id) if message else None,
                            "response_message_loading": kind == 5,
                            "response_message_ephemeral": bool(message and message.ephemeral)},
            "resource": resource,
        })

    def _inter_by_token(self, request: web.Request) -> Interaction | None:
        inter = self.by_token.get(request.match_info["token"])
        if inter is None or str(self.app_id) != request.match_info["app"]:
            return None
        return inter

    async def _followup(self, request: web.Request) -> web.Response:
        inter = self._inter_by_token(request)
        if inter is None:
            return error(404, 10015, "Unknown Webhook")
        if inter.callback_type is None:
            return error(400, 40060, "Interaction has not been acknowledged.")
        original = inter.original
        if inter.callback_type == 5 and original is not None and original.edits == 0 and not inter.followups:
            # Discord: the first follow-up after a "thinking" defer replaces the thinking message.
            self._edit(original, request[BODY] or {}, request[FILES])
            return reply(self._payload(original))
        message = self._create(inter.channel, request[BODY] or {}, request[FILES], interaction_id=inter.id)
        inter.followups.append(message)
        return reply(self._payload(message))

    async def _webhook_message(self, request: web.Request) -> web.Response:
        inter = self._inter_by_token(request)
        if inter is None:
            return error(404, 10015, "Unknown Webhook")
        mid = request.match_info["mid"]
        message = inter.original if mid == "@original" else self.store.get(int(mid))
        if message is None or message.deleted:
            return error(404, 10008, "Unknown Message")
        channel = self.channels.get(message.channel_id)
        if channel is not None and channel.gone is not None:  # deleted: its messages with it; access
            # removed: assumed refused as well (the stand-in's choice; Discord does not document it)
            return error(404, 10008, "Unknown Message") if channel.gone[0] == 404 else error(*channel.gone)
        return await self._message_op(request, message)

    # ------------------------------------------------------------------ REST: messages

    async def _open_dm(self, request: web.Request) -> web.Response:
        uid = int((request[BODY] or {}).get("recipient_id", 0))
        if uid not in self.users:
            return error(400, 50033, "Invalid Recipient(s)")
        return reply(self.dm_channel(uid).payload())

    async def _get_member(self, request: web.Request) -> web.Response:
        """``GET /guilds/{g}/members/{u}``: the member, or Discord's 10007 Unknown Member."""
        self.member_lookups += 1
        guild = self.guilds.get(int(request.match_info["gid"]))
        if guild is None:
            return error(404, 10004, "Unknown Guild")
        user = next((m for m in guild.members if m.id == int(request.match_info["uid"])), None)
        if user is None:
            return error(404, 10007, "Unknown Member")
        return reply(guild.member_payload(user))

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self.channels.get(int(request.match_info["cid"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        return reply(channel.payload())

    async def _edit_channel(self, request: web.Request) -> web.Response:
        """``PATCH /channels/{id}``: the stand-in keeps a thread's archived and locked flags."""
        channel = self.channels.get(int(request.match_info["cid"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        if channel.gone is not None:
            return error(*channel.gone)
        body = request[BODY] or {}
        if channel.kind == 11 and channel.locked and body.get("archived") is False \
                and not int(self.app_permissions) & MANAGE_THREADS:
            return error(403, 50013, REFUSALS[50013])  # a locked thread: only Manage Threads reopens it
        if channel.kind == 11:
            channel.archived = bool(body.get("archived", channel.archived))
            channel.locked = bool(body.get("locked", channel.locked))
        if "name" in body:
            channel.name = body["name"]
        return reply(channel.payload())

    async def _start_thread(self, request: web.Request) -> web.Response:
        """``POST /channels/{c}/messages/{m}/threads``: a public thread whose id is the message's, as on
        Discord; ``refuse_threads`` makes it fail."""
        channel = self.channels.get(int(request.match_info["cid"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        if channel.gone is not None:
            return error(*channel.gone)
        if self.refuse_threads is not None:
            return error(*self.refuse_threads)
        if channel.kind != 0:
            return error(400, 50024, "Cannot execute action on this channel type")
        message = self.store.get(int(request.match_info["mid"]))
        if message is None or message.deleted or message.channel_id != channel.id:
            return error(404, 10008, "Unknown Message")
        if message.id in self.channels:
            return error(400, 160004, "A thread has already been created for this message")
        body = request[BODY] or {}
        thread = Channel(message.id, body["name"], channel.guild_id, kind=11, parent_id=channel.id,
                         auto_archive_duration=int(body.get("auto_archive_duration") or 1440))
        self.channels[thread.id] = thread
        return reply(thread.payload(), 201)

    async def _send(self, request: web.Request) -> web.Response:
        channel = self.channels.get(int(request.match_info["cid"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        if channel.gone is not None:
            return error(*channel.gone)
        if channel.archived:
            if channel.locked:
                return error(400, 50083, "Thread is archived")
            channel.archived = False  # Discord: a new message in an unlocked thread unarchives it
        if channel.is_dm and channel.recipient is not None and channel.recipient.id in self.closed_dms:
            return error(403, 50007, "Cannot send messages to this user")
        message = self._create(channel, request[BODY] or {}, request[FILES])
        return reply(self._payload(message))

    async def _channel_message(self, request: web.Request) -> web.Response:
        channel = self.channels.get(int(request.match_info["cid"]))
        if channel is not None and channel.gone is not None:
            return error(*channel.gone)
        message = self.store.get(int(request.match_info["mid"]))
        if message is None or message.deleted or message.channel_id != int(request.match_info["cid"]):
            return error(404, 10008, "Unknown Message")
        if message.ephemeral:
            return error(404, 10008, "Unknown Message")
        if channel is not None and channel.archived and request.method != "GET":
            return error(400, 50083, "Thread is archived")
        return await self._message_op(request, message)

    async def _message_op(self, request: web.Request, message: Message) -> web.Response:
        if request.method == "GET":
            return reply(self._payload(message))
        if request.method == "DELETE":
            message.deleted = True
            return reply(None, 204)
        if request.method == "PATCH":
            self._edit(message, request[BODY] or {}, request[FILES])
            channel = self.channels.get(message.channel_id)
            if self.echo_messages and channel and not channel.is_dm and not message.ephemeral:
                asyncio.get_running_loop().create_task(self._echo("MESSAGE_UPDATE", message))
            return reply(self._payload(message))
        return error(405, 0, "Method Not Allowed")

    def _create(self, channel: Channel, data: dict[str, Any], files: list[tuple[str, bytes]],
                interaction_id: int | None = None) -> Message:
        message = Message(snowflake(), channel.id, self.bot_user, interaction_id=interaction_id,
                          flags=int(data.get("flags") or 0))
        self._apply(message, data, files)
        self.store[message.id] = message
        if not message.ephemeral:
            self.by_channel[channel.id].append(message)
            if self.echo_messages:
                asyncio.get_running_loop().create_task(self._echo("MESSAGE_CREATE", message))
        return message

    def _edit(self, message: Message, data: dict[str, Any], files: list[tuple[str, bytes]]) -> Message:
        self._apply(message, data, files)
        message.edits += 1
        return message

    @staticmethod
    def _apply(message: Message, data: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        if "content" in data:
            message.content = data["content"] or ""
        if "embeds" in data:
            message.embeds = data["embeds"] or []
        if "components" in data:
            message.components = data["components"] or []
        if "attachments" in data or files:
            listed = data.get("attachments") or []
            keep = {int(a["id"]) for a in listed if int(a["id"]) > 10_000}
            message.attachments = [a for a in message.attachments if a.id in keep]
            # a new upload's description (alt text) is the one of payload_json's attachments[] whose
            # id is the upload's index (``files[n]``), as Discord reads it
            described = {int(a["id"]): a.get("description") for a in listed if int(a["id"]) <= 10_000}
            message.attachments += [Attachment(snowflake(), name, raw, described.get(n))
                                    for n, (name, raw) in enumerate(files)]

    def _payload(self, message: Message) -> dict[str, Any]:
        channel = self.channels.get(message.channel_id)
        return message.payload(channel.guild_id if channel else None)

    async def _echo(self, event: str, message: Message) -> None:
        if self.ws is not None and not self.ws.closed:
            try:
                await self.dispatch(event, self._payload(message))
            except (ConnectionError, RuntimeError):
                pass

    # ------------------------------------------------------------------ faults

    def inject_429(self, method: str, route: str, retry_after: float = 0.1, count: int = 1) -> None:
        """The next ``count`` calls to ``method route`` get HTTP 429 with ``retry_after`` seconds."""
        headers = {"Via": "1.1 google", "X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "5",
                   "X-RateLimit-Reset-After": str(retry_after), "X-RateLimit-Bucket": "stub",
                   "Retry-After": str(retry_after)}
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
        self.faults.append(Fault(method, route, 429, body, headers, count))

    def fail(self, method: str, route: str, status: int, code: int, message: str = "failure",
             count: int = 1) -> None:
        """The next ``count`` calls to ``method route`` fail with ``status`` and JSON ``code``."""
        self.faults.append(Fault(method, route, status, {"code": code, "message": message}, {}, count))


def route_of(path: str) -> str:
    """A concrete path with ids replaced by ``{}`` (for messages)."""
    return re.sub(r"/\d+", "/{}", path)


__all__ = ["EPHEMERAL", "StubServer", "route_of"]
