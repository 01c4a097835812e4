import Foundation

/// A small HTTP/1.1 client for calls out of the service: to addresses the caller chose, with hard
/// bounds on time and on what it reads, over connections kept alive between requests.
///
/// ```swift
/// let client = OutboundHTTPClient(configuration: .init(timeout: 15, maxResponseBytes: 64 << 10))
/// let addresses = try await policy.check(host: host)            // resolved once, each one checked
/// let answer = try await client.send(request, to: addresses)    // connects to those, never resolving again
/// ```
///
/// - It connects to the given addresses in order (the next one when a connection fails) and to
///   nothing else: the URL's host name is used only for `Host`, TLS SNI and the certificate's
///   name check, so a name whose DNS answer changes after the caller checked it (rebinding)
///   cannot send the request elsewhere.
/// - `https` verifies the certificate chain against the system's trust store plus
///   ``Configuration/trustedCertificates``, and the name (or IP literal) against the certificate.
/// - The whole call is bounded by ``Configuration/timeout``, each connection attempt by
///   ``Configuration/connectTimeout``; the answer's head by ``Configuration/maxHeadBytes``. At
///   most ``Configuration/maxResponseBytes`` of its body are read: an announced longer body is
///   not read at all, a streamed one is cut there, and the connection is closed at once (no
///   draining), so a receiver can make it read no more than the cap plus a socket buffer.
/// - Redirects are not followed: a 3xx is returned like any answer.
/// - A connection whose answer was read whole (by `Content-Length` or chunks) and that the server
///   keeps open waits idle for the next request to the same scheme, host and port at one of the
///   given addresses (``Configuration/maxIdleConnectionsPerHost``, ``Configuration/idleTimeout``);
///   any other is closed. A request on a reused connection that the server closed before a byte
///   of an answer goes once more on a fresh connection.
/// - Each call runs on a thread of its own (blocking in `poll`, never on a cooperative thread);
///   cancelling the calling task closes the connection and throws `cancelled`.
public final class OutboundHTTPClient: Sendable {
    public let configuration: Configuration
    private let tls: TLSContext
    private let pool: ConnectionPool

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        tls = TLSContext.trusting(configuration.trustedCertificates)
        pool = ConnectionPool(configuration: configuration)
    }

    /// Idle connections kept open now.
    public var idleConnections: Int { pool.count }

    /// Sends `request` to the first of `addresses` that accepts a connection (in order) and
    /// returns its answer, whatever the status.
    ///
    /// Throws `invalid_request`, `connect_failed` (each address's reason), `tls_failed`,
    /// `timed_out`, `connection_lost`, `malformed_response` or `cancelled`.
    public func send(_ request: OutboundHTTPRequest, to addresses: [IPAddress]) async throws(OutboundHTTPError)
        -> OutboundHTTPResponse
    {
        let target = try request.target()
        let bytes = try request.serialized(for: target, keepAlive: configuration.maxIdleConnectionsPerHost > 0)
        guard !addresses.isEmpty else { throw OutboundHTTPError(.invalidRequest, "no address to connect to for \(target.host)") }
        let cancel = try CancelSignal()
        let exchange = Exchange(
            target: target, bytes: bytes, addresses: addresses, configuration: configuration, tls: tls,
            pool: pool, cancel: cancel, bodyless: request.method.uppercased() == "HEAD")
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<OutboundHTTPResponse, OutboundHTTPError>, Never>) in
                let thread = Thread { continuation.resume(returning: exchange.run()) }
                thread.stackSize = 1 << 20
                thread.start()
            }
        } onCancel: {
            cancel.fire()
        }
        return try result.get()
    }

    /// Sends `request` to the addresses its host resolves to with the system resolver (or to its
    /// IP literal). Callers that must check where a request goes resolve and check first, then
    /// call ``send(_:to:)``.
    public func send(_ request: OutboundHTTPRequest) async throws(OutboundHTTPError) -> OutboundHTTPResponse {
        let host = try request.target().host
        let addresses =
            if let literal = IPAddress(hostLiteral: host) { [literal] } else { try await SystemResolver.addresses(of: host) }
        return try await send(request, to: addresses)
    }
}
