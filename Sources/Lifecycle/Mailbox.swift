import Synchronization

/// An unbounded queue with one reader, whose `next()` ignores cancellation (unlike
/// `AsyncStream`'s), so a group shutting down because it was cancelled still hears its services end.
final class Mailbox<Message: Sendable>: Sendable {
    private struct State {
        var messages: [Message] = []
        var reader: CheckedContinuation<Message, Never>?
    }

    private let state = Mutex(State())

    func post(_ message: Message) {
        let reader = state.withLock { state -> CheckedContinuation<Message, Never>? in
            if let reader = state.reader.take() { return reader }
            state.messages.append(message)
            return nil
        }
        reader?.resume(returning: message)
    }

    func next() async -> Message {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Message? in
                if !state.messages.isEmpty { return state.messages.removeFirst() }
                state.reader = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
