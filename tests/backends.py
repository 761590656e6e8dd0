"""The two store backends for tests: a SQLite file, or a fresh schema in a test PostgreSQL.

``TAPIS_TEST_PG`` names a PostgreSQL database the tests may create schemas in (``.ci/run`` sets
it up, e.g. ``postgresql://tapis:tapis@127.0.0.1:5432/tapis_test``). Without it, or without a
server answering there, the PostgreSQL variants are skipped with one line; with
``TAPIS_TEST_PG_REQUIRED=1`` (set by ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

BACKENDS = ("sqlite", "postgresql")
PG_ENV = "TAPIS_TEST_PG"
REQUIRED_ENV = "TAPIS_TEST_PG_REQUIRED"

_unreachable: str | None = None  # why the server could not be used, once known (per worker)


def pg_url() -> str | None:
    """The admin URL of the test PostgreSQL database, if configured."""
    return os.environ.get(PG_ENV) or None


def pg_required() -> bool:
    """True in CI: a missing or unreachable PostgreSQL fails the tests instead of skipping them."""
    return os.environ.get(REQUIRED_ENV, "") not in ("", "0")


def with_search_path(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` (asyncpg passes unknown query keys as settings)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"] + [("search_path", schema)]
    return urlunsplit(parts._replace(query=urlencode(query)))


async def _admin(url: str | None = None):
    import asyncpg

    return await asyncpg.connect(url or pg_url(), timeout=5)


async def pg_problem() -> str | None:
    """None if the test PostgreSQL is usable, else one line saying why not."""
    global _unreachable
    if pg_url() is None:
        return f"PostgreSQL tests skipped: set {PG_ENV}=postgresql://… (see .ci/run)"
    if _unreachable is None:
        try:
            conn = await _admin()
        except Exception as exc:  # noqa: BLE001 - any failure to connect means "unreachable"
            _unreachable = f"PostgreSQL tests skipped: {PG_ENV} unreachable ({type(exc).__name__}: {exc})"
        else:
            await conn.close()
            _unreachable = ""
    return _unreachable or None


@asynccontextmanager
async def fresh_pg(url: str | None = None) -> AsyncIterator[str]:
    """A URL on a new, empty schema of ``url`` (default: the test database); dropped afterwards."""
    url = url or pg_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    conn = await _admin(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    try:
        yield with_search_path(url or "", schema)
    finally:
        conn = await _admin(url)
        try:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
        finally:
            await conn.close()


@asynccontextmanager
async def database_target(backend: str, tmp_path: Path, name: str = "tapis.db") -> AsyncIterator[str]:
    """What ``Database.open`` takes for ``backend``: a file in ``tmp_path``, or a fresh PG schema.

    Skips the test (one line, the same for every test) when PostgreSQL is not available, or
    fails it when ``TAPIS_TEST_PG_REQUIRED`` is set.
    """
    import pytest

    if backend == "sqlite":
        yield str(tmp_path / name)
        return
    assert backend == "postgresql", backend
    problem = await pg_problem()
    if problem:
        if pg_required():
            pytest.fail(problem.replace("skipped", f"required ({REQUIRED_ENV}) but"), pytrace=False)
        pytest.skip(problem)
    async with fresh_pg() as url:
        yield url
