-- Issue 28.1 and 28.4: who sits where in a lobby, who is invited, invitation-only tables and
-- Play again. Portable SQL (the same file serves SQLite and PostgreSQL).
--
-- lobby: JSON of the lobby's seating (bot/tables/seats.py, LobbyPlan):
--   places      the seat each seated player chose, parallel to `seats` (a lobby only),
--   invited     {user id: reserved seat} of the invitees who have not sat down yet,
--   invite_only true if only the host's invitees may sit,
--   rematch_of  the finished table this lobby plays again (Play again), or null.
-- '{}' (every table opened before this migration) reads as seats in join order, nobody invited.
ALTER TABLE tables ADD COLUMN lobby TEXT NOT NULL DEFAULT '{}';
