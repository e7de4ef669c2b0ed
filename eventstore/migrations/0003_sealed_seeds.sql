-- Seeds sealed at rest (eventstore/seeds.py): AES-256-GCM under a key the database never sees.
-- The plain column stays only for rows written before this migration, until `referee migrate`
-- (or `referee serve` with the owner's URL) seals them: the database cannot, it has no key.
-- The service's role can neither write nor read the plain column.

ALTER TABLE games ALTER COLUMN seed DROP NOT NULL;
ALTER TABLE games
    ADD COLUMN seed_key_id text CHECK (char_length(seed_key_id) BETWEEN 1 AND 32),
    ADD COLUMN sealed_seed bytea CHECK (octet_length(sealed_seed) > 12 + 16), -- nonce, tag
    ADD CONSTRAINT games_one_seed CHECK ((seed IS NULL) <> (sealed_seed IS NULL)),
    ADD CONSTRAINT games_sealed_seed_has_key CHECK ((sealed_seed IS NULL) = (seed_key_id IS NULL));

REVOKE SELECT, INSERT ON games FROM referee_app;
GRANT SELECT (game_id, kind, rules_version, seats, status, version, command_count,
              seed_chosen_by_creator, created_at, updated_at, seed_key_id, sealed_seed)
    ON games TO referee_app;
GRANT INSERT (game_id, kind, rules_version, seats, status, version, command_count,
              seed_chosen_by_creator, created_at, updated_at, seed_key_id, sealed_seed)
    ON games TO referee_app;
