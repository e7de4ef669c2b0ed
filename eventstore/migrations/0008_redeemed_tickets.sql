-- Stream tickets that open one stream, once, whichever process they are sent to (api/tickets.py).
-- A ticket is redeemed by recording its nonce, in one statement that inserts it unless it is
-- there already (INSERT ... ON CONFLICT DO NOTHING): of any number of processes redeeming one
-- ticket at once, exactly one inserts the row and opens the stream. A ticket names its game, so
-- the row is keyed by the game too, and goes with it (Citus: eventstore/distribution.py); it
-- needs no foreign key: the ticket's own HMAC binds it to a game that existed when it was issued.
--
-- A row is kept until ten minutes after its ticket expired (an expired ticket is refused before
-- it is looked up here, so forgetting it then frees nothing; the ten minutes cover a process's
-- clock that lags the database's), then deleted by the service (`forget_redeemed_tickets`).
-- The service may insert a row and delete one past that time, nothing else: a redeemed ticket
-- cannot be made to open a stream again, whoever asks, short of the owner lifting the guards.
--
-- And, for kept audit reports (api/audit.py): the service may read the row version of a game
-- (its `xmin` and `ctid`), as it may those of events and commands, to tell whether the record
-- an audit vouched for is still the one stored (`EventStore.record_stamp`).

CREATE TABLE redeemed_tickets (
    game_id    text        NOT NULL,
    nonce      bytea       NOT NULL CHECK (octet_length(nonce) = 8),
    expires_at timestamptz NOT NULL,                 -- the ticket's own expiry
    PRIMARY KEY (game_id, nonce)
);

CREATE INDEX redeemed_tickets_by_expiry ON redeemed_tickets (expires_at);

CREATE FUNCTION refuse_forgetting_a_live_ticket() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.expires_at >= now() - interval '10 minutes' THEN
        RAISE EXCEPTION 'game %: a ticket redeemed is kept until ten minutes after it expired',
            OLD.game_id USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN OLD;
END
$$;

CREATE TRIGGER redeemed_tickets_kept
    BEFORE DELETE ON redeemed_tickets
    FOR EACH ROW EXECUTE FUNCTION refuse_forgetting_a_live_ticket();
CREATE TRIGGER redeemed_tickets_not_rewritten
    BEFORE UPDATE OR TRUNCATE ON redeemed_tickets
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewriting_history();

REVOKE ALL ON redeemed_tickets FROM PUBLIC;
GRANT INSERT (game_id, nonce, expires_at), DELETE ON redeemed_tickets TO referee_app;
GRANT SELECT (expires_at) ON redeemed_tickets TO referee_app;  -- what the DELETE's WHERE reads

GRANT SELECT (xmin, ctid) ON games TO referee_app;
