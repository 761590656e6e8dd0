"""Issue 19 point 2: ``TableService`` is split by concern; each part lives in its own module.

Fails if a lobby, autoplay or resume operation drifts back into ``service.py`` (or elsewhere),
or if the commit path leaves the registry module.
"""

from __future__ import annotations

import pytest

from bot.tables import TableService

HOMES = {
    "bot.tables.service": ["get", "tables_in_channel", "open_tables", "drivers", "act", "end", "set_message",
                           "set_dm_closed", "_commit_action", "_save_seats", "_notify", "_end_session",
                           "close"],
    "bot.tables.lobby": ["create", "join", "leave", "add_ai", "start", "_expire_lobby",
                         "_commit_within_caps", "_cancel_lobby"],
    "bot.tables.autoplay": ["fire_due_timers", "_on_deadline", "_kick", "_drive", "_drive_once",
                            "_ai_job", "_ai_choice", "_auto_close", "_next_deadline"],
    "bot.tables.resume": ["resume_all", "_resume_one", "_void"],
}


@pytest.mark.parametrize(("module", "name"), [(m, n) for m, names in HOMES.items() for n in names])
def test_each_operation_lives_in_its_module(module: str, name: str) -> None:
    func = getattr(TableService, name)
    func = getattr(func, "__func__", func)
    assert func.__module__ == module
