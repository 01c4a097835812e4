import DataSubjects

/// The `/v1/subjects` part of the OpenAPI document (scope `subjects:admin`).
extension OpenAPIDocument {
    static var subjectPaths: [String: Any] {
        let reference: [String: Any] = [
            "name": "ref", "in": "path", "required": true,
            "description": "The subject reference: 64 hex characters (POST /v1/subjects/find). A document number is refused.",
            "schema": ["type": "string", "pattern": "^[0-9a-fA-F]{64}$"],
        ]
        let json = { (description: String) -> [String: Any] in
            ["description": description, "content": ["application/json": ["schema": ["type": "object"]]]]
        }
        return [
            "/v1/subjects/find": [
                "post": [
                    "operationId": "findSubjectByBody",
                    "summary": "Scope subjects:admin. Preferred. Turns a CPF or CNPJ, sent in the body (out of URLs that proxies "
                        + "log), into the subject's pseudonymous reference (never stored or logged): {subjectReference, known, "
                        + "erased, erasedAt, journeyIds}. Cache-Control: no-store.",
                    "security": [["apiKey": [String]()]],
                    "requestBody": [
                        "required": true,
                        "content": [
                            "application/json": [
                                "schema": [
                                    "type": "object", "required": ["document"],
                                    "properties": [
                                        "document": [
                                            "type": "string",
                                            "description":
                                                "The CPF (11 digits) or CNPJ (14), punctuation allowed; a subject reference is refused.",
                                        ],
                                        "documentType": [
                                            "type": "string",
                                            "description": "cpf, cnpj or a DUI type; default from the number of digits.",
                                        ],
                                    ],
                                ]
                            ]
                        ],
                    ],
                    "responses": ["200": json("The subject."), "400": problem, "401": problem, "403": problem, "415": problem],
                ]
            ],
            "/v1/subjects": [
                "get": [
                    "operationId": "findSubject",
                    "deprecated": true,
                    "summary":
                        "Scope subjects:admin. Deprecated: use POST /v1/subjects/find (a document in the query string ends "
                        + "up in proxies' logs); answers carry Deprecation: true. Turns a CPF or CNPJ into the subject's "
                        + "pseudonymous reference: {subjectReference, known, erased, erasedAt, journeyIds}. Cache-Control: no-store.",
                    "security": [["apiKey": [String]()]],
                    "parameters": [
                        [
                            "name": "document", "in": "query", "required": true,
                            "description": "The CPF (11 digits) or CNPJ (14) with valid check digits, punctuation "
                                + "(. - / space) allowed; a subject reference is refused (400 invalid_document).",
                            "schema": ["type": "string", "minLength": 11, "maxLength": 24, "pattern": "^[0-9][0-9./ -]*[0-9]$"],
                        ],
                        [
                            "name": "documentType", "in": "query", "required": false,
                            "description": "cpf, cnpj or a DUI type; default from the number of digits.",
                            "schema": ["type": "string"],
                        ],
                    ],
                    "responses": ["200": json("The subject."), "400": problem, "401": problem, "403": problem],
                ]
            ],
            "/v1/subjects/{ref}/export": [
                "get": disclosing([
                    "operationId": "exportSubject",
                    "summary": "Scopes subjects:admin and human-token:read. Everything held about the subject: each journey "
                        + "with its state, timeline, disclosures, opened personal data and Human Token result, or erased "
                        + "markers. Each journey whose fields it opens gets a PersonalDataDisclosed (the opened field names "
                        + "and the Disclosure-Purpose), listed among its disclosures. Cache-Control: no-store.",
                    "security": [["apiKey": [String]()]],
                    "parameters": [reference],
                    "responses": [
                        "200": json("The export (format journeys.subject-export.v1)."), "400": problem, "401": problem,
                        "403": problem, "404": problem,
                    ],
                ])
            ],
            "/v1/subjects/{ref}": [
                "delete": [
                    "operationId": "eraseSubject",
                    "summary": "Scope subjects:admin. Erases the subject: destroys their data key (crypto-shredding), appends "
                        + "SubjectErased (who, when, why) to each of their journeys, abandoning active ones, and drops "
                        + "stored idempotency answers. Idempotent: a repeat answers 200 with alreadyErased true.",
                    "security": [["apiKey": [String]()]],
                    "parameters": [
                        reference,
                        [
                            "name": "reason", "in": "query", "required": false,
                            "description": "Why, when no body is sent (no personal data: a CPF, CNPJ, phone or e-mail shape is "
                                + "refused, 422).",
                            "schema": text(maximum: DataSubjects.maximumReasonLength),
                        ],
                    ],
                    "requestBody": [
                        "required": false,
                        "content": [
                            "application/json": [
                                "schema": [
                                    "type": "object",
                                    "properties": [
                                        "reason": text(
                                            maximum: DataSubjects.maximumReasonLength,
                                            "Why (no personal data: not blank, no control characters; a CPF, CNPJ, "
                                                + "phone or e-mail shape is refused, 422). Default: data subject request.")
                                    ],
                                ]
                            ]
                        ],
                    ],
                    "responses": [
                        "200": json(
                            "{subjectReference, erasedAt, alreadyErased, journeyIds, journeysMarked, "
                                + "journeysAbandoned, idempotencyAnswersPurged}"),
                        "400": problem, "401": problem, "403": problem, "404": problem, "422": problem,
                    ],
                ]
            ],
        ]
    }
}
