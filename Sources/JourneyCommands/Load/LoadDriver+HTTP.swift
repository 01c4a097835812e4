import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension LoadDriver {
    /// One answer: its status (0 without one), problem `code` and `journeyId`.
    struct Answer: Sendable {
        var status: Int
        var code: String?
        var journeyID: String?
    }

    /// Sends one `POST /v1/journeys` attempt of `key`; a transport failure is status 0 with its kind as `code`.
    func send(key: String, body: Data, session: URLSession) async -> Answer {
        var request = URLRequest(
            url: configuration.baseURL.appendingPathComponent("v1/journeys"),
            timeoutInterval: configuration.requestTimeout)
        request.httpMethod = "POST"
        request.setValue("Bearer \(configuration.apiKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = body
        do {
            let (data, response) = try await session.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            return Answer(status: status, code: json["code"] as? String, journeyID: json["journeyId"] as? String)
        } catch let error as URLError {
            return Answer(status: 0, code: error.code == .timedOut ? "timed_out" : "transport_\(error.code.rawValue)")
        } catch {
            return Answer(status: 0, code: "transport_failed")
        }
    }
}
