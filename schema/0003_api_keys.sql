-- API keys for backends and operators (`journeys keys`): a hash of each key, never the key,
-- with its scopes. The application role creates, reads, revokes and touches keys; it can
-- neither delete a key nor change its secret, name or scopes, and a revocation is final.

CREATE TABLE api_keys (
    id           uuid PRIMARY KEY,
    name         text NOT NULL CHECK (btrim(name) <> '' AND char_length(name) <= 100),
    -- The public lookup part of `jk_<prefix>_<secret>`: 8 characters of lowercase base32.
    prefix       text NOT NULL CHECK (prefix ~ '^[a-z2-7]{8}$'),
    -- SHA-256 of the whole key text. The key has 256 random bits, so a plain hash resists
    -- guessing; the key itself is shown once at creation and stored nowhere.
    secret_hash  bytea NOT NULL CHECK (octet_length(secret_hash) = 32),
    scopes       text[] NOT NULL CHECK (
                     cardinality(scopes) > 0
                     AND scopes <@ ARRAY['journeys:write', 'journeys:read', 'reports:read', 'admin']::text[]),
    created_at   timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz,
    -- Touched at most once a minute per key, so authentication stays a single read.
    last_used_at timestamptz,
    -- Reserved for outbound webhooks per key (issue 6); the secret is sealed by the application.
    webhook_url           text,
    webhook_secret_sealed bytea,
    CONSTRAINT api_keys_prefix_key UNIQUE (prefix)
);

-- A revoked key stays revoked, for every role: clearing or moving revoked_at is refused.
CREATE FUNCTION refuse_api_key_unrevoke() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.revoked_at IS NOT NULL AND NEW.revoked_at IS DISTINCT FROM OLD.revoked_at THEN
        RAISE EXCEPTION 'API key % is revoked; a revocation is final', OLD.prefix
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER api_keys_revocation_is_final BEFORE UPDATE OF revoked_at ON api_keys
    FOR EACH ROW EXECUTE FUNCTION refuse_api_key_unrevoke();

-- Least privilege: no DELETE, and UPDATE only of the columns the application maintains.
GRANT SELECT, INSERT ON api_keys TO journeys_app;
GRANT UPDATE (revoked_at, last_used_at, webhook_url, webhook_secret_sealed) ON api_keys TO journeys_app;
