import Reports

/// The `/v1/reports` and `/dashboard` part of the OpenAPI document.
extension OpenAPIDocument {
    static var reportPaths: [String: Any] {
        let query = { (name: String, description: String, required: Bool, schema: [String: Any]) -> [String: Any] in
            ["name": name, "in": "query", "required": required, "description": description, "schema": schema]
        }
        let date: [String: Any] = [
            "type": "string", "minLength": 10,
            "pattern":
                "^(19|20)[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](Z|[+-]0[0-9]:00))?$",
            "description": "ISO 8601 date (2026-05-01) or timestamp (2026-05-01T12:30:00Z); from must not be after to "
                + "(else 400 invalid_range).",
        ]
        let names = ReportName.allCases.map { "`\($0.rawValue)`: \($0.summary)" }.joined(separator: " ")
        return [
            "/v1/reports/{name}": [
                "get": [
                    "operationId": "getReport",
                    "summary": "A compliance report over journeys started in [from, to). \(names)",
                    "security": [["apiKey": [String]()]],
                    "parameters": [
                        [
                            "name": "name", "in": "path", "required": true,
                            "schema": ["type": "string", "enum": ReportName.allCases.map(\.rawValue)],
                        ],
                        query("from", "Start of the window (inclusive).", true, date),
                        query("to", "End of the window (exclusive; a bare date includes that day).", true, date),
                        query(
                            "environment", "Only journeys in this environment.", false,
                            ["type": "string", "enum": ["UAT", "PROD"]]),
                        query(
                            "subject", "subject-history: the subject reference (never a document number).", false,
                            ["type": "string"]),
                        query(
                            "thresholdMinutes", "sla: minutes a success callback may wait for its result. Default 10.", false,
                            ["type": "integer", "minimum": 1]),
                        query(
                            "stuckMinutes", "sla: minutes without progress before a journey counts as stuck. Default 60.", false,
                            ["type": "integer", "minimum": 1]),
                    ],
                    "responses": [
                        "200": [
                            "description": "The report: {report, from, to, environment, generatedAt, result}.",
                            "content": ["application/json": ["schema": ["type": "object"]]],
                        ],
                        "400": problem, "401": problem, "403": problem, "404": problem,
                        "503": [
                            "description": "reports_unavailable: the reports database (REPORTS_DATABASE_URL) cannot be reached.",
                            "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]],
                        ],
                    ],
                ]
            ],
            "/dashboard": [
                "get": [
                    "operationId": "dashboard",
                    "summary":
                        "HTML dashboard (scope reports:read by API key header or the session cookie of /dashboard/session); "
                        + "without credentials, a sign-in page (401).",
                    "parameters": [
                        query("from", "Start of the window; default 29 days before today.", false, date),
                        query("to", "End of the window; default today.", false, date),
                        query(
                            "environment", "UAT or PROD; empty or absent: all.", false,
                            ["type": "string", "enum": ["", "UAT", "PROD"]]),
                    ],
                    "responses": [
                        "200": ["description": "The dashboard.", "content": ["text/html": ["schema": ["type": "string"]]]],
                        "400": ["description": "Bad filter; the form with the message."],
                        "401": ["description": "The sign-in page."], "403": ["description": "The sign-in page."],
                        "503": ["description": "reports_unavailable: the reports database cannot be reached (problem+json)."],
                    ],
                ]
            ],
            "/dashboard/session": [
                "post": [
                    "operationId": "dashboardSignIn",
                    "summary": "Checks the form field apiKey (scope reports:read) and sets the HttpOnly, SameSite=Strict "
                        + "dashboard cookie for 15 minutes; 303 to /dashboard.",
                    "requestBody": [
                        "required": true,
                        "content": [
                            "application/x-www-form-urlencoded": [
                                "schema": [
                                    "type": "object", "properties": ["apiKey": ["type": "string", "minLength": 1]],
                                    "required": ["apiKey"],
                                ]
                            ]
                        ],
                    ],
                    "responses": [
                        "303": ["description": "Signed in; redirect to /dashboard."],
                        "400": ["description": "No key given."], "401": ["description": "The sign-in page."],
                        "403": [
                            "description": "The sign-in page, or a post from another site (Sec-Fetch-Site: "
                                + "cross-site, or an Origin naming another host)."
                        ],
                    ],
                ]
            ],
            "/dashboard/journeys": [
                "get": [
                    "operationId": "dashboardJourneys",
                    "summary": "HTML list of the tenant's journeys (scope journeys:read, API key header or dashboard cookie): "
                        + "the filters, parsing and query of GET /v1/journeys; blank fields mean any; a Next page link carries "
                        + "the cursor.",
                    "parameters": ["clientReference", "status", "environment", "createdFrom", "createdTo", "limit", "cursor"].map
                    {
                        query($0, "As GET /v1/journeys.", false, ["type": "string"])
                    },
                    "responses": [
                        "200": ["description": "The list.", "content": ["text/html": ["schema": ["type": "string"]]]],
                        "400": ["description": "Bad filter; the form with the listing's message naming it."],
                        "401": ["description": "The sign-in page."], "403": ["description": "The sign-in page."],
                    ],
                ]
            ],
            "/dashboard/journeys/{id}": [
                "get": [
                    "operationId": "dashboardJourney",
                    "summary": "HTML page of one journey (scope journeys:read): state, attempts, processes, timeline and "
                        + "disclosures as journeys audit show prints them, the subject only by reference; a cancel form for "
                        + "keys holding journeys:write while the journey has not ended. Another tenant's journey: 404.",
                    "parameters": [
                        ["name": "id", "in": "path", "required": true, "schema": ["type": "string", "format": "uuid"]]
                    ],
                    "responses": [
                        "200": ["description": "The journey.", "content": ["text/html": ["schema": ["type": "string"]]]],
                        "401": ["description": "The sign-in page."], "403": ["description": "The sign-in page."],
                        "404": ["description": "No journey of the tenant has this id."],
                    ],
                ]
            ],
            "/dashboard/journeys/{id}/cancel": [
                "post": [
                    "operationId": "dashboardCancelJourney",
                    "summary": "Cancels the journey as POST /v1/journeys/{id}/cancel does (scope journeys:write); 303 back to "
                        + "its page. A cookie session's form must carry its formToken; cross-site posts are refused.",
                    "parameters": [
                        ["name": "id", "in": "path", "required": true, "schema": ["type": "string", "format": "uuid"]]
                    ],
                    "requestBody": [
                        "required": true,
                        "content": [
                            "application/x-www-form-urlencoded": [
                                "schema": [
                                    "type": "object",
                                    "properties": [
                                        "reason": ["type": "string", "maxLength": 200], "formToken": ["type": "string"],
                                    ],
                                    "required": ["reason"],
                                ]
                            ]
                        ],
                    ],
                    "responses": [
                        "303": ["description": "Cancelled; redirect to the journey's page."],
                        "401": ["description": "The sign-in page."],
                        "403": ["description": "No journeys:write, no or a wrong form token, or a cross-site post."],
                        "404": ["description": "No journey of the tenant has this id."],
                        "409": ["description": "The journey ended otherwise; its page with the message."],
                        "422": [
                            "description": "The reason is missing, too long or holds personal data; the page with the message."
                        ],
                    ],
                ]
            ],
        ]
    }
}
