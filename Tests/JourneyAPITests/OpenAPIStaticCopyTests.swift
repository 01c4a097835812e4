import Foundation
@testable import JourneyAPI
import JourneyTesting
import Testing

/// The repository's copy of the OpenAPI document (for generated clients and readers without a
/// running server) equals what `serve` publishes at `/openapi.json`. Regenerate it with
/// `ops/regenerate-openapi.sh`.
@Suite struct OpenAPIStaticCopyTests {
    static let copy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/JourneyAPI/JourneyAPI.docc/Resources/openapi.json")

    /// The document as the copy stores it: sorted keys, indented, slashes unescaped, a final newline.
    static func pretty(_ json: Data) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: json)
        var data = try JSONSerialization.data(
            withJSONObject: object,
            options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        data.append(0x0A)
        return data
    }

    @Test func theStaticCopyIsWhatServePublishes() async throws {
        try await TestDatabase.with { db in
            try await withService(db.app) { client, _ in
                let served = try await get(client, "/openapi.json")
                #expect(served.status == 200)
                let expected = try Self.pretty(served.body)
                if ProcessInfo.processInfo.environment["JOURNEYS_REGENERATE_OPENAPI"] == "1" {
                    try expected.write(to: Self.copy)
                }
                let stored = try? Data(contentsOf: Self.copy)
                #expect(
                    stored == expected,
                    """
                    \(Self.copy.path) differs from the served /openapi.json: run ops/regenerate-openapi.sh and commit it
                    """)
            }
        }
    }
}
