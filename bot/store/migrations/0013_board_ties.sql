-- Tapis schema v13: the boards break ties the same way every time, from their indexes.
-- By rating: the higher score first, then the user id (two players who played the same sessions
-- side by side have the same rating). By wins: more wins first, then fewer sessions (the same
-- wins in fewer sessions is the better record), then the user id. By jetons: more first, then the
-- user id. Before, players tied on the board's value came in the index's order of the moment, so
-- a tie at the tenth place could put either player on the board from one call to the next.

DROP INDEX stats_wins;
CREATE INDEX stats_wins ON stats (guild_id, game, wins DESC, sessions, user_id);
DROP INDEX stats_board;
CREATE INDEX stats_board ON stats (guild_id, game, net DESC, user_id);
DROP INDEX accounts_board;
CREATE INDEX accounts_board ON accounts (guild_id, kind, balance DESC, user_id);
DROP INDEX ratings_board;
CREATE INDEX ratings_board ON ratings (guild_id, game, season, human, score DESC, user_id);
