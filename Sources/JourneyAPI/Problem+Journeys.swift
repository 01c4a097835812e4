import AccessControl
import HTTPServer
import HumanTokenAPI
import JourneyDomain
import JourneyEngine

/// Problem responses of the journey routes; details never carry personal data or secrets.
extension Problem {
    /// 401/403 with the access error's code and `WWW-Authenticate` when it has one.
    static func access(_ error: AccessError) -> Problem {
        var headers = HTTPHeaders()
        if let challenge = error.wwwAuthenticate { headers["WWW-Authenticate"] = challenge }
        var extra: [String: String] = [:]
        if let scope = error.missingScope { extra["scope"] = scope.rawValue }
        return Problem(status: HTTPStatus(code: error.httpStatus), code: error.code.rawValue, detail: error.message,
                       extra: extra, headers: headers)
    }

    /// The domain's refusal with its code and suggested status (409 for transitions not allowed).
    static func domain(_ error: DomainError) -> Problem {
        var extra = ["status": error.status.rawValue]
        if let attempt = error.attempt { extra["attempt"] = String(attempt) }
        return Problem(status: HTTPStatus(code: error.code.suggestedHTTPStatus), code: error.code.rawValue,
                       detail: error.message, extra: extra)
    }

    /// The engine's error: 404 `journey_not_found`, 503 `unico_not_configured`, Unico's problem
    /// for a failed Create Process, 500 otherwise.
    static func engine(_ error: EngineError) -> Problem {
        if let unico = error.unico { return .unico(unico) }
        switch error.code {
        case .journeyNotFound: return .journeyNotFound()
        case .unicoNotConfigured:
            guard let environment = error.environment else { return .internalError() }
            return .unicoNotConfigured(environment)
        default: return .internalError()
        }
    }

    /// Renders what the engine throws (`DomainError`, ``JourneyEngine/EngineError``) as problems;
    /// everything else passes through.
    static let engineErrors: Middleware = { request, next in
        do {
            return try await next(request)
        } catch let error as DomainError {
            throw Problem.domain(error)
        } catch let error as EngineError {
            throw Problem.engine(error)
        }
    }

    /// 422 `validation_failed` naming the first invalid field (and all of them in `fields`).
    static func validation(_ error: ValidationError) -> Problem {
        Problem(status: .unprocessableContent, code: ValidationError.code, detail: error.message,
                extra: ["field": error.fields.first ?? "", "fields": error.fields.joined(separator: ",")])
    }

    /// 404 `journey_not_found`.
    static func journeyNotFound() -> Problem {
        Problem(status: .notFound, code: "journey_not_found", detail: "No journey has this id.")
    }

    /// 503 `unico_not_configured` for an environment without a Unico client.
    static func unicoNotConfigured(_ environment: Environment) -> Problem {
        Problem(status: .serviceUnavailable, code: "unico_not_configured",
                detail: "No Unico client is configured for \(environment.rawValue).")
    }

    /// Our request's name for a field of Unico's Create Process body.
    static func requestField(_ unicoField: String) -> String {
        let names = ["person.duiType": "subject.documentType", "person.duiValue": "subject.documentNumber",
                     "person.friendlyName": "subject.friendlyName", "person.phone": "subject.phone",
                     "person.email": "subject.email", "person.notifications": "subject.notificationChannels"]
        return names[unicoField] ?? unicoField
    }

    /// Create Process failed: 429 with `Retry-After`, 502 when Unico failed, 503 when our credentials did.
    static func unico(_ error: HumanTokenAPIError) -> Problem {
        switch error.code {
        case .rateLimited:
            let wait = max(1, error.retryAfter ?? 1)
            return Problem(status: .tooManyRequests, code: "unico_rate_limited",
                           detail: "Unico's rate limit was reached; retry after \(wait) s.",
                           headers: ["Retry-After": String(wait)])
        case .unauthorized, .configuration:
            return Problem(status: .serviceUnavailable, code: "unico_unavailable",
                           detail: "The service could not authenticate with Unico.", extra: ["unicoError": error.code.rawValue])
        case .invalidArgument:
            // The caller's input passed our validation but not Unico's: a 422 naming our field.
            var extra = ["field": error.field.map(requestField) ?? ""]
            if let field = error.field { extra["unicoField"] = field }
            return Problem(status: .unprocessableContent, code: "unico_refused_field",
                           detail: "Unico refused \(error.field.map(requestField) ?? "a field") of the request.",
                           extra: extra)
        default:
            return Problem(status: 502, code: "unico_unavailable",
                           detail: "Unico did not create the process.", extra: ["unicoError": error.code.rawValue])
        }
    }
}
