"""Pillow rendering for Tapis: the table, a seat's hand and the leaderboard, as PNG bytes.

Pure functions (no Discord, no I/O besides reading the shipped fonts), safe to call from
worker threads (``asyncio.to_thread``): card sprites are drawn once and cached.
"""

from __future__ import annotations

from bot.render.hand import hand_image
from bot.render.leaderboard import leaderboard_image
from bot.render.table import table_image

__all__ = ["hand_image", "leaderboard_image", "table_image"]
