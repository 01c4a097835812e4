import JourneyDomain

/// The `/v1/journeys` part of the OpenAPI document.
extension OpenAPIDocument {
    static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }

    static func body(_ schema: String, required: Bool = true) -> [String: Any] {
        ["required": required, "content": ["application/json": ["schema": ref(schema)]]]
    }

    static func answer(_ description: String, _ schema: String) -> [String: Any] {
        ["description": description, "content": ["application/json": ["schema": ref(schema)]]]
    }

    static func journeyOperation(
        _ id: String, _ summary: String, security: [String], request: [String: Any]? = nil,
        responses: [String: Any], problems: [String]
    ) -> [String: Any] {
        var all = responses
        for status in problems { all[status] = problem }
        var operation: [String: Any] = [
            "operationId": id, "summary": summary, "responses": all,
            "security": security.map { [$0: [String]()] },
        ]
        if let request { operation["requestBody"] = request }
        if id == "receiveUnicoWebhook" {
        } else if id != "startJourney" {
            operation["parameters"] = [
                ["name": "id", "in": "path", "required": true, "schema": ["type": "string", "format": "uuid"]]
            ]
        } else {
            operation["parameters"] = [
                [
                    "name": "Idempotency-Key", "in": "header", "required": false,
                    "description": "A replay gets the first final answer (Idempotent-Replayed: true), "
                        + "or 409 idempotency_key_in_progress (Retry-After: 1) while the first request "
                        + "runs; a key whose request died is taken over about 3 s later and answered "
                        + "from its journey.",
                    "schema": idempotencyKeySchema,
                ]
            ]
        }
        return operation
    }

    static var journeyPaths: [String: Any] {
        [
            "/v1/journeys": [
                "post": journeyOperation(
                    "startJourney",
                    "Start a journey. By default no Unico call is made: the answer carries the app's "
                        + "client token (status started, firstTokenBy) and the app's first POST …/token creates attempt 1's "
                        + "process right before the capture. createProcess: now (and every journey whose subject has "
                        + "notificationChannels: a link journey) creates it with the start, whose answer then carries its "
                        + "webAppToken. 410 journey_ended when a retried Idempotency-Key's journey ended. "
                        + "Cache-Control: no-store.",
                    security: ["apiKey"], request: body("StartJourney"),
                    responses: ["201": startedAnswer],
                    problems: ["400", "401", "403", "409", "410", "415", "422", "429", "502", "503"]),
                "get": listOperation,
            ],
            "/v1/journeys/{id}": ["get": getJourneyOperation],
            "/v1/journeys/{id}/events": [
                "get": journeyOperation(
                    "getJourneyEvents", "The audit trail: every event with its hash chain.", security: ["apiKey"],
                    responses: ["200": answer("The events.", "AuditTrail")], problems: ["401", "403", "404"])
            ],
            "/v1/journeys/{id}/capture-opened": [
                "post": journeyOperation(
                    "reportCaptureOpened", "The app opened the capture.", security: ["clientToken"],
                    request: body("CaptureOpened", required: false),
                    responses: ["200": answer("Recorded.", "Journey")],
                    problems: ["400", "401", "403", "404", "409", "415", "422"])
            ],
            "/v1/journeys/{id}/callback": [
                "post": journeyOperation(
                    "reportCallback",
                    "Every SDK Lite callback: onSuccess (success), onErrorSelfie (error), onUserClosedCameraManually "
                        + "(closedByUser), onSystemClosedCameraTimeoutSession (sessionTimedOut) and "
                        + "onSystemChangedTypeCameraTimeoutFaceInference (faceInferenceTimedOut: the capture goes on manually; "
                        + "recorded once per attempt while its capture is open), each recorded as an "
                        + "event. After a success the service calls Get Process before answering and records the result "
                        + "(completed approved/rejected, or still awaitingResult while Unico works). A drop-off fails the "
                        + "attempt and allows the next one at once, within the retry budget.",
                    security: ["clientToken"], request: body("Callback"),
                    responses: ["200": answer("Recorded.", "Journey")],
                    problems: ["400", "401", "403", "404", "409", "415", "422"])
            ],
            "/v1/journeys/{id}/human-token": [
                "get": disclosing(
                    journeyOperation(
                        "getHumanToken",
                        "Scope human-token:read (journeys:read is not enough: 403 naming the scope). The opened "
                            + "Human Token of a journey completed approved (sealed in the log). Each opening appends "
                            + "PersonalDataDisclosed (key, fields, the Disclosure-Purpose; never the value) to the journey in the "
                            + "same transaction. Cache-Control: no-store.",
                        security: ["apiKey"],
                        responses: ["200": answer("The Human Token.", "HumanToken")], problems: ["401", "403", "404", "410"]))
            ],
            "/v1/webhooks/unico": [
                "post": journeyOperation(
                    "receiveUnicoWebhook",
                    "Unico's notice that a process finished: a hint, recorded as WebhookReceived, then Get Process decides. "
                        + "Authenticated as configured by UNICO_WEBHOOK_AUTH: basic:user:password, header:Name:value, "
                        + "bearer:token or oauth2:client-id:client-secret (a token from issueUnicoWebhookToken). "
                        + "Idempotent: repeats never record a second result.",
                    security: ["unicoWebhookBasic", "unicoWebhookHeader", "unicoWebhookBearer", "unicoWebhookOAuth2"],
                    request: body("UnicoWebhook"),
                    responses: [
                        "200": answer("Recorded (and the result fetched when Unico has it).", "WebhookAnswer"),
                        "202": answer("No journey created this process (code unknown_process).", "WebhookAnswer"),
                    ],
                    problems: ["400", "401", "413", "415"])
            ],
            "/v1/journeys/{id}/token": [
                "post": journeyOperation(
                    "issueToken",
                    "A webAppToken to open a capture, right before opening it. The current attempt's token while its "
                        + "capture was not opened yet and 60 s of it remain (a double tap, or two racing requests, get the "
                        + "same token: one capture, one process; only the first reuse is recorded, as TokenIssued with "
                        + "reused, later ones write nothing); once the capture was opened or ended, or a retry is "
                        + "allowed, a new attempt with a fresh Unico process. 409 naming the state (journeyStatus) for a "
                        + "journey completed, abandoned, awaiting its result, out of budget (attempts_exhausted) or past its "
                        + "deadline (deadline_reached), and "
                        + "process_creation_pending while another request's Create Process is unresolved after 10 s; "
                        + "concurrent_update (Retry-After) when other requests kept changing the journey. "
                        + "Cache-Control: no-store.",
                    security: ["clientToken", "apiKey"],
                    responses: ["200": answer("A token.", "Token")], problems: ["401", "403", "404", "409", "429", "502", "503"])
            ],
            "/v1/journeys/{id}/client-token": [
                "post": journeyOperation(
                    "issueClientToken",
                    "A fresh client token for the app of a person who comes back to a journey that can still be continued "
                        + "(scope journeys:write, the key's own tenant). It lives 1 hour, never past the journey's known end "
                        + "(firstTokenBy of a started journey, or when an allowed retry lapses); earlier client tokens keep "
                        + "working until their own expiry, and none outlives the journey's deadline. Nothing is recorded in "
                        + "the journey. 410 journey_ended for a journey that ended, 409 deadline_reached for one past its "
                        + "deadline. Cache-Control: no-store.",
                    security: ["apiKey"],
                    responses: ["201": answer("A client token.", "ClientToken")], problems: ["401", "403", "404", "409", "410"])
            ],
            "/v1/journeys/{id}/cancel": [
                "post": journeyOperation(
                    "cancelJourney",
                    "Cancel a journey the company no longer wants (scope journeys:write, the key's own tenant): appends "
                        + "JourneyCancelled (reason, the key as actor) and JourneyAbandoned with reason kind cancelled, so the "
                        + "journey is final (status abandoned), makes no more processes and sends journey.abandoned; the app's "
                        + "routes then answer 409 with journeyStatus abandoned and abandonReason cancelled. A repeated cancel "
                        + "answers 200 with the same journey and appends nothing; a journey that ended otherwise answers 409 "
                        + "invalid_transition. 422 validation_failed naming reason when it is missing, blank, too long or "
                        + "shaped like personal data.",
                    security: ["apiKey"], request: body("CancelJourney"),
                    responses: ["200": answer("Cancelled: the journey, abandoned with abandonReason.kind cancelled.", "Journey")],
                    problems: ["400", "401", "403", "404", "409", "415", "422"])
            ],
            "/v1/journeys/{id}/link": [
                "get": journeyOperation(
                    "getLink",
                    "The current attempt's Unico link, for an app that cannot use the SDK Lite; its first read per attempt "
                        + "is recorded as LinkIssued, later reads write nothing. "
                        + "409 naming the state when no attempt has a live process (ask for a token first). "
                        + "Cache-Control: no-store.",
                    security: ["clientToken"],
                    responses: ["200": answer("The link.", "Link")], problems: ["401", "403", "404", "409"])
            ],
        ]
    }

    /// `GET /v1/journeys/{id}[?asOf=]`: the state now, or as of a past instant (events recorded until then).
    static var getJourneyOperation: [String: Any] {
        var operation = journeyOperation(
            "getJourney", "The journey's state, without personal data; with asOf, as it stood at that instant.",
            security: ["apiKey"], responses: ["200": answer("The journey.", "Journey")], problems: ["400", "401", "403", "404"])
        var parameters = operation["parameters"] as? [[String: Any]] ?? []
        parameters.append([
            "name": "asOf", "in": "query", "required": false,
            "schema": ["type": "string", "format": "date-time"],
            "description": "RFC 3339 instant: fold only the events recorded at or before it.",
        ])
        operation["parameters"] = parameters
        return operation
    }

    /// The 201 of startJourney, with links to the operations on the started journey.
    static var startedAnswer: [String: Any] {
        var started = answer("Started.", "Token")
        let id = ["id": "$response.body#/journeyId"]
        started["links"] = [
            "GetJourney": ["operationId": "getJourney", "parameters": id],
            "GetJourneyEvents": ["operationId": "getJourneyEvents", "parameters": id],
            "IssueToken": ["operationId": "issueToken", "parameters": id],
            "ReportCaptureOpened": ["operationId": "reportCaptureOpened", "parameters": id],
            "ReportCallback": ["operationId": "reportCallback", "parameters": id],
            "GetLink": ["operationId": "getLink", "parameters": id],
            "GetHumanToken": ["operationId": "getHumanToken", "parameters": id],
            "CancelJourney": ["operationId": "cancelJourney", "parameters": id],
        ]
        return started
    }

    /// `GET /v1/journeys`: newest first from the journey-state read model, keyset-paginated.
    static var listOperation: [String: Any] {
        func parameter(_ name: String, _ schema: [String: Any], _ description: String) -> [String: Any] {
            ["name": name, "in": "query", "required": false, "schema": schema, "description": description]
        }
        return [
            "operationId": "listJourneys",
            "summary": "Journeys newest first, filtered by subject reference, clientReference, status, environment "
                + "and creation range (filters combine; from the read model: it trails the log by the projection lag). "
                + "400 invalid_query naming the parameter (parameter and field).",
            "security": [["apiKey": [String]()]],
            "parameters": [
                parameter(
                    "subject", ["type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[A-Za-z0-9_-]+$"],
                    "A subjectReference as GET /v1/journeys/{id} shows it (never a document number)."),
                parameter(
                    "clientReference",
                    [
                        "type": "string", "minLength": 1, "pattern": "^[!-~]+$",
                        "maxLength": FieldRules.clientReferenceMaximumLength,
                    ],
                    "Only journeys started with this clientReference (exact match)."),
                parameter(
                    "status", ["type": "string", "enum": JourneyStatus.allCases.filter { $0 != .notStarted }.map(\.rawValue)],
                    "Only journeys in this status (a cancelled journey is abandoned, abandonReason.kind cancelled)."),
                parameter(
                    "state", ["type": "string", "enum": JourneyStatus.allCases.filter { $0 != .notStarted }.map(\.rawValue)],
                    "The older name of status; if both are given they must agree."),
                parameter("createdFrom", time, "Only journeys started at or after this RFC 3339 instant."),
                parameter("createdTo", time, "Only journeys started before this RFC 3339 instant (after createdFrom)."),
                parameter("environment", ["type": "string", "enum": ["UAT", "PROD"]], "Only this environment."),
                parameter(
                    "limit",
                    [
                        "type": "integer", "minimum": 1, "maximum": JourneyListing.maximumLimit,
                        "default": JourneyListing.defaultLimit,
                    ], "Page size."),
                parameter(
                    "cursor", ["type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[A-Za-z0-9_-]+$"],
                    "The nextCursor of the previous page, unchanged (opaque; anything else is 400 invalid_query "
                        + "naming cursor)."),
            ],
            "responses": [
                "200": answer("A page of journeys.", "JourneyPage"), "400": problem, "401": problem, "403": problem,
                "503": [
                    "description": "reports_unavailable: the reports database (REPORTS_DATABASE_URL) cannot be reached.",
                    "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]],
                ],
            ],
        ]
    }

    /// The start body, with the rules validation applies and an example that passes them.
    static var startJourneySchema: [String: Any] {
        var schema = object(
            [
                "subject": object(
                    [
                        "documentType": ["type": "string", "pattern": "^DUI_TYPE_[A-Z]{2}_[A-Z0-9_]+$"],
                        "documentNumber": [
                            "type": "string", "pattern": "^[0-9]{1,\(FieldRules.documentNumberMaximumLength)}$",
                            "description": "Digits only; a CPF (DUI_TYPE_BR_CPF) has 11 and a CNPJ (DUI_TYPE_BR_CNPJ) 14, "
                                + "with valid check digits (else 422 naming subject.documentNumber).",
                        ],
                        "name": text(maximum: FieldRules.nameMaximumLength),
                        "phone": [
                            "type": "string", "pattern": "^\\+?[0-9]{10,15}$",
                            "description": "10 to 15 digits, optionally after '+'; needed by the SMS and WhatsApp channels.",
                        ],
                        "email": [
                            "type": "string", "maxLength": FieldRules.emailMaximumLength,
                            "pattern":
                                "^[^@\\s\(controlCharacters)]+@[^@.\\s\(controlCharacters)]+(\\.[^@.\\s\(controlCharacters)]+)+$",
                            "description": "Needed by the e-mail channel.",
                        ],
                        "friendlyName": text(maximum: FieldRules.friendlyNameMaximumLength),
                        "notificationChannels": [
                            "type": "array", "uniqueItems": true,
                            "items": ["type": "string", "enum": NotificationChannel.allCases.map(\.rawValue)],
                            "description": "Channels for Unico's link (a link journey): SMS and WhatsApp need "
                                + "phone, e-mail needs email (else 422 naming the channel).",
                        ],
                    ], required: ["documentType", "documentNumber"]
                ).merging(["oneOf": documentVariants]) { $1 },
                "environment": ["type": "string", "enum": ["UAT", "PROD"]],
                "flow": ["type": "string", "pattern": "^[A-Za-z0-9._-]{1,\(FieldRules.flowMaximumLength)}$"],
                "purpose": ["type": "string", "enum": Purpose.allCases.map(\.rawValue)],
                "clientReference": [
                    "type": "string", "minLength": 1, "maxLength": FieldRules.clientReferenceMaximumLength,
                    "pattern": "^[!-~]+$", "description": "Your reference: printable ASCII without spaces.",
                ],
                "delivery": [
                    "type": "string", "enum": StartJourneyRequest.deliveryValues, "default": "sdk",
                    "description": "sdk: the app's SDK Lite (a process per capture). link: Unico's link, sent through "
                        + "subject.notificationChannels (required then, and refused otherwise); the attempt lives as "
                        + "long as the link (7 days) and its process is made with the start.",
                ],
                "createProcess": [
                    "type": "string", "enum": StartJourneyRequest.createProcessValues, "default": "onTokenRequest",
                    "description": "When attempt 1's Unico process is made: at the app's first token request "
                        + "(default) or now, with the start.",
                ],
                "maximumAttempts": [
                    "type": "integer", "minimum": 1,
                    "description": "The journey's attempt budget: 1 to the deployment's retry policy "
                        + "maximumAttempts (JOURNEYS_RETRY_MAXIMUM_ATTEMPTS, default 5), which it lowers for "
                        + "this journey only (else 422 naming maximumAttempts). Default: the deployment's.",
                ],
                "deadline": [
                    "type": "string", "format": "date-time",
                    "description": "When the journey is abandoned (abandonReason.kind deadlineReached, webhook "
                        + "journey.abandoned) if it has not completed: an RFC 3339 timestamp with offset, in the "
                        + "future and at most \(Int(JourneyTiming.maximumDeadline / 86_400)) days away, nor past the "
                        + "deployment's maximum journey age (JOURNEYS_MAX_JOURNEY_AGE, default 30 days) if shorter (else "
                        + "422 naming deadline). No token or process is handed out after it and client tokens never "
                        + "outlive it. Default: none (a journey still open at its maximum age is abandoned as "
                        + "maxAgeReached).",
                ],
            ], required: ["subject", "environment", "flow", "purpose"])
        schema["example"] = [
            "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva"],
            "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "clientReference": "order-42",
        ]
        return schema
    }

    /// Why an abandoned journey ended; kind `cancelled` for a journey cancelled by the company.
    static var abandonReasonSchema: [String: Any] {
        object(
            [
                "kind": ["type": "string", "enum": AbandonReason.Kind.allCases.map(\.rawValue)],
                "sdkCode": ["type": ["integer", "null"]], "detail": string,
            ], required: ["kind", "detail"])
    }

    static func object(_ properties: [String: Any], required: [String] = []) -> [String: Any] {
        ["type": "object", "required": required, "properties": properties]
    }

    static var string: [String: Any] { ["type": "string"] }
    static var nullableString: [String: Any] { ["type": ["string", "null"]] }
    static var time: [String: Any] { ["type": "string", "format": "date-time"] }
    static var integer: [String: Any] { ["type": "integer"] }

    static var journeySchemas: [String: Any] {
        [
            "StartJourney": startJourneySchema,
            "Token": object(
                [
                    "journeyId": string, "attempt": integer, "webAppToken": string, "webAppTokenExpiresAt": time,
                    "environment": string, "clientToken": string, "clientTokenExpiresAt": time,
                    "status": [
                        "type": "string", "enum": ["started"],
                        "description": "A start without a process yet: no webAppToken; the app asks for one.",
                    ],
                    "firstTokenBy": time,
                ], required: ["journeyId", "environment"]),
            "ClientToken": object(
                [
                    "journeyId": string, "status": string, "clientToken": string, "clientTokenExpiresAt": time,
                ], required: ["journeyId", "status", "clientToken", "clientTokenExpiresAt"]),
            "Journey": object(
                [
                    "journeyId": string, "status": string, "attempt": integer, "environment": string, "flow": string,
                    "purpose": string, "clientReference": string, "subjectReference": string, "startedAt": time,
                    "deadline": time, "maximumAttempts": integer, "updatedAt": time, "completedAt": time,
                    "abandonedAt": time, "abandonReason": abandonReasonSchema, "outcome": string, "version": integer,
                    "completedAfterAbandonment": ["type": "boolean"],
                    "lastErrorCode": object([
                        "code": integer, "meaning": string, "category": string, "action": string,
                        "retryable": ["type": "boolean"],
                    ]),
                    "attempts": ["type": "array", "items": ["type": "object"]],
                ], required: ["journeyId", "status", "attempt", "maximumAttempts", "attempts"]),
            "JourneyPage": object(
                [
                    "items": [
                        "type": "array",
                        "items": object(
                            [
                                "journeyId": string, "status": string, "attempt": integer, "environment": string, "flow": string,
                                "purpose": string, "clientReference": string, "subjectReference": string, "startedAt": time,
                                "completedAt": time, "abandonedAt": time, "outcome": string, "lastErrorCode": integer,
                            ], required: ["journeyId", "status", "attempt"]),
                    ],
                    "nextCursor": string,
                ], required: ["items"]),
            "AuditTrail": object([
                "journeyId": string,
                "events": [
                    "type": "array",
                    "items": object([
                        "position": integer, "version": integer, "id": string, "type": string, "recordedAt": time,
                        "data": ["type": "object"], "previousHash": string, "hash": string,
                    ]),
                ],
            ]),
            "CancelJourney": object(
                [
                    "reason": reason(
                        maximum: JourneyCancellation.maximumReasonLength,
                        "Why, recorded in the log and sent in journey.abandoned: no personal data (the server refuses "
                            + "a run of 11 or more digits and an e-mail address; the pattern states it conservatively: "
                            + "at most 10 digits, no @), no control characters, not blank.")
                ], required: ["reason"]),
            "CaptureOpened": object(["attempt": ["type": "integer", "minimum": 1, "maximum": Int32.max]]),
            "Link": object(
                [
                    "journeyId": string, "attempt": integer, "link": string, "linkExpiresAt": time,
                ], required: ["journeyId", "attempt", "link", "linkExpiresAt"]),
            "HumanToken": object(
                ["journeyId": string, "humanToken": string, "completedAt": time],
                required: ["journeyId", "humanToken"]),
            "UnicoWebhook": object(
                [
                    "processId": ["type": "string", "minLength": 1], "state": ["type": "string", "minLength": 1],
                    "flow": nullableString,
                    "result": nullableString, "lastEvent": nullableString,
                    "lastEventDescription": ["description": "Not read: any value."],
                ], required: ["processId", "state"]),
            "WebhookAnswer": object(
                [
                    "code": ["type": "string", "enum": ["recorded", "unknown_process"]],
                    "journeyId": string, "status": string,
                ], required: ["code"]),
            "Callback": callbackSchema,
        ]
    }

    static var securitySchemes: [String: Any] {
        [
            "apiKey": [
                "type": "http", "scheme": "bearer",
                "description": "An API key `jk_...` with the route's scope; it "
                    + "sees only its tenant's journeys (another tenant's journey is a 404).",
            ],
            "clientToken": [
                "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                "description": "The journey-scoped client token returned by startJourney.",
            ],
            "unicoWebhookBasic": [
                "type": "http", "scheme": "basic",
                "description": "UNICO_WEBHOOK_AUTH=basic:<user>:<password>.",
            ],
            "unicoWebhookHeader": [
                "type": "apiKey", "in": "header", "name": "X-Webhook-Key",
                "description": "UNICO_WEBHOOK_AUTH=header:<Header-Name>:<value> (any header name).",
            ],
            "unicoWebhookBearer": [
                "type": "http", "scheme": "bearer",
                "description": "UNICO_WEBHOOK_AUTH=bearer:<token>.",
            ],
            "metricsToken": [
                "type": "http", "scheme": "bearer",
                "description": "JOURNEYS_METRICS_TOKEN, when set, for /metrics.",
            ],
        ]
    }
}
