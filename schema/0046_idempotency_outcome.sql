-- A start's idempotency key keeps the start's outcome (JSON in `outcome`: the journey, its
-- token or why there is none), not an HTTP answer: JourneyEngine owns the key, and a replay is
-- rendered like a fresh answer. Keys that kept an HTTP answer are released, as retention and
-- erasure leave them: a replay with such a key answers from the journey's state.
UPDATE idempotency_keys SET state = 'released', lease_until = NULL WHERE state = 'completed';

DROP INDEX idempotency_keys_stored_answers;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_check;
ALTER TABLE idempotency_keys DROP COLUMN response_status, DROP COLUMN response_body;
ALTER TABLE idempotency_keys ADD COLUMN outcome jsonb;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_check CHECK (state <> 'completed' OR outcome IS NOT NULL);

GRANT UPDATE (outcome) ON idempotency_keys TO journeys_app;

-- Stored outcomes (live tokens), by when they were stored.
CREATE INDEX idempotency_keys_stored_answers ON idempotency_keys (completed_at) WHERE outcome IS NOT NULL;
