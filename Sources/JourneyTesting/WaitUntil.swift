/// Returns once `condition` holds, checking it again and again (every 1 ms at first, backing off
/// to every 50 ms, so a slow condition such as a query is not asked in a tight loop).
///
/// Tests wait for a state, never for time to pass; `limit` only turns a hang into a failure
/// (``ConditionNeverHeld`` naming `what` and the caller's line) and is no timing under test. The
/// condition runs on the caller's actor.
public func waitUntil(
    _ what: String, limit: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line, _ condition: () async throws -> Bool
) async throws {
    _ = try await waitFor(what, limit: limit, isolation: isolation, fileID: fileID, line: line) {
        try await condition() ? true : nil
    }
}

/// Returns `value`'s first non-nil answer, asking as ``waitUntil(_:limit:isolation:fileID:line:_:)`` does.
public func waitFor<Value>(
    _ what: String, limit: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line, _ value: () async throws -> Value?
) async throws -> Value {
    let deadline = ContinuousClock.now + limit
    var pause = Duration.milliseconds(1)
    while true {
        if let found = try await value() { return found }
        guard ContinuousClock.now < deadline else {
            throw ConditionNeverHeld(what: what, limit: limit, fileID: fileID, line: line)
        }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(50))
    }
}

/// A condition a test waited for did not come true within the bound for a hang.
public struct ConditionNeverHeld: Error, CustomStringConvertible {
    public let what: String
    public let limit: Duration
    public let fileID: String
    public let line: Int

    public var description: String { "\(fileID):\(line): never true within \(limit): \(what)" }
}
