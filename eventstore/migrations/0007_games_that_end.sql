-- Games that always end (resign, clocks, abandonment, the server's own bots).
-- The referee's own commands (a timeout claimed by the server's sweeper, an abandoned game
-- closed) are recorded like a seat's, with no seat. A game says when the server must next look
-- at it (a seat's clock running out, a bot of the server's to move): the sweeper reads the
-- active games that are due, and the idle ones, through the two partial indexes.
ALTER TABLE commands ALTER COLUMN seat DROP NOT NULL;
ALTER TABLE games ADD COLUMN wake_at timestamptz;
GRANT SELECT (wake_at), INSERT (wake_at), UPDATE (wake_at) ON games TO referee_app;
CREATE INDEX games_due ON games (wake_at) WHERE status = 'active' AND wake_at IS NOT NULL;
CREATE INDEX games_idle ON games (updated_at) WHERE status = 'active';
