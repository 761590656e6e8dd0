"""``Store``: what the rest of the bot may ask of a database, SQLite (``bot.store.db.Database``)
or PostgreSQL (``bot.store.pg.PgDatabase``).

Both classes satisfy this protocol under ``mypy`` (the functions at the end check it), so code
typed against ``Store`` runs on either; ``Database.open`` returns the one the URL asks for.
Store functions (``bot.store.tables``, ``ledger`` …) take a ``sqlite3.Connection``-like
``conn``: the SQLite connection itself, or ``bot.store.pg.PgConnection`` with the same calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

T = TypeVar("T")


class Row(Protocol):
    """A fetched row: by position (``row[0]``), by column name (``row["id"]``), unpacked in column
    order, or as a ``dict`` of its columns."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...

    def keys(self) -> list[str]: ...


class Store(Protocol):
    """A database of the bot (see the module docstring)."""

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        ...

    @property
    def path(self) -> str:
        """The file path or URL it was opened with."""
        ...

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(conn, *args, **kwargs)`` outside a transaction."""
        ...

    async def transaction(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(conn, *args, **kwargs)`` atomically and durably; its result."""
        ...

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        ...

    async def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> Sequence[Row]:
        """A read query (portable SQL, ``?`` placeholders)."""
        ...

    async def fetchone(self, sql: str, params: tuple[Any, ...] = ()) -> Row | None:
        """A read query's first row, or None."""
        ...

    def fence(self, reason: str) -> None:
        """Refuse every later transaction (``bot.store.fence``: the process lost its shard locks)."""
        ...

    async def close(self) -> None:
        """Wait for queued work and close."""
        ...


if TYPE_CHECKING:
    from bot.store.db import Database
    from bot.store.pg import PgDatabase

    def _sqlite_is_a_store(db: Database) -> Store:
        return db

    def _postgresql_is_a_store(db: PgDatabase) -> Store:
        return db
