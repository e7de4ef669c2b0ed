-- Open tables: players take their own seats, each holding only their own token.
--
-- A game is `waiting` until its last seat is taken, and `cancelled` if it expired unfilled.
-- How it was seated (`creator` or `open`) and whether it is listed stay as created; the names
-- at the table move with each sitting. A seat of an open table may be left and taken again
-- before the deal: each token is good for one sitting only (`sitting`, the seq of the
-- game.seat-taken event that seated its holder; 0 at a table its creator seated), so a token
-- row is still never changed or deleted.
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('waiting', 'active', 'finished', 'cancelled'));
ALTER TABLE games
    ADD COLUMN seating text    NOT NULL DEFAULT 'creator' CHECK (seating IN ('creator', 'open')),
    ADD COLUMN listed  boolean NOT NULL DEFAULT true,
    ADD COLUMN names   text[]  CHECK (cardinality(names) = seats);
GRANT SELECT (seating, listed, names), INSERT (seating, listed, names), UPDATE (names)
    ON games TO referee_app;

ALTER TABLE seat_tokens ADD COLUMN sitting bigint NOT NULL DEFAULT 0 CHECK (sitting >= 0);
ALTER TABLE seat_tokens DROP CONSTRAINT seat_tokens_pkey;
ALTER TABLE seat_tokens ADD PRIMARY KEY (game_id, seat, sitting);

-- Statuses only move forward: waiting, then active (or cancelled), then finished; a finished
-- or cancelled game stays so.
CREATE OR REPLACE FUNCTION refuse_moving_games_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.version < OLD.version THEN
        RAISE EXCEPTION 'game %: version % cannot go back to %', OLD.game_id, OLD.version,
            NEW.version USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW.command_count < OLD.command_count THEN
        RAISE EXCEPTION 'game %: command_count % cannot go back to %', OLD.game_id,
            OLD.command_count, NEW.command_count USING ERRCODE = 'restrict_violation';
    END IF;
    IF OLD.status IN ('finished', 'cancelled') AND NEW.status <> OLD.status THEN
        RAISE EXCEPTION 'game %: a % game stays %', OLD.game_id, OLD.status, OLD.status
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF OLD.status = 'active' AND NEW.status = 'waiting' THEN
        RAISE EXCEPTION 'game %: a game in play waits for no player', OLD.game_id
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$;

-- The sweeper also looks at waiting tables: each is due when it expires.
DROP INDEX games_due;
CREATE INDEX games_due ON games (wake_at)
    WHERE status IN ('waiting', 'active') AND wake_at IS NOT NULL;
-- The lobby: waiting tables that anyone may join, newest first.
CREATE INDEX games_waiting ON games (kind, created_at, game_id) WHERE status = 'waiting' AND listed;
