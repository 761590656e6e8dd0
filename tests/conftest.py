"""Fixtures shared by every test package: the store backend (SQLite by default)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.backends import database_target


@pytest.fixture(autouse=True)
def _no_command_ids() -> Iterator[None]:
    """Each test starts knowing no slash-command id (a bot's sync teaches them: texts then mention
    the commands), and leaves none behind for the next."""
    from bot.i18n import commands

    commands.forget()
    yield
    commands.forget()


@pytest.fixture
def backend() -> str:
    """The store backend; a test runs on both with ``@pytest.mark.parametrize("backend", BACKENDS)``."""
    return "sqlite"


@pytest.fixture
async def database(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """What ``Database.open`` takes for this test's backend (a file, or a fresh PostgreSQL schema)."""
    async with database_target(backend, tmp_path) as target:
        yield target


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line for all the PostgreSQL variants skipped, and why."""
    reasons = [str(r.longrepr[2]) for r in terminalreporter.stats.get("skipped", [])
               if isinstance(r.longrepr, tuple) and "PostgreSQL tests skipped" in str(r.longrepr[2])]
    if reasons:
        why = reasons[0].split("PostgreSQL tests skipped: ", 1)[1]
        terminalreporter.write_line(f"{len(reasons)} PostgreSQL tests skipped: {why}", yellow=True)
