"""The images the outbox attaches: rendered off the event loop by ``bot.render`` (optional here),
attached as ``discord.File`` s, cached per table by a key of what they show."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.tables.model import Table


def playable(table: Table, seat: int) -> set[str]:
    """The cards the seat may play now (raised in its hand image); none when it is not its turn."""
    if table.state is None or table.status != "playing" or seat not in table.state.to_act():
        return set()
    from bot.render.hand import playable_cards

    return playable_cards(table.state.legal_actions(seat))


def json_default(value: Any) -> Any:
    """JSON for the image cache key: sets in a stable order, anything else as text."""
    return sorted(value) if isinstance(value, (set, frozenset)) else str(value)


def render_fn(name: str) -> Any:
    """``bot.render.<name>`` if the render package offers it (it is optional here)."""
    try:
        import bot.render as render
    except Exception:  # the package may be missing or broken: text embeds still work
        return None
    return getattr(render, name, None)


def as_file(data: Any, filename: str, description: str | None = None) -> discord.File:
    """A rendered image (bytes, a PIL image or a file object) as an attachment named ``filename``;
    ``description`` is its alt text (``bot.views.alt``), what Discord reads to screen readers."""
    if isinstance(data, (bytes, bytearray)):
        return discord.File(io.BytesIO(data), filename=filename, description=description)
    if hasattr(data, "save") and not hasattr(data, "read"):  # a PIL image
        buf = io.BytesIO()
        data.save(buf, format="PNG")
        buf.seek(0)
        return discord.File(buf, filename=filename, description=description)
    return discord.File(data, filename=filename, description=description)
