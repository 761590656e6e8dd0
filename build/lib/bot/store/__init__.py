"""The SQLite store: connection and migrations (db), jetons (ledger), table logs (tables), stats."""

from bot.store.db import Database
from bot.store.ledger import Account, DailyNotReady, InsufficientFunds, Ledger

__all__ = ["Account", "DailyNotReady", "Database", "InsufficientFunds", "Ledger"]
