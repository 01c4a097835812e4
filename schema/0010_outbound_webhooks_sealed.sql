-- Outbound webhooks, part two (issue 6 item 6): signing secrets sealed at rest, and the
-- checkpoint of the follower that enqueues a delivery when a journey completes or is abandoned.
--
-- Secrets: AES-256-GCM under a key derived from the configured KEK (JOURNEYS_KEK), sealed and
-- opened by the application only; the database never sees the KEK or a plaintext secret.
-- Secrets stored in plain text by 0007 cannot be sealed here (no KEK in SQL): their column is
-- dropped and their endpoints are disabled; `journeys webhooks set` issues a new, sealed secret.

ALTER TABLE webhook_endpoints
    ADD COLUMN secret_sealed bytea CHECK (octet_length(secret_sealed) BETWEEN 29 AND 1024),
    ADD COLUMN secret_key_id text CHECK (secret_key_id ~ '^[A-Za-z0-9._-]{1,64}$');

UPDATE webhook_endpoints
SET disabled_at = now(), disabled_reason = 'secret must be re-issued: journeys webhooks set'
WHERE disabled_at IS NULL;

ALTER TABLE webhook_endpoints DROP COLUMN secret;

ALTER TABLE webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_secret_pair CHECK ((secret_sealed IS NULL) = (secret_key_id IS NULL)),
    ADD CONSTRAINT webhook_endpoints_enabled_has_secret CHECK (secret_sealed IS NOT NULL OR disabled_at IS NOT NULL);

GRANT UPDATE (secret_sealed, secret_key_id) ON webhook_endpoints TO journeys_app;

-- The follower (OutboundWebhooks.JourneyWebhookFollower) starts at the end of the log as it is
-- now: journeys that ended before this migration get no webhook. Like the projection runner,
-- it runs as the schema owner (it writes its checkpoint row).
INSERT INTO projection_checkpoints (name, transaction_id, position)
SELECT 'outbound_webhooks', coalesce(last.transaction_id, '0'), coalesce(last.position, 0)
FROM (SELECT NULL) AS nothing
LEFT JOIN LATERAL (
    SELECT transaction_id, position FROM events ORDER BY transaction_id DESC, position DESC LIMIT 1
) AS last ON true
ON CONFLICT (name) DO NOTHING;
