"""Small helpers shared by the table tests."""

from __future__ import annotations

from typing import Any

from bot.tables import Table

STAY: dict[str, Any] = {"type": "stay"}


async def drive(h, table: Table, action: dict[str, Any] | None = None, max_steps: int = 5000) -> None:
    """Play ``action`` for every human to act (AI seats play themselves) until the session ends."""
    for _ in range(max_steps):
        await h.idle()
        if table.status != "playing":
            return
        users = table.to_act_users()
        assert users, f"nobody to act at version {table.version}: {table.to_act()} {table.seats}"
        await h.svc.act(table.id, users[0], table.version, action or STAY)
    raise AssertionError("session did not end")


def views(table: Table, users: list[int | None]) -> list[dict]:
    return [table.view_for(u) for u in users]
