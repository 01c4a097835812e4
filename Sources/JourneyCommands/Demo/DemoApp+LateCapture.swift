import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DemoApp {
    /// A capture the SDK opened at Unico and the user has not finished yet.
    struct OpenCapture: Sendable {
        let started: Started
        let captureID: String
        let processID: String
    }

    /// Starts a journey and opens its capture before the token expires: the app reports
    /// `capture-opened` and the SDK opens the capture at Unico (`POST /sdk/captures`), unfinished.
    func openCapture(_ label: String) async throws -> OpenCapture? {
        guard let started = try await start(label) else { return nil }
        _ = try await api.call(
            "POST", "v1/journeys/\(started.journeyID)/capture-opened", bearer: started.clientToken,
            body: ["attempt": started.attempt])
        let (status, json) = try await sdkPost("sdk/captures", ["webAppToken": started.webAppToken, "environment": "UAT"])
        guard status == 201, let capture = json["captureId"] as? String, let process = json["processId"] as? String else {
            log("\(label): the emulator did not open the capture (\(status))")
            return nil
        }
        return OpenCapture(started: started, captureID: capture, processID: process)
    }

    /// The user finishes `capture` approved (`POST /sdk/captures/{id}/finish`) and the app posts the
    /// success callback for the capture's attempt, whatever attempt is current by now.
    func finishApproved(_ capture: OpenCapture, label: String) async throws {
        guard try await finishAtUnico(capture, label: label) else { return }
        let started = capture.started
        let (answer, json) = try await api.call(
            "POST", "v1/journeys/\(started.journeyID)/callback", bearer: started.clientToken,
            body: ["outcome": "success", "processId": capture.processID, "attempt": started.attempt])
        if answer != 200 { log("\(label): the success callback answered \(answer) \(json["code"] ?? "")") }
    }

    /// The user finishes `capture` approved at Unico (`POST /sdk/captures/{id}/finish`) and the app
    /// reports nothing: only Unico's webhook tells the service. False (logged) when refused.
    func finishAtUnico(_ capture: OpenCapture, label: String) async throws -> Bool {
        let (status, _) = try await sdkPost("sdk/captures/\(capture.captureID)/finish", ["outcome": "approved"])
        if status != 200 { log("\(label): the emulator did not finish the capture (\(status))") }
        return status == 200
    }

    /// One JSON POST to the emulator's SDK endpoints, as the SDK Lite makes it (no credentials).
    func sdkPost(_ path: String, _ fields: [String: String]) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: unicoURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(fields)
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }
}
