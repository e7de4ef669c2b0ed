-- Signed receipts and checkpoints (README, "Disputes"; api/signing.py, api/checkpoints.py).
--
-- `signing_keys`: the public half of every key the referee has signed with, and when it first
-- signed: a receipt must still verify once its key is retired and gone from the settings, so
-- the public key is kept here for as long as the database lives. A key is in use from its
-- `first_used` until the next key's. Inserted once per key (ON CONFLICT DO NOTHING), never
-- changed.
--
-- `log_leaves`: the checkpoint log, a Merkle tree (RFC 9162) over game heads. Leaf `idx` holds
-- the statement of a game's head (its version and a commitment to the head hash that only the
-- revealed seed opens), exactly as hashed into the tree. Leaves are numbered 0, 1, 2 ... with
-- no gap, appended by one process at a time (an advisory lock), never changed.
--
-- `checkpoints`: each signed tree head, by the tree's size: its root, when it was signed, and
-- the signed envelope exactly as served.
--
-- The three are append-only for the service, like events: it may insert and read, nothing else.
-- Under Citus they stay on the coordinator (eventstore/distribution.py): they are not a game's.

CREATE TABLE signing_keys (
    key_id     text        PRIMARY KEY CHECK (key_id ~ '^[A-Za-z0-9._-]{1,32}$'),
    public_key bytea       NOT NULL CHECK (octet_length(public_key) = 32),  -- raw Ed25519
    first_used timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE log_leaves (
    idx      bigint      PRIMARY KEY CHECK (idx >= 0),
    game_id  text        NOT NULL,
    version  integer     NOT NULL CHECK (version >= 1),
    leaf     bytea       NOT NULL,
    added_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (game_id, version)
);

CREATE TABLE checkpoints (
    size      bigint      PRIMARY KEY CHECK (size >= 1),
    root      bytea       NOT NULL CHECK (octet_length(root) = 32),
    signed_at timestamptz NOT NULL,
    envelope  bytea       NOT NULL
);

CREATE TRIGGER signing_keys_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON signing_keys
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewriting_history();
CREATE TRIGGER log_leaves_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON log_leaves
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewriting_history();
CREATE TRIGGER checkpoints_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewriting_history();

REVOKE ALL ON signing_keys, log_leaves, checkpoints FROM PUBLIC;
GRANT SELECT, INSERT ON signing_keys, log_leaves, checkpoints TO referee_app;
