-- Data-subject requests (`journeys subjects`, `/v1/subjects`): a scope for them, and a lookup
-- of a subject's journeys in the log itself, so that an erasure never misses a journey that
-- the read models have not folded yet.

ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check CHECK (
    cardinality(scopes) > 0
    AND scopes <@ ARRAY['journeys:write', 'journeys:read', 'reports:read', 'subjects:admin', 'admin']::text[]);

-- Only `JourneyStarted` events name the subject (its pseudonymous reference, never a document).
CREATE INDEX events_subject_reference ON events ((data->'subject'->>'reference'))
    WHERE event_type = 'JourneyStarted';
