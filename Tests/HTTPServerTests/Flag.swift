import Synchronization

/// A one-shot signal a handler raises so the test knows the request is in flight.
final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }

    /// Waits (bounded) for the flag; returns whether it was raised.
    func wait(timeout: Duration = .seconds(5)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !raised.load(ordering: .acquiring) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
        return raised.load(ordering: .acquiring)
    }
}
