-- The event store: one stream per game, its seat tokens, its commands and its events.
--
-- Every key starts with game_id and every query names one (except the list of games), so the
-- tables can be distributed by game_id (Citus); no semantics rest on a global sequence: seq and
-- command_id are counted per game, under the game row's lock.
--
-- commands and events are append-only in the database itself: triggers refuse UPDATE, DELETE
-- and TRUNCATE whoever asks, and the application's role (referee_app) may only SELECT and
-- INSERT them. Only a superuser or the tables' owner can disable the triggers.

CREATE TABLE games (
    game_id                text        PRIMARY KEY,
    kind                   text        NOT NULL,
    rules_version          text        NOT NULL,
    seats                  integer     NOT NULL CHECK (seats > 0),
    status                 text        NOT NULL CHECK (status IN ('active', 'finished')),
    version                bigint      NOT NULL CHECK (version >= 0),   -- seq of the last event
    command_count          bigint      NOT NULL DEFAULT 0 CHECK (command_count >= 0),
    seed                   bytea       NOT NULL,                        -- secret until revealed
    seed_chosen_by_creator boolean     NOT NULL,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);

-- Keyset pagination of the list of games, newest first, optionally filtered.
CREATE INDEX games_by_created_at ON games (created_at, game_id);
CREATE INDEX games_by_kind ON games (kind, created_at, game_id);
CREATE INDEX games_by_status ON games (status, created_at, game_id);

CREATE TABLE seat_tokens (
    game_id    text    NOT NULL REFERENCES games,
    seat       integer NOT NULL CHECK (seat >= 0),
    token_hash bytea   NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, token_hash)
);

CREATE TABLE commands (
    game_id         text        NOT NULL REFERENCES games,
    command_id      bigint      NOT NULL CHECK (command_id > 0),        -- 1, 2, 3 ... per game
    seat            integer     NOT NULL CHECK (seat >= 0),
    body            bytea       NOT NULL,
    idempotency_key text        CHECK (char_length(idempotency_key) BETWEEN 1 AND 255),
    first_seq       bigint      NOT NULL CHECK (first_seq > 0),
    last_seq        bigint      NOT NULL,
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, command_id),
    UNIQUE (game_id, seat, idempotency_key),                           -- NULL keys never clash
    CHECK (last_seq >= first_seq)
);

CREATE TABLE events (
    game_id       text        NOT NULL REFERENCES games,
    seq           bigint      NOT NULL CHECK (seq > 0),                 -- 1, 2, 3 ... no gaps
    type          text        NOT NULL,
    body          bytea       NOT NULL,                                 -- exactly the bytes hashed
    seat          integer     CHECK (seat >= 0),
    command_id    bigint,
    chance_cursor bigint      NOT NULL CHECK (chance_cursor >= 0),
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    prev_hash     bytea       NOT NULL CHECK (octet_length(prev_hash) = 32),
    hash          bytea       NOT NULL CHECK (octet_length(hash) = 32), -- sha256(prev_hash || body)
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, command_id) REFERENCES commands (game_id, command_id)
);

CREATE FUNCTION refuse_rewriting_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % is refused: the table is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;

-- Statement-level, so that even a statement matching no row is refused.
CREATE TRIGGER events_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewriting_history();
CREATE TRIGGER commands_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON commands
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewriting_history();

-- The application's role. Roles belong to the whole cluster, so another database may have
-- created it already.
DO $$
BEGIN
    CREATE ROLE referee_app NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END
$$;

-- A superuser may SET ROLE to any role; any other migrating user needs the membership.
DO $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        EXECUTE format('GRANT referee_app TO %I', current_user);
    END IF;
END
$$;

REVOKE ALL ON games, seat_tokens, commands, events FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO referee_app;
GRANT SELECT, INSERT ON games, seat_tokens, commands, events TO referee_app;
-- Only what an append moves on; the seed, kind, seats and creation time stay as created.
GRANT UPDATE (version, command_count, status, updated_at) ON games TO referee_app;
