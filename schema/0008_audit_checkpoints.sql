-- Signed audit checkpoints: a summary of the event log up to a point of its global order
-- (streams, events, last position and a digest over every stream head at that point), signed
-- with an Ed25519 key from configuration. Append-only like the event log: the application role
-- journeys_app may only INSERT and SELECT, and triggers refuse UPDATE, DELETE and TRUNCATE for
-- every role. Each checkpoint names the signature of the one before it (`previous_signature`,
-- unique), so the checkpoints form one chain: a removed or forked checkpoint shows.

CREATE TABLE audit_checkpoints (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at         timestamptz NOT NULL,
    -- The cut: every event at or before (transaction_id, position) in the global order.
    transaction_id     xid8 NOT NULL,
    position           bigint NOT NULL CHECK (position >= 0),
    streams            bigint NOT NULL CHECK (streams >= 0),
    events             bigint NOT NULL CHECK (events >= 0),
    heads_digest       bytea NOT NULL CHECK (octet_length(heads_digest) = 32),
    -- sha256 of the previous checkpoint's signature; 32 zero bytes for the first.
    previous_signature bytea NOT NULL CHECK (octet_length(previous_signature) = 32),
    public_key         bytea NOT NULL CHECK (octet_length(public_key) = 32),
    signature          bytea NOT NULL CHECK (octet_length(signature) = 64),
    CONSTRAINT audit_checkpoints_previous_key UNIQUE (previous_signature)
);

CREATE FUNCTION refuse_audit_checkpoint_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit checkpoints are append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER audit_checkpoints_no_update_delete BEFORE UPDATE OR DELETE ON audit_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_checkpoint_change();
CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_checkpoint_change();

GRANT SELECT, INSERT ON audit_checkpoints TO journeys_app;
