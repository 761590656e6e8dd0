-- Tapis schema v1: accounts + ledger, tables + action log, per-game stats.
-- Kept to portable SQL (no SQLite-only types) so a move to PostgreSQL stays a swap.

-- One row per account: a wallet per (guild, user), an escrow per table, a house per guild.
-- The house may go negative; wallets and escrows never do. The sum of all balances is 0.
CREATE TABLE accounts (
    id          TEXT PRIMARY KEY,               -- 'wallet:<guild>:<user>', 'escrow:<table>', 'house:<guild>'
    kind        TEXT NOT NULL CHECK (kind IN ('wallet', 'escrow', 'house')),
    guild_id    INTEGER,
    user_id     INTEGER,
    table_id    INTEGER,
    balance     INTEGER NOT NULL DEFAULT 0,
    last_daily  REAL,                           -- wallets: time of the last /daily grant
    created_at  REAL NOT NULL,
    CHECK (kind = 'house' OR balance >= 0)
);
CREATE INDEX accounts_board ON accounts (guild_id, kind, balance DESC);

-- Every movement of jetons, one row each: from, to, amount, reason, table, time.
CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY,
    src         TEXT NOT NULL REFERENCES accounts (id),
    dst         TEXT NOT NULL REFERENCES accounts (id),
    amount      INTEGER NOT NULL CHECK (amount > 0),
    reason      TEXT NOT NULL,
    table_id    INTEGER,
    at          REAL NOT NULL
);
CREATE INDEX ledger_src ON ledger (src, id);
CREATE INDEX ledger_dst ON ledger (dst, id);
CREATE INDEX ledger_table ON ledger (table_id);

-- A table (lobby or session). Its rules state is rebuilt by replaying its actions.
CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,                        -- the table message in the channel
    extra_messages TEXT NOT NULL DEFAULT '{}',  -- JSON: other message ids the bot keeps
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,                  -- JSON, validated
    raw_options TEXT NOT NULL DEFAULT '{}',     -- JSON, as chosen (re-validated at start)
    seed        INTEGER,                        -- set at start
    seats       TEXT NOT NULL,                  -- JSON list of seat records
    host_id     INTEGER NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    version     INTEGER NOT NULL DEFAULT 0,     -- number of applied actions
    deadline    REAL,                           -- when the human seat(s) to act time out
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL
);
CREATE INDEX tables_open ON tables (status);
CREATE INDEX tables_channel ON tables (channel_id, status);

-- The event log: one row per applied action; seat NULL for a system action (close).
CREATE TABLE actions (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    version     INTEGER NOT NULL,               -- the table version the action was applied at
    seat        INTEGER,
    action      TEXT NOT NULL,                  -- JSON
    actor       TEXT NOT NULL,                  -- 'player', 'ai', 'timeout', 'host', 'admin'
    at          REAL NOT NULL,
    PRIMARY KEY (table_id, version)
);

-- Per (guild, user, game): sessions played, sessions won, net jetons.
CREATE TABLE stats (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    game        TEXT NOT NULL,
    sessions    INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    net         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, game)
);
CREATE INDEX stats_board ON stats (guild_id, game, net DESC);
