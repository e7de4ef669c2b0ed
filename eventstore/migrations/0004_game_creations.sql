-- Idempotent game creation: a POST /v1/games retried with the same Idempotency-Key answers the
-- game it created first. The key itself is never stored, only its sha256 (`key_hash`), with the
-- sha256 of the request it came with; a retry with another request is refused. The seat tokens
-- of such a game are derived from the key and a server key (api/service.py): they are not
-- stored either, and a retry can show them again.
--
-- Keys are global (creation has no caller to scope them by), so this table is keyed by the
-- key's hash, not by game_id: with Citus it would be a reference table.

CREATE TABLE game_creations (
    key_hash     bytea       PRIMARY KEY CHECK (octet_length(key_hash) = 32),
    request_hash bytea       NOT NULL CHECK (octet_length(request_hash) = 32),
    game_id      text        NOT NULL UNIQUE REFERENCES games,
    version      bigint      NOT NULL CHECK (version > 0),  -- the version the creation answered
    token_key_id text        NOT NULL,                      -- the seed key that derived the tokens
    created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TRIGGER game_creations_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON game_creations
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewriting_history();

REVOKE ALL ON game_creations FROM PUBLIC;
GRANT SELECT, INSERT ON game_creations TO referee_app;
