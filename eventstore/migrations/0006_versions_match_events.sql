-- What the service's role may still write is held to the record's own shape, at commit (so that
-- an append's one statement, which moves the version and inserts the events, is checked whole):
-- a game's version is the seq of an event it has, and an event follows the one before it
-- (numbered on, chained by its prev_hash), does not lie past its game's version and, unless it
-- is sealed (its hash is over the plain body, which the database cannot read), hashes to its
-- hash. So a
-- version moved on by hand, or an event inserted beside the store, is refused by the database,
-- not only found later by the store's reads.

CREATE FUNCTION refuse_version_without_its_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.version > 0 AND NOT EXISTS (
        SELECT 1 FROM events WHERE game_id = NEW.game_id AND seq = NEW.version
    ) THEN
        RAISE EXCEPTION 'game %: version % has no event %', NEW.game_id, NEW.version, NEW.version
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER games_version_has_its_event
    AFTER INSERT OR UPDATE OF version ON games
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION refuse_version_without_its_event();

CREATE FUNCTION refuse_event_out_of_line() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.seq > (SELECT version FROM games WHERE game_id = NEW.game_id) THEN
        RAISE EXCEPTION 'game %: event % lies past the game''s version', NEW.game_id, NEW.seq
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW.prev_hash IS DISTINCT FROM coalesce(
        (SELECT hash FROM events WHERE game_id = NEW.game_id AND seq = NEW.seq - 1),
        CASE WHEN NEW.seq = 1 THEN decode(repeat('00', 32), 'hex') END -- the genesis hash
    ) THEN
        RAISE EXCEPTION 'game %: event % is not chained to event %', NEW.game_id, NEW.seq,
            NEW.seq - 1 USING ERRCODE = 'restrict_violation';
    END IF;
    IF NOT NEW.sealed AND NEW.hash <> sha256(NEW.prev_hash || NEW.body) THEN
        RAISE EXCEPTION 'game %: event % does not hash to its hash', NEW.game_id, NEW.seq
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER events_in_line
    AFTER INSERT ON events
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION refuse_event_out_of_line();
