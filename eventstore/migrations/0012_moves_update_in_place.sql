-- A move updates its game's row in place (issue 29).
--
-- PostgreSQL writes an updated row beside the old one and, unless no indexed column changed,
-- a new entry in every index of the table: seven for a game, on every move, because the index of
-- idle games (0007) was on `updated_at`, which every move sets. Now that index is on `idle_from`:
-- when the game was last moved, to the minute (an append moves it on only once it is a minute
-- old), and the sweeper's query filters on the exact `updated_at` after it. So a move changes no
-- indexed column of its game but when a minute has passed, a status changes or a clock's
-- deadline moves, and the row is rewritten on its own page with no index touched (a "HOT"
-- update); the pages keep room for it.

ALTER TABLE games ADD COLUMN idle_from timestamptz;
UPDATE games SET idle_from = updated_at;
ALTER TABLE games ALTER COLUMN idle_from SET NOT NULL, ALTER COLUMN idle_from SET DEFAULT now();

DROP INDEX games_idle;
CREATE INDEX games_idle ON games (idle_from) WHERE status = 'active';
ALTER TABLE games SET (fillfactor = 80);

GRANT SELECT (idle_from), INSERT (idle_from), UPDATE (idle_from) ON games TO referee_app;
