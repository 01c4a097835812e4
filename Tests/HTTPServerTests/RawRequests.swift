import Foundation

/// Runs blocking socket work on a thread of its own.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// Sends `request` on a fresh connection and reads one response.
func rawRequest(port: Int, _ request: String, timeout: Duration = .seconds(5)) async throws -> RawResponse {
    try await onThread {
        let socket = try RawSocket(port: port, timeout: timeout)
        try socket.send(request)
        return try socket.readResponse()
    }
}

/// A simple request with `Connection: close`.
func rawRequest(
    port: Int, _ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil,
    timeout: Duration = .seconds(5)
) async throws -> RawResponse {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
    text += "\r\n" + (body ?? "")
    return try await rawRequest(port: port, text, timeout: timeout)
}
