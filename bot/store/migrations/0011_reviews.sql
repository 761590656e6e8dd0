-- Issue 31: /review. One stored review per seat of a finished session, so asking again costs
-- nothing; its accuracy feeds /stats (per game) and /history (per session).
-- Portable SQL (the same file serves SQLite and PostgreSQL).
CREATE TABLE reviews (
    table_id    BIGINT NOT NULL REFERENCES tables (id),
    seat        INTEGER NOT NULL,
    guild_id    BIGINT NOT NULL,
    game        TEXT NOT NULL,
    user_id     BIGINT,                         -- NULL for an AI seat
    accuracy    DOUBLE PRECISION,               -- percent; NULL: no decision with a choice
    skill       DOUBLE PRECISION NOT NULL,      -- in the game's natural unit (bot/review)
    luck        DOUBLE PRECISION NOT NULL,
    result      DOUBLE PRECISION NOT NULL,
    decisions   INTEGER NOT NULL,
    budget_ms   DOUBLE PRECISION NOT NULL,      -- the search budget the review was run with
    data        TEXT NOT NULL,                  -- the review as JSON (bot.review.Review.to_dict)
    created_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX reviews_user ON reviews (guild_id, user_id, game);
