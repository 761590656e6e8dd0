"""Issues 19 point 2 and 27 item 4: ``TableService`` is split by concern, each part in its module,
and what is done to one table is the ``TableSession``'s own behaviour.

Fails if a lobby, autoplay or resume operation drifts back into ``service.py`` (or elsewhere), if
the commit path leaves the session, or if the service is assembled from mixins again (they needed a
hand-kept stub of the service, ``parts.py``, for the type checker).
"""

from __future__ import annotations

import importlib

import pytest

from bot.tables import TableService, TableSession

SERVICE = ["get", "tables_in_channel", "open_tables", "drivers", "act", "end", "set_message", "set_dm_closed",
           "create", "join", "leave", "add_ai", "start", "resume_all", "fire_due_timers", "close"]
SESSION = ["commit", "save_seats", "next_deadline", "auto_close", "cancel_lobby", "end", "notify", "kick"]
FUNCTIONS = {
    "bot.tables.lobby": ["create", "commit_within_caps", "join", "leave", "add_ai", "start"],
    "bot.tables.autoplay": ["on_deadline", "expire_lobby", "drive", "drive_once", "ai_job", "ai_choice"],
    "bot.tables.resume": ["resume_all", "_resume_one", "_void"],
}


@pytest.mark.parametrize("name", SERVICE)
def test_the_service_api_lives_in_service_py(name: str) -> None:
    assert getattr(TableService, name).__module__ == "bot.tables.service"


@pytest.mark.parametrize("name", SESSION)
def test_what_is_done_to_one_table_is_the_sessions(name: str) -> None:
    assert getattr(TableSession, name).__module__ == "bot.tables.session"
    assert not hasattr(TableService, name) or name == "end"  # ``end`` of the service: the host's close


@pytest.mark.parametrize(("module", "name"), [(m, n) for m, names in FUNCTIONS.items() for n in names])
def test_each_operation_lives_in_its_module(module: str, name: str) -> None:
    assert getattr(importlib.import_module(module), name).__module__ == module


def test_no_mixins() -> None:
    assert TableService.__mro__ == (TableService, object)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("bot.tables.parts")
