-- The service logs in as its own role, a member of referee_app, and never as the owner: it
-- cannot SET ROLE to anything stronger, nor ALTER or DROP what it does not own. What its
-- privileges still allow on the games table (moving version, command_count and status) is held
-- to go forward only, for everyone: a game's version and command count never go back, and a
-- finished game stays finished. Like the append-only triggers, only the owner or a superuser
-- can disable this one.

CREATE FUNCTION refuse_moving_games_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.version < OLD.version THEN
        RAISE EXCEPTION 'game %: version % cannot go back to %', OLD.game_id, OLD.version,
            NEW.version USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW.command_count < OLD.command_count THEN
        RAISE EXCEPTION 'game %: command_count % cannot go back to %', OLD.game_id,
            OLD.command_count, NEW.command_count USING ERRCODE = 'restrict_violation';
    END IF;
    IF OLD.status = 'finished' AND NEW.status <> 'finished' THEN
        RAISE EXCEPTION 'game %: a finished game stays finished', OLD.game_id
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER games_only_move_forward
    BEFORE UPDATE OF version, command_count, status ON games
    FOR EACH ROW EXECUTE FUNCTION refuse_moving_games_back();

-- Nobody but the owner creates objects in the schema (already so since PostgreSQL 15).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
