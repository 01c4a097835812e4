import AccessControl
import DataSubjects
import Foundation
import HTTPServer
import JourneyEngine
import Postgres

/// The data-subject routes (scope `subjects:admin`): find a subject by document (`POST
/// /v1/subjects/find` with `{"document": …}`; the older `GET /v1/subjects?document=` still answers,
/// deprecated, with `Deprecation: true`, since a query string ends up in proxies' logs), export
/// everything held about them (also `human-token:read` and `Disclosure-Purpose`: the export is
/// recorded as a disclosure on each journey it opens), erase them. Answers carrying personal
/// data are `no-store`.
struct SubjectRoutes: Sendable {
    let journeys: Journeys
    let authenticator: RequestAuthenticator
    let dependencies: JourneyDependencies

    func register(on router: inout Router) {
        let authenticator = self.authenticator
        let subjects = DataSubjects(journeys: journeys, ledger: dependencies.erasureLedger)

        let find = { @Sendable (principal: Principal, document: String?, type: String?) async throws -> HTTPResponse in
            guard let document, !document.isEmpty else {
                throw Problem(
                    status: .badRequest, code: "invalid_document",
                    detail: "document (a CPF or CNPJ) is required.", extra: ["field": "document"])
            }
            let finding = try await Problem.subjects {
                let (type, number) = try SubjectArgument.document(document, type: type)
                return try await subjects.find(
                    documentType: type, documentNumber: number, tenant: principal.tenant,
                    confined: true)
            }
            return try HTTPResponse.json(finding, encoder: TokenResponse.encoder).noStore()
        }
        // Preferred: the document travels in the body, out of URLs that proxies and access logs keep.
        router.post("/v1/subjects/find") { request in
            let principal = try await authenticator.apiKey(request, scope: .subjectsAdmin)
            try request.requireMediaType()
            let body: FindBody = try request.decode()
            return try await find(principal, body.document, body.documentType)
        }
        // Deprecated (kept for compatibility): the document in the query string.
        router.get("/v1/subjects") { request in
            let principal = try await authenticator.apiKey(request, scope: .subjectsAdmin)
            var answer = try await find(principal, request.query("document"), request.query("documentType"))
            answer.headers["Deprecation"] = "true"
            answer.headers["Link"] = "</v1/subjects/find>; rel=\"successor-version\""
            return answer
        }
        router.get("/v1/subjects/{ref}/export") { request in
            let principal = try await authenticator.apiKey(request, scope: .subjectsAdmin)
            do { try principal.require(.humanTokenRead) } catch let error as AccessError { throw Problem.access(error) }
            let disclosure = try DisclosurePurpose.disclosure(
                request, principal: principal,
                channel: "GET /v1/subjects/{ref}/export")
            let export = try await Problem.subjects {
                try await subjects.export(
                    try SubjectArgument.reference(try request.pathParameter("ref")),
                    tenant: principal.tenant, disclosure: disclosure)
            }
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: try export.json()).noStore()
        }
        router.delete("/v1/subjects/{ref}") { request in
            let principal = try await authenticator.apiKey(request, scope: .subjectsAdmin)
            let reason = try Self.reason(request)
            let report = try await Problem.subjects {
                try await subjects.erase(
                    try SubjectArgument.reference(try request.pathParameter("ref")),
                    requestedBy: principal.actor, reason: reason, tenant: principal.tenant)
            }
            return try HTTPResponse.json(report, encoder: TokenResponse.encoder)
        }
    }

    /// `POST /v1/subjects/find`'s body.
    struct FindBody: Decodable, Sendable {
        var document: String?
        var documentType: String?
    }

    /// The erasure reason: `reason` of an optional JSON body, else the `reason` query parameter.
    static func reason(_ request: HTTPRequest) throws -> String? {
        guard !request.body.isEmpty else { return request.query("reason") }
        guard let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any] else {
            throw Problem(
                status: .badRequest, code: "invalid_json",
                detail: "The body must be a JSON object such as {\"reason\": \"...\"}.", extra: ["field": "body"])
        }
        guard let value = object["reason"] else { return request.query("reason") }
        guard let text = value as? String else {
            throw Problem(
                status: .badRequest, code: "invalid_reason", detail: "reason must be a string.",
                extra: ["field": "reason"])
        }
        return text
    }
}
