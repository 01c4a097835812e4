/// Handles a request once routing has filled in `route` and `pathParameters`.
public typealias Responder = @Sendable (HTTPRequest) async throws -> HTTPResponse

/// Wraps the rest of the chain: inspect or change the request, call `next`, inspect the response.
public typealias Middleware = @Sendable (HTTPRequest, _ next: Responder) async throws -> HTTPResponse

/// Maps method and path to handlers and runs them behind a middleware chain.
///
/// Build it with `add`/`get`/`post`/... and `use`, then hand it to `HTTPServer`. Routing happens
/// before middleware, so middleware sees `request.route`; unknown paths get a 404 problem and
/// known paths with another method a 405 problem with `Allow`. `HEAD` is served by the `GET`
/// handler unless a `HEAD` route exists. A thrown `Problem` is rendered as problem+json; any other
/// error becomes a 500 `internal_error` problem without details.
public struct Router: Sendable {
    struct Entry: Sendable {
        let route: Route
        let template: PathTemplate
        let handler: Responder
    }

    private var entries: [Entry] = []
    private var middleware: [Middleware] = []

    public init() {}

    /// Every registered route in registration order.
    public var routes: [Route] { entries.map(\.route) }

    /// Registers `handler` for `method` and `path`, e.g. `/v1/journeys/{id}/token`.
    ///
    /// The template must start with `/`; `{name}` segments capture one decoded path segment.
    /// Registering the same method and template shape twice is a programming error.
    public mutating func add(_ method: HTTPMethod, _ path: String, _ handler: @escaping Responder) {
        guard let template = PathTemplate(path) else {
            preconditionFailure("Malformed route template: \(path)")
        }
        precondition(
            !entries.contains { $0.route.method == method && $0.template.shape == template.shape },
            "Duplicate route: \(method) \(path)"
        )
        entries.append(Entry(route: Route(method: method, path: path), template: template, handler: handler))
    }

    public mutating func get(_ path: String, _ handler: @escaping Responder) { add(.get, path, handler) }
    public mutating func post(_ path: String, _ handler: @escaping Responder) { add(.post, path, handler) }
    public mutating func put(_ path: String, _ handler: @escaping Responder) { add(.put, path, handler) }
    public mutating func patch(_ path: String, _ handler: @escaping Responder) { add(.patch, path, handler) }
    public mutating func delete(_ path: String, _ handler: @escaping Responder) { add(.delete, path, handler) }

    /// Appends middleware; the first added is the outermost and runs first.
    public mutating func use(_ middleware: @escaping Middleware) {
        self.middleware.append(middleware)
    }

    /// Routes `request`, runs middleware and handler, and renders errors as problems.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await handle(request).response
    }

    /// The response plus what the server logs: the route template and an unexpected error, if any.
    struct Outcome: Sendable {
        var response: HTTPResponse
        var route: String?
        var unexpectedError: (any Error)?
    }

    func handle(_ request: HTTPRequest) async -> Outcome {
        var request = request
        let terminal: Responder
        switch resolve(method: request.method, rawPath: request.path) {
        case .found(let entry, let parameters):
            request.route = entry.route.path
            request.pathParameters = parameters
            terminal = entry.handler
        case .methodNotAllowed(let route, let allowed):
            request.route = route
            terminal = { _ in throw Problem.methodNotAllowed(allowed: allowed) }
        case .notFound:
            terminal = { _ in throw Problem.notFound() }
        case .badPath:
            terminal = { _ in throw Problem(status: .badRequest, code: "invalid_path", detail: "The path is not valid.") }
        }
        let chain = middleware.reversed().reduce(terminal) { next, middleware in
            { request in try await middleware(request, next) }
        }
        do {
            return Outcome(response: try await chain(request), route: request.route)
        } catch let problem as Problem {
            return Outcome(response: problem.response, route: request.route)
        } catch {
            return Outcome(response: Problem.internalError().response, route: request.route, unexpectedError: error)
        }
    }

    enum Resolution {
        case found(Entry, [String: String])
        case methodNotAllowed(route: String, allowed: [HTTPMethod])
        case notFound
        case badPath
    }

    /// The most specific template matching the path owns it for every method (a literal segment
    /// beats a parameter, left to right): `DELETE /v1/subjects/find` is a 405 beside
    /// `POST /v1/subjects/find`, not `DELETE /v1/subjects/{reference}` with "find", and `Allow`
    /// lists that template's methods only.
    func resolve(method: HTTPMethod, rawPath: String) -> Resolution {
        guard let segments = PathTemplate.decodedSegments(rawPath) else { return .badPath }
        var owner: PathTemplate?
        var matches: [(entry: Entry, parameters: [String: String])] = []
        for entry in entries {
            guard let parameters = entry.template.match(segments) else { continue }
            matches.append((entry, parameters))
            if owner.map({ entry.template.isMoreSpecific(than: $0) }) ?? true { owner = entry.template }
        }
        guard let owner else { return .notFound }
        let owned = matches.filter { $0.entry.template.shape == owner.shape }
        if let match = owned.first(where: { $0.entry.route.method == method })
            ?? (method == .head ? owned.first(where: { $0.entry.route.method == .get }) : nil)
        {
            return .found(match.entry, match.parameters)
        }
        var allowed: [HTTPMethod] = []
        for match in owned where !allowed.contains(match.entry.route.method) { allowed.append(match.entry.route.method) }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(route: owned[0].entry.route.path, allowed: allowed)
    }
}
