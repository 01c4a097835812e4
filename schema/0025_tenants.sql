-- Tenants (issue 13 item 6): a deployment may serve several companies. A tenant owns API keys;
-- every journey records the tenant that started it (`JourneyStarted.tenant`; events written
-- before this migration have none and belong to `default`), and every read is confined to the
-- caller's tenant by a predicate on `tenant`. A single-company deployment only ever sees `default`.

CREATE TABLE tenants (
    -- Lowercase letters, digits, `-` and `_`, starting with a letter (it is a settings-file key
    -- and appears in events and logs, so it is a label, never personal data).
    name       text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_-]{0,39}$'),
    created_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO tenants (name) VALUES ('default');

GRANT SELECT, INSERT ON tenants TO journeys_app;

-- Existing keys belong to the default tenant; a key's tenant never changes (no UPDATE grant).
ALTER TABLE api_keys ADD COLUMN tenant text NOT NULL DEFAULT 'default' REFERENCES tenants (name);

-- The read model's copy of `JourneyStarted.tenant`; existing rows were all started by `default`
-- keys. The projection writes it from now on; a rebuild writes the same values.
ALTER TABLE journey_state ADD COLUMN tenant text NOT NULL DEFAULT 'default';

-- The listing (`GET /v1/journeys`) of one tenant, newest first.
CREATE INDEX journey_state_tenant_listing ON journey_state (tenant, started_at DESC, journey_id DESC);
