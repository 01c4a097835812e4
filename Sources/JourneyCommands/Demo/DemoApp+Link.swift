import Foundation
import JourneyDomain
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DemoApp {
    /// `POST /v1/journeys` with `"delivery": "link"`: the start makes the process and Unico sends
    /// the person its link (SMS); the journey lives as long as the link. Its id and client token.
    func startLink(_ label: String) async throws -> (String, String)? {
        let (status, json) = try await api.call(
            "POST", "v1/journeys", bearer: key,
            body: [
                "subject": [
                    "documentType": "DUI_TYPE_BR_CPF", "documentNumber": CheckDigits.randomCPF(), "name": "Demo Person",
                    "phone": "+5511987654321", "notificationChannels": ["NOTIFICATION_CHANNEL_SMS"],
                ],
                "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "delivery": "link",
            ], headers: ["Idempotency-Key": UUID().uuidString])
        guard status == 201, let id = json["journeyId"] as? String, let client = json["clientToken"] as? String else {
            log("\(label): start answered \(status) \(json["code"] ?? "")")
            return nil
        }
        return (id, client)
    }

    /// The person opens the link: the app hands it out (`GET …/link`, recorded as the capture's
    /// opening), the person captures through it at Unico and is approved; the app reports nothing,
    /// Unico's webhook tells the service. The process id, or nil (logged) when refused.
    func captureThroughLink(_ journeyID: String, clientToken: String, label: String) async throws -> String? {
        let (status, json) = try await api.call("GET", "v1/journeys/\(journeyID)/link", bearer: clientToken)
        guard status == 200, let link = (json["link"] as? String).flatMap(URL.init(string:)) else {
            log("\(label): link request answered \(status) \(json["code"] ?? "")")
            return nil
        }
        var request = URLRequest(url: link.appendingPathComponent("captures"))
        request.httpMethod = "POST"
        let (data, response) = try await URLSession.shared.data(for: request)
        let capture = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        guard (response as? HTTPURLResponse)?.statusCode == 201, let captureID = capture["captureId"] as? String,
            let processID = capture["processId"] as? String
        else {
            log("\(label): the emulator did not open the capture through the link")
            return nil
        }
        let (finished, _) = try await sdkPost("sdk/captures/\(captureID)/finish", ["outcome": "approved"])
        guard finished == 200 else {
            log("\(label): the emulator did not finish the capture (\(finished))")
            return nil
        }
        return processID
    }
}
