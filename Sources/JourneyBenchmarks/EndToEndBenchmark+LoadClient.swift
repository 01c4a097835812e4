import Foundation
import Synchronization

extension EndToEndBenchmark {
    /// The bench's load client: one keep-alive HTTP/1.1 connection per caller on a thread of its
    /// own, blocking socket calls, no URLSession. Like wrk, it costs little CPU, so the service,
    /// the emulator and PostgreSQL get the cores; FoundationNetworking's client in this process
    /// cost about as much CPU per start as the service's handler.
    struct LoadClient: Sendable {
        /// One request as it goes on the wire (the connection adds `Host` and `Content-Length`).
        struct Request: Sendable {
            var method: String
            var path: String
            var headers: [(String, String)]
            var body: [UInt8]
        }

        let port: UInt16

        /// `callers` threads each send `request()` and read the answer until `deadline`; returns the
        /// latencies (s) of answers with status `expected` and the count of the others.
        func run(
            callers: Int, until deadline: ContinuousClock.Instant, expected: Int,
            request: @escaping @Sendable () -> Request
        ) async -> (durations: [Double], failures: Int) {
            await withCheckedContinuation { (continuation: CheckedContinuation<([Double], Int), Never>) in
                let collected = Mutex<(durations: [Double], failures: Int, left: Int)>(([], 0, callers))
                for _ in 0..<callers {
                    let thread = Thread { [port] in
                        var connection = LoopbackConnection(port: port)
                        var durations: [Double] = []
                        var failures = 0
                        while ContinuousClock.now < deadline {
                            let begin = ContinuousClock.now
                            if (try? connection.exchange(request())) == expected {
                                durations.append((ContinuousClock.now - begin) / .seconds(1))
                            } else {
                                failures += 1
                            }
                        }
                        connection.close()
                        let done = collected.withLock { state -> ([Double], Int)? in
                            state.durations += durations
                            state.failures += failures
                            state.left -= 1
                            return state.left == 0 ? (state.durations, state.failures) : nil
                        }
                        if let done { continuation.resume(returning: done) }
                    }
                    thread.stackSize = 1 << 20
                    thread.start()
                }
            }
        }
    }
}
