"""What tests use: send slash commands, clicks and select choices; look up what the bot did."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from tests.discord_stub import server
from tests.discord_stub.model import Call, Channel, Guild, Interaction, Message, User, snowflake
from tests.discord_stub.ratelimit import RateLimits
from tests.discord_stub.server import StubServer

OPTION_TYPES = {"string": 3, "integer": 4, "boolean": 5, "user": 6, "number": 10}
ANSWER_TIMEOUT = 5.0
DEFERRED_ANSWER = 1.0  # seconds a click answered by a deferred update waits for what follows
GUILD_MEMBERS = 1 << 1  # the privileged gateway intent behind GUILD_MEMBER_ADD/UPDATE/REMOVE


class DiscordStub(StubServer):
    """The stand-in plus the helpers tests drive it with."""

    #: What each interaction says a file may weigh (Discord's ``attachment_size_limit``).
    attachment_size_limit = 10 * 1024 * 1024

    # ------------------------------------------------------------------ members

    async def remove_member(self, guild: Guild, user: User) -> bool:
        """``user`` leaves ``guild`` (kicked, banned or gone): GUILD_MEMBER_REMOVE, which Discord sends
        only to a bot that identified with the GUILD_MEMBERS intent. Returns whether it was sent."""
        guild.members = [m for m in guild.members if m.id != user.id]
        if not self.intents & GUILD_MEMBERS:
            return False
        await self.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": user.payload()})
        return True

    # ------------------------------------------------------------------ sending interactions

    async def slash(self, command: str, user: User, channel: Channel, /, *, wait: bool = True,
                    **options: Any) -> Interaction:
        """Run ``/command`` (``"table new"`` for a subcommand) as ``user`` in ``channel``."""
        data = self._command_data(command, options, focused=None, channel=channel)
        return await self._send_interaction(2, data, user, channel, wait=wait)

    async def autocomplete(self, command: str, user: User, channel: Channel, focused: str, /,
                           **options: Any) -> list[dict[str, Any]]:
        """The bot's autocomplete choices for option ``focused`` (its typed value in ``options``)."""
        options.setdefault(focused, "")
        data = self._command_data(command, options, focused=focused)
        inter = await self._send_interaction(4, data, user, channel, wait=True)
        assert inter.callback_type == 8, f"autocomplete answered with callback {inter.callback_type}"
        return inter.choices or []

    async def click(self, message: Message, user: User, label: str | None = None, *,
                    custom_id: str | None = None, wait: bool = True) -> Interaction:
        """Click a button of ``message`` by label, or by ``custom_id`` (forged if not on the message)."""
        if custom_id is None:
            custom_id = message.button(label)["custom_id"]
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send_interaction(3, data, user, self.channels[message.channel_id],
                                            message=message, wait=wait)

    async def choose(self, message: Message, user: User, values: list[str], *,
                     custom_id: str | None = None, index: int = 0, wait: bool = True) -> Interaction:
        """Pick ``values`` in a select menu of ``message`` (the ``index``-th one, or by custom_id)."""
        if custom_id is None:
            custom_id = message.selects()[index]["custom_id"]
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._send_interaction(3, data, user, self.channels[message.channel_id],
                                            message=message, wait=wait)

    async def _send_interaction(self, kind: int, data: dict[str, Any], user: User, channel: Channel, *,
                                message: Message | None = None, wait: bool) -> Interaction:
        inter = Interaction(snowflake(), secrets.token_urlsafe(48), kind, user, channel, message=message,
                            data=data)
        self.interactions[inter.id] = inter
        self.by_token[inter.token] = inter
        payload: dict[str, Any] = {
            "id": str(inter.id), "application_id": str(self.app_id), "type": kind, "token": inter.token,
            "version": 1, "attachment_size_limit": self.attachment_size_limit, "data": data,
            "locale": user.locale,
            "channel_id": str(channel.id), "channel": channel.payload(),
            "app_permissions": self.app_permissions,
            "entitlements": [], "authorizing_integration_owners": {"0": "0"},
        }
        if channel.is_dm:
            payload["user"] = user.payload()
            payload["context"] = 1
        else:
            guild = self.guilds[channel.guild_id]  # type: ignore[index]
            payload["guild_id"] = str(guild.id)
            payload["member"] = guild.member_payload(user)
            payload["guild_locale"] = guild.locale
            payload["context"] = 0
        if message is not None:
            msg = self._payload(message)
            cid = data.get("custom_id")
            if cid not in message.custom_ids():  # a forged id: Discord would never send it, a test may
                forged: dict[str, Any] = {"type": 2, "style": 2, "label": "forged", "custom_id": cid}
                if data.get("component_type") == 3:
                    forged = {"type": 3, "custom_id": cid, "options": [
                        {"label": v, "value": v} for v in data.get("values", [])]}
                msg["components"] = [*msg["components"], {"type": 1, "components": [forged]}]
            payload["message"] = msg
        inter.sent_at = asyncio.get_running_loop().time()
        await self.dispatch("INTERACTION_CREATE", payload)
        if wait:
            await self.answered(inter)
        return inter

    async def answered(self, inter: Interaction, timeout: float = ANSWER_TIMEOUT) -> Interaction:
        """Wait until the bot acknowledged ``inter`` (first response)."""
        try:
            await asyncio.wait_for(inter.answered.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"the bot did not answer interaction {inter.type} {inter.id} "
                                 f"within {timeout}s") from None
        if inter.late:
            raise AssertionError(f"the bot answered interaction {inter.type} {inter.id} after Discord's "
                                 f"{server.INTERACTION_WINDOW:g} s window: refused, the user saw it fail")
        if inter.callback_type == 6 and not inter.channel.is_dm and inter.original is not None:
            # A click in a channel acknowledged as a message update (Start: its token then edits the
            # table message): its visible answer is the follow-up or edit that comes right after.
            edits = inter.original.edits
            with contextlib.suppress(AssertionError):
                await self.wait_for(lambda: inter.followups or inter.original.edits > edits,  # type: ignore
                                    timeout=DEFERRED_ANSWER)
        elif inter.callback_type == 5 and inter.type == 3 and inter.original is not None:
            # A click the bot took more than a second over (a loaded machine) is deferred as "thinking":
            # what the clicker reads is the edit or follow-up that comes after, not the empty placeholder.
            original = inter.original
            with contextlib.suppress(AssertionError):
                await self.wait_for(lambda: inter.followups or original.edits > 0, timeout=timeout)
        return inter

    def _command_data(self, command: str, options: dict[str, Any], focused: str | None,
                      channel: Channel | None = None) -> dict[str, Any]:
        names = command.split()
        schema = self._find_command(names[0])
        node: dict[str, Any] = {"id": schema["id"], "name": names[0], "type": 1}
        resolved: dict[str, Any] = {}
        cursor = node
        spec = schema
        for sub in names[1:]:
            subs = [o for o in spec.get("options", []) if o["type"] in (1, 2)]
            spec = next((o for o in subs if o["name"] == sub), None)
            if spec is None:
                raise AssertionError(f"/{command}: no subcommand {sub!r} was synced")
            child: dict[str, Any] = {"name": sub, "type": spec["type"], "options": []}
            cursor.setdefault("options", []).append(child)
            cursor = child
        opts = []
        known = {o["name"]: o for o in spec.get("options", []) if o["type"] not in (1, 2)}
        for name, value in options.items():
            if name not in known:
                raise AssertionError(f"/{command} has no option {name!r} (it has {sorted(known)})")
            kind = known[name]["type"]
            if kind == 6:
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                guild = self.guilds.get(channel.guild_id) if channel and channel.guild_id else None
                if guild is not None and value in guild.members:  # as Discord: members resolved too
                    member = {k: v for k, v in guild.member_payload(value).items() if k != "user"}
                    resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            opt = {"name": name, "type": kind, "value": value}
            if name == focused:
                opt["focused"] = True
            opts.append(opt)
        cursor["options"] = opts
        if resolved:
            node["resolved"] = resolved
        return node

    def _find_command(self, name: str) -> dict[str, Any]:
        for cmds in self.commands.values():
            for cmd in cmds:
                if cmd["name"] == name:
                    return cmd
        raise AssertionError(f"no command /{name} was synced (synced: "
                             f"{sorted(c['name'] for cs in self.commands.values() for c in cs)})")

    def mention(self, name: str) -> str:
        """How a text mentions the synced command ``name`` ("table new"): ``</table new:<its id>>``,
        with the id this stand-in gave the top-level command at the bot's sync."""
        return f"</{name}:{self._find_command(name.split()[0])['id']}>"

    # ------------------------------------------------------------------ looking things up

    def messages(self, channel: Channel | int) -> list[Message]:
        """Visible messages of a channel, oldest first, in their current (edited) state."""
        cid = channel if isinstance(channel, int) else channel.id
        return [m for m in self.by_channel.get(cid, []) if not m.deleted]

    def dms(self, user: User) -> list[Message]:
        """Messages the bot delivered to ``user``'s DMs, oldest first."""
        channel = self.dm_channels.get(user.id)
        return self.messages(channel) if channel else []

    def last_response(self, inter: Interaction) -> Message:
        return inter.last

    def message(self, message_id: int) -> Message:
        return self.store[message_id]

    def ephemerals(self) -> list[Message]:
        """Every ephemeral message the bot sent (answers and follow-ups), oldest first."""
        return [m for m in self.store.values() if m.ephemeral]

    def calls_to(self, method: str, route: str) -> list:
        return [c for c in self.calls if c.method == method and c.route == route]

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "") -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every REST call); return its value."""
        async def loop() -> Any:
            async with self.changed:
                while not (value := predicate()):
                    await self.changed.wait()
                return value
        try:
            return await asyncio.wait_for(loop(), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what or predicate}") from None

    async def idle(self, quiet: float = 0.03, timeout: float = 10.0) -> None:
        """Wait until no REST call is in flight and none came for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            if self.inflight == 0 and loop.time() - self.last_activity >= quiet:
                return
            await asyncio.sleep(quiet / 3)
        raise AssertionError("the stand-in never went quiet")

    # ------------------------------------------------------------------ rate limits

    def enforce_rate_limits(self, limits: RateLimits | None = None) -> RateLimits:
        """From now on, answer 429 as Discord does past its global and per-route limits."""
        self.rate_limits = limits or RateLimits(refilled=asyncio.get_running_loop().time())
        return self.rate_limits

    def rate_limited(self) -> list[Call]:
        """The requests answered 429 so far."""
        return [c for c in self.calls if c.status == 429]

    def repeated_429s(self) -> list[str]:
        """Buckets that answered 429 twice in a row (the client ignored or misread the first)."""
        last: dict[str, int] = {}
        repeated = []
        for call in self.calls:
            if call.status == 429:
                buckets = [call.bucket or "global"]
            else:
                buckets = [b for b in (call.bucket, "global" if call.global_counted else None) if b]
            for bucket in buckets:
                if call.status == 429 and last.get(bucket) == 429:
                    repeated.append(f"{call.method} {call.path} ({bucket})")
                last[bucket] = call.status
        return repeated

    def close_dms(self, user: User) -> None:
        """From now on, sending a DM to ``user`` fails with 403 / 50007."""
        self.closed_dms.add(user.id)
