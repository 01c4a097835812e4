import Foundation
@testable import JourneyBenchmarks
import Testing

/// The e2e bench's prepared start body is the JSON of its dictionary form.
@Suite struct StartBodyTests {
    @Test(arguments: [true, false])
    func thePreparedBodyIsTheDictionarysJSON(processNow: Bool) throws {
        let bytes = EndToEndBenchmark.startBodyBytes(processNow: processNow)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let expected = EndToEndBenchmark.startBody(processNow: processNow)
        let document = try #require((decoded["subject"] as? [String: Any])?["documentNumber"] as? String)
        #expect(document.count == 11 && document.allSatisfy(\.isNumber))
        #expect(NSDictionary(dictionary: Self.withoutDocument(decoded)).isEqual(to: Self.withoutDocument(expected)))
    }

    static func withoutDocument(_ body: [String: Any]) -> [String: Any] {
        var body = body
        var subject = body["subject"] as? [String: Any] ?? [:]
        subject["documentNumber"] = nil
        body["subject"] = subject
        return body
    }
}
