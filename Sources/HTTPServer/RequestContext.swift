import Foundation
import Synchronization

/// Per-request state kept in libmicrohttpd's `con_cls` slot from the first callback to completion.
///
/// Everything except `outcome` is touched only by the MHD thread that owns the connection; the
/// handler task hands its result over through `outcome`.
final class RequestContext: @unchecked Sendable {
    enum Phase {
        /// Headers seen, body (if any) arriving.
        case receiving
        /// The connection is suspended while the handler task runs.
        case handling
        /// A response has been queued.
        case responded
    }

    let started: ContinuousClock.Instant
    let method: HTTPMethod
    var phase: Phase = .receiving
    var body = Data()
    /// Set once the body exceeded the limit; further chunks are counted and dropped.
    var overflowed = false
    var discardedBytes = 0
    var requestID = ""
    var route: String?
    var errorType: String?
    /// Status and body size of the queued response, for the access log.
    var sent: (status: HTTPStatus, bytes: Int)?
    /// Written by the handler task before it resumes the connection.
    let outcome = Mutex<Router.Outcome?>(nil)

    init(method: HTTPMethod, started: ContinuousClock.Instant) {
        self.method = method
        self.started = started
    }
}
