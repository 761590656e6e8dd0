-- Issue 26: only sessions of their full length, and not coached, are rated and count on the boards.
-- Portable SQL (the same file serves SQLite and PostgreSQL).

-- Whether a finished session counted (rated, on the boards): 1, or 0 for a coached session or one
-- closed before its natural or nominal length (bot/tables/length.py). Sessions that ended before
-- this migration keep what they were then: rated if they have rating changes (every rated session
-- has one per entry), else unrated (a coached session, the only unrated kind until now). Sessions
-- closed early before this migration stay rated until `python -m bot admin rebuild-ratings`,
-- which decides every session again from its log.
ALTER TABLE sessions ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
UPDATE sessions SET rated = 0
    WHERE NOT EXISTS (SELECT 1 FROM rating_changes rc WHERE rc.session_id = sessions.id);

-- stats (the wins board, the per-game jetons board, the profile's figures) now holds only the
-- sessions that count: take the coached sessions recorded so far back out of it.
UPDATE stats SET
    sessions = sessions - (SELECT COUNT(*) FROM session_seats ss JOIN sessions s ON s.id = ss.session_id
        WHERE s.rated = 0 AND ss.guild_id = stats.guild_id AND ss.user_id = stats.user_id
        AND ss.game = stats.game),
    wins = wins - (SELECT COUNT(*) FROM session_seats ss JOIN sessions s ON s.id = ss.session_id
        WHERE s.rated = 0 AND ss.won = 1 AND ss.guild_id = stats.guild_id AND ss.user_id = stats.user_id
        AND ss.game = stats.game),
    net = net - (SELECT COALESCE(SUM(ss.result), 0) FROM session_seats ss JOIN sessions s ON s.id = ss.session_id
        WHERE s.rated = 0 AND ss.guild_id = stats.guild_id AND ss.user_id = stats.user_id
        AND ss.game = stats.game)
    WHERE EXISTS (SELECT 1 FROM session_seats ss JOIN sessions s ON s.id = ss.session_id
        WHERE s.rated = 0 AND ss.guild_id = stats.guild_id AND ss.user_id = stats.user_id
        AND ss.game = stats.game);
DELETE FROM stats WHERE sessions <= 0;
