import CMicroHTTPD
import Foundation
import Synchronization

/// The target of libmicrohttpd's callbacks: collects each request, runs the router in a task while
/// the connection is suspended, and queues the response when MHD calls back after the resume.
///
/// MHD threads never wait on Swift code. `registry` serialises suspend, resume and shutdown so that
/// a connection is resumed exactly once and never after the daemon began to stop.
final class RequestDispatcher: Sendable {
    /// A suspended connection; the handle is only used under the registry lock.
    private struct Suspended: @unchecked Sendable {
        let connection: OpaquePointer
        var task: Task<Void, Never>?
    }

    private struct Registry {
        var stopping = false
        var suspended: [ObjectIdentifier: Suspended] = [:]
    }

    private let router: Router
    private let accessLog: @Sendable (AccessLogEntry) -> Void
    private let makeRequestID: @Sendable () -> String
    private let maxBodySize: Int
    private let maxHeaderSize: Int
    /// Bytes still read and dropped after an over-limit streamed body before the connection is cut.
    private let discardAllowance: Int
    /// Deadlines for request heads and bodies; nil when they are off.
    let deadlines: RequestDeadlines?
    /// The per-address connection limit; nil when it is off.
    let addressLimit: ConnectionsPerAddress?
    private let registry = Mutex(Registry())
    private let inFlightCount = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)

    init(
        router: Router,
        maxBodySize: Int,
        maxHeaderSize: Int,
        deadlines: RequestDeadlines? = nil,
        addressLimit: ConnectionsPerAddress? = nil,
        accessLog: @escaping @Sendable (AccessLogEntry) -> Void,
        makeRequestID: @escaping @Sendable () -> String
    ) {
        self.router = router
        self.maxBodySize = maxBodySize
        self.maxHeaderSize = maxHeaderSize
        self.deadlines = deadlines
        self.addressLimit = addressLimit
        self.discardAllowance = max(maxBodySize, 1 << 20)
        self.accessLog = accessLog
        self.makeRequestID = makeRequestID
    }

    /// Requests between their first callback and completion.
    var inFlight: Int { inFlightCount.load(ordering: .acquiring) }

    /// From now on requests not yet handed to the router get 503, and every response carries
    /// `Connection: close` so keep-alive clients go away.
    func beginDraining() {
        draining.store(true, ordering: .releasing)
    }

    /// Refuses further suspensions and resumes connections whose handlers are still running,
    /// cancelling those handlers; required before `MHD_stop_daemon`.
    func abandonSuspended() {
        registry.withLock { registry in
            registry.stopping = true
            for entry in registry.suspended.values {
                entry.task?.cancel()
                MHD_resume_connection(entry.connection)
            }
            registry.suspended.removeAll()
        }
    }

    // MARK: MHD access handler

    func access(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let connection = MHDConnection(handle: connection)
        guard let raw = slot.pointee else {
            return begin(connection, url: url, method: method, slot: slot)
        }
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        if uploadDataSize.pointee > 0 {
            let count = uploadDataSize.pointee
            uploadDataSize.pointee = 0
            return receive(context, UnsafeRawBufferPointer(start: uploadData, count: count), connection)
        }
        switch context.phase {
        case .receiving:
            deadlines?.bodyReceived(connection.handle)
            if context.overflowed {
                return queue(Problem.payloadTooLarge(limit: maxBodySize).response, context, connection)
            }
            return dispatch(context, url: url, connection)
        case .handling:
            let outcome = context.outcome.withLock { $0.take() }
            guard let outcome else {
                return queue(Problem.serviceUnavailable(detail: "The server is shutting down.").response, context, connection)
            }
            context.route = outcome.route
            context.errorType = outcome.unexpectedError.map { String(reflecting: type(of: $0)) }
            return queue(outcome.response, context, connection)
        case .responded:
            return .YES
        }
    }

    /// First call, headers only: create the context; answer 431 at once for a too-large head and
    /// 413 for a too-large Content-Length.
    private func begin(
        _ connection: MHDConnection,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        deadlines?.headReceived(connection.handle)
        let context = RequestContext(method: HTTPMethod(rawValue: String(cString: method)), started: .now)
        slot.pointee = Unmanaged.passRetained(context).toOpaque()
        inFlightCount.add(1, ordering: .relaxed)
        context.requestID = requestID(from: connection)
        let headSize = connection.headers.reduce(strlen(method) + strlen(url) + 12) {
            $0 + $1.name.utf8.count + $1.value.utf8.count + 4
        }
        if headSize > maxHeaderSize {
            return queue(Problem.headerFieldsTooLarge(limit: maxHeaderSize).response, context, connection)
        }
        if let length = connection.header("Content-Length").flatMap(Int.init), length > maxBodySize {
            context.overflowed = true
            return queue(Problem.payloadTooLarge(limit: maxBodySize).response, context, connection)
        }
        return .YES
    }

    /// Collects a piece of the body. Past the limit the rest is read and dropped so that the 413
    /// goes out once the body ends; past `discardAllowance` as well (a huge chunked body, which
    /// had no Content-Length to refuse up front), the 413 is written straight to the socket and
    /// the connection closed, since MHD cannot queue a response while a body is arriving.
    private func receive(
        _ context: RequestContext, _ chunk: UnsafeRawBufferPointer,
        _ connection: MHDConnection
    ) -> MHD_Result {
        if context.overflowed {
            context.discardedBytes += chunk.count
            guard context.discardedBytes > discardAllowance else { return .YES }
            let response = Problem.payloadTooLarge(limit: maxBodySize).response
            if connection.writeFinal(response, requestID: context.requestID) {
                context.phase = .responded
                context.sent = (response.status, response.body.count)
            }
            return .NO
        }
        if context.body.count + chunk.count > maxBodySize {
            context.overflowed = true
            context.discardedBytes = context.body.count + chunk.count - maxBodySize
            context.body = Data()
        } else {
            context.body.append(contentsOf: chunk)
        }
        return .YES
    }

    /// Suspends the connection and runs the router in a task that resumes it when done.
    private func dispatch(_ context: RequestContext, url: UnsafePointer<CChar>, _ connection: MHDConnection) -> MHD_Result {
        if draining.load(ordering: .acquiring) {
            return queue(Problem.serviceUnavailable(detail: "The server is shutting down.").response, context, connection)
        }
        let request = HTTPRequest(
            method: context.method,
            path: String(cString: url),
            queryItems: connection.queryItems,
            headers: connection.headers,
            body: context.body,
            remoteAddress: connection.remoteAddress,
            requestID: context.requestID
        )
        context.body = Data()
        let key = ObjectIdentifier(context)
        let suspended = registry.withLock { registry in
            guard !registry.stopping else { return false }
            MHD_suspend_connection(connection.handle)
            registry.suspended[key] = Suspended(connection: connection.handle)
            return true
        }
        guard suspended else {
            return queue(Problem.serviceUnavailable(detail: "The server is shutting down.").response, context, connection)
        }
        context.phase = .handling
        let router = router
        let task = Task { [self] in
            let outcome = await router.handle(request)
            context.outcome.withLock { $0 = outcome }
            resume(key)
        }
        registry.withLock { registry in
            registry.suspended[key]?.task = task
        }
        return .YES
    }

    private func resume(_ key: ObjectIdentifier) {
        registry.withLock { registry in
            guard let entry = registry.suspended.removeValue(forKey: key) else { return }
            MHD_resume_connection(entry.connection)
        }
    }

    private func queue(_ response: HTTPResponse, _ context: RequestContext, _ connection: MHDConnection) -> MHD_Result {
        context.phase = .responded
        let body = response.body
        let created = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for field in response.headers where !Self.managedHeaders.contains(field.name.lowercased()) {
            _ = MHD_add_response_header(created, field.name, field.value)
        }
        _ = MHD_add_response_header(created, "X-Request-ID", context.requestID)
        if draining.load(ordering: .acquiring) {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        context.sent = (response.status, body.count)
        return MHD_queue_response(connection.handle, UInt32(clamping: response.status.code), created)
    }

    /// Header fields the server sets itself.
    private static let managedHeaders: Set<String> = ["content-length", "transfer-encoding", "x-request-id", "date"]

    private func requestID(from connection: MHDConnection) -> String {
        if let given = connection.header("X-Request-ID"), Self.isAcceptableRequestID(given) {
            return given
        }
        return makeRequestID()
    }

    /// 1–128 characters from `A-Z a-z 0-9 - _ . :`, so ids are safe to echo and log.
    static func isAcceptableRequestID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                    UInt8(ascii: "."), UInt8(ascii: ":"):
                    true
                default:
                    false
                }
            }
    }

    // MARK: MHD completion callback

    func completed(
        connection: OpaquePointer?, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
        termination: MHD_RequestTerminationCode
    ) {
        if let connection, termination == .REQUEST_TERMINATED_COMPLETED_OK { deadlines?.responded(connection) }
        guard let raw = slot.pointee else { return }
        slot.pointee = nil
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        inFlightCount.subtract(1, ordering: .relaxed)
        if context.phase == .handling {
            let key = ObjectIdentifier(context)
            registry.withLock { registry in
                registry.suspended.removeValue(forKey: key)?.task?.cancel()
            }
        }
        guard let sent = context.sent else { return }
        accessLog(
            AccessLogEntry(
                timestamp: Date(),
                method: context.method,
                route: context.route,
                status: sent.status,
                duration: ContinuousClock.now - context.started,
                bytes: sent.bytes,
                requestID: context.requestID,
                errorType: context.errorType,
                completed: termination == .REQUEST_TERMINATED_COMPLETED_OK
            ))
    }
}
