import OutboundWebhooks

/// The `/v1/events` part of the OpenAPI document: the events feed for companies that pull.
extension OpenAPIDocument {
    static var eventFeedPaths: [String: Any] {
        [
            "/v1/events": ["get": eventFeedOperation]
        ]
    }

    static var eventFeedOperation: [String: Any] {
        func parameter(_ name: String, _ schema: [String: Any], _ description: String) -> [String: Any] {
            ["name": name, "in": "query", "required": false, "schema": schema, "description": description]
        }
        return [
            "operationId": "listEvents",
            "summary": "The steps of the key's tenant's journeys in the log's order, for a company that pulls instead of "
                + "receiving webhooks (scope journeys:read). Each item is the outbound webhook of that step (id is its "
                + "webhook-id, type and data its body): no personal data, never the Human Token. Send nextAfter as after "
                + "to go on; hasMore says whether to ask again at once. One request reads at most "
                + "\(EventFeed.scanLimit) log events. 400 invalid_query naming the parameter.",
            "security": [["apiKey": [String]()]],
            "parameters": [
                parameter(
                    "after", ["type": "integer", "format": "int64", "minimum": 0, "default": 0],
                    "The nextAfter of the previous page (an event position); 0 from the start."),
                parameter(
                    "types", ["type": "string", "pattern": typesPattern],
                    "Comma-separated webhook types ("
                        + JourneyWebhookEventType.all.map(\.rawValue).joined(separator: ", ") + "), or all (default)."),
                parameter(
                    "limit",
                    [
                        "type": "integer", "minimum": 1, "maximum": EventFeed.maximumLimit,
                        "default": EventFeed.defaultLimit,
                    ], "Items per page."),
            ],
            "responses": [
                "200": answer("A page of steps.", "EventFeedPage"), "400": problem, "401": problem,
                "403": problem,
            ],
        ]
    }

    /// `all`, or webhook types separated by commas.
    static var typesPattern: String {
        let one =
            "("
            + JourneyWebhookEventType.all.map { $0.rawValue.replacingOccurrences(of: ".", with: "\\.") }
            .joined(separator: "|") + ")"
        return "^(all|\(one)(,\(one))*)$"
    }

    static var eventFeedSchemas: [String: Any] {
        [
            "EventFeedPage": object(
                [
                    "items": [
                        "type": "array",
                        "items": object(
                            [
                                "position": ["type": "integer", "format": "int64"],
                                "id": [
                                    "type": "string", "description": "msg_<event id>: the webhook-id of the same step's webhook.",
                                ],
                                "type": ["type": "string", "enum": JourneyWebhookEventType.all.map(\.rawValue)],
                                "timestamp": time,
                                "data": object(
                                    [
                                        "journeyId": string, "attempt": integer, "environment": ["type": ["string", "null"]],
                                        "clientReference": ["type": ["string", "null"]], "occurredAt": time,
                                        "superseded": ["type": "boolean"], "outcome": string,
                                        "reason": object(
                                            ["kind": string, "sdkCode": ["type": ["integer", "null"]], "detail": string],
                                            required: ["kind", "sdkCode", "detail"]),
                                        "retryAt": ["type": ["string", "null"], "format": "date-time"],
                                    ], required: ["journeyId", "attempt", "environment", "clientReference", "occurredAt"]),
                            ], required: ["position", "id", "type", "timestamp", "data"]),
                    ],
                    "nextAfter": ["type": "integer", "format": "int64"],
                    "hasMore": ["type": "boolean"],
                ], required: ["items", "nextAfter", "hasMore"])
        ]
    }
}
