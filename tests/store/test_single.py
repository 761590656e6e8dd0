"""One bot per SQLite file (``bot.store.single``): the lock, whatever path names the file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.store.single import InUse, hold


def test_one_holder_per_file_whatever_path_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "data" / "tapis.db"
    db.parent.mkdir()
    db.touch()
    (tmp_path / "link.db").symlink_to(db)
    monkeypatch.chdir(db.parent)
    first = hold("tapis.db")
    assert first is not None
    try:
        for other in (str(db), str(tmp_path / "link.db"), "../data/tapis.db"):
            with pytest.raises(InUse) as info:
                hold(other)
            assert f"pid {os.getpid()}" in str(info.value) and "\n" not in str(info.value)
    finally:
        first.release()
    again = hold(str(tmp_path / "link.db"))  # released: the next bot takes it
    assert again is not None
    again.release()


def test_nothing_to_hold_for_postgresql_memory_or_a_missing_directory(tmp_path: Path) -> None:
    assert hold("postgresql://u@h/db") is None
    assert hold(":memory:") is None
    assert hold(str(tmp_path / "nowhere" / "t.db")) is None  # Database.open names that fault
