import AccessControl
import Foundation
@testable import JourneyAPI
import JourneyTesting
import SDKLiteSimulator
import Testing

/// The backend guide's examples (`JourneyAPI.docc/BackendExamples.md`) are real answers: one
/// request per route, sent to a service with the emulator; ids, times and tokens are replaced by
/// stable placeholders. The test fails when the file is stale; `ops/regenerate-openapi.sh` rewrites it.
@Suite struct BackendGuideExampleTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/JourneyAPI/JourneyAPI.docc/BackendExamples.md")

    @Test func theGuideExamplesAreTheServiceAnswers() async throws {
        try await withJourneys { h in
            var book = ExampleBook()
            let admin = try await APIKeyStore(client: h.database.app)
                .create(name: "privacy", scopes: [.subjectsAdmin, .humanTokenRead]).plaintext
            let body = JourneyHarness.startBody()
            let started = try await book.record(
                h, "Start a journey", "POST", "/v1/journeys", bearer: h.writer,
                headers: ["Idempotency-Key": "order-42-start"], json: body)
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            let webAppToken = try #require(started["webAppToken"] as? String)
            try await book.record(
                h, "The app opens the capture", "POST", "/v1/journeys/\(id)/capture-opened",
                bearer: clientToken, json: ["attempt": 1])
            let outcome = await SimulatedDevice(emulatorURL: h.emulatorURL).run(
                webAppToken: webAppToken, environment: .UAT,
                user: .approve)
            let processID = try #require(outcome.processId)
            try await book.record(
                h, "The app reports onSuccess", "POST", "/v1/journeys/\(id)/callback",
                bearer: clientToken, json: ["outcome": "success", "processId": processID, "attempt": 1])
            try await book.record(h, "Read a journey", "GET", "/v1/journeys/\(id)", bearer: h.reader)
            try await book.record(
                h, "The Human Token", "GET", "/v1/journeys/\(id)/human-token", bearer: h.reader,
                headers: ["Disclosure-Purpose": "credit analysis of order 42"])
            try await book.record(h, "The audit trail", "GET", "/v1/journeys/\(id)/events", bearer: h.reader)
            try await book.record(h, "List journeys", "GET", "/v1/journeys?clientReference=order-42&limit=10", bearer: h.reader)
            try await book.record(
                h, "Pull the steps", "GET", "/v1/events?after=0&types=journey.completed&limit=10",
                bearer: h.reader)

            let second = try await h.start(
                JourneyHarness.startBody {
                    $0["createProcess"] = nil; $0["clientReference"] = "order-43"
                })
            let secondID = try #require(second["journeyId"] as? String)
            let secondToken = try #require(second["clientToken"] as? String)
            try await book.record(h, "A person who comes back", "POST", "/v1/journeys/\(secondID)/client-token", bearer: h.writer)
            try await book.record(h, "The app asks for a token", "POST", "/v1/journeys/\(secondID)/token", bearer: secondToken)
            try await book.record(
                h, "The link, for an app without the SDK", "GET", "/v1/journeys/\(secondID)/link",
                bearer: secondToken)
            try await book.record(
                h, "The app reports a drop-off", "POST", "/v1/journeys/\(secondID)/callback",
                bearer: secondToken, json: ["outcome": "closedByUser"])
            try await book.record(
                h, "Cancel a journey", "POST", "/v1/journeys/\(secondID)/cancel", bearer: h.writer,
                json: ["reason": "order 43 withdrawn by the customer"])
            let found = try await book.record(
                h, "Find a data subject", "GET", "/v1/subjects?document=12345678909",
                bearer: admin)
            let reference = try #require(found["subjectReference"] as? String)
            try await book.record(
                h, "Erase a data subject", "DELETE", "/v1/subjects/\(reference)", bearer: admin,
                json: ["reason": "data subject request"])
            try await book.record(
                h, "A bad request", "POST", "/v1/journeys", bearer: h.writer,
                json: JourneyHarness.startBody { $0["purpose"] = "marketing" })

            let text = book.markdown
            if ProcessInfo.processInfo.environment["JOURNEYS_REGENERATE_OPENAPI"] == "1" {
                try Data(text.utf8).write(to: Self.file)
            }
            let stored = (try? String(contentsOf: Self.file, encoding: .utf8)) ?? ""
            #expect(stored == text, "\(Self.file.path) is stale: run ops/regenerate-openapi.sh and commit it")
        }
    }
}

/// Requests and their answers, written as the guide shows them.
struct ExampleBook {
    private var sections: [String] = []
    private var placeholders: [String: String] = [:]

    @discardableResult
    mutating func record(
        _ h: JourneyHarness, _ title: String, _ method: String, _ path: String, bearer: String,
        headers: [String: String] = [:], json: [String: Any]? = nil
    ) async throws -> TestResponse {
        let answer = try await h.send(method, path, bearer: bearer, headers: headers, json: json)
        var request = [
            "\(method) \(stable(path))", "Authorization: Bearer \(bearer.hasPrefix("jk_") ? "jk_…" : "<clientToken>")",
        ]
        request += headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        if let json { request += ["Content-Type: application/json", "", render(json)] }
        var response = ["\(answer.status)"]
        for name in ["content-type", "cache-control"] {
            if let value = answer.headers[name] { response.append("\(name): \(value)") }
        }
        if let object = try? JSONSerialization.jsonObject(with: answer.body) { response += ["", render(object)] }
        sections.append(
            "## \(title)\n\n```\n\(request.joined(separator: "\n"))\n```\n\n```\n\(response.joined(separator: "\n"))\n```\n")
        return answer
    }

    var markdown: String {
        """
        # Example requests and answers

        Generated by `BackendGuideExampleTests` from the service's real answers (`ops/regenerate-openapi.sh`
        rewrites this file; do not edit it). Ids, times, tokens and hashes are replaced by placeholders;
        arrays longer than two items show their first two.

        \(sections.joined(separator: "\n"))
        """
    }

    private func render(_ object: Any) -> String {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: abridged(object),
                options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return stable(String(decoding: data, as: UTF8.self))
    }

    /// Volatile members replaced, long arrays cut to two items.
    private func abridged(_ value: Any, key: String = "") -> Any {
        let opaque: Set = ["clientToken", "webAppToken", "humanToken", "hash", "previousHash", "link", "nextCursor", "data"]
        if let object = value as? [String: Any] {
            return Dictionary(
                uniqueKeysWithValues: object.map { member -> (String, Any) in
                    if opaque.contains(member.key), key == "events" || member.key != "data" {
                        return (member.key, "<\(member.key)>")
                    }
                    return (member.key, abridged(member.value, key: member.key))
                })
        }
        if let array = value as? [Any] { return array.prefix(2).map { abridged($0, key: key) } }
        return value
    }

    /// Ids, times, 64-hex references and numbers that change between runs made stable.
    private func stable(_ text: String) -> String {
        var text = text
        let patterns = [
            ("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>"),
            ("\\b[0-9a-f]{64}\\b", "<subjectReference>"),
            ("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z", "2026-12-05T12:00:00Z"),
            ("\"(position|nextAfter|version)\" : [0-9]+", "\"$1\" : 1"),
        ]
        for (pattern, replacement) in patterns {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }
}
