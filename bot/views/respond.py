"""Answering interactions: once, within 3 s, ephemeral for refusals.

``run_soon`` starts slow work and defers the interaction if it is not done after ``DEFER_AFTER``
seconds; the reply helpers then use the follow-up / original-response endpoints as needed.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

T = TypeVar("T")
DEFER_AFTER = 1.0


async def maybe(value: Any) -> Any:
    """Await ``value`` if it is awaitable (for service calls that may be sync or async)."""
    return await value if inspect.isawaitable(value) else value


async def run_soon(interaction: discord.Interaction, work: Awaitable[T], *, update: bool = False,
                   ephemeral: bool = True) -> T:
    """Await ``work``; if it takes longer than ``DEFER_AFTER`` s, defer the interaction first.

    ``update`` defers as a message update (component clicks that edit their message).
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    return await task


async def send(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
               **kwargs: Any) -> None:
    """Send a (by default ephemeral) message as the response or, if already answered, a follow-up."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


async def refuse(interaction: discord.Interaction, reason: str) -> None:
    """A short ephemeral refusal; nothing was changed."""
    await send(interaction, f"⚠️ {reason}", ephemeral=True)


async def update(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message the clicked component belongs to (as the response, or after a defer)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
