/// Returns once `condition` holds, checking every few milliseconds.
///
/// Tests wait for a state, never for time to pass; `limit` only turns a hang into a failure
/// (``ConditionNeverHeld`` naming `what`) and is no timing under test.
public func waitUntil(
    _ what: String, limit: Duration = .seconds(60), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw ConditionNeverHeld(what: what, limit: limit) }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// A condition a test waited for did not come true within the bound for a hang.
public struct ConditionNeverHeld: Error, CustomStringConvertible {
    public let what: String
    public let limit: Duration

    public var description: String { "never true within \(limit): \(what)" }
}
