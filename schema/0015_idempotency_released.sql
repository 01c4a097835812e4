-- A key whose request ended with a retryable answer (429, 502, 503, 504, a database or Unico
-- error) is released instead of completed: no answer is stored, and a retry with the key answers
-- from its journey's current state (`journey_id`) instead of starting another journey.

ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_state_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_state_check
    CHECK (state IN ('in_progress', 'completed', 'released'));
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_check
    CHECK (state <> 'completed' OR (response_status IS NOT NULL AND response_body IS NOT NULL));
