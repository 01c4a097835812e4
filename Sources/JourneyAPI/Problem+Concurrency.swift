import EventStore
import HTTPServer

/// The problem for a journey's stream that other requests kept moving.
extension Problem {
    /// 409 `concurrent_update` with `Retry-After: 1`: other requests for the journey kept moving its
    /// stream while this one retried, and the command runner's tries ran out; nothing of this
    /// request was written, so sending it again is safe.
    static func concurrentUpdate() -> Problem {
        Problem(
            status: .conflict, code: "concurrent_update",
            detail: "Other requests changed the journey at the same time; retry shortly.",
            headers: ["Retry-After": "1"])
    }

    /// ``concurrentUpdate()`` for a version conflict that outlasted the retries
    /// (`wrong_expected_version`, `order_conflict`); nil for any other error.
    static func versionConflict(_ error: any Error) -> Problem? {
        guard let error = error as? EventStoreError,
            error.code == .wrongExpectedVersion || error.code == .orderConflict
        else { return nil }
        return .concurrentUpdate()
    }
}
