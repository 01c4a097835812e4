import Foundation
import Postgres

/// Every statement over `webhook_endpoints` and `webhook_deliveries`; values are binds.
enum OutboundWebhooksStatements {
    // MARK: - Endpoints (WebhookEndpoints, WebhookEndpointStore)

    /// The columns ``WebhookEndpoint/init(row:)`` reads, by name.
    static let endpointColumns = """
        id, api_key_id, url, created_at, disabled_at, disabled_reason, secret_key_id, failing_since,
        array_to_string(event_types, ',') AS event_types,
        (SELECT k.prefix FROM api_keys k WHERE k.id = webhook_endpoints.api_key_id) AS api_key_prefix,
        (SELECT k.revoked_at IS NOT NULL FROM api_keys k WHERE k.id = webhook_endpoints.api_key_id) AS key_revoked
        """

    /// No revoked key owns endpoint `e`: a revoked key's endpoints get nothing queued or sent.
    static let keyActive = """
        NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.id = e.api_key_id AND k.revoked_at IS NOT NULL)
        """

    static func insertEndpoint(
        id: UUID, apiKeyID: UUID, url: String, sealedSecret: Data, keyID: String,
        eventTypes: [String]?, createdAt: Date
    ) -> PostgresQuery {
        """
        INSERT INTO webhook_endpoints (id, api_key_id, url, secret_sealed, secret_key_id, event_types, created_at)
        VALUES (\(id), \(apiKeyID), \(url), \(sealedSecret), \(keyID), \(NullableBind(eventTypes))::text[], \(createdAt))
        """
    }

    /// Sets the endpoint's subscription (NULL: every type).
    static func updateEventTypes(_ id: UUID, eventTypes: [String]?) -> PostgresQuery {
        """
        UPDATE webhook_endpoints SET event_types = \(NullableBind(eventTypes))::text[] WHERE id = \(id)
        """
    }

    /// Points the endpoint at `url`, replaces its secret and enables it.
    static func updateEndpoint(_ id: UUID, url: String, sealedSecret: Data, keyID: String) -> PostgresQuery {
        """
        UPDATE webhook_endpoints SET url = \(url), secret_sealed = \(sealedSecret), secret_key_id = \(keyID),
            disabled_at = NULL, disabled_reason = NULL, failing_since = NULL
        WHERE id = \(id)
        """
    }

    /// Points the endpoint at `url` and enables it, keeping its secret.
    static func updateEndpoint(_ id: UUID, url: String) -> PostgresQuery {
        """
        UPDATE webhook_endpoints SET url = \(url), disabled_at = NULL, disabled_reason = NULL, failing_since = NULL
        WHERE id = \(id)
        """
    }

    /// The key's endpoints, newest first.
    static func endpoints(apiKeyID: UUID) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: endpointColumns) FROM webhook_endpoints
        WHERE api_key_id = \(apiKeyID) ORDER BY created_at DESC, id
        """
    }

    static func disabled(_ id: UUID) -> PostgresQuery {
        """
        SELECT disabled_at, disabled_reason FROM webhook_endpoints WHERE id = \(id)
        """
    }

    /// Disables every enabled endpoint of the key.
    static func disableEndpoints(apiKeyID: UUID, at now: Date, reason: String) -> PostgresQuery {
        """
        UPDATE webhook_endpoints SET disabled_at = \(now), disabled_reason = \(reason)
        WHERE api_key_id = \(apiKeyID) AND disabled_at IS NULL
        """
    }

    /// Disables the endpoint unless it already is.
    static func disableEndpoint(_ id: UUID, at now: Date, reason: String) -> PostgresQuery {
        """
        UPDATE webhook_endpoints SET disabled_at = \(now), disabled_reason = \(reason)
        WHERE id = \(id) AND disabled_at IS NULL
        """
    }

    // MARK: - The outbox (WebhookOutbox)

    /// Queues a message for one endpoint; a second one with the same message id is a no-op.
    static func enqueue(endpointID: UUID, messageID: String, type: String, payload: JSONB, now: Date) -> PostgresQuery {
        """
        INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event_type, payload, created_at, next_attempt_at)
        VALUES (\(UUID()), \(endpointID), \(messageID), \(type), \(payload)::jsonb, \(now), \(now))
        ON CONFLICT (endpoint_id, message_id) WHERE resend_of IS NULL DO NOTHING
        """
    }

    /// Queues a message for every enabled endpoint of the key subscribed to `type`, idempotent per endpoint.
    static func enqueue(apiKeyID: UUID, messageID: String, type: String, payload: JSONB, now: Date) -> PostgresQuery {
        """
        INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event_type, payload, created_at, next_attempt_at)
        SELECT gen_random_uuid(), e.id, \(messageID), \(type), \(payload)::jsonb, \(now), \(now)
        FROM webhook_endpoints e
        WHERE e.api_key_id = \(apiKeyID) AND e.disabled_at IS NULL AND \(unsafeSQL: keyActive)
          AND (e.event_types IS NULL OR \(type) = ANY (e.event_types))
        ON CONFLICT (endpoint_id, message_id) WHERE resend_of IS NULL DO NOTHING
        """
    }

    /// The subscriptions of the enabled endpoints of these keys: one row per endpoint,
    /// `event_types` NULL for every type; the follower skips messages nobody takes.
    static func subscriptions(apiKeyIDs: [UUID]) -> PostgresQuery {
        """
        SELECT api_key_id, array_to_string(event_types, ',') AS event_types FROM webhook_endpoints e
        WHERE api_key_id = ANY (\(apiKeyIDs)::uuid[]) AND disabled_at IS NULL AND \(unsafeSQL: keyActive)
        """
    }

    // MARK: - History and resending (WebhookDeliveryLog)

    /// The columns ``WebhookDeliveryRecord/init(row:)`` reads, over `webhook_deliveries d`.
    static let deliveryColumns = """
        d.id, d.endpoint_id, d.message_id, d.event_type, d.created_at, d.attempt_count, d.next_attempt_at,
        d.last_attempt_at, d.last_status, d.last_error, d.delivered_at, d.given_up_at, d.resend_of
        """

    /// The newest `limit` deliveries of the key's endpoints.
    static func recentDeliveries(apiKeyID: UUID, limit: Int) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: deliveryColumns) FROM webhook_deliveries d
        JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE e.api_key_id = \(apiKeyID)
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT \(limit)
        """
    }

    /// One delivery, row-locked for a resend.
    static func delivery(_ id: UUID) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: deliveryColumns) FROM webhook_deliveries d WHERE d.id = \(id) FOR UPDATE
        """
    }

    /// The pending delivery of the message at the endpoint, if any.
    static func pendingDelivery(endpointID: UUID, messageID: String) -> PostgresQuery {
        """
        SELECT id, next_attempt_at FROM webhook_deliveries
        WHERE endpoint_id = \(endpointID) AND message_id = \(messageID) AND next_attempt_at IS NOT NULL
        """
    }

    /// A new delivery of `original`'s message (same id, type, payload), due at `now`.
    static func resend(_ original: UUID, id: UUID, now: Date) -> PostgresQuery {
        """
        INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event_type, payload, created_at, next_attempt_at, resend_of)
        SELECT \(id), endpoint_id, message_id, event_type, payload, \(now), \(now), id
        FROM webhook_deliveries WHERE id = \(original)
        """
    }

    // MARK: - Dispatch (WebhookDispatcher)

    /// Leases up to `limit` due deliveries of enabled endpoints to `owner` (`SKIP LOCKED`),
    /// counting the attempt; returns what ``WebhookDelivery`` needs, by name.
    static func claim(now: Date, leaseUntil: Date, owner: String, limit: Int) -> PostgresQuery {
        """
        WITH due AS (
            SELECT d.id FROM webhook_deliveries d
            JOIN webhook_endpoints e ON e.id = d.endpoint_id
            WHERE d.next_attempt_at <= \(now)
              AND (d.lease_until IS NULL OR d.lease_until <= \(now))
              AND e.disabled_at IS NULL AND e.secret_sealed IS NOT NULL AND \(unsafeSQL: keyActive)
            ORDER BY d.next_attempt_at
            LIMIT \(limit)
            FOR UPDATE OF d SKIP LOCKED
        )
        UPDATE webhook_deliveries d
        SET lease_owner = \(owner), lease_until = \(leaseUntil),
            attempt_count = d.attempt_count + 1, last_attempt_at = \(now)
        FROM due, webhook_endpoints e
        WHERE d.id = due.id AND e.id = d.endpoint_id
        RETURNING d.id, d.endpoint_id, d.message_id, d.event_type, d.payload::text AS payload,
                  d.attempt_count, d.created_at, e.url, e.secret_sealed, e.secret_key_id,
                  (SELECT k.tenant FROM api_keys k WHERE k.id = e.api_key_id) AS tenant
        """
    }

    static func delivered(_ id: UUID, owner: String, status: Int, at now: Date) -> PostgresQuery {
        """
        UPDATE webhook_deliveries
        SET delivered_at = \(now), next_attempt_at = NULL, last_status = \(status), last_error = NULL,
            lease_owner = NULL, lease_until = NULL
        WHERE id = \(id) AND lease_owner = \(owner)
        """
    }

    /// Gives up every pending delivery of an endpoint that answered `410 Gone`: this one (still
    /// leased by `owner`) and the ones nobody holds.
    static func giveUpGone(endpointID: UUID, delivery id: UUID, owner: String, at now: Date) -> PostgresQuery {
        """
        UPDATE webhook_deliveries
        SET given_up_at = \(now), next_attempt_at = NULL, last_status = 410,
            last_error = 'endpoint disabled: 410 Gone', lease_owner = NULL, lease_until = NULL
        WHERE endpoint_id = \(endpointID) AND next_attempt_at IS NOT NULL
          AND ((id = \(id) AND lease_owner = \(owner)) OR lease_owner IS NULL OR lease_until <= \(now))
        """
    }

    static func giveUp(_ id: UUID, owner: String, status: Int?, reason: String, at now: Date) -> PostgresQuery {
        """
        UPDATE webhook_deliveries
        SET given_up_at = \(now), next_attempt_at = NULL, last_status = \(NullableBind(status)), last_error = \(reason),
            lease_owner = NULL, lease_until = NULL
        WHERE id = \(id) AND lease_owner = \(owner)
        """
    }

    static func retry(_ id: UUID, owner: String, at next: Date, status: Int?, error: String) -> PostgresQuery {
        """
        UPDATE webhook_deliveries
        SET next_attempt_at = \(next), last_status = \(NullableBind(status)), last_error = \(error),
            lease_owner = NULL, lease_until = NULL
        WHERE id = \(id) AND lease_owner = \(owner)
        """
    }

    // MARK: - Endpoint health (WebhookDispatcher)

    /// A 2xx ends the endpoint's run of failures.
    static func endpointSucceeded(_ id: UUID) -> PostgresQuery {
        """
        UPDATE webhook_endpoints SET failing_since = NULL WHERE id = \(id) AND failing_since IS NOT NULL
        """
    }

    /// A failed attempt starts the endpoint's run of failures unless one is under way.
    static func endpointFailed(_ id: UUID, at now: Date) -> PostgresQuery {
        """
        UPDATE webhook_endpoints SET failing_since = \(now) WHERE id = \(id) AND failing_since IS NULL
        """
    }

    /// Disables the endpoint when its run of failures began at or before `cutoff`, saying since
    /// when in the reason; returns a row when it did.
    static func autoDisable(_ id: UUID, at now: Date, cutoff: Date, limit: String) -> PostgresQuery {
        """
        UPDATE webhook_endpoints
        SET disabled_at = \(now), auto_disabled_count = auto_disabled_count + 1,
            disabled_reason = 'disabled automatically: failing since '
                || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                || ', no 2xx for longer than ' || \(limit)
        WHERE id = \(id) AND disabled_at IS NULL AND failing_since <= \(cutoff)
        RETURNING id
        """
    }

    // MARK: - Tenant administration (WebhookAdmin)

    /// The endpoints of every key of `tenant`, newest first.
    static func tenantEndpoints(tenant: String) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: endpointColumns) FROM webhook_endpoints
        WHERE api_key_id IN (SELECT id FROM api_keys WHERE tenant = \(tenant))
        ORDER BY created_at DESC, id
        """
    }

    /// Endpoint `id` when a key of `tenant` owns it, row-locked for a change.
    static func tenantEndpoint(_ id: UUID, tenant: String) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: endpointColumns) FROM webhook_endpoints
        WHERE id = \(id) AND api_key_id IN (SELECT id FROM api_keys WHERE tenant = \(tenant))
        FOR UPDATE OF webhook_endpoints
        """
    }

    /// Key `id` of `tenant` and whether it is revoked.
    static func tenantKey(_ id: UUID, tenant: String) -> PostgresQuery {
        """
        SELECT revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = \(id) AND tenant = \(tenant) FOR SHARE
        """
    }

    /// Enables the endpoint and forgets its run of failures.
    static func enableEndpoint(_ id: UUID) -> PostgresQuery {
        """
        UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL WHERE id = \(id)
        """
    }

    /// The endpoint's deliveries, newest first, after the keyset (`createdAt`, `id`) when given.
    static func endpointDeliveries(_ endpointID: UUID, before: (createdAt: Date, id: UUID)?, limit: Int) -> PostgresQuery {
        if let before {
            return """
                SELECT \(unsafeSQL: deliveryColumns) FROM webhook_deliveries d
                WHERE d.endpoint_id = \(endpointID) AND (d.created_at, d.id) < (\(before.createdAt), \(before.id))
                ORDER BY d.created_at DESC, d.id DESC LIMIT \(limit)
                """
        }
        return """
            SELECT \(unsafeSQL: deliveryColumns) FROM webhook_deliveries d
            WHERE d.endpoint_id = \(endpointID)
            ORDER BY d.created_at DESC, d.id DESC LIMIT \(limit)
            """
    }

    /// The tenant of the key owning delivery `id`'s endpoint; no row for an unknown delivery.
    static func deliveryTenant(_ id: UUID) -> PostgresQuery {
        """
        SELECT k.tenant FROM webhook_deliveries d
        JOIN webhook_endpoints e ON e.id = d.endpoint_id
        JOIN api_keys k ON k.id = e.api_key_id
        WHERE d.id = \(id)
        """
    }

    // MARK: - Backlog (WebhookBacklog)

    /// Deliveries not yet made nor given up: how many, how many failed at least once, and when the
    /// oldest was queued.
    static let backlog: PostgresQuery = """
        SELECT count(*), count(*) FILTER (WHERE attempt_count > 0), min(created_at),
            (SELECT coalesce(sum(auto_disabled_count), 0)::bigint FROM webhook_endpoints)
        FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL
        """
}
