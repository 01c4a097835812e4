import Foundation
import HTTPServer
import Observability

/// Counts requests by route template and status and records their latency.
struct RequestMetrics: Sendable {
    let registry: MetricsRegistry

    var middleware: Middleware {
        { [registry] request, next in
            let started = ContinuousClock.now
            func record(_ status: Int) {
                let elapsed = ContinuousClock.now - started
                let route = request.route ?? "unmatched"
                let seconds = elapsed / .seconds(1)
                registry.increment("http_requests_total", help: "HTTP requests by route template and status.",
                                   labels: ["method": request.method.rawValue, "route": route, "status": String(status)])
                registry.observe("http_request_duration_seconds", help: "HTTP request latency by route template.",
                                 labels: ["method": request.method.rawValue, "route": route], value: seconds)
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
