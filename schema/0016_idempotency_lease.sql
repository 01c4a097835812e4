-- The request that holds an in-progress Idempotency-Key renews a short lease on it (`owner`,
-- `lease_until`, on the database's clock) while it works. A retry that finds the lease lapsed
-- (its owner died: `kill -9`, a lost connection) takes the key over within seconds and answers
-- from the journey; a released key is taken over the same way, so one retry at a time answers
-- for a key. Rows from before this migration have no lease: they lapse 60 s after creation.

ALTER TABLE idempotency_keys ADD COLUMN owner uuid, ADD COLUMN lease_until timestamptz;

GRANT UPDATE (owner, lease_until) ON idempotency_keys TO journeys_app;
