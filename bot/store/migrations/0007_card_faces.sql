-- Card faces (issue 30): how each person wants to see the cards, across servers (beside their
-- /language choice). Portable SQL (the same file serves SQLite and PostgreSQL).
--
-- faces: 'classic', 'four_colour' (one colour per suit) or 'large' (large indices); NULL = classic.
-- pack:  'native' (each game's own pack: the Czech pack at Marias) or 'french' (the French suits
--        wherever a game allows them); NULL = native.
-- A player without a row sees each table as its host chose (the table's options).
CREATE TABLE card_faces (
    user_id     BIGINT PRIMARY KEY,
    faces       TEXT,
    pack        TEXT,
    updated_at  REAL NOT NULL
);
