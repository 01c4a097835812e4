import Foundation
import HTTPServer

/// Optional bearer authentication of `/metrics` (`JOURNEYS_METRICS_TOKEN`): without a token the
/// endpoint is open; with one, a request without `Authorization: Bearer <token>` gets a 401
/// `metrics_unauthorized` problem.
struct MetricsAccess: Sendable {
    let token: String?

    /// Throws the 401 problem unless the request carries the token (or none is required).
    func check(_ request: HTTPRequest) throws {
        guard let token, !token.isEmpty else { return }
        let given = request.headers["Authorization"].flatMap { value -> String? in
            let parts = value.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
        guard let given, Self.equal(Array(given.utf8), Array(token.utf8)) else {
            throw Problem(
                status: .unauthorized, code: "metrics_unauthorized",
                detail: "/metrics needs Authorization: Bearer with the configured metrics token.",
                headers: ["WWW-Authenticate": #"Bearer realm="metrics""#])
        }
    }

    /// Compares without stopping at the first difference.
    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0 && a.count == b.count
    }
}
