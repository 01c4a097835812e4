import JourneyDomain

/// What the OpenAPI document says of routes that open personal data or a Human Token.
extension OpenAPIDocument {
    /// The required `Disclosure-Purpose` header.
    static var disclosurePurposeParameter: [String: Any] {
        [
            "name": DisclosurePurpose.header, "in": "header", "required": true,
            "description": "Why the caller opens the data, recorded in the journey's PersonalDataDisclosed event "
                + "(no personal data). Missing, blank, longer than \(PersonalDataDisclosure.maximumPurposeLength) "
                + "characters or with control characters: 400 invalid_disclosure_purpose; shaped like personal data "
                + "(a CPF, CNPJ, phone number or e-mail address): 422 validation_failed.",
            "schema": text(maximum: PersonalDataDisclosure.maximumPurposeLength),
        ]
    }

    /// `operation` with the `Disclosure-Purpose` header and its 400 and 422 problems.
    static func disclosing(_ operation: [String: Any]) -> [String: Any] {
        var operation = operation
        operation["parameters"] = (operation["parameters"] as? [[String: Any]] ?? []) + [disclosurePurposeParameter]
        var responses = operation["responses"] as? [String: Any] ?? [:]
        responses["400"] = problem
        responses["422"] = problem
        operation["responses"] = responses
        return operation
    }
}
