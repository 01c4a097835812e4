import AccessControl
import HTTPServer
import JourneyDomain

/// The `Disclosure-Purpose` header every route that opens personal data or a Human Token
/// requires: why the caller opens it, recorded in `PersonalDataDisclosed` (no personal data).
enum DisclosurePurpose {
    static let header = "Disclosure-Purpose"

    /// What the opening records: the key, its tenant, the purpose and `channel`; fields are set by the opener.
    /// 400 `invalid_disclosure_purpose` naming the header when it is absent, blank, longer than
    /// 200 characters or holds control characters; 422 `validation_failed` naming it when it holds
    /// something shaped like personal data (``JourneyDomain/PersonalDataShape``: a CPF, CNPJ, phone
    /// number or e-mail address).
    static func disclosure(_ request: HTTPRequest, principal: Principal, channel: String) throws -> PersonalDataDisclosure {
        guard let purpose = PersonalDataDisclosure.checkedPurpose(request.headers[header]) else {
            let limit = PersonalDataDisclosure.maximumPurposeLength
            throw Problem(
                status: .badRequest, code: "invalid_disclosure_purpose",
                detail: "Opening personal data or a Human Token needs the header \(header): why you open it, "
                    + "1 to \(limit) characters without control characters (recorded; no personal data).",
                extra: ["field": header])
        }
        if let issue = PersonalDataShape.issue(purpose, field: header, context: .prose) {
            throw Problem.validation(ValidationError(issues: [issue]))
        }
        return PersonalDataDisclosure(
            actor: principal.actor, keyID: principal.keyID.uuidString.lowercased(),
            tenant: principal.tenant, fields: [], purpose: purpose, channel: channel)
    }
}
