-- Outbound webhooks to the company (issue 6 item 6), per the Standard Webhooks spec.
--
-- Endpoints live in their own table, owned by an API key, rather than in the reserved
-- api_keys.webhook_url column: a key may later have several endpoints, and disabling one
-- (410 Gone) must not touch the key row. The signing secret (`whsec_<base64>`) is kept in
-- plain text: the dispatcher needs the key itself to sign, the database roles already gate it,
-- and the application never logs it. Sealing it with the subject-key machinery is a follow-up.

CREATE TABLE webhook_endpoints (
    id              uuid PRIMARY KEY,
    api_key_id      uuid NOT NULL REFERENCES api_keys (id),
    url             text NOT NULL CHECK (url ~ '^https?://' AND char_length(url) <= 2000),
    secret          text NOT NULL CHECK (secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'),
    created_at      timestamptz NOT NULL DEFAULT now(),
    disabled_at     timestamptz,
    disabled_reason text,
    CHECK ((disabled_at IS NULL) = (disabled_reason IS NULL))
);

CREATE INDEX webhook_endpoints_api_key ON webhook_endpoints (api_key_id);

-- One row per message per endpoint. A pending delivery has next_attempt_at set; a delivered
-- or given-up one has it cleared. A claimed delivery carries a lease (owner, until).
CREATE TABLE webhook_deliveries (
    id              uuid PRIMARY KEY,
    endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id),
    message_id      text NOT NULL CHECK (message_id ~ '^[A-Za-z0-9_.:-]{1,200}$'),
    event_type      text NOT NULL CHECK (char_length(event_type) BETWEEN 1 AND 200),
    payload         jsonb NOT NULL,
    created_at      timestamptz NOT NULL,
    attempt_count   integer NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
    next_attempt_at timestamptz,
    last_attempt_at timestamptz,
    last_status     integer,
    last_error      text,
    delivered_at    timestamptz,
    given_up_at     timestamptz,
    lease_owner     text,
    lease_until     timestamptz,
    CONSTRAINT webhook_deliveries_message_key UNIQUE (endpoint_id, message_id),
    CHECK (NOT (delivered_at IS NOT NULL AND given_up_at IS NOT NULL)),
    CHECK ((next_attempt_at IS NULL) = (delivered_at IS NOT NULL OR given_up_at IS NOT NULL))
);

-- Due deliveries, for the dispatcher's claim.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE next_attempt_at IS NOT NULL;

-- Least privilege: no DELETE; UPDATE only of the state columns.
GRANT SELECT, INSERT ON webhook_endpoints, webhook_deliveries TO journeys_app;
GRANT UPDATE (url, secret, disabled_at, disabled_reason) ON webhook_endpoints TO journeys_app;
GRANT UPDATE (attempt_count, next_attempt_at, last_attempt_at, last_status, last_error,
              delivered_at, given_up_at, lease_owner, lease_until)
    ON webhook_deliveries TO journeys_app;
