-- /review graded the moves the table played for a seat (the AI standing in for an away player,
-- the timeout move at a deadline: actors 'ai' and 'timeout') as its player's decisions; it grades
-- only the player's own moves now (bot/review/points.py STAND_IN). The reviews stored of such seats
-- are dropped: asked again, they are computed anew, and until then /stats and /history show no
-- accuracy for them. Portable SQL (the same file serves SQLite and PostgreSQL).
DELETE FROM reviews WHERE EXISTS (
    SELECT 1 FROM actions a
    WHERE a.table_id = reviews.table_id AND a.seat = reviews.seat AND a.actor IN ('ai', 'timeout')
);
