import Foundation
import OutboundHTTP

/// One HTTP request to Unico and its answer through ``OutboundHTTPClient``, with failures turned
/// into typed errors.
///
/// Unico's hosts are the configured ones (`https` with the system's trust store, or the loopback
/// emulator over `http`): they are resolved with the system resolver (kept a minute,
/// ``HostAddresses``) and reached whatever their address, without the webhook destinations'
/// address policy. The whole call is bounded by the
/// request timeout (a deadline, not an idle timer), the answer's body by ``maxResponseBytes``.
/// Redirects are never followed: a 3xx is an `invalid_response` naming the status (a bearer token
/// or an assertion must not travel to a host nobody configured). A cancelled caller gets
/// `CancellationError` at once: the connection is closed.
struct HTTPExchange: Sendable {
    /// A received answer of any status.
    struct Response: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// A header by case-insensitive name.
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// Most bytes of an answer's body read: 1 MiB, far over any Unico answer (a Find Processes
    /// list included); a longer one is `invalid_response`.
    static let maxResponseBytes = 1 << 20

    /// Sent with every request: some API gateways refuse a request without one.
    static let userAgent = "human-token-journeys"

    let client: OutboundHTTPClient
    let timeout: TimeInterval
    let addresses: HostAddresses

    /// An exchange whose calls, connection included, end within `timeout` seconds.
    init(timeout: TimeInterval, addresses: HostAddresses = HostAddresses()) {
        self.timeout = timeout
        self.addresses = addresses
        client = OutboundHTTPClient(
            configuration: .init(timeout: timeout, connectTimeout: timeout, maxResponseBytes: Self.maxResponseBytes))
    }

    /// Sends one request; throws `timeout`, `transport` or `invalid_response` when no usable answer
    /// arrives, `CancellationError` when the caller is cancelled.
    func send(_ method: String, _ url: URL, headers: [(String, String)], body: Data?) async throws -> Response {
        var fields = headers.map { OutboundHTTPHeader($0.0, $0.1) }
        fields.append(OutboundHTTPHeader("User-Agent", Self.userAgent))
        let request = OutboundHTTPRequest(method: method, url: url, headers: fields, body: body ?? Data())
        let host = Self.host(of: url)
        let answer: OutboundHTTPResponse
        do throws(OutboundHTTPError) {
            answer = try await client.send(request, to: host.isEmpty ? [] : try await addresses.addresses(of: host))
        } catch {
            try Task.checkCancellation()
            addresses.forget(host)
            throw Self.failure(error, host: Self.hostName(url), timeout: timeout)
        }
        if (300..<400).contains(answer.status) {
            throw HumanTokenAPIError(
                .invalidResponse, "\(Self.hostName(url)) answered with HTTP \(answer.status); redirects are not followed",
                status: answer.status)
        }
        if answer.bodyTruncated {
            throw HumanTokenAPIError(
                .invalidResponse, "\(Self.hostName(url)) answered with a body over \(Self.maxResponseBytes) bytes",
                status: answer.status)
        }
        var fieldsByName: [String: String] = [:]
        for field in answer.headers where fieldsByName[field.name] == nil { fieldsByName[field.name] = field.value }
        return Response(status: answer.status, headers: fieldsByName, body: answer.body)
    }

    /// The typed error for a call that got no usable answer. A request that may have reached Unico
    /// (the connection lost, an answer that is not HTTP) is `transport`, like one that never left:
    /// a Create Process is then looked up before another is made.
    static func failure(_ error: OutboundHTTPError, host: String, timeout: TimeInterval) -> HumanTokenAPIError {
        switch error.code {
        case .timedOut:
            return HumanTokenAPIError(.timeout, "no answer from \(host) within \(timeout)s")
        case .invalidRequest, .invalidConfiguration:
            return HumanTokenAPIError(.configuration, "the request to \(host) cannot be sent (\(error))")
        default:
            // The message names the host and the addresses tried, never a path or a field.
            return HumanTokenAPIError(.transport, "could not reach \(host) (\(error))")
        }
    }

    /// The URL's host without IPv6 brackets; empty when it has none (the client then refuses the URL).
    static func host(of url: URL) -> String {
        guard let host = url.host, !host.isEmpty else { return "" }
        return host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// The host and port only: paths carry process ids, which stay out of messages.
    static func hostName(_ url: URL) -> String {
        guard let host = url.host else { return "the server" }
        return url.port.map { "\(host):\($0)" } ?? host
    }
}
