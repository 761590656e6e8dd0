"""Plain records of the Discord stand-in: users, guilds, channels, messages, calls, interactions.

The records hold what Discord would hold server-side; ``*_payload`` functions turn them into the
JSON the real discord.py client expects (with the fields it insists on, even where Discord's
schema marks them optional).
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any

EPHEMERAL = 64
#: View Channel, Send Messages, Embed Links, Attach Files, Read Message History, Send Messages in
#: Threads (what a table needs of its channel or thread, ``bot.permissions``; Discord's defaults for
#: @everyone include them): the stand-in's default for the bot and for @everyone. Not Create Public
#: Threads: a thread per table is what tests of threads grant.
TABLE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 38)
_ids = itertools.count(1_100_000_000_000_000_000)
TIMESTAMP = "2024-01-01T00:00:00.000000+00:00"


def snowflake() -> int:
    """A fresh, increasing id."""
    return next(_ids)


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"  # the Discord client's language, sent as the interaction's "locale"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
        }


@dataclass
class Channel:
    id: int
    name: str
    guild_id: int | None = None  # None for a DM channel
    recipient: User | None = None  # the other end of a DM channel
    kind: int = 0  # Discord's channel type: 0 text, 11 public thread (also a forum post)
    parent_id: int | None = None  # a thread's channel
    gone: tuple[int, int, str] | None = None  # (status, code, message) every request now gets
    overwrites: list[dict[str, Any]] = field(default_factory=list)  # Discord's permission_overwrites
    archived: bool = False  # a thread: archived (by the bot, or by Discord after inactivity)
    locked: bool = False
    auto_archive_duration: int = 1440

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None

    def payload(self, position: int = 0) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient is not None
            return {"id": str(self.id), "type": 1, "recipients": [self.recipient.payload()],
                    "last_message_id": None}
        if self.kind == 11:
            return {"id": str(self.id), "type": 11, "name": self.name, "guild_id": str(self.guild_id),
                    "parent_id": str(self.parent_id), "owner_id": "0",
                    "message_count": 0, "member_count": 1, "rate_limit_per_user": 0, "flags": 0,
                    "thread_metadata": {"archived": self.archived, "locked": self.locked,
                                        "auto_archive_duration": self.auto_archive_duration,
                                        "archive_timestamp": TIMESTAMP}}
        return {"id": str(self.id), "type": 0, "name": self.name, "position": position,
                "guild_id": str(self.guild_id), "permission_overwrites": self.overwrites, "nsfw": False,
                "parent_id": None, "topic": None}


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    channels: list[Channel] = field(default_factory=list)
    members: list[User] = field(default_factory=list)
    admins: set[int] = field(default_factory=set)
    locale: str = "en-US"  # the server's language: "preferred_locale", the interactions' "guild_locale"
    roles: dict[int, str] = field(default_factory=dict)  # role id -> name, besides @everyone
    member_roles: dict[int, list[int]] = field(default_factory=dict)  # user id -> role ids
    #: @everyone's permissions (what a table needs, ``TABLE_PERMISSIONS``; tests add others, e.g.
    #: Create Public Threads).
    everyone: int = TABLE_PERMISSIONS

    def member_payload(self, user: User) -> dict[str, Any]:
        perms = (1 << 3) if user.id in self.admins or user.id == self.owner_id else 0
        roles = [str(r) for r in self.member_roles.get(user.id, [])]
        return {"user": user.payload(), "roles": roles, "flags": 0, "joined_at": TIMESTAMP,
                "deaf": False, "mute": False, "nick": None, "permissions": str(perms | 0x800 | 0x400)}

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "owner_id": str(self.owner_id), "unavailable": False,
            "member_count": len(self.members), "large": False, "features": [], "emojis": [],
            "stickers": [], "roles": [{"id": str(self.id), "name": "@everyone",
                                       "permissions": str(self.everyone), "position": 0, "color": 0,
                                       "hoist": False, "managed": False, "mentionable": False, "flags": 0},
                                      *({"id": str(rid), "name": name, "permissions": "0", "position": 1,
                                         "color": 0, "hoist": False, "managed": False, "mentionable": False,
                                         "flags": 0} for rid, name in self.roles.items())],
            "channels": [c.payload(i) for i, c in enumerate(self.channels)],
            "members": [self.member_payload(u) for u in self.members],
            "threads": [], "presences": [], "voice_states": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "icon": None,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "mfa_level": 0, "premium_tier": 0, "preferred_locale": self.locale, "nsfw_level": 0,
        }


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    description: str | None = None  # the alt text sent with the upload (payload_json attachments[])

    def payload(self) -> dict[str, Any]:
        url = f"http://cdn.invalid/attachments/{self.id}/{self.filename}"
        out: dict[str, Any] = {"id": str(self.id), "filename": self.filename, "size": len(self.data),
                               "url": url, "proxy_url": url}
        if self.description is not None:
            out["description"] = self.description
        return out


@dataclass
class Message:
    """A message as the stand-in stores it (its current state, after edits)."""

    id: int
    channel_id: int
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    interaction_id: int | None = None  # set on interaction responses and follow-ups
    edits: int = 0
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def text(self) -> str:
        """Content plus every embed's visible text, one block (for ``in`` assertions)."""
        parts = [self.content or ""]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append((e.get("footer") or {}).get("text", ""))
            parts.append((e.get("author") or {}).get("name", ""))
        return "\n".join(p for p in parts if p)

    def items(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons and selects), flattened in display order."""
        out: list[dict[str, Any]] = []
        for row in self.components:
            out += row.get("components", [row]) if row.get("type") == 1 else [row]
        return out

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.items() if "custom_id" in c]

    def button(self, label: str | None = None, *, contains: str | None = None) -> dict[str, Any]:
        """The button with this exact label (or whose custom_id contains ``contains``)."""
        for c in self.items():
            if c.get("type") != 2:
                continue
            if label is not None and c.get("label") == label:
                return c
            if contains is not None and contains in c.get("custom_id", ""):
                return c
        raise AssertionError(f"no button {label or contains!r} in {[c.get('label') for c in self.items()]}")

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.items() if c.get("type") == 3]

    def payload(self, guild_id: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id), "type": 0 if self.interaction_id is None else 20, "content": self.content,
            "channel_id": str(self.channel_id), "author": self.author.payload(), "embeds": self.embeds,
            "components": self.components, "attachments": [a.payload() for a in self.attachments],
            "mentions": [], "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
            "timestamp": TIMESTAMP, "edited_timestamp": TIMESTAMP if self.edits else None,
            "flags": self.flags,
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data


@dataclass
class Call:
    """One REST request the bot made."""

    method: str
    path: str
    route: str  # the path with ids replaced by {placeholders}
    json: Any
    files: list[tuple[str, bytes]]
    status: int = 200
    bucket: str | None = None  # with rate limits on: the per-route bucket, or "global" for a global 429
    global_counted: bool = False  # with rate limits on: it used the global budget
    at: float = 0.0  # loop time the stand-in received it


@dataclass
class Interaction:
    """An interaction the stand-in sent, and everything the bot answered to it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete
    user: User
    channel: Channel
    message: Message | None = None  # the message holding the clicked component
    callback_type: int | None = None
    original: Message | None = None  # the response message (or the component's message)
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None  # autocomplete results
    data: dict[str, Any] | None = None  # the interaction's ``data`` (command options, custom_id, values)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    sent_at: float = 0.0  # loop time when INTERACTION_CREATE was sent to the bot
    answered_at: float = 0.0  # loop time when the bot's first response arrived
    late: bool = False  # the bot's first response came after Discord's window and was refused

    @property
    def latency(self) -> float:
        """Seconds from sending the interaction to the bot's first response."""
        return self.answered_at - self.sent_at

    @property
    def responses(self) -> list[Message]:
        """The interaction's own response message (if any) then its follow-ups."""
        own = [self.original] if self.original is not None and self.original.interaction_id == self.id else []
        return own + self.followups

    @property
    def last(self) -> Message:
        """The latest message the bot sent or edited for this interaction."""
        if self.followups:
            return self.followups[-1]
        if self.original is None:
            raise AssertionError(f"interaction {self.id} has no response (callback {self.callback_type})")
        return self.original

    @property
    def text(self) -> str:
        return self.last.text

    @property
    def ephemeral(self) -> bool:
        return self.last.ephemeral
