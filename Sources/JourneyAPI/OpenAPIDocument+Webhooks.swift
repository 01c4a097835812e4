import OutboundWebhooks

/// The `/v1/webhook-endpoints` and `/v1/webhook-deliveries` part of the OpenAPI document
/// (scope `webhooks:admin`).
extension OpenAPIDocument {
    static var webhookAdminPaths: [String: Any] {
        let idParameter: [String: Any] = [
            "name": "id", "in": "path", "required": true,
            "schema": ["type": "string", "format": "uuid"],
        ]
        let security = [["apiKey": [String]()]]
        func op(
            _ id: String, _ summary: String, ok: (String, String, String), parameters: [[String: Any]] = [idParameter],
            request: [String: Any]? = nil, errors: [String]
        ) -> [String: Any] {
            var responses: [String: Any] = [ok.0: answer(ok.1, ok.2), "401": problem, "403": problem]
            for status in errors { responses[status] = problem }
            var operation: [String: Any] = [
                "operationId": id, "summary": "Scope webhooks:admin. " + summary,
                "security": security, "parameters": parameters, "responses": responses,
            ]
            if let request { operation["requestBody"] = request }
            return operation
        }
        let types = JourneyWebhookEventType.all.map(\.rawValue)
        let create: [String: Any] = [
            "required": true,
            "content": [
                "application/json": [
                    "schema": object(
                        [
                            "url": [
                                "type": "string", "maxLength": WebhookURL.maximumLength,
                                "description": "https (http only for a loopback host); no user name, password or fragment.",
                            ],
                            "eventTypes": [
                                "type": ["array", "null"], "minItems": 1, "items": ["type": "string", "enum": types],
                                "description": "The types it receives; absent or null: every type, now and later.",
                            ],
                            "apiKeyId": [
                                "type": "string", "format": "uuid",
                                "description":
                                    "The key of your tenant whose journeys' webhooks it receives; default the calling key.",
                            ],
                        ], required: ["url"])
                ]
            ],
        ]
        let disable: [String: Any] = [
            "required": false,
            "content": [
                "application/json": [
                    "schema": object([
                        "reason": ["type": "string", "minLength": 1, "maxLength": WebhookEndpointRequest.maximumReasonLength]
                    ])
                ]
            ],
        ]
        let page: [[String: Any]] = [
            idParameter,
            [
                "name": "limit", "in": "query", "required": false,
                "schema": [
                    "type": "integer", "minimum": 1, "maximum": DeliveryCursor.maximumLimit,
                    "default": DeliveryCursor.defaultLimit,
                ],
            ],
            [
                "name": "cursor", "in": "query", "required": false, "schema": ["type": "string", "maxLength": 200],
                "description": "The nextCursor of the previous page.",
            ],
        ]
        return [
            "/v1/webhook-endpoints": [
                "get": op(
                    "listWebhookEndpoints", "The endpoints of every key of your tenant, newest first (never their secrets).",
                    ok: ("200", "The endpoints.", "WebhookEndpointList"), parameters: [], errors: []),
                "post": op(
                    "createWebhookEndpoint",
                    "Registers an endpoint, enabled, with a new secret returned in this "
                        + "answer only (whsec_…, to verify the Standard Webhooks signature). 400 validation_failed or "
                        + "invalid_json naming the field; 422 validation_failed or destination_refused (field url), "
                        + "key_not_found (field apiKeyId); 409 key_revoked.",
                    ok: ("201", "The endpoint and its secret.", "WebhookEndpoint"), parameters: [], request: create,
                    errors: ["400", "409", "422"]),
            ],
            "/v1/webhook-endpoints/{id}": [
                "get": op(
                    "getWebhookEndpoint", "One endpoint; 404 endpoint_not_found (also another tenant's).",
                    ok: ("200", "The endpoint.", "WebhookEndpoint"), errors: ["400", "404"])
            ],
            "/v1/webhook-endpoints/{id}/disable": [
                "post": op(
                    "disableWebhookEndpoint",
                    "Disables the endpoint with an optional reason (kept if already "
                        + "disabled); its pending deliveries wait until it is enabled.",
                    ok: ("200", "The endpoint.", "WebhookEndpoint"), request: disable, errors: ["400", "404"])
            ],
            "/v1/webhook-endpoints/{id}/enable": [
                "post": op(
                    "enableWebhookEndpoint",
                    "Enables the endpoint (also one disabled automatically or by a 410) "
                        + "and forgets its failures; pending deliveries go out. 409 key_revoked, secret_missing.",
                    ok: ("200", "The endpoint.", "WebhookEndpoint"), errors: ["400", "404", "409"])
            ],
            "/v1/webhook-endpoints/{id}/deliveries": [
                "get": op(
                    "listWebhookDeliveries",
                    "The endpoint's deliveries, newest first, cursor-paginated; never "
                        + "their payloads. 400 invalid_query naming the parameter.",
                    ok: ("200", "A page of deliveries.", "WebhookDeliveryPage"), parameters: page, errors: ["400", "404"])
            ],
            "/v1/webhook-deliveries/{id}/resend": [
                "post": op(
                    "resendWebhookDelivery",
                    "Queues the delivery's message again as a new delivery (same "
                        + "webhook-id, type and payload; due at once). 409 delivery_pending while one is pending; "
                        + "404 delivery_not_found.",
                    ok: ("201", "The new delivery.", "WebhookDelivery"), errors: ["400", "404", "409"])
            ],
        ]
    }

    static var webhookAdminSchemas: [String: Any] {
        let nullableTime: [String: Any] = ["type": ["string", "null"], "format": "date-time"]
        let endpoint = object(
            [
                "id": ["type": "string", "format": "uuid"], "apiKeyId": ["type": "string", "format": "uuid"],
                "apiKeyPrefix": string,
                "apiKeyRevoked": ["type": "boolean", "description": "A revoked key's endpoints receive nothing."],
                "url": string,
                "eventTypes": [
                    "type": ["array", "null"], "items": ["type": "string", "enum": JourneyWebhookEventType.all.map(\.rawValue)],
                    "description": "Absent: every type.",
                ],
                "status": ["type": "string", "enum": ["enabled", "disabled"]],
                "createdAt": time, "disabledAt": nullableTime,
                "disabledReason": [
                    "type": ["string", "null"],
                    "description": "Who or what disabled it: an operator's reason, 410 Gone, or 'disabled "
                        + "automatically: failing since …'.",
                ],
                "failingSince": [
                    "type": ["string", "null"], "format": "date-time",
                    "description": "Start of the current run of failed attempts; the endpoint is disabled once "
                        + "it is older than JOURNEYS_WEBHOOK_AUTO_DISABLE_AFTER (3 days by default).",
                ],
                "secret": ["type": "string", "description": "In the creation answer only."],
            ], required: ["id", "apiKeyId", "apiKeyPrefix", "apiKeyRevoked", "url", "status", "createdAt"])
        let delivery = object(
            [
                "id": ["type": "string", "format": "uuid"], "endpointId": ["type": "string", "format": "uuid"],
                "messageId": string, "eventType": string,
                "status": ["type": "string", "enum": ["pending", "delivered", "given_up"]],
                "attempts": integer, "createdAt": time, "nextAttemptAt": nullableTime, "lastAttemptAt": nullableTime,
                "lastStatus": ["type": ["integer", "null"]], "lastError": ["type": ["string", "null"]],
                "deliveredAt": nullableTime, "givenUpAt": nullableTime,
                "resendOf": ["type": ["string", "null"], "format": "uuid"],
            ], required: ["id", "endpointId", "messageId", "eventType", "status", "attempts", "createdAt"])
        return [
            "WebhookEndpoint": endpoint,
            "WebhookEndpointList": object(
                ["items": ["type": "array", "items": ["$ref": "#/components/schemas/WebhookEndpoint"]]],
                required: ["items"]),
            "WebhookDelivery": delivery,
            "WebhookDeliveryPage": object(
                [
                    "items": ["type": "array", "items": ["$ref": "#/components/schemas/WebhookDelivery"]],
                    "nextCursor": ["type": "string", "description": "Absent on the last page."],
                ], required: ["items"]),
        ]
    }
}
