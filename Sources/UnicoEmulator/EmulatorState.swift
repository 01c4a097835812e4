import Foundation

/// Everything the emulator remembers; lives behind one `Mutex` in `EmulatorCore`.
struct EmulatorState: Sendable {
    /// An issued access token, stored under the SHA-256 of the token.
    struct AccessGrant: Sendable {
        var tenantID: String
        var environment: UnicoEmulator.Environment
        var expiresAt: Date
    }

    /// A capture prepared through the SDK-facing endpoint.
    struct Capture: Sendable {
        var processID: String
        var finished: Bool
    }

    var processes: [String: UnicoEmulator.ProcessRecord] = [:]
    /// Process ids in creation order.
    var processOrder: [String] = []
    /// No process still `created` expires before this (a process's `expiresAt` never changes), so
    /// the expiry pass skips the scan over every process until then.
    var nextExpiry = Date.distantFuture
    var accessTokens: [String: AccessGrant] = [:]
    /// SHA-256 of used assertions, kept until their `exp`.
    var usedAssertions: [String: Date] = [:]
    var buckets: [String: TokenBucket] = [:]
    var captures: [String: Capture] = [:]

    /// Records an assertion as used; false if it was used before and has not expired yet.
    mutating func useAssertion(hash: String, expiresAt: Date, now: Date) -> Bool {
        usedAssertions = usedAssertions.filter { $0.value > now }
        guard usedAssertions[hash] == nil else { return false }
        usedAssertions[hash] = expiresAt
        return true
    }

    /// The grant for an access-token hash, if it exists and has not expired; drops expired grants.
    mutating func grant(forTokenHash hash: String, now: Date) -> AccessGrant? {
        guard let grant = accessTokens[hash] else { return nil }
        guard grant.expiresAt > now else {
            accessTokens[hash] = nil
            return nil
        }
        return grant
    }

    /// Expires every overdue process; returns those that just finished.
    mutating func expireDueProcesses(now: Date) -> [UnicoEmulator.ProcessRecord] {
        guard now >= nextExpiry else { return [] }
        var finished: [UnicoEmulator.ProcessRecord] = []
        var next = Date.distantFuture
        for id in processOrder where processes[id]?.state == .created {
            if processes[id]?.expireIfDue(now: now) == true, let process = processes[id] {
                finished.append(process)
            } else if let process = processes[id] {
                next = min(next, process.expiresAt)
            }
        }
        nextExpiry = next
        return finished
    }

    /// Records a newly created process.
    mutating func add(_ process: UnicoEmulator.ProcessRecord) {
        processes[process.id] = process
        processOrder.append(process.id)
        if process.state == .created { nextExpiry = min(nextExpiry, process.expiresAt) }
    }
}
