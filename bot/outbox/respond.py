"""Answering interactions: once, within 3 s, ephemeral for refusals.

``run_soon`` starts slow work and defers the interaction if it is not done after ``DEFER_AFTER``
seconds; the reply helpers then use the follow-up / original-response endpoints as needed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.views.texts import fit

if TYPE_CHECKING:
    from bot.app import TapisBot

T = TypeVar("T")
DEFER_AFTER = 1.0
#: Discord's codes for an interaction that can no longer be answered (its 3 s or 15 min are over).
ANSWER_LOST = frozenset({10062, 10015})
#: Edits do not inherit the bot's default (discord.py applies it to new messages only).
NO_MENTIONS = discord.AllowedMentions.none()


def answer_lost(error: BaseException) -> bool:
    """True if ``error`` (or the error it wraps) is Discord saying the interaction cannot be answered."""
    error = getattr(error, "original", error)
    return isinstance(error, discord.NotFound) and error.code in ANSWER_LOST


async def run_soon(interaction: discord.Interaction[TapisBot], work: Awaitable[T], *, update: bool = False,
                   ephemeral: bool = True) -> T:
    """Await ``work``; if it takes longer than ``DEFER_AFTER`` s, defer the interaction meanwhile.

    ``work`` runs in the caller's task, so the caller answers in the very loop step the outcome
    is known. ``update`` defers as a message update (component clicks that edit their message).
    """
    loop = asyncio.get_running_loop()
    deferring: list[asyncio.Task[None]] = []

    def defer() -> None:
        if not interaction.response.is_done():
            deferring.append(loop.create_task(_defer(interaction, update, ephemeral)))

    timer = loop.call_later(DEFER_AFTER, defer)
    try:
        return await work
    finally:
        timer.cancel()
        if deferring:  # the replies that follow need the defer to be acknowledged first
            with contextlib.suppress(discord.HTTPException):
                await deferring[0]


async def _defer(interaction: discord.Interaction[TapisBot], update: bool, ephemeral: bool) -> None:
    if interaction.response.is_done():
        return
    if update:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def send(interaction: discord.Interaction[TapisBot], content: str | None = None, *,
               ephemeral: bool = True, **kwargs: Any) -> None:
    """Send a (by default ephemeral) message as the response or, if already answered, a follow-up.

    ``content`` is cut to Discord's 2,000 characters: a reply is never refused for its length.
    """
    if content is not None:
        kwargs["content"] = fit(content)
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)


async def refuse(interaction: discord.Interaction[TapisBot], reason: str) -> None:
    """A short ephemeral refusal; nothing was changed."""
    await send(interaction, f"⚠️ {reason}", ephemeral=True)


async def update(interaction: discord.Interaction[TapisBot], **kwargs: Any) -> None:
    """Edit the message the clicked component belongs to (as the response, or after a defer)."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
