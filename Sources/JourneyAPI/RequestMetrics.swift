import Foundation
import HTTPServer
import Observability

/// Counts requests by route template and status and records their latency.
///
/// Labels stay bounded whatever clients send: unmatched paths count as `unmatched` and methods
/// other than the standard ones as `other`.
struct RequestMetrics: Sendable {
    let registry: MetricsRegistry

    /// The standard methods (RFC 9110 and PATCH), counted by name.
    static let namedMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"]

    /// The method's label: its name when standard, otherwise `other`.
    static func methodLabel(_ method: HTTPMethod) -> String {
        namedMethods.contains(method.rawValue) ? method.rawValue : "other"
    }

    var middleware: Middleware {
        { [registry] request, next in
            let started = ContinuousClock.now
            func record(_ status: Int) {
                let elapsed = ContinuousClock.now - started
                let route = request.route ?? "unmatched"
                let seconds = elapsed / .seconds(1)
                let method = Self.methodLabel(request.method)
                registry.increment(
                    "http_requests_total", help: "HTTP requests by route template and status.",
                    labels: ["method": method, "route": route, "status": String(status)])
                registry.observe(
                    "http_request_duration_seconds", help: "HTTP request latency by route template.",
                    labels: ["method": method, "route": route], value: seconds)
            }
            do {
                let response = try await next(request)
                record(response.status.code)
                return response
            } catch let problem as Problem {
                record(problem.status.code)
                return problem.response
            } catch {
                record(500)
                throw error
            }
        }
    }
}
