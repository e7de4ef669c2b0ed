-- Hidden bodies sealed at rest (eventstore/bodies.py): an event that holds what a spectator may
-- not see (a hand, a deck's order), and the command that produced it, are stored sealed under a
-- key derived from the game's seed; `sealed` says which. The hash chain stays over the plain
-- bodies. Rows written before this migration stay as they were (the tables are append-only).

ALTER TABLE events ADD COLUMN sealed boolean NOT NULL DEFAULT false;
ALTER TABLE commands ADD COLUMN sealed boolean NOT NULL DEFAULT false;
