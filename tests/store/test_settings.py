"""Server settings (issue 29): the model's checks, the store on both backends, the operator's bounds."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from types import MappingProxyType

import pytest

from bot.config import Config
from bot.settings.model import SettingError, effective, parse, table_pace_default, threads_enabled
from bot.store import Database, Ledger
from bot.store.settings import OPERATOR, SettingsStore
from tests.backends import BACKENDS

G = 7


@pytest.fixture
async def db(database):
    d = await Database.open(database)
    yield d
    await d.close()


def test_places_cover_channels_categories_and_threads() -> None:
    server = effective({"channels": [10, 20]}, Config())
    assert server.may_open_in(10) and not server.may_open_in(11)
    assert server.may_open_in(11, (20,))  # a channel of the allowed category
    assert server.may_open_in(99, (11, 20))  # a thread of a channel in it
    assert effective({}, Config()).may_open_in(12345)  # no list: anywhere


def test_effective_follows_the_operator_and_clamps_what_it_no_longer_allows() -> None:
    config = Config(tables_per_member=3, daily_grant=50,
                    server_limits=MappingProxyType({"starting_grant": (0, 5000), "daily_grant": (0, 200),
                                                    "daily_cooldown_hours": (1, 48)}))
    assert effective({}, config).daily_grant == 50
    stored = {"daily_grant": 900, "tables_per_member": 8, "daily_cooldown_hours": 0.25,
              "options.mus": {"stake": 0}, "options.motz": {"ante": 2}, "unknown": 1}
    server = effective(stored, config)
    assert (server.daily_grant, server.tables_per_member, server.daily_cooldown_hours) == (200, 3, 1.0)
    assert server.options_for("mus") == {} and server.options_for("motz") == {"ante": 2}
    assert server.caps(config).tables_per_member == 3
    assert table_pace_default(server) == "normal" and threads_enabled(server, fallback=False) is False
    paced = effective({"pace": "slow", "threads": False}, config)
    assert table_pace_default(paced) == "slow" and threads_enabled(paced) is False


def test_parse_refuses_with_the_bound_named() -> None:
    config = Config()
    with pytest.raises(SettingError) as exc:
        parse("starting_grant", "100001", config)
    assert "from 0 to 100000" in str(exc.value.message)
    assert parse("channels", "<#123456789012345678>, 223456789012345678", config) == [
        123456789012345678, 223456789012345678]
    assert parse("ai_levels", "expert, easy easy", config) == ["easy", "expert"]
    assert parse("language", "Čeština", config) == "cs"
    with pytest.raises(SettingError):
        parse("opener_role", "<@&123456789012345678> <@&223456789012345678>", config)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_servers_starting_grant_is_paid_in_the_wallets_transaction(db) -> None:
    config = Config()
    store, ledger = SettingsStore(db, config), Ledger(db, config)
    await store.set(G, "starting_grant", 250, 1)
    assert await ledger.balance(G, 100) == 250
    assert await ledger.balance(G + 1, 100) == 1000  # another server: the operator's grant
    assert await ledger.accounts_total() == 0


@pytest.mark.parametrize("backend", BACKENDS)
async def test_another_process_sees_a_change_at_once_and_bounds_apply_at_start(db, database) -> None:
    config = Config()
    one = SettingsStore(db, config)
    other_db = await Database.open(database)  # a second process on the same database
    try:
        other = SettingsStore(other_db, config)
        assert (await other.for_guild(G)).daily_grant == 100
        await one.set(G, "daily_grant", 5000, 1)
        assert (await other.for_guild(G)).daily_grant == 5000  # no cache to outlive the change
        tighter = replace(config, server_limits=MappingProxyType({**config.server_limits,
                                                                  "daily_grant": (0, 300)}))
        restarted = SettingsStore(other_db, tighter)
        assert await restarted.clamp_to_bounds() == 1
        assert (await restarted.stored(G))["daily_grant"] == 300
        changes, total = await restarted.log(G, 10)
        assert total == 2 and (changes[0].user_id, changes[0].old, changes[0].new) == (OPERATOR, 5000, 300)
        assert await restarted.clamp_to_bounds() == 0
    finally:
        await other_db.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_concurrent_changes_are_each_logged_with_what_they_replaced(db) -> None:
    store = SettingsStore(db, Config())
    await asyncio.gather(*(store.set(G, "daily_grant", n, n) for n in range(1, 9)))
    changes, total = await store.log(G, 20)
    assert total == 8
    kept = (await store.stored(G))["daily_grant"]
    assert kept == changes[0].new  # the last commit wins
    olds = [c.old for c in reversed(changes)]
    news = [c.new for c in reversed(changes)]
    assert olds[0] is None and olds[1:] == news[:-1]  # nothing lost or half-written: a chain
    assert await store.reset(G, "daily_grant", 1) == kept
    assert (await store.for_guild(G)).daily_grant == 100
