-- Projections: read models folded from the event log in its global order, plus the checkpoint
-- of each projection. The runner writes a batch's rows and its checkpoint in ONE transaction
-- (exactly-once effect) and runs as the schema owner (DATABASE_ADMIN_URL): the application role
-- journeys_app only reads the read models.

CREATE TABLE projection_checkpoints (
    name           text PRIMARY KEY,
    transaction_id xid8 NOT NULL DEFAULT '0',
    position       bigint NOT NULL DEFAULT 0,
    updated_at     timestamptz NOT NULL DEFAULT now()
);

INSERT INTO projection_checkpoints (name) VALUES ('journey_state');

-- One row per journey. `state` is the domain's JourneyState (Journey.evolve fold) as JSON; the
-- other columns are extracted from it for queries. Never holds plaintext personal data: the
-- subject appears only as its pseudonymous reference (sealed fields stay sealed in `state`).
CREATE TABLE journey_state (
    journey_id          text PRIMARY KEY,
    status              text NOT NULL,
    environment         text,
    flow                text,
    purpose             text,
    client_reference    text,
    subject_reference   text,
    current_attempt     integer NOT NULL DEFAULT 0,
    current_process_id  text,
    token_expires_at    timestamptz,
    last_error_code     integer,
    started_at          timestamptz,
    captured_at         timestamptz,
    callback_at         timestamptz,
    result_at           timestamptz,
    completed_at        timestamptz,
    abandoned_at        timestamptz,
    outcome             text,
    next_due_at         timestamptz,
    next_due_kind       text,
    version             bigint NOT NULL,
    updated_position    bigint NOT NULL,
    state               jsonb NOT NULL
);

CREATE INDEX journey_state_next_due ON journey_state (next_due_at) WHERE next_due_at IS NOT NULL;
CREATE INDEX journey_state_status_started ON journey_state (status, started_at);

-- One row per attempt (one Unico process, or a failed Create Process).
CREATE TABLE journey_attempts (
    journey_id        text NOT NULL,
    attempt           integer NOT NULL,
    process_id        text,
    requested_at      timestamptz NOT NULL,
    created_at        timestamptz,
    token_expires_at  timestamptz,
    capture_opened_at timestamptz,
    callback_at       timestamptz,
    result_fetched_at timestamptz,
    outcome           text,
    error             text,
    PRIMARY KEY (journey_id, attempt)
);

CREATE INDEX journey_attempts_process ON journey_attempts (process_id) WHERE process_id IS NOT NULL;

GRANT SELECT ON projection_checkpoints, journey_state, journey_attempts TO journeys_app;
