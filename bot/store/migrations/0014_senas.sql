-- Mus señas (table option `senas`, docs/rules/mus.md §10): each seña is stored before it is shown,
-- so a restart still shows it to whoever saw it, gives it to the AI's search, and keeps the
-- per-hand limits (never the same twice, at most 3). A hand is the deal `deal` and its `mus_round`;
-- `n` orders the señas of one hand. Who saw it is drawn again from the seed (deterministic).
-- Portable SQL (the same file serves SQLite and PostgreSQL).
CREATE TABLE senas (
    table_id    BIGINT NOT NULL REFERENCES tables (id),
    deal        INTEGER NOT NULL,
    mus_round   INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    sena        TEXT NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (table_id, deal, mus_round, seat, sena)
);
