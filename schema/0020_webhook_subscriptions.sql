-- Outbound webhooks, part three (issue 12 item 8): every step a company subscribes to,
-- a delivery history it can read, and deliveries it can send again.
--
-- Subscriptions: event_types lists what an endpoint receives; NULL means every type, now and
-- later (the default for new endpoints). Endpoints that exist before this migration received
-- only journey.completed and journey.abandoned: they keep exactly those two.

ALTER TABLE webhook_endpoints
    ADD COLUMN event_types text[]
        CHECK (event_types IS NULL
               OR (cardinality(event_types) BETWEEN 1 AND 32
                   AND array_to_string(event_types, ',', '?') ~ '^[a-z_]+\.[a-z_]+(,[a-z_]+\.[a-z_]+)*$'));

UPDATE webhook_endpoints SET event_types = ARRAY['journey.completed', 'journey.abandoned'];

GRANT UPDATE (event_types) ON webhook_endpoints TO journeys_app;

-- Resending: `journeys webhooks resend DELIVERY` adds a new delivery row of the same message
-- (same message id, type and payload) pointing at the one it resends, so the history of every
-- earlier attempt stays as it was. The follower's guard (one queued message per endpoint)
-- applies to first deliveries only; at most one delivery of a message is pending at a time.
ALTER TABLE webhook_deliveries
    ADD COLUMN resend_of uuid REFERENCES webhook_deliveries (id);

ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_message_key;

CREATE UNIQUE INDEX webhook_deliveries_message_once
    ON webhook_deliveries (endpoint_id, message_id) WHERE resend_of IS NULL;

CREATE UNIQUE INDEX webhook_deliveries_one_pending
    ON webhook_deliveries (endpoint_id, message_id) WHERE next_attempt_at IS NOT NULL;

-- Recent deliveries of an endpoint, for `journeys webhooks deliveries KEY`.
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries (endpoint_id, created_at DESC);
