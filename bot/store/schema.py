"""The numbered migrations and the two SQL dialects: which file serves which database.

``NNNN_name.sql`` is portable and serves both dialects (on PostgreSQL through
``bot.store.pg.portable_to_postgresql``); ``NNNN_name.<dialect>.sql`` beside it replaces it for that
dialect only. (Its own module so that both stores import it without importing each other.)
"""

from __future__ import annotations

import re
from importlib import resources


class StoreError(Exception):
    """The database cannot be used (missing directory, not a database, an unreachable server, a
    newer schema); one line. (Here so that both stores raise it without importing each other.)"""


def check_version(version: int, path: str) -> None:
    """``StoreError`` if the schema ``version`` is newer than the newest migration shipped here."""
    known = len(migrations())
    if version > known:
        raise StoreError(f"database {path}: schema version {version} is newer than this Tapis knows "
                         f"({known}); run the newer Tapis or restore a backup")


MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+?(?:\.(sqlite|postgresql))?\.sql$")
DIALECTS = ("sqlite", "postgresql")


def is_postgres_url(target: str) -> bool:
    """True if ``target`` names a PostgreSQL database (``postgresql://…`` or ``postgres://…``)."""
    return target.startswith(("postgresql://", "postgres://"))


def migrations(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """The numbered migrations shipped in ``bot/store/migrations``: (number, name, sql), in order.

    ``NNNN_name.sql`` is portable and serves both dialects (on PostgreSQL through
    ``bot.store.pg.portable_to_postgresql``); ``NNNN_name.<dialect>.sql`` beside it replaces it
    for that dialect only.
    """
    folder = resources.files("bot.store").joinpath("migrations")
    files = [(e.name, e.read_text(encoding="utf-8")) for e in folder.iterdir() if e.name.endswith(".sql")]
    return select_migrations(files, dialect)


def select_migrations(files: list[tuple[str, str]], dialect: str) -> list[tuple[int, str, str]]:
    """From ``[(file name, sql)]``, the migrations of ``dialect`` in order (see ``migrations``)."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    portable: dict[int, tuple[str, str]] = {}
    override: dict[int, tuple[str, str]] = {}
    other: set[int] = set()
    for name, sql in files:
        m = MIGRATION_NAME.match(name)
        if not m:
            continue
        number, only = int(m.group(1)), m.group(2)
        if only is None:
            portable[number] = (name, sql)
        elif only == dialect:
            override[number] = (name, sql)
        else:
            other.add(number)
    alone = sorted((set(override) | other) - set(portable))
    if alone:
        raise RuntimeError(f"migration(s) {alone} have a dialect file but no portable NNNN_name.sql")
    out = [(n, *(override.get(n) or portable[n])) for n in sorted(portable)]
    numbers = [n for n, _, _ in out]
    if numbers != list(range(1, len(out) + 1)):
        raise RuntimeError(f"migrations must be numbered 0001, 0002, … without gaps (found {numbers})")
    return out
