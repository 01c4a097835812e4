import JourneyEngine

/// The shapes the handlers check, as JSON Schema patterns, so that what the document calls valid
/// passes validation (rules across fields and check digits are in the descriptions).
extension OpenAPIDocument {
    /// Unicode control characters (category Cc), refused in every text field.
    static let controlCharacters = "\\x00-\\x1F\\x7F-\\x9F"
    /// Text with at least one non-space character and no control characters.
    static let textPattern = "^[^\(controlCharacters)]*[^\\s\(controlCharacters)][^\(controlCharacters)]*$"
    /// A free text: not blank, no control characters, at most `maximum` characters.
    static func text(maximum: Int, _ description: String? = nil) -> [String: Any] {
        var schema: [String: Any] = ["type": "string", "minLength": 1, "maxLength": maximum, "pattern": textPattern]
        if let description { schema["description"] = description }
        return schema
    }

    /// A reason recorded unsealed: text without anything shaped like personal data, stated
    /// conservatively (at most 10 digits in all, no `@`).
    static func reason(maximum: Int, _ description: String) -> [String: Any] {
        [
            "type": "string", "minLength": 1, "maxLength": maximum, "description": description,
            "pattern":
                "^(?![\\s\\S]*@)(?!(?:[^0-9]*[0-9]){11})[^\(controlCharacters)]*[^\\s\(controlCharacters)][^\(controlCharacters)]*$",
        ]
    }

    /// The `Idempotency-Key` header: 1 to 255 printable ASCII characters (spaces inside only).
    static var idempotencyKeySchema: [String: Any] {
        [
            "type": "string", "minLength": 1, "maxLength": IdempotencyKey.maximumLength,
            "pattern": "^[!-~]([ -~]*[!-~])?$",
        ]
    }

    /// A subject's document: the number's shape follows its type (CPF 11 digits, CNPJ 14, others 1 to 32).
    static var documentVariants: [[String: Any]] {
        let digits = { (count: String, description: String) -> [String: Any] in
            ["type": "string", "pattern": "^[0-9]{\(count)}$", "description": description]
        }
        return [
            [
                "title": "CPF",
                "properties": [
                    "documentType": ["const": "DUI_TYPE_BR_CPF"],
                    "documentNumber": digits("11", "11 digits with valid check digits (else 422)."),
                ],
            ],
            [
                "title": "CNPJ",
                "properties": [
                    "documentType": ["const": "DUI_TYPE_BR_CNPJ"],
                    "documentNumber": digits("14", "14 digits with valid check digits (else 422)."),
                ],
            ],
            [
                "title": "Other document type",
                "properties": [
                    "documentType": [
                        "type": "string", "pattern": "^DUI_TYPE_[A-Z]{2}_[A-Z0-9_]+$",
                        "not": ["enum": ["DUI_TYPE_BR_CPF", "DUI_TYPE_BR_CNPJ"]],
                    ],
                    "documentNumber": digits("1,32", "Digits only."),
                ],
            ],
        ]
    }

    /// The callback body, one variant per SDK Lite callback.
    static var callbackSchema: [String: Any] {
        let attempt: [String: Any] = [
            "type": "integer", "minimum": 1, "maximum": Int32.max,
            "description": "The attempt the callback belongs to; default the current one.",
        ]
        return [
            "oneOf": [
                object(
                    [
                        "outcome": ["const": "success"], "attempt": attempt,
                        "processId": ["type": "string", "minLength": 1, "description": "onSuccess's processId."],
                    ],
                    required: ["outcome", "processId"]
                ).merging(["title": "onSuccess"]) { $1 },
                object(
                    [
                        "outcome": ["const": "error"], "attempt": attempt,
                        "code": [
                            "type": "integer", "minimum": Int32.min, "maximum": Int32.max,
                            "description": "onErrorSelfie's code, e.g. 73305.",
                        ],
                    ],
                    required: ["outcome", "code"]
                ).merging(["title": "onErrorSelfie"]) { $1 },
                object(["outcome": ["const": "closedByUser"], "attempt": attempt], required: ["outcome"])
                    .merging(["title": "onUserClosedCameraManually"]) { $1 },
                object(["outcome": ["const": "sessionTimedOut"], "attempt": attempt], required: ["outcome"])
                    .merging(["title": "onSystemClosedCameraTimeoutSession"]) { $1 },
                object(["outcome": ["const": "faceInferenceTimedOut"], "attempt": attempt], required: ["outcome"])
                    .merging(["title": "onSystemChangedTypeCameraTimeoutFaceInference"]) { $1 },
            ]
        ]
    }
}
