import Foundation
import Lifecycle
import Synchronization

/// What the test services did, in order (`start a`, `stop a`).
final class Journal: Sendable {
    private let entries = Mutex<[String]>([])
    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
    var stops: [String] { all.filter { $0.hasPrefix("stop ") } }
    func started(_ names: String...) -> Bool { names.allSatisfy { all.contains("start \($0)") } }
}

/// Runs until cancelled, recording its start and stop.
struct WaitingService: Service {
    let name: String
    let journal: Journal
    func run() async throws {
        journal.record("start \(name)")
        await gracefulShutdown()
        journal.record("stop \(name)")
    }
}

/// Throws once started.
struct FailingService: Service {
    struct Failure: Error, Equatable { let code: String }
    let name: String
    let journal: Journal
    func run() async throws {
        journal.record("start \(name)")
        throw Failure(code: "boom")
    }
}

/// Returns at once.
struct ShortService: Service {
    let name: String
    let journal: Journal
    func run() async throws { journal.record("start \(name)") }
}

/// Ignores cancellation: ends only when released.
final class StuckService: Service {
    private let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let released = Mutex(false)
    let journal: Journal
    init(journal: Journal) { self.journal = journal }

    func run() async throws {
        journal.record("start stuck")
        await withCheckedContinuation { continuation in
            let now = released.withLock { $0 }
            if now { continuation.resume() } else { release.withLock { $0 = continuation } }
        }
        journal.record("stop stuck")
    }

    func unblock() {
        released.withLock { $0 = true }
        release.withLock { $0.take() }?.resume()
    }
}
