-- Tapis schema v12 (issue 33): club nights and Swiss tournaments.
-- Portable SQL: Discord ids in BIGINT columns, floats in DOUBLE PRECISION, booleans as 0/1.
-- The prize pool is the escrow account 'escrow:-<tournament id>' (negative: never a table's).

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        BIGINT NOT NULL,
    channel_id      BIGINT NOT NULL,
    host_id         BIGINT NOT NULL,
    game            TEXT NOT NULL,
    options         TEXT NOT NULL,                  -- JSON, the tables' options (validated)
    format          TEXT NOT NULL CHECK (format IN ('club', 'swiss')),
    rounds          INTEGER NOT NULL,
    buy_in          INTEGER NOT NULL,
    round_minutes   INTEGER NOT NULL,
    starts_at       DOUBLE PRECISION,               -- NULL: started by hand
    status          TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    round           INTEGER NOT NULL DEFAULT 0,     -- the round under way (0 before the start)
    round_deadline  DOUBLE PRECISION,
    seed            BIGINT NOT NULL,
    settled         INTEGER NOT NULL DEFAULT 0,     -- 1 once the pool was paid out or refunded
    language        TEXT NOT NULL DEFAULT 'en',     -- of its public messages and its tables
    created_at      DOUBLE PRECISION NOT NULL,
    updated_at      DOUBLE PRECISION NOT NULL
);
CREATE INDEX tournaments_open ON tournaments (status);
CREATE INDEX tournaments_guild ON tournaments (guild_id, id);

-- Who is ranked: a player, or a Mus pair.
CREATE TABLE tournament_entrants (
    id              INTEGER PRIMARY KEY,
    tournament_id   BIGINT NOT NULL REFERENCES tournaments (id),
    first_round     INTEGER NOT NULL,
    left_after      INTEGER,
    created_at      DOUBLE PRECISION NOT NULL
);
CREATE INDEX tournament_entrants_event ON tournament_entrants (tournament_id, id);

-- The members of each entrant; one row per member and event (joining twice is refused by the key).
CREATE TABLE tournament_players (
    tournament_id   BIGINT NOT NULL REFERENCES tournaments (id),
    user_id         BIGINT NOT NULL,
    guild_id        BIGINT NOT NULL,
    entrant_id      BIGINT NOT NULL REFERENCES tournament_entrants (id),
    name            TEXT NOT NULL,
    paid            INTEGER NOT NULL,               -- the buy-in this member put in the pool
    prize           INTEGER NOT NULL DEFAULT 0,     -- what the pool paid this member back
    joined_at       DOUBLE PRECISION NOT NULL,
    partner_id      BIGINT,                         -- the partner this member named (pairs)
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_players_user ON tournament_players (guild_id, user_id);

-- The tables of each round and their outcome.
CREATE TABLE tournament_tables (
    tournament_id   BIGINT NOT NULL REFERENCES tournaments (id),
    round           INTEGER NOT NULL,
    idx             INTEGER NOT NULL,
    entrants        TEXT NOT NULL,                  -- JSON list of entrant ids, seating order
    table_id        BIGINT,
    status          TEXT NOT NULL CHECK (status IN ('open', 'done', 'forfeit')),
    results         TEXT,                           -- JSON list, per entrant
    attempts        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, idx)
);
CREATE INDEX tournament_tables_table ON tournament_tables (table_id);
