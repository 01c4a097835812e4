-- Per-subject data keys for crypto-shredding. Personal fields in the event log are sealed
-- with their subject's data key, stored here wrapped by a key-encryption key (KEK) that lives
-- only in configuration. Erasing a subject wipes its wrapped key: the sealed fields in the
-- log become unreadable while the log itself, and its hash chain, stay untouched.
-- The application role reads, creates keys and erases; it never deletes a row, so an erased
-- subject stays a tombstone and "erased" differs from "unknown".

CREATE TABLE subject_keys (
    -- The keyed hash of document type and number (never the document itself).
    subject_ref text PRIMARY KEY CHECK (subject_ref <> ''),
    -- nonce || AES-256-GCM(data key) || tag, under the KEK `kek_id`; NULL once erased.
    wrapped_key bytea,
    kek_id      text NOT NULL CHECK (kek_id <> ''),
    created_at  timestamptz NOT NULL DEFAULT now(),
    erased_at   timestamptz,
    CONSTRAINT subject_keys_erased_has_no_key CHECK ((wrapped_key IS NULL) = (erased_at IS NOT NULL))
);

-- Erasure is final, for every role including the owner: a tombstone never gets a key back.
-- A live key is only ever replaced by re-wrapping it under another KEK (rotation, run by the
-- owner); replacing it under the same KEK would silently shred data without a tombstone.
CREATE FUNCTION guard_subject_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.erased_at IS NOT NULL
       AND (NEW.wrapped_key IS NOT NULL OR NEW.erased_at IS DISTINCT FROM OLD.erased_at) THEN
        RAISE EXCEPTION 'subject key erasure is final: % refused', TG_OP
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.wrapped_key IS NOT NULL AND NEW.wrapped_key IS DISTINCT FROM OLD.wrapped_key
       AND NEW.kek_id = OLD.kek_id THEN
        RAISE EXCEPTION 'a subject key is only re-wrapped under another key-encryption key'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER subject_keys_guard BEFORE UPDATE ON subject_keys
    FOR EACH ROW EXECUTE FUNCTION guard_subject_key_change();

-- Least privilege: read, create a live key on first use (created_at is the server's), and
-- erase (wipe the key, stamp the time) only.
GRANT SELECT ON subject_keys TO journeys_app;
GRANT INSERT (subject_ref, wrapped_key, kek_id) ON subject_keys TO journeys_app;
GRANT UPDATE (wrapped_key, erased_at) ON subject_keys TO journeys_app;
