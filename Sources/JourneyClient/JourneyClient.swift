import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The thin client the iOS app uses to drive one Human Token journey of the journey service.
///
/// ## Who does what
///
/// - The company's **backend** starts the journey with its API key (`POST /v1/journeys`, scope
///   `journeys:write`, with an `Idempotency-Key`) and hands the 201 body, decoded as ``JourneyStart``,
///   to the app. The app never sees an API key or a Unico credential.
/// - The **app** holds only the journey-scoped client token of that answer, in a ``JourneySession``,
///   and uses this client for the rest: `POST /v1/journeys/{id}/token`, `/capture-opened`,
///   `/callback` and `GET …/link`, each with `Authorization: Bearer <clientToken>`. The token is valid for this
///   journey only: used on another journey the service answers 403 `wrong_journey`.
///
/// Every failure is a ``JourneyClientError`` carrying the problem's stable `code`, the HTTP
/// status and `Retry-After`.
///
/// ## Wiring the SDK Lite (`import AcessoBio`) to the client
///
/// The iOS guide (`JourneyClient.docc/iOSGuide.md`) shows the whole capture screen, each
/// delegate callback mapped to its call; the test suite compiles that screen against the SDK
/// Lite simulator.
///
/// Where the SDK Lite cannot be used, ``link()`` gives the current attempt's Unico link to open
/// instead (after ``refreshToken()`` made the attempt).
///
/// `JourneyClient` is an actor: it remembers the attempt of the last ``TokenGrant`` so that reports
/// name the attempt the capture belongs to (a report for a superseded attempt is recorded by the
/// service without moving the current one). The `URLSession` is injected (default `.shared`).
public actor JourneyClient {
    /// The journey and its client token.
    public nonisolated let session: JourneySession
    private let urlSession: URLSession
    private let timeout: TimeInterval
    /// The last token handed out by ``refreshToken()``; reports name its attempt.
    public private(set) var lastGrant: TokenGrant?

    /// A client for `session` sending requests through `urlSession`, each bounded by `timeout` seconds.
    public init(session: JourneySession, urlSession: URLSession = .shared, timeout: TimeInterval = 30) {
        self.init(session: session, lastGrant: nil, urlSession: urlSession, timeout: timeout)
    }

    /// A client for the journey the backend started, with its first grant already known.
    public init(start: JourneyStart, baseURL: URL, urlSession: URLSession = .shared, timeout: TimeInterval = 30) {
        self.init(
            session: JourneySession(start: start, baseURL: baseURL), lastGrant: start.grant,
            urlSession: urlSession, timeout: timeout)
    }

    private init(session: JourneySession, lastGrant: TokenGrant?, urlSession: URLSession, timeout: TimeInterval) {
        self.session = session
        self.lastGrant = lastGrant
        self.urlSession = urlSession
        self.timeout = timeout
    }

    /// `POST /v1/journeys/{id}/token`: a `webAppToken` for the capture about to open. The current
    /// attempt's while its capture was not opened yet and 60 s of it remain (a double tap is one
    /// capture), otherwise a fresh process (a new attempt) if the retry policy allows.
    ///
    /// Call it right before `prepareAndOpenSelfieCamera(_:webAppToken:)`, then ``reportCaptureOpened(attempt:)``.
    /// Fails with status 409 when no new attempt is allowed (the problem's `journeyStatus` names the
    /// journey's state), 429/502/503 when Unico is unavailable.
    public func refreshToken() async throws(JourneyClientError) -> TokenGrant {
        let data = try await send(path: "token", body: nil)
        let grant = try decode(TokenGrant.self, data)
        lastGrant = grant
        return grant
    }

    /// `POST /v1/journeys/{id}/capture-opened`: the app is opening the capture with the last token.
    ///
    /// - Parameter attempt: the attempt of the token passed to the SDK; default the last grant's.
    @discardableResult
    public func reportCaptureOpened(attempt: Int? = nil) async throws(JourneyClientError) -> JourneyStatus {
        var body: [String: Any] = [:]
        if let attempt = attempt ?? lastGrant?.attempt { body["attempt"] = attempt }
        return try decode(JourneyStatus.self, try await send(path: "capture-opened", body: body))
    }

    /// `POST /v1/journeys/{id}/callback` with `{"outcome":"success","processId":...}`: the SDK's
    /// `onSuccess(_:)` with `successResult.processId`. The journey's result is read by the service.
    @discardableResult
    public func reportSuccess(processID: String, attempt: Int? = nil) async throws(JourneyClientError) -> JourneyStatus {
        var body: [String: Any] = ["outcome": "success", "processId": processID]
        if let attempt = attempt ?? lastGrant?.attempt { body["attempt"] = attempt }
        return try decode(JourneyStatus.self, try await send(path: "callback", body: body))
    }

    /// `POST /v1/journeys/{id}/callback` with `{"outcome":"error","code":...}`: the SDK's
    /// `onErrorSelfie(_:)` or `onErrorAcessoBioManager(_:)` with `errorBio.code`.
    @discardableResult
    public func reportError(code: Int, attempt: Int? = nil) async throws(JourneyClientError) -> JourneyStatus {
        var body: [String: Any] = ["outcome": "error", "code": code]
        if let attempt = attempt ?? lastGrant?.attempt { body["attempt"] = attempt }
        return try decode(JourneyStatus.self, try await send(path: "callback", body: body))
    }

    /// `POST /v1/journeys/{id}/callback` with `{"outcome":"closedByUser"}`: the SDK's
    /// `onUserClosedCameraManually()`. The attempt ends; the next ``refreshToken()`` makes a new one.
    @discardableResult
    public func reportClosedByUser(attempt: Int? = nil) async throws(JourneyClientError) -> JourneyStatus {
        try await reportOutcome("closedByUser", attempt: attempt)
    }

    /// `POST /v1/journeys/{id}/callback` with `{"outcome":"sessionTimedOut"}`: the SDK's
    /// `onSystemClosedCameraTimeoutSession()`. The attempt ends; the next ``refreshToken()`` makes a new one.
    @discardableResult
    public func reportSessionTimedOut(attempt: Int? = nil) async throws(JourneyClientError) -> JourneyStatus {
        try await reportOutcome("sessionTimedOut", attempt: attempt)
    }

    /// `POST /v1/journeys/{id}/callback` with `{"outcome":"faceInferenceTimedOut"}`: the SDK's
    /// `onSystemChangedTypeCameraTimeoutFaceInference()`. The capture goes on (manually); the
    /// service records it once per attempt, for support.
    @discardableResult
    public func reportFaceInferenceTimedOut(attempt: Int? = nil) async throws(JourneyClientError) -> JourneyStatus {
        try await reportOutcome("faceInferenceTimedOut", attempt: attempt)
    }

    /// `GET /v1/journeys/{id}/link`: the current attempt's Unico link, for when the SDK Lite cannot
    /// be used. Fails with 409 when no attempt has a live process (call ``refreshToken()`` first).
    public func link() async throws(JourneyClientError) -> LinkGrant {
        try decode(LinkGrant.self, try await send(path: "link", body: nil, method: "GET"))
    }

    private func reportOutcome(_ outcome: String, attempt: Int?) async throws(JourneyClientError) -> JourneyStatus {
        var body: [String: Any] = ["outcome": outcome]
        if let attempt = attempt ?? lastGrant?.attempt { body["attempt"] = attempt }
        return try decode(JourneyStatus.self, try await send(path: "callback", body: body))
    }

    // MARK: - Transport

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws(JourneyClientError) -> T {
        do {
            return try JourneyJSON.decoder().decode(type, from: data)
        } catch {
            throw JourneyClientError(
                kind: .invalidResponse, status: 200, code: "invalid_response",
                detail: "could not decode \(T.self): \(error)")
        }
    }

    private func request(path: String, body: [String: Any]?, method: String) throws(JourneyClientError) -> URLRequest {
        let url = session.baseURL.appendingPathComponent("v1/journeys")
            .appendingPathComponent(session.journeyID).appendingPathComponent(path)
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("Bearer \(session.clientToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body, !body.isEmpty {
            do {
                request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            } catch {
                throw JourneyClientError(kind: .transport, status: 0, code: "invalid_request", detail: "\(error)")
            }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Sends the request and returns the body of a 2xx answer; any other answer becomes its problem.
    private func send(path: String, body: [String: Any]?, method: String = "POST") async throws(JourneyClientError) -> Data {
        let request = try request(path: path, body: body, method: method)
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await Self.load(request, on: urlSession)
        } catch let error as URLError where error.code == .cancelled {
            throw JourneyClientError(kind: .transport, status: 0, code: "cancelled", detail: "\(error)")
        } catch is CancellationError {
            throw JourneyClientError(kind: .transport, status: 0, code: "cancelled", detail: "the task was cancelled")
        } catch {
            throw JourneyClientError(kind: .transport, status: 0, code: "transport_failed", detail: "\(error)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw JourneyClientError(kind: .invalidResponse, status: 0, code: "invalid_response", detail: "not HTTP")
        }
        guard (200..<300).contains(http.statusCode) else {
            throw JourneyClientError.fromResponse(
                status: http.statusCode, body: data,
                retryAfterHeader: http.value(forHTTPHeaderField: "Retry-After"))
        }
        return data
    }

    /// `dataTask` wrapped for async/await (works from iOS 13), cancelled with the calling task.
    private static func load(_ request: URLRequest, on urlSession: URLSession) async throws -> (Data, URLResponse) {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let task = urlSession.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// Holds the data task so that cancelling the calling task cancels it, even before it was created.
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func set(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = self.cancelled
        lock.unlock()
        if cancelled { task.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
