"""Jetons: wallets, escrows and the house, moved only by ledger transfers.

Accounts: a **wallet** per (guild, user), an **escrow** per table, a **house** per guild (it
funds starting grants, dailies and AI seats, and may go negative). Every movement is one
``ledger`` row with both balances updated in the same transaction, so the sum of all accounts
is always 0. Debits are atomic (``UPDATE … WHERE balance >= ?`` and a row-count check), never
read-then-write.

The ``*_sync`` functions take a ``sqlite3.Connection`` already inside a transaction, so other
parts of the store (a table's action + payouts) can move jetons in their own transaction.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.config import Config
from bot.rules.base import Text
from bot.store.base import Store

#: ``/leaderboard by:jetons`` of all games: wallets by balance, ties by user id (from ``accounts_board``).
WALLETS_BOARD_SQL = ("SELECT user_id, balance FROM accounts WHERE guild_id = ? AND kind = 'wallet' "
                     "ORDER BY balance DESC, user_id LIMIT ?")
#: ``/leaderboard game: by:jetons``: net jetons won at a game, ties by user id (from ``stats_board``).
JETONS_BOARD_SQL = ("SELECT user_id, net FROM stats WHERE guild_id = ? AND game = ? "
                    "ORDER BY net DESC, user_id LIMIT ?")


class InsufficientFunds(Exception):
    """A debit larger than the account's balance; nothing was moved.

    ``message`` is the refusal as data (plural form and numbers in the reader's language:
    ``render(tr)``); ``str(exc)`` is the English sentence.
    """

    def __init__(self, account: Account, balance: int, amount: int):
        self.account = account
        self.balance = balance
        self.amount = amount
        from bot.i18n.lazy import Amount, nmsg  # when refused only: the AI's workers import the store

        if account.kind == "wallet":
            self.message = nmsg("Not enough jetons: you have {n} jeton, this needs {amount}.",
                                "Not enough jetons: you have {n} jetons, this needs {amount}.", balance,
                                amount=Amount(amount))
        else:
            self.message = nmsg("Not enough jetons: {account} has {n} jeton, this needs {amount}.",
                                "Not enough jetons: {account} has {n} jetons, this needs {amount}.", balance,
                                account=account.key, amount=Amount(amount))
        super().__init__(str(self.message))

    def render(self, tr: Text) -> str:
        """The refusal in ``tr``'s language."""
        return self.message.render(tr)


class DailyNotReady(Exception):
    """``/daily`` asked again before the cooldown is over; ``seconds_left`` until it is."""

    def __init__(self, seconds_left: float):
        self.seconds_left = seconds_left
        from bot.i18n.lazy import msg

        self.message = msg("Your next daily grant is ready in {time}.", time=format_duration(seconds_left))
        super().__init__(str(self.message))

    def render(self, tr: Text) -> str:
        """The refusal in ``tr``'s language (the units h, min, s are the same in every language)."""
        return self.message.render(tr)


def format_duration(seconds: float) -> str:
    """``3 h 05 min``, ``12 min``, ``40 s``."""
    s = max(0, int(seconds + 0.999))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    if h:
        return f"{h} h {m:02d} min"
    if m:
        return f"{m} min"
    return f"{sec} s"


#: Accounts read per statement by ``Ledger.reconcile`` (each with its ledger sums, by index).
RECONCILE_CHUNK = 200
RECONCILE_SQL = (
    "SELECT id, kind, user_id, table_id, balance, from_ledger FROM ("
    " SELECT a.id, a.kind, a.user_id, a.table_id, a.balance,"
    " COALESCE((SELECT SUM(amount) FROM ledger WHERE dst = a.id), 0)"
    " - COALESCE((SELECT SUM(amount) FROM ledger WHERE src = a.id), 0) AS from_ledger"
    " FROM accounts a WHERE a.id IN ({marks})) AS checked "
    "WHERE balance <> from_ledger ORDER BY id")


@dataclass(frozen=True)
class Mismatch:
    """An account whose balance is not what its ledger rows add up to."""

    key: str
    kind: str
    user_id: int | None
    table_id: int | None
    balance: int
    from_ledger: int


@dataclass(frozen=True)
class Account:
    """A named account; ``key`` is its primary key in ``accounts``."""

    kind: str  # 'wallet' | 'escrow' | 'house'
    guild_id: int | None
    user_id: int | None = None
    table_id: int | None = None

    @property
    def key(self) -> str:
        if self.kind == "wallet":
            return f"wallet:{self.guild_id}:{self.user_id}"
        if self.kind == "escrow":
            return f"escrow:{self.table_id}"
        return f"house:{self.guild_id}"


def wallet(guild_id: int, user_id: int) -> Account:
    """The wallet of ``user_id`` in ``guild_id``."""
    return Account("wallet", guild_id, user_id=user_id)


def escrow(table_id: int, guild_id: int | None = None) -> Account:
    """The escrow of a table (its guild is recorded when the account is first created)."""
    return Account("escrow", guild_id, table_id=table_id)


def house(guild_id: int) -> Account:
    """The house account of a guild (may go negative)."""
    return Account("house", guild_id)


def house_of(wallet: Account) -> Account:
    """The house account of a wallet's guild (the account that funds its grants)."""
    if wallet.guild_id is None:
        raise ValueError(f"account {wallet.key} belongs to no guild")
    return house(wallet.guild_id)


# --------------------------------------------------------------------------- synchronous core


def ensure_account_sync(conn: sqlite3.Connection, acct: Account, now: float, starting_grant: int) -> bool:
    """Create ``acct`` if new (a new wallet gets its server's starting grant, ``/settings``, else
    ``starting_grant``, from the house). True if created."""
    cur = conn.execute(
        "INSERT INTO accounts (id, kind, guild_id, user_id, table_id, balance, created_at) "
        "VALUES (?, ?, ?, ?, ?, 0, ?) ON CONFLICT (id) DO NOTHING",
        (acct.key, acct.kind, acct.guild_id, acct.user_id, acct.table_id, now),
    )
    created = cur.rowcount == 1
    if created and acct.kind == "wallet":
        from bot.store.settings import starting_grant_sync  # the server's own grant (issue 29)

        starting_grant = starting_grant_sync(conn, acct.guild_id, starting_grant)
    if created and acct.kind == "wallet" and starting_grant > 0:
        _move(conn, house_of(acct), acct, starting_grant, "starting grant", None, now, starting_grant)
    return created


def transfer_sync(
    conn: sqlite3.Connection,
    src: Account,
    dst: Account,
    amount: int,
    reason: str,
    table_id: int | None,
    now: float,
    starting_grant: int,
) -> None:
    """Move ``amount`` from ``src`` to ``dst`` with a ledger row; ``InsufficientFunds`` if short.

    Accounts seen for the first time are created (a new wallet with its starting grant).
    """
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise ValueError(f"a transfer amount must be a whole number ≥ 0 (got {amount!r})")
    if src == dst:
        raise ValueError("a transfer needs two different accounts")
    if amount:
        _move(conn, src, dst, amount, reason, table_id, now, starting_grant)
    else:
        ensure_account_sync(conn, src, now, starting_grant)
        ensure_account_sync(conn, dst, now, starting_grant)


def _move(
    conn: sqlite3.Connection,
    src: Account,
    dst: Account,
    amount: int,
    reason: str,
    table_id: int | None,
    now: float,
    starting_grant: int,
) -> None:
    # Three statements in the usual case: debit, credit, ledger row. An account missing on the
    # first try is created (with its grant) and the statement retried once.
    _debit(conn, src, amount, now, starting_grant)
    credit = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
    if conn.execute(credit, (amount, dst.key)).rowcount != 1:
        ensure_account_sync(conn, dst, now, starting_grant)
        conn.execute(credit, (amount, dst.key))
    conn.execute(
        "INSERT INTO ledger (src, dst, amount, reason, table_id, at) VALUES (?, ?, ?, ?, ?, ?)",
        (src.key, dst.key, amount, reason, table_id, now),
    )


def _debit(conn: sqlite3.Connection, src: Account, amount: int, now: float, starting_grant: int) -> None:
    """Atomic debit: the house unconditionally, any other account only if ``balance >= amount``."""
    for attempt in (0, 1):
        if src.kind == "house":
            cur = conn.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", (amount, src.key))
        else:
            cur = conn.execute(
                "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?",
                (amount, src.key, amount),
            )
        if cur.rowcount == 1:
            return
        if attempt:
            break  # it exists: the balance is too low
        # Missing, or short. Retry once either way: on PostgreSQL another transaction may have
        # just created the account (our INSERT waited for it and did nothing; the row is only
        # visible to the next statement).
        ensure_account_sync(conn, src, now, starting_grant)
    raise InsufficientFunds(src, balance_sync(conn, src), amount)


def balance_sync(conn: sqlite3.Connection, acct: Account) -> int:
    """The balance of ``acct`` (0 if it does not exist yet)."""
    row = conn.execute("SELECT balance FROM accounts WHERE id = ?", (acct.key,)).fetchone()
    return row[0] if row else 0


def daily_sync(
    conn: sqlite3.Connection, acct: Account, grant: int, cooldown: float, now: float, starting_grant: int
) -> int:
    """Grant ``grant`` from the house if the last daily is ``cooldown`` seconds old; return it."""
    ensure_account_sync(conn, acct, now, starting_grant)
    cur = conn.execute(
        "UPDATE accounts SET last_daily = ? WHERE id = ? AND (last_daily IS NULL OR last_daily <= ?)",
        (now, acct.key, now - cooldown),
    )
    if cur.rowcount != 1:
        last = conn.execute("SELECT last_daily FROM accounts WHERE id = ?", (acct.key,)).fetchone()[0]
        raise DailyNotReady(last + cooldown - now)
    if grant:
        _move(conn, house_of(acct), acct, grant, "daily", None, now, starting_grant)
    return grant


# --------------------------------------------------------------------------- async API


class Ledger:
    """The bank API of the bot (Red's contract, with atomic debits)."""

    wallet = staticmethod(wallet)
    escrow = staticmethod(escrow)
    house = staticmethod(house)

    def __init__(self, db: Store, config: Config, clock: Callable[[], float] = time.time):
        self.db = db
        self.config = config
        self.clock = clock

    @property
    def starting_grant(self) -> int:
        return self.config.starting_grant

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The wallet balance; the first sight of a player creates the wallet with the grant."""

        def fn(conn: sqlite3.Connection) -> int:
            acct = wallet(guild_id, user_id)
            ensure_account_sync(conn, acct, self.clock(), self.starting_grant)
            return balance_sync(conn, acct)

        return await self.db.transaction(fn)

    async def wallet_balance(self, guild_id: int, user_id: int) -> int | None:
        """The wallet balance, or None if that player has no wallet here yet (nothing is created)."""
        key = wallet(guild_id, user_id).key
        row = await self.db.fetchone("SELECT balance FROM accounts WHERE id = ?", (key,))
        return row[0] if row else None

    async def account_balance(self, acct: Account) -> int:
        """The balance of any account, without creating it (0 if unknown)."""
        return await self.db.run(balance_sync, acct)

    async def transfer(
        self, src: Account, dst: Account, amount: int, reason: str, table_id: int | None = None
    ) -> None:
        """Move jetons in one transaction; ``InsufficientFunds`` (nothing moved) if ``src`` is short."""
        await self.db.transaction(
            transfer_sync, src, dst, amount, reason, table_id, self.clock(), self.starting_grant
        )

    async def daily(self, guild_id: int, user_id: int, grant: int | None = None,
                    cooldown_hours: float | None = None) -> int:
        """Give the daily grant (the server's ``grant`` and ``cooldown_hours``, else the operator's)
        and return it, or raise ``DailyNotReady`` with the time left."""
        hours = self.config.daily_cooldown_hours if cooldown_hours is None else cooldown_hours
        amount = self.config.daily_grant if grant is None else grant
        return await self.db.transaction(
            daily_sync, wallet(guild_id, user_id), amount, hours * 3600, self.clock(), self.starting_grant,
        )

    async def leaderboard(
        self, guild_id: int, game: str | None = None, limit: int = 10
    ) -> list[tuple[int, int]]:
        """``[(user_id, value)]`` best first: wallet balance, or net jetons won at ``game``."""
        if game is None:
            rows = await self.db.fetchall(WALLETS_BOARD_SQL, (guild_id, limit))
        else:
            rows = await self.db.fetchall(JETONS_BOARD_SQL, (guild_id, game, limit))
        return [(r[0], r[1]) for r in rows]

    async def accounts_total(self, guild_id: int | None = None) -> int:
        """Sum of all balances (of one guild's accounts if given). Always 0."""
        if guild_id is None:
            row = await self.db.fetchone("SELECT COALESCE(SUM(balance), 0) FROM accounts")
        else:
            row = await self.db.fetchone(
                "SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE guild_id = ?", (guild_id,)
            )
        assert row is not None  # an aggregate always returns its row
        return int(row[0])  # PostgreSQL sums BIGINTs as NUMERIC

    async def stranded_escrow(self, guild_id: int | None = None) -> list[tuple[int, int, str | None]]:
        """Escrow held by tables that are not open: ``[(table id, balance, status or None)]``.

        A finished or cancelled table (or a table row that no longer exists) should hold nothing;
        anything it holds is stranded jetons that no session will ever pay out. A tournament's prize
        pool is an escrow keyed by the negative event id (``bot.store.tournaments.pool``): it is
        stranded only once its event is over (its id is returned negative, its status the event's).
        """
        sql = ("SELECT a.table_id, a.balance, CASE WHEN a.table_id < 0 THEN e.status ELSE t.status END "
               "FROM accounts a LEFT JOIN tables t ON t.id = a.table_id "
               "LEFT JOIN tournaments e ON e.id = -a.table_id "
               "WHERE a.kind = 'escrow' AND a.balance <> 0 AND CASE WHEN a.table_id < 0 "
               "THEN (e.status IS NULL OR e.status NOT IN ('lobby', 'running')) "
               "ELSE (t.status IS NULL OR t.status NOT IN ('lobby', 'playing')) END")
        params: tuple[int, ...] = ()
        if guild_id is not None:
            sql += " AND a.guild_id = ?"
            params = (guild_id,)
        rows = await self.db.fetchall(sql + " ORDER BY a.table_id", params)
        return [(r[0], r[1], r[2]) for r in rows]

    async def reconcile(self, guild_id: int, chunk: int = RECONCILE_CHUNK) -> tuple[int, list[Mismatch]]:
        """Check each account of a guild against its ledger rows: ``(accounts checked, mismatches)``.

        A balance must equal what its ledger rows add up to (credits minus debits); a change that
        keeps the sum at 0 (a hand edit moving jetons between two wallets) shows here only. The
        accounts are read ``chunk`` at a time, each balance with its own rows in one statement (a
        consistent pair), so other tables' writes are never held up for long.
        """
        ids = [r[0] for r in await self.db.fetchall(
            "SELECT id FROM accounts WHERE guild_id = ? ORDER BY id", (guild_id,))]
        mismatches: list[Mismatch] = []
        for start in range(0, len(ids), chunk):
            part = ids[start:start + chunk]
            marks = ", ".join("?" * len(part))
            rows = await self.db.fetchall(RECONCILE_SQL.format(marks=marks), tuple(part))
            mismatches += [Mismatch(r[0], r[1], r[2], r[3], int(r[4]), int(r[5])) for r in rows]
        return len(ids), mismatches

    async def history(self, acct: Account, limit: int = 20) -> list[dict[str, Any]]:
        """The latest ledger rows touching ``acct``, newest first."""
        rows = await self.db.fetchall(
            "SELECT id, src, dst, amount, reason, table_id, at FROM ledger WHERE src = ? OR dst = ? "
            "ORDER BY id DESC LIMIT ?",
            (acct.key, acct.key, limit),
        )
        return [dict(r) for r in rows]
