-- One REST budget for the whole bot (issue 15). Discord's global limit (50 requests/s) is per bot
-- token, not per process: shard processes on PostgreSQL reserve their request slots in this row
-- (bot/store/rest_budget.py), so that together they stay under it. A single SQLite process keeps
-- its budget in memory and never reads this table.
CREATE TABLE rest_budget (
    name TEXT PRIMARY KEY,
    next_at REAL NOT NULL  -- seconds since the epoch, by the database's clock: the next free slot
);
INSERT INTO rest_budget (name, next_at) VALUES ('global', 0);
