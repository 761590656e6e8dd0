"""The ledger: grants, transfers, atomic debits, dailies, leaderboards; the sum is always 0."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Config
from bot.store import DailyNotReady, Database, InsufficientFunds, Ledger
from bot.store.ledger import escrow, house, wallet
from bot.store.stats import record_session_sync, user_stats
from tests.backends import BACKENDS

G = 1
pytestmark = pytest.mark.parametrize("backend", BACKENDS)


class Clock:
    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def db(database):
    d = await Database.open(database)
    yield d
    await d.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def ledger(db, clock):
    return Ledger(db, Config(starting_grant=1000, daily_grant=100, daily_cooldown_hours=20), clock=clock)


async def test_first_sight_grants_from_house(ledger):
    assert await ledger.balance(G, 7) == 1000
    assert await ledger.balance(G, 7) == 1000  # only once
    assert await ledger.account_balance(house(G)) == -1000
    assert await ledger.accounts_total() == 0
    rows = await ledger.history(wallet(G, 7))
    assert [(r["src"], r["reason"], r["amount"]) for r in rows] == [("house:1", "starting grant", 1000)]


async def test_wallet_balance_reads_without_creating(ledger):
    """``/balance user:X`` reads through ``wallet_balance``: no wallet, no grant, no leaderboard row."""
    assert await ledger.wallet_balance(G, 8) is None
    assert await ledger.leaderboard(G) == [] and await ledger.account_balance(house(G)) == 0
    await ledger.balance(G, 8)  # the player's own first sight creates it
    assert await ledger.wallet_balance(G, 8) == 1000


async def test_transfer_and_insufficient_funds(ledger):
    await ledger.transfer(wallet(G, 1), wallet(G, 2), 300, "gift")
    assert await ledger.balance(G, 1) == 700
    assert await ledger.balance(G, 2) == 1300
    with pytest.raises(InsufficientFunds) as info:
        await ledger.transfer(wallet(G, 1), escrow(5, G), 701, "buy-in", table_id=5)
    assert "700" in str(info.value) and "701" in str(info.value)
    assert await ledger.balance(G, 1) == 700  # nothing moved
    assert await ledger.account_balance(escrow(5, G)) == 0
    with pytest.raises(ValueError):
        await ledger.transfer(wallet(G, 1), wallet(G, 2), -1, "theft")
    assert await ledger.accounts_total() == 0
    assert await ledger.accounts_total(G) == 0


async def test_house_may_go_negative_escrow_may_not(ledger):
    await ledger.transfer(house(G), escrow(9, G), 50, "AI buy-in", table_id=9)
    with pytest.raises(InsufficientFunds):
        await ledger.transfer(escrow(9, G), wallet(G, 3), 51, "payout", table_id=9)
    await ledger.transfer(escrow(9, G), wallet(G, 3), 50, "payout", table_id=9)
    assert await ledger.account_balance(escrow(9, G)) == 0
    assert await ledger.accounts_total() == 0


async def test_concurrent_debits_never_overdraw(ledger):
    """50 tasks each try to take 30 from a wallet of 1000: exactly 33 succeed, never below 0."""
    await ledger.balance(G, 1)

    async def take(i: int) -> bool:
        try:
            await ledger.transfer(wallet(G, 1), wallet(G, 100 + i), 30, "race")
            return True
        except InsufficientFunds:
            return False

    results = await asyncio.gather(*(take(i) for i in range(50)))
    assert sum(results) == 33
    assert await ledger.balance(G, 1) == 1000 - 33 * 30
    assert await ledger.accounts_total() == 0
    row = await ledger.db.fetchone("SELECT MIN(balance) FROM accounts WHERE kind != 'house'")
    assert row[0] >= 0


async def test_daily_cooldown(ledger, clock):
    assert await ledger.daily(G, 4) == 100
    assert await ledger.balance(G, 4) == 1100
    clock.t += 3600
    with pytest.raises(DailyNotReady) as info:
        await ledger.daily(G, 4)
    assert info.value.seconds_left == pytest.approx(19 * 3600)
    assert "19 h" in str(info.value)
    clock.t += 19 * 3600
    assert await ledger.daily(G, 4) == 100
    assert await ledger.balance(G, 4) == 1200
    assert await ledger.accounts_total() == 0


async def test_leaderboards(ledger, db):
    for user, amount in ((1, 10), (2, 500), (3, 0)):
        await ledger.balance(G, user)
        if amount:
            await ledger.transfer(house(G), wallet(G, user), amount, "prize")
    await ledger.balance(2, 99)  # another guild
    assert await ledger.leaderboard(G) == [(2, 1500), (1, 1010), (3, 1000)]
    assert await ledger.leaderboard(G, limit=1) == [(2, 1500)]
    await db.transaction(record_session_sync, G, "motz", [(1, 40, True), (2, -40, False)])
    await db.transaction(record_session_sync, G, "motz", [(1, -10, False), (3, 5, True)])
    assert await ledger.leaderboard(G, game="motz") == [(1, 30), (3, 5), (2, -40)]
    stats = await user_stats(db, G, 1)
    assert [(s.game, s.sessions, s.wins, s.net) for s in stats] == [("motz", 2, 1, 30)]


async def test_sum_zero_after_everything(ledger, clock):
    for u in range(5):
        await ledger.balance(G, u)
        await ledger.daily(G, u)
    await ledger.transfer(wallet(G, 0), escrow(1, G), 200, "buy-in", 1)
    await ledger.transfer(house(G), escrow(1, G), 200, "AI buy-in", 1)
    await ledger.transfer(escrow(1, G), wallet(G, 0), 350, "payout", 1)
    await ledger.transfer(escrow(1, G), house(G), 50, "payout", 1)
    assert await ledger.accounts_total() == 0
    assert await ledger.accounts_total(G) == 0
    row = await ledger.db.fetchone(
        "SELECT (SELECT COALESCE(SUM(amount),0) FROM ledger WHERE dst = 'wallet:1:0')"
        " - (SELECT COALESCE(SUM(amount),0) FROM ledger WHERE src = 'wallet:1:0')"
    )
    assert row[0] == await ledger.balance(G, 0)  # balances are the ledger's sums
