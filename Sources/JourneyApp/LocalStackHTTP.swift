import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP calls to the local stack's service, as the company's backend and the app would make
/// them (the demo and `bench e2e`).
public struct LocalStackHTTP: Sendable {
    public let baseURL: URL

    public init(baseURL: URL) {
        self.baseURL = baseURL
    }

    /// Sends JSON (or nothing) and returns the status and the decoded JSON object.
    public func call(
        _ method: String, _ path: String, bearer: String, body: [String: Any]? = nil,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, json)
    }
}
