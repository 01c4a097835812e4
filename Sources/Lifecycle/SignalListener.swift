import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
private typealias sighandler_t = sig_t
#endif

/// Calls back on each of `signals` until stopped. The signals are ignored by default action
/// (`SIG_IGN`) while any listener holds them, so they reach the dispatch sources instead of
/// ending the process; the previous disposition comes back when the last listener stops.
final class SignalListener {
    private let signals: [UnixSignal]
    private let sources: [any DispatchSourceSignal]

    init(_ signals: [UnixSignal], handler: @escaping @Sendable (UnixSignal) -> Void) {
        self.signals = signals
        self.sources = signals.map { unixSignal in
            SignalDispositions.hold(unixSignal.rawValue)
            let source = DispatchSource.makeSignalSource(signal: unixSignal.rawValue, queue: .global())
            source.setEventHandler { handler(unixSignal) }
            source.resume()
            return source
        }
    }

    func stop() {
        for source in sources { source.cancel() }
        for unixSignal in signals { SignalDispositions.release(unixSignal.rawValue) }
    }
}

/// Process-wide count of listeners per signal, so concurrent groups (tests) share `SIG_IGN`.
private enum SignalDispositions {
    private struct Held {
        var count: Int
        var previous: sighandler_t?
    }

    private static let held = Mutex<[Int32: Held]>([:])

    static func hold(_ number: Int32) {
        held.withLock { held in
            if held[number] != nil {
                held[number]!.count += 1
            } else {
                held[number] = Held(count: 1, previous: signal(number, SIG_IGN))
            }
        }
    }

    static func release(_ number: Int32) {
        held.withLock { held in
            guard var entry = held[number] else { return }
            entry.count -= 1
            if entry.count > 0 {
                held[number] = entry
            } else {
                held[number] = nil
                signal(number, entry.previous)
            }
        }
    }
}
