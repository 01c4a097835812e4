import Reports

/// The `/v1/reports` and `/dashboard` part of the OpenAPI document.
extension OpenAPIDocument {
    static var reportPaths: [String: Any] {
        let query = { (name: String, description: String, required: Bool, schema: [String: Any]) -> [String: Any] in
            ["name": name, "in": "query", "required": required, "description": description, "schema": schema]
        }
        let date: [String: Any] = [
            "type": "string", "minLength": 10,
            "pattern": "^(19|20)[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](Z|[+-]0[0-9]:00))?$",
            "description": "ISO 8601 date (2026-05-01) or timestamp (2026-05-01T12:30:00Z); from must not be after to "
                + "(else 400 invalid_range).",
        ]
        let names = ReportName.allCases.map { "`\($0.rawValue)`: \($0.summary)" }.joined(separator: " ")
        return [
            "/v1/reports/{name}": ["get": [
                "operationId": "getReport",
                "summary": "A compliance report over journeys started in [from, to). \(names)",
                "security": [["apiKey": [String]()]],
                "parameters": [
                    ["name": "name", "in": "path", "required": true,
                     "schema": ["type": "string", "enum": ReportName.allCases.map(\.rawValue)]],
                    query("from", "Start of the window (inclusive).", true, date),
                    query("to", "End of the window (exclusive; a bare date includes that day).", true, date),
                    query("environment", "Only journeys in this environment.", false, ["type": "string", "enum": ["UAT", "PROD"]]),
                    query("subject", "subject-history: the subject reference (never a document number).", false, ["type": "string"]),
                    query("thresholdMinutes", "sla: minutes a success callback may wait for its result. Default 10.", false,
                          ["type": "integer", "minimum": 1]),
                    query("stuckMinutes", "sla: minutes without progress before a journey counts as stuck. Default 60.", false,
                          ["type": "integer", "minimum": 1]),
                ],
                "responses": [
                    "200": ["description": "The report: {report, from, to, environment, generatedAt, result}.",
                            "content": ["application/json": ["schema": ["type": "object"]]]],
                    "400": problem, "401": problem, "403": problem, "404": problem,
                    "503": ["description": "reports_unavailable: the reports database (REPORTS_DATABASE_URL) cannot be reached.",
                            "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]]],
                ],
            ]],
            "/dashboard": ["get": [
                "operationId": "dashboard",
                "summary": "HTML dashboard (scope reports:read by API key header or the session cookie of /dashboard/session); "
                    + "without credentials, a sign-in page (401).",
                "parameters": [query("from", "Start of the window; default 29 days before today.", false, date),
                               query("to", "End of the window; default today.", false, date),
                               query("environment", "UAT or PROD; empty or absent: all.", false, ["type": "string", "enum": ["", "UAT", "PROD"]])],
                "responses": ["200": ["description": "The dashboard.", "content": ["text/html": ["schema": ["type": "string"]]]],
                              "400": ["description": "Bad filter; the form with the message."],
                              "401": ["description": "The sign-in page."], "403": ["description": "The sign-in page."],
                              "503": ["description": "reports_unavailable: the reports database cannot be reached (problem+json)."]],
            ]],
            "/dashboard/session": ["post": [
                "operationId": "dashboardSignIn",
                "summary": "Checks the form field apiKey (scope reports:read) and sets the HttpOnly, SameSite=Strict "
                    + "dashboard cookie for 15 minutes; 303 to /dashboard.",
                "requestBody": ["required": true, "content": ["application/x-www-form-urlencoded": ["schema": [
                    "type": "object", "properties": ["apiKey": ["type": "string", "minLength": 1]], "required": ["apiKey"]]]]],
                "responses": ["303": ["description": "Signed in; redirect to /dashboard."],
                              "400": ["description": "No key given."], "401": ["description": "The sign-in page."],
                              "403": ["description": "The sign-in page."]],
            ]],
        ]
    }
}
