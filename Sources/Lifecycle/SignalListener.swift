import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls back on each of `signals` until stopped, through dispatch signal sources.
///
/// A signal still at its default action is set to `SIG_IGN` first, so it cannot end the process
/// before the source is armed; one that already has a handler (the CLI's own sources, which on
/// Linux install dispatch's handler) is left alone, since ignoring it then would swallow it. The
/// default comes back once the last listener's source is cancelled.
final class SignalListener {
    private let sources: [any DispatchSourceSignal]

    init(_ signals: [UnixSignal], handler: @escaping @Sendable (UnixSignal) -> Void) {
        self.sources = signals.map { unixSignal in
            SignalDispositions.hold(unixSignal.rawValue)
            let source = DispatchSource.makeSignalSource(signal: unixSignal.rawValue, queue: .global())
            source.setEventHandler { handler(unixSignal) }
            source.setCancelHandler { SignalDispositions.release(unixSignal.rawValue) }
            source.resume()
            return source
        }
    }

    func stop() {
        for source in sources { source.cancel() }
    }
}

/// Process-wide count of listeners per signal, so concurrent groups (tests) share one disposition.
private enum SignalDispositions {
    private struct Held {
        var count: Int
        /// Whether the first holder changed the default action to `SIG_IGN`.
        var ignoredDefault: Bool
    }

    private static let held = Mutex<[Int32: Held]>([:])

    static func hold(_ number: Int32) {
        held.withLock { held in
            if held[number] != nil {
                held[number]!.count += 1
                return
            }
            let atDefault = isDefault(number)
            if atDefault { signal(number, SIG_IGN) }
            held[number] = Held(count: 1, ignoredDefault: atDefault)
        }
    }

    static func release(_ number: Int32) {
        held.withLock { held in
            guard var entry = held[number] else { return }
            entry.count -= 1
            if entry.count > 0 {
                held[number] = entry
                return
            }
            held[number] = nil
            if entry.ignoredDefault { signal(number, SIG_DFL) }
        }
    }

    /// Whether `number` still has its default action.
    private static func isDefault(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
        return current.__sigaction_handler.sa_handler == nil
        #else
        return current.__sigaction_u.__sa_handler == nil
        #endif
    }
}
