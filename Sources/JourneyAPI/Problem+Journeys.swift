import AccessControl
import HTTPServer
import HumanTokenAPI
import JourneyDomain
import JourneyEngine
import Postgres
import Privacy

/// Problem responses of the journey routes; details never carry personal data or secrets.
extension Problem {
    /// 401/403 with the access error's code and `WWW-Authenticate` when it has one.
    static func access(_ error: AccessError) -> Problem {
        var headers = HTTPHeaders()
        if let challenge = error.wwwAuthenticate { headers["WWW-Authenticate"] = challenge }
        var extra: [String: String] = [:]
        if let scope = error.missingScope { extra["scope"] = scope.rawValue }
        return Problem(
            status: HTTPStatus(code: error.httpStatus), code: error.code.rawValue, detail: error.message,
            extra: extra, headers: headers)
    }

    /// The domain's refusal with its code and suggested status (409 for transitions not allowed);
    /// `journeyStatus` names the journey's state (`status` is the problem's HTTP status), and
    /// `abandonReason` why an abandoned journey ended (`cancelled`, `userAbsent`, ...).
    /// `retry_not_due` carries `Retry-After` (whole seconds until it is due, at least 1), and
    /// `process_creation_pending` `Retry-After: 1`.
    static func domain(_ error: DomainError) -> Problem {
        var extra = ["journeyStatus": error.status.rawValue]
        if let attempt = error.attempt { extra["attempt"] = String(attempt) }
        if let reason = error.abandonReason { extra["abandonReason"] = reason.rawValue }
        var headers = HTTPHeaders()
        if let wait = retryAfter(of: error) { headers["Retry-After"] = String(wait) }
        return Problem(
            status: HTTPStatus(code: error.code.suggestedHTTPStatus), code: error.code.rawValue,
            detail: error.message, extra: extra, headers: headers)
    }

    /// Whole seconds before the refused command may succeed, for the refusals that say so.
    private static func retryAfter(of error: DomainError) -> Int? {
        switch error.code {
        case .retryNotDue:
            let seconds = error.retryAfter.flatMap { $0.isFinite ? $0 : nil } ?? 1
            return max(1, Int(min(seconds, 86_400).rounded(.up)))
        case .processCreationPending: return 1
        default: return nil
        }
    }

    /// The engine's error: 404 `journey_not_found`, 503 `unico_not_configured`, Unico's problem
    /// for a failed Create Process, the interrupting error's problem with `journeyId` for
    /// `start_interrupted`, 500 otherwise.
    static func engine(_ error: EngineError) -> Problem {
        if let unico = error.unico { return .unico(unico) }
        switch error.code {
        case .journeyNotFound: return .journeyNotFound()
        case .unicoNotConfigured:
            guard let environment = error.environment else { return .internalError() }
            return .unicoNotConfigured(environment)
        case .startInterrupted:
            let problem = error.underlying.flatMap(Problem.mapped) ?? .internalError()
            return error.journeyID.map { problem.about(journey: $0.rawValue) } ?? problem
        default: return .internalError()
        }
    }

    /// The problem for what the engine and the database throw (`DomainError`,
    /// ``JourneyEngine/EngineError``, an unreachable database, a version conflict that outlasted
    /// the retries); nil for anything else.
    static func mapped(_ error: any Error) -> Problem? {
        switch error {
        case let problem as Problem: problem
        case let error as DomainError: .domain(error)
        case let error as EngineError: .engine(error)
        case let error as PrivacyError where error.code == .subjectErased: .subjectErased()
        case let error as PostgresError where error.isUnavailable: .databaseUnavailable()
        default: versionConflict(error)
        }
    }

    /// Renders what the engine and the database throw as problems (see ``mapped(_:)``), naming
    /// the route's journey (`journeyId`) in the engine's refusals; everything else passes through.
    static let engineErrors: Middleware = { request, next in
        do {
            return try await next(request)
        } catch let error where !(error is Problem) {
            if let engine = error as? EngineError, engine.code == .startInterrupted, let underlying = engine.underlying,
                mapped(underlying) == nil
            {
                throw underlying  // unexpected: a 500 that logs what it was
            }
            guard var problem = mapped(error) else { throw error }
            if error is DomainError || error is EngineError, problem.status != .notFound,
                let id = request.pathParameters["id"]
            {
                problem = problem.about(journey: id.lowercased())
            }
            throw problem
        }
    }

    /// The problem with the journey it is about as `journeyId`, so a client can find that journey.
    func about(journey journeyID: String) -> Problem {
        var problem = self
        if problem.extra["journeyId"] == nil { problem.extra["journeyId"] = journeyID }
        return problem
    }

    /// 503 `service_unavailable` with `Retry-After: 1`: PostgreSQL cannot be reached; nothing
    /// half-done was kept (each step is one transaction).
    static func databaseUnavailable() -> Problem {
        Problem(
            status: .serviceUnavailable, code: "service_unavailable",
            detail: "The database cannot be reached; retry shortly.", extra: ["database": "unreachable"],
            headers: ["Retry-After": "1"])
    }

    /// 422 `validation_failed` naming the first invalid field (and all of them in `fields`).
    static func validation(_ error: ValidationError) -> Problem {
        Problem(
            status: .unprocessableContent, code: ValidationError.code, detail: error.message,
            extra: ["field": error.fields.first ?? "", "fields": error.fields.joined(separator: ",")])
    }

    /// 410 `journey_ended`: the journey an Idempotency-Key started ended (or has no attempt left)
    /// and hands out no more tokens; `journeyStatus` says how it stands. Final, not retryable.
    static func journeyEnded(_ status: JourneyStatus) -> Problem {
        let how = status.isTerminal ? "has ended (\(status.rawValue))" : "has no attempt left (\(status.rawValue))"
        return Problem(
            status: .gone, code: "journey_ended",
            detail: "The journey started with this Idempotency-Key \(how); start a new journey with a new key.",
            extra: ["journeyStatus": status.rawValue], retryable: false)
    }

    /// 404 `journey_not_found`.
    static func journeyNotFound() -> Problem {
        Problem(status: .notFound, code: "journey_not_found", detail: "No journey has this id.")
    }

    /// 503 `unico_not_configured` for an environment without a Unico client.
    static func unicoNotConfigured(_ environment: Environment) -> Problem {
        Problem(
            status: .serviceUnavailable, code: "unico_not_configured",
            detail: "No Unico client is configured for \(environment.rawValue).")
    }

    /// Our request's name for a field of Unico's Create Process body.
    static func requestField(_ unicoField: String) -> String {
        let names = [
            "person.duiType": "subject.documentType", "person.duiValue": "subject.documentNumber",
            "person.friendlyName": "subject.friendlyName", "person.phone": "subject.phone",
            "person.email": "subject.email", "person.notifications": "subject.notificationChannels",
        ]
        return names[unicoField] ?? unicoField
    }

    /// Create Process failed: 429 with `Retry-After`, 502 when Unico failed, 503 when our credentials did.
    static func unico(_ error: HumanTokenAPIError) -> Problem {
        switch error.code {
        case .rateLimited:
            let wait = max(1, error.retryAfter ?? 1)
            return Problem(
                status: .tooManyRequests, code: "unico_rate_limited",
                detail: "Unico's rate limit was reached; retry after \(wait) s.",
                headers: ["Retry-After": String(wait)])
        case .unauthorized, .configuration:
            return Problem(
                status: .serviceUnavailable, code: "unico_unavailable",
                detail: "The service could not authenticate with Unico.", extra: ["unicoError": error.code.rawValue])
        case .invalidArgument:
            // The caller's input passed our validation but not Unico's: a 422 naming our field.
            var extra = ["field": error.field.map(requestField) ?? ""]
            if let field = error.field { extra["unicoField"] = field }
            return Problem(
                status: .unprocessableContent, code: "unico_refused_field",
                detail: "Unico refused \(error.field.map(requestField) ?? "a field") of the request.",
                extra: extra)
        default:
            return Problem(
                status: 502, code: "unico_unavailable",
                detail: "Unico did not create the process.", extra: ["unicoError": error.code.rawValue])
        }
    }
}
