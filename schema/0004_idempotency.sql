-- Idempotency keys of `POST /v1/journeys`: the first request with a key inserts an in-progress
-- row in the same transaction as the journey's first events; its answer is stored when it is
-- known, and a replay with the same key and body returns that answer.

CREATE TABLE idempotency_keys (
    -- The API key that sent the request; keys are scoped per API key.
    api_key_id      uuid NOT NULL,
    key             text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
    -- SHA-256 of the request body; a replay with another body is refused.
    request_hash    bytea NOT NULL CHECK (octet_length(request_hash) = 32),
    state           text NOT NULL DEFAULT 'in_progress' CHECK (state IN ('in_progress', 'completed')),
    journey_id      text NOT NULL,
    response_status integer,
    response_body   text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    completed_at    timestamptz,
    PRIMARY KEY (api_key_id, key),
    CHECK (state = 'in_progress' OR (response_status IS NOT NULL AND response_body IS NOT NULL))
);

-- Least privilege: no DELETE, and UPDATE only of the state and response columns.
GRANT SELECT, INSERT ON idempotency_keys TO journeys_app;
GRANT UPDATE (state, response_status, response_body, completed_at) ON idempotency_keys TO journeys_app;
