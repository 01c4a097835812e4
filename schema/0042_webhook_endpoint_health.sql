-- Outbound webhook endpoints that fail for days are disabled automatically, and a revoked API
-- key's endpoints receive nothing (issue 26 item 5, issue 23).
--
-- failing_since: when the endpoint's current run of failed attempts began (NULL after a 2xx, or
-- before any failure); the dispatcher disables the endpoint once the run is longer than its
-- auto-disable setting. auto_disabled_count: how many times that happened, summed into the
-- counter journeys_webhook_endpoints_auto_disabled_total (monotonic: endpoints are never deleted).
ALTER TABLE webhook_endpoints
    ADD COLUMN failing_since timestamptz,
    ADD COLUMN auto_disabled_count integer NOT NULL DEFAULT 0;

GRANT UPDATE (failing_since, auto_disabled_count) ON webhook_endpoints TO journeys_app;

-- The follower skips the endpoints of revoked keys when it queues messages.
GRANT SELECT (revoked_at) ON api_keys TO journeys_projector;

-- The scope of the webhook administration routes (/v1/webhook-endpoints).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check CHECK (
    cardinality(scopes) > 0
    AND scopes <@ ARRAY['journeys:write', 'journeys:read', 'reports:read', 'subjects:admin', 'human-token:read',
                        'webhooks:admin', 'admin']::text[]);
