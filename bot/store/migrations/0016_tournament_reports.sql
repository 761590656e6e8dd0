-- What an event has told, kept with it (issue 33's runner kept it in memory only): a restart between
-- a round's end and the next round posted that round's standings again, and a crash between the
-- payout and the final standings left the channel without them. `reported`: the last round whose
-- standings were posted (0: none); `final_reported`: 1 once the final standings and the winners were.
-- `channel_lost`: 1 once Tapis lost the event's channel (nothing more is posted there; its entrants
-- are told by DM instead); `tournament_players.told`: 1 once that member was sent that DM.
-- Events from before: those over count as told; a running one as told up to the round before the
-- one under way. Portable SQL (the same file serves SQLite and PostgreSQL).
ALTER TABLE tournaments ADD COLUMN reported INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN final_reported INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN channel_lost INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_players ADD COLUMN told INTEGER NOT NULL DEFAULT 0;
UPDATE tournaments SET
    reported = CASE WHEN status = 'running' AND round > 0 THEN round - 1
                    WHEN status IN ('finished', 'cancelled') THEN round ELSE 0 END,
    final_reported = CASE WHEN status IN ('finished', 'cancelled') THEN 1 ELSE 0 END;
