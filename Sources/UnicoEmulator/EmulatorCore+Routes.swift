import Foundation
import HTTPServer

extension EmulatorCore {
    /// Every route the emulator serves, behind the fault middleware.
    func makeRouter() -> Router {
        var router = Router()
        router.use { [self] request, next in try await injectFaults(request, next) }
        router.post("/oauth2/token") { [self] in token($0) }
        router.post("/processes") { [self] in createProcess($0) }
        router.get("/processes/{id}") { [self] in getProcess($0) }
        router.get("/processes") { [self] in findProcesses($0) }
        router.post("/sdk/captures") { [self] in prepareCapture($0) }
        router.post("/sdk/captures/{id}/finish") { [self] in finishCapture($0) }
        router.get("/link/{id}") { [self] in linkPage($0) }
        router.post("/link/{id}/captures") { [self] in linkCapture($0) }
        router.get("/healthz") { _ in .text("ok") }
        return router
    }

    static let faultRoutes: [String: FaultScript.Route] = [
        "/oauth2/token": .token,
        "/processes": .createProcess,
        "/processes/{id}": .getProcess,
        "/sdk/captures": .prepareCapture,
        "/sdk/captures/{id}/finish": .finishCapture,
    ]

    /// Applies the fault plan's decision for the request's route: a test's hold, latency, then 500,
    /// 429 or a lost response.
    private func injectFaults(_ request: HTTPRequest, _ next: Responder) async throws -> HTTPResponse {
        // The (assumed) lookup `GET /processes` is a read: it gets Get Process's faults.
        let lookup = request.method == .get && request.route == "/processes"
        guard let route = lookup ? .getProcess : request.route.flatMap({ Self.faultRoutes[$0] }) else {
            return try await next(request)
        }
        await faults.holds.pass(route)
        let fault = faults.requestFault(for: route)
        if fault.latencyMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(fault.latencyMilliseconds))
        }
        switch fault.action {
        case .none:
            return try await next(request)
        case .serverError:
            return Self.injectedFailure(route, status: .internalServerError)
        case .rateLimited(let seconds):
            if route == .token {
                return JSONBody.response(
                    ["error": "server_error", "error_description": "too many requests"],
                    status: .tooManyRequests, headers: ["Retry-After": String(seconds)])
            }
            return APIError.rateLimited(retryAfterSeconds: seconds).response
        case .loseResponse:
            _ = try await next(request)
            return Self.injectedFailure(route, status: 502)
        }
    }

    private static func injectedFailure(_ route: FaultScript.Route, status: HTTPStatus) -> HTTPResponse {
        route == .token
            ? JSONBody.response(["error": "server_error", "error_description": "internal error"], status: status)
            : APIError.internalError(status: status).response
    }

    /// `GET /link/{id}`: a placeholder for Unico's web journey, without personal data.
    private func linkPage(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.pathParameters["id"], let process = process(id: id) else {
            return .html("<!doctype html><title>Unico emulator</title><p>Unknown process.</p>", status: .notFound)
        }
        return .html(
            "<!doctype html><title>Unico emulator</title><p>Capture journey for process \(process.id): \(process.state.rawValue).</p>"
        )
    }
}
