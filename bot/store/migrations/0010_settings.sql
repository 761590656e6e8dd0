-- Settings (issue 29): each server's /settings, the log of their changes, each person's /preferences.
-- Portable SQL: Discord ids in BIGINT columns, values as JSON text, times as REAL (epoch seconds).

-- One row per (server, key) an admin changed; a key without a row has the operator's default.
-- ``value`` is the JSON of the checked value (bot.settings.model).
CREATE TABLE guild_settings (
    guild_id    BIGINT NOT NULL,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    updated_by  BIGINT NOT NULL,
    updated_at  REAL NOT NULL,
    PRIMARY KEY (guild_id, key)
);

-- Every change, written in the change's transaction: who, when, old -> new (NULL = the default).
CREATE TABLE guild_settings_log (
    id          INTEGER PRIMARY KEY,
    guild_id    BIGINT NOT NULL,
    key         TEXT NOT NULL,
    old_value   TEXT,
    new_value   TEXT,
    user_id     BIGINT NOT NULL,
    at          REAL NOT NULL
);
CREATE INDEX guild_settings_log_guild ON guild_settings_log (guild_id, id);

-- A person's /preferences besides the language (user_languages) and the card faces (their own
-- store): whether Tapis may DM them reminders, and how their hands reach them ('dm' or
-- 'channel': the ephemeral My hand button). NULL = the default (reminders on, hands by DM).
CREATE TABLE user_preferences (
    user_id     BIGINT PRIMARY KEY,
    reminders   INTEGER,
    hands       TEXT,
    updated_at  REAL NOT NULL
);
