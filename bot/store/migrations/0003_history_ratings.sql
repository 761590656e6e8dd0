-- Tapis schema v3 (issue 16): finished sessions and their seats (history), seasons, ratings.
-- Portable SQL: Discord ids in BIGINT columns, floats in DOUBLE PRECISION, booleans as 0/1.

-- The guild's seasons; a guild with no row is in season 1. /admin season adds the next one.
CREATE TABLE seasons (
    guild_id    BIGINT NOT NULL,
    season      INTEGER NOT NULL,
    started_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, season)
);

-- One row per finished session, written in the payout's transaction. ``id`` is the order in
-- which sessions ended (the order ratings were updated in; a rebuild follows it).
CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY,
    table_id    BIGINT NOT NULL UNIQUE REFERENCES tables (id),
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    game        TEXT NOT NULL,
    season      INTEGER NOT NULL,
    ended_at    DOUBLE PRECISION NOT NULL
);
CREATE INDEX sessions_guild ON sessions (guild_id, game, id);

-- Each seat of a finished session: who sat there and how it went.
CREATE TABLE session_seats (
    session_id  INTEGER NOT NULL REFERENCES sessions (id),
    seat        INTEGER NOT NULL,
    guild_id    BIGINT NOT NULL,
    game        TEXT NOT NULL,
    user_id     BIGINT,                         -- NULL for an AI seat
    ai_level    TEXT,                           -- the AI's level for an AI seat
    name        TEXT NOT NULL,
    result      INTEGER NOT NULL,               -- final stack - buy-in
    place       INTEGER NOT NULL,               -- 1 = best final stack (ties share)
    won         INTEGER NOT NULL,               -- 0/1, as in stats.wins
    PRIMARY KEY (session_id, seat)
);
CREATE INDEX session_seats_user ON session_seats (guild_id, user_id, game, session_id);

-- The current rating of each entry (a human, or one AI level) per guild, game and season.
-- score = mu - 3 sigma (OpenSkill's ordinal), the leaderboard key.
CREATE TABLE ratings (
    guild_id    BIGINT NOT NULL,
    game        TEXT NOT NULL,
    season      INTEGER NOT NULL,
    player      TEXT NOT NULL,                  -- 'user:<id>' or 'ai:<level>'
    user_id     BIGINT,                         -- NULL for an AI entry
    human       INTEGER NOT NULL,               -- 1 for a human entry, 0 for an AI level
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    score       DOUBLE PRECISION NOT NULL,
    sessions    INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, season, player)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, season, human, score DESC);
CREATE INDEX ratings_user ON ratings (guild_id, user_id, game, season);

-- Every rating change, one row per entry and session (the trend on a profile card).
CREATE TABLE rating_changes (
    session_id  INTEGER NOT NULL REFERENCES sessions (id),
    player      TEXT NOT NULL,
    guild_id    BIGINT NOT NULL,
    game        TEXT NOT NULL,
    season      INTEGER NOT NULL,
    mu_before   DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (session_id, player)
);
CREATE INDEX rating_changes_player ON rating_changes (guild_id, game, player, session_id);

-- /leaderboard by:wins
CREATE INDEX stats_wins ON stats (guild_id, game, wins DESC);
