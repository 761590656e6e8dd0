"""What Tapis needs of a channel to hold a table there, and the invite link that grants it.

A table lives in one channel message for hours or days: the slash command's answer shows the
lobby, but once its 15-minute token is spent every edit (the table image, the buttons) is a channel
request, and some tables post in the channel (a lost answer, Play again from a thread, reminders).
Without these permissions a table would open and then freeze, so ``/table new``, ``/tournament
create`` and Play again refuse at once, naming what is missing (``bot.cogs.settings.opening``):

- View Channel, Send Messages (Send Messages in Threads in a thread), Embed Links, Attach Files.

Discord sends the bot's permissions in the channel with each interaction (``app_permissions``);
Play again opens in the finished table's channel, read from the cache when the click came from
elsewhere (a channel the cache does not know is not refused: Discord then answers). A thread per
table also needs Create Public Threads and Send Messages in Threads; without them the table runs in
the channel (``bot.outbox.threads``), so they are in the invite, not in this check.
"""

from __future__ import annotations

import base64
import binascii
import sys

import discord

from bot.i18n.lazy import NP_, Listed, Msg, nmsg

#: (flag, name as Discord's settings show it) of each permission a table's channel must give.
NEEDED: tuple[tuple[str, tuple[str, str]], ...] = (
    ("view_channel", NP_("permission", "View Channel")),
    ("send_messages", NP_("permission", "Send Messages")),
    ("embed_links", NP_("permission", "Embed Links")),
    ("attach_files", NP_("permission", "Attach Files")),
)
#: In a thread, messages are sent under this permission instead of Send Messages.
IN_THREAD = ("send_messages_in_threads", NP_("permission", "Send Messages in Threads"))
#: What a thread per table needs on top (optional: without it the table stays in the channel).
THREADS = ("create_public_threads", "send_messages_in_threads")
#: Those permissions with their names as Discord shows them.
THREAD_NEEDS: tuple[tuple[str, tuple[str, str]], ...] = (
    ("create_public_threads", NP_("permission", "Create Public Threads")), IN_THREAD)


def missing(perms: discord.Permissions, *, thread: bool = False) -> list[Msg]:
    """The permissions a table needs that ``perms`` lacks, as names to show (Discord's own)."""
    needed = [IN_THREAD if thread and flag == "send_messages" else (flag, name) for flag, name in NEEDED]
    return [Msg(name[1], context=name[0]) for flag, name in needed if not getattr(perms, flag)]


def refusal(perms: discord.Permissions, *, thread: bool = False) -> Msg | None:
    """Why no table may open where the bot has ``perms`` (None: it may)."""
    lacking = missing(perms, thread=thread)
    if not lacking:
        return None
    return nmsg("Tapis cannot hold a table in this channel: it lacks the {permissions} permission here. "
                "A server manager can grant it in the channel's settings (Permissions).",
                "Tapis cannot hold a table in this channel: it lacks the {permissions} permissions here. "
                "A server manager can grant them in the channel's settings (Permissions).",
                len(lacking), permissions=Listed(tuple(lacking)))


def place_warning(perms: discord.Permissions, place: str, *, thread: bool = False) -> Msg | None:
    """Why no table could open in ``place`` (a channel the admin lists in ``/settings channels``)
    where the bot has ``perms``, told to that admin at once (None: tables may open there)."""
    lacking = missing(perms, thread=thread)
    if not lacking:
        return None
    return nmsg("Tapis lacks the {permissions} permission in {place}: tables cannot open there until a "
                "server manager grants it in the channel's settings (Permissions).",
                "Tapis lacks the {permissions} permissions in {place}: tables cannot open there until a "
                "server manager grants them in the channel's settings (Permissions).",
                len(lacking), permissions=Listed(tuple(lacking)), place=place)


def thread_warning(perms: discord.Permissions, place: str) -> Msg | None:
    """Why tables in ``place`` would get no thread of their own where the bot has ``perms`` (told to
    the admin who turns ``/settings threads`` on; None: they would)."""
    lacking = [Msg(name[1], context=name[0]) for flag, name in THREAD_NEEDS if not getattr(perms, flag)]
    if not lacking:
        return None
    return nmsg("Tapis lacks the {permissions} permission in {place}: tables there run in the channel, "
                "without a thread.",
                "Tapis lacks the {permissions} permissions in {place}: tables there run in the channel, "
                "without a thread.", len(lacking), permissions=Listed(tuple(lacking)), place=place)


def cached(channel: object) -> discord.Permissions | None:
    """The bot's permissions in a channel or thread from the client's cache: None when ``channel``
    is not a server channel or thread, or the cache does not know the bot's member there."""
    if not isinstance(channel, (discord.abc.GuildChannel, discord.Thread)):
        return None
    me = channel.guild.me
    return channel.permissions_for(me) if me is not None else None


def invite_permissions() -> discord.Permissions:
    """Everything Tapis asks for in its invite: a table's channel permissions and threads'."""
    perms = discord.Permissions.none()
    for flag in (*(f for f, _ in NEEDED), *THREADS):
        setattr(perms, flag, True)
    return perms


def invite_url(client_id: int) -> str:
    """The link that adds Tapis to a server with its slash commands and ``invite_permissions``."""
    return discord.utils.oauth_url(client_id, permissions=invite_permissions(),
                                   scopes=("bot", "applications.commands"))


def client_id_of(token: str) -> int | None:
    """The bot's user id, which a bot token begins with (base64); None if it does not parse."""
    head = token.strip().split(".", 1)[0]
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), validate=False).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(text) if text.isdigit() else None


def invite_main(argv: list[str], token: str | None) -> int:
    """``python -m bot invite [--client-id ID]``: print the invite link (the id read from the bot
    token when not given); exit code 2 when neither gives one."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bot invite",
                                     description="Print the link that adds Tapis to a server, with the "
                                                 "permissions its tables need.")
    parser.add_argument("--client-id", metavar="ID", type=int, default=None,
                        help="the application's id (default: read from DISCORD_TOKEN)")
    args = parser.parse_args(argv)
    client_id = args.client_id or (client_id_of(token) if token else None)
    if client_id is None and token:
        print("tapis: DISCORD_TOKEN does not begin with an application id: is it the bot's token (Bot "
              "page of the Developer Portal)? Or give --client-id ID", file=sys.stderr)
        return 2
    if client_id is None:
        print("tapis: give --client-id (the application's id) or export DISCORD_TOKEN", file=sys.stderr)
        return 2
    print(invite_url(client_id))
    return 0
