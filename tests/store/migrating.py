"""Stores seeded at an old schema version, then migrated to the latest (the migration tests)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import bot.store.db as sqlite_store
import bot.store.pg as pg_store
from bot.store import Database
from bot.store.schema import migrations


async def seeded_at(database: str, monkeypatch: pytest.MonkeyPatch, version: int,
                    seed: Callable[[Any], Any]) -> Any:
    """Open ``database`` migrated only up to ``version``, run ``seed`` in one transaction there and
    return what it returns; the next ``Database.open`` migrates the rest."""
    old = [m for m in migrations() if m[0] <= version]
    old_pg = [m for m in migrations("postgresql") if m[0] <= version]
    with monkeypatch.context() as patched:
        patched.setattr(sqlite_store, "migrations", lambda dialect="sqlite": old)
        patched.setattr(pg_store, "migrations", lambda dialect="postgresql": old_pg)
        db = await Database.open(database)
        try:
            assert await db.schema_version() == version
            return await db.transaction(seed)
        finally:
            await db.close()
