-- The disclosure trail (`PersonalDataDisclosed` events): opening personal data or a Human Token
-- takes its own scope, `human-token:read`; `journeys:read` keeps reading states and timestamps.

ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check CHECK (
    cardinality(scopes) > 0
    AND scopes <@ ARRAY['journeys:write', 'journeys:read', 'reports:read', 'subjects:admin', 'human-token:read',
                        'admin']::text[]);
