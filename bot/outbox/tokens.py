"""Editing a table message through an interaction's webhook, outside Discord's global limit.

An interaction's token lets the bot edit that interaction's original response for 15 minutes
(``PATCH /webhooks/{app}/{token}/messages/@original``), and interaction endpoints are not bound by
the bot's global 50 requests/s. Two interactions have the table message as their original: the
``/table new`` that posted it (the lobby is its response), and a click on the table message that was
acknowledged as a message update (type 6): the host's **Start** click. So for the first 14 minutes
after the lobby was posted, and again after Start, the table message's edits cost nothing of the
global budget; after that (or if Discord refuses the token) they go through the channel as before.

A token is noted *pending* before its interaction is acknowledged: an edit that wants it waits
(at most ``READY_WAIT`` s) until the acknowledgement is sent, since Discord knows no original
response before that.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.app import TapisBot

log = logging.getLogger(__name__)
TOKEN_LIFE = 14 * 60.0  # seconds a token is used for (Discord keeps it 15 minutes)
READY_WAIT = 3.0  # seconds an edit waits for a pending token's acknowledgement (Discord's own 3 s)


@dataclass
class Token:
    """An interaction whose original response is a table's message."""

    interaction: discord.Interaction[TapisBot]
    message_id: int
    at: float
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class TableTokens:
    """Per table, the freshest interaction able to edit its message (``tokens``: table id -> Token)."""

    def __init__(self, life: float = TOKEN_LIFE) -> None:
        self.life = life
        self.tokens: dict[int, Token] = {}

    def note(self, table_id: int, interaction: discord.Interaction[TapisBot], message_id: int | None,
             ready: bool = True) -> Token | None:
        """Remember ``interaction`` for the table's message ``message_id`` (pending if not ``ready``)."""
        if message_id is None:
            return None
        token = Token(interaction, message_id, asyncio.get_running_loop().time())
        if ready:
            token.ready.set()
        self.tokens[table_id] = token
        return token

    def drop(self, table_id: int, token: Token | None = None) -> None:
        """Forget the table's token (only ``token`` if given: a newer one stays)."""
        if token is None or self.tokens.get(table_id) is token:
            self.tokens.pop(table_id, None)
        if token is not None:
            token.ready.set()  # nobody waits for it any more

    def fresh(self, table_id: int, message_id: int | None) -> Token | None:
        """The table's token if it still edits the message ``message_id`` and is young enough."""
        token = self.tokens.get(table_id)
        if token is None:
            return None
        if token.message_id != message_id or asyncio.get_running_loop().time() - token.at > self.life:
            self.tokens.pop(table_id, None)
            return None
        return token

    async def edit(self, table_id: int, token: Token, **kwargs: Any) -> bool:
        """Edit the table message through ``token``; False (and the token forgotten) if that failed."""
        if not token.ready.is_set():
            try:
                await asyncio.wait_for(token.ready.wait(), READY_WAIT)
            except TimeoutError:
                self.drop(table_id, token)
                return False
        if self.tokens.get(table_id) is not token:
            return False  # dropped while waiting (its acknowledgement failed)
        try:
            await token.interaction.edit_original_response(**kwargs)
        except discord.HTTPException as exc:
            log.info("table %s: edit through the interaction webhook refused (%s): editing in the channel",
                     table_id, exc)
            self.drop(table_id, token)
            return False
        return True
