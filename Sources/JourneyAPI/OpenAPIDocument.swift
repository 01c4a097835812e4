import Foundation

/// The OpenAPI 3.1 description of the service, served at `/openapi.json`.
/// A test checks that it lists exactly the registered routes.
enum OpenAPIDocument {
    static var problem: [String: Any] {
        [
            "description": "An RFC 9457 problem with a stable `code`.",
            "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]],
        ]
    }

    static var document: [String: Any] {
        var base = baseDocument
        var paths = base["paths"] as? [String: Any] ?? [:]
        paths.merge(journeyPaths) { $1 }
        paths.merge(reportPaths) { $1 }
        paths.merge(subjectPaths) { $1 }
        paths.merge(unicoOAuthPaths) { $1 }
        paths.merge(eventFeedPaths) { $1 }
        paths.merge(webhookAdminPaths) { $1 }
        base["paths"] = withServerAnswers(paths)
        var components = base["components"] as? [String: Any] ?? [:]
        var schemas = components["schemas"] as? [String: Any] ?? [:]
        schemas.merge(journeySchemas) { $1 }
        schemas.merge(unicoOAuthSchemas) { $1 }
        schemas.merge(eventFeedSchemas) { $1 }
        schemas.merge(webhookAdminSchemas) { $1 }
        components["schemas"] = schemas
        components["securitySchemes"] = securitySchemes.merging(unicoOAuthSecuritySchemes) { $1 }
        base["components"] = components
        return base
    }

    static var baseDocument: [String: Any] {
        [
            "openapi": "3.1.0",
            "info": [
                "title": "Human Token Journeys", "version": "1.0.0",
                "description": "Event-sourced orchestration of Unico Human Token journeys. Tenants: an API key "
                    + "belongs to one tenant and reads only that tenant's journeys, lists, reports, dashboard and "
                    + "subjects; another tenant's journey answers 404 journey_not_found (never 403), another "
                    + "tenant's subject 404 unknown_subject. JSON bodies: no string may hold U+0000 (PostgreSQL cannot store it; "
                    + "400 invalid_json), and every number must fit in 64 bits (else 400 invalid_json), in any member, known or not.",
            ],
            "paths": [
                "/healthz": ["get": operation("health", "The process answers.", ok: "Alive.")],
                "/readyz": [
                    "get": operation(
                        "readiness",
                        "The database answers and the schema is current. The body is "
                            + "{\"status\": \"ready\", \"developmentKeys\": bool, \"warnings\": [string]?}: "
                            + "developmentKeys is true (with a warning naming the variables to set) when the "
                            + "service runs on the public development keys of the embedded database.", ok: "Ready.",
                        extra: ["503": problem])
                ],
                "/metrics": [
                    "get": operation(
                        "metrics", "Prometheus text exposition.", ok: "Metrics.", contentType: "text/plain",
                        extra: ["401": problem]
                    )
                    .merging([
                        "security": [[:], ["metricsToken": []]] as [[String: [String]]],
                        "description": "Open unless JOURNEYS_METRICS_TOKEN is set; then a 401 metrics_unauthorized "
                            + "without Authorization: Bearer <token>. Gauges read from the database are at most 5 s old.",
                    ]) { $1 }
                ],
                "/openapi.json": ["get": operation("openapi", "This document.", ok: "The OpenAPI document.")],
            ],
            "components": [
                "schemas": [
                    "Problem": [
                        "type": "object",
                        "required": ["type", "title", "status", "code", "retryable"],
                        "description": problemCodes,
                        "properties": [
                            "type": ["type": "string"], "title": ["type": "string"], "status": ["type": "integer"],
                            "detail": ["type": "string"], "code": ["type": "string"], "instance": ["type": "string"],
                            "field": ["type": "string"],
                            "retryable": ["type": "boolean", "description": retryableRule],
                            "journeyId": ["type": "string", "description": "The journey the answer is about, when one exists."],
                            "journeyStatus": [
                                "type": "string",
                                "description": "The journey's state when a 409 refuses the request.",
                            ],
                            "attempt": ["type": "string", "description": "The attempt a refusal is about."],
                            "database": ["type": "string", "enum": ["unreachable"]],
                        ],
                    ]
                ]
            ],
        ]
    }

    /// What the server itself may answer on any route, added to every operation: 413 (a body
    /// over 1 MiB, however it is framed), 429 (`rate_limited`, with `Retry-After`: a request rate
    /// limit), 431 (header fields over 32 KiB) and 503 (PostgreSQL out of reach, with
    /// `Retry-After`; or the server shutting down).
    static func withServerAnswers(_ paths: [String: Any]) -> [String: Any] {
        paths.mapValues { methods in
            guard let methods = methods as? [String: Any] else { return methods }
            return methods.mapValues { operation -> Any in
                guard var operation = operation as? [String: Any],
                    var responses = operation["responses"] as? [String: Any]
                else { return operation }
                for status in ["413", "429", "431", "503"] where responses[status] == nil { responses[status] = problem }
                operation["responses"] = responses
                return operation
            }
        }
    }

    /// What `retryable` means, for the Problem schema.
    static let retryableRule = """
        Whether sending the same request again can succeed: true for answers with Retry-After (wait that long), \
        408, 425, 429 and 5xx; false otherwise (change the request, or the journey has ended).
        """

    /// The problem codes a client may switch on, for the Problem schema.
    static let problemCodes = """
        Stable codes: validation_failed and invalid_json (400/422, `field` names the input), unsupported_media_type \
        (415: send application/json), payload_too_large (413), header_fields_too_large (431), \
        idempotency_key_reused (422), idempotency_key_in_progress (409, retry after Retry-After), \
        unico_rate_limited (429, Retry-After), rate_limited (429, Retry-After: over a request rate limit per API key, \
        tenant, journey or webhook-token client), unico_unavailable (502 or 503), unico_refused_field (422), \
        unico_not_configured (503), service_unavailable (503, Retry-After; `database: unreachable` when \
        PostgreSQL is out of reach), reports_unavailable (503, Retry-After: the reports database of \
        REPORTS_DATABASE_URL is out of reach; writes are unaffected), reports_lagging (503, Retry-After: the standby \
        replays further behind than REPORTS_MAX_LAG), journey_not_found (404, also for another tenant's journey), \
        process_creation_pending (409, Retry-After), \
        journey_ended (410: the journey this Idempotency-Key started has ended or has no attempt left; \
        `journeyStatus` says how; start a new journey with a new key), \
        concurrent_update (409, Retry-After: other requests changed the journey at the same time; nothing was \
        written, send it again), \
        retry_not_due (409, Retry-After: the seconds until the step is due), deadline_reached (409: the journey's \
        deadline passed; no token, link or client token is handed out), \
        metrics_unauthorized (401 on /metrics when JOURNEYS_METRICS_TOKEN is set), \
        subject_erased (410: the subject was erased, their sealed data no longer opens), unknown_subject (404), \
        invalid_subject_reference, document_given_as_reference, reference_given_as_document, invalid_document, \
        invalid_reason and invalid_disclosure_purpose (400, `field` names the input), and the access codes (401; \
        403 forbidden names the missing scope, e.g. human-token:read). \
        Answers about an existing journey carry its `journeyId`.
        """

    static func operation(
        _ id: String, _ summary: String, ok: String, contentType: String = "application/json",
        extra: [String: Any] = [:]
    ) -> [String: Any] {
        var responses: [String: Any] = [
            "200": [
                "description": ok,
                "content": [contentType: ["schema": ["type": contentType == "text/plain" ? "string" : "object"]]],
            ]
        ]
        responses.merge(extra) { $1 }
        return ["operationId": id, "summary": summary, "responses": responses]
    }

    /// The document as JSON bytes with sorted keys.
    static let json: Data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)

    /// Every (method, path template) the document describes.
    static var operations: Set<String> {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        return Set(paths.flatMap { path, methods in methods.keys.map { "\($0.uppercased()) \(path)" } })
    }
}
