-- Languages (issue 14): a person's /language choice and each table's language.
-- Portable SQL: Discord ids in BIGINT columns, language codes as TEXT ('en', 'fr', 'es', 'cs').

-- One row per person seen: the language they chose with /language (NULL = follow their Discord
-- client) and the Discord client locale of their last interaction, so that a DM sent outside
-- any interaction (a new deal) is still in their language.
CREATE TABLE user_languages (
    user_id     BIGINT PRIMARY KEY,
    language    TEXT,
    client      TEXT,
    updated_at  REAL NOT NULL
);

-- The language of a table's public message and images, fixed when the table is opened.
CREATE TABLE table_languages (
    table_id    BIGINT PRIMARY KEY,
    language    TEXT NOT NULL
);
