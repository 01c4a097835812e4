import Synchronization

/// The routes the emulator matched, in order.
final class RequestLog: Sendable {
    private let routes = Mutex<[String]>([])

    func record(_ route: String?) {
        routes.withLock { $0.append(route ?? "<unmatched>") }
    }

    /// How many requests reached `POST /sdk/captures` or its finish.
    var captureRequests: Int {
        routes.withLock { $0.filter { $0.hasPrefix("/sdk/") }.count }
    }
}
