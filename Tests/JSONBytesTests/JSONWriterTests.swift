import Foundation
import JSONBytes
import Testing

/// `JSONWriter` against `JSONEncoder` (slashes unescaped), plain and escaped for `COPY` text.
@Suite("JSON writer")
struct JSONWriterTests {
    static func encoded<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static let strings = [
        "plain", "", "q\"uote", "back\\slash", "a/b", "new\nline", "ret\rurn", "t\tab", "\u{0}\u{1}\u{8}\u{C}\u{1F}\u{7F}",
        "ação 中文 😀",
    ]

    @Test(arguments: strings)
    func stringsAreEscapedAsJSONEncoderEscapesThem(_ value: String) throws {
        var json = JSONWriter(copyEscaped: false)
        json.string(value)
        let written = String(decoding: json.bytes, as: UTF8.self)
        #expect(try JSONDecoder().decode(String.self, from: Data(json.bytes)) == value)
        if !value.unicodeScalars.contains(where: { $0.value == 0x08 || $0.value == 0x0C }) {
            #expect(written == (try Self.encoded(value)))
        }
    }

    @Test(arguments: strings)
    func copyEscapingWritesEachBackslashTwice(_ value: String) {
        var plain = JSONWriter(copyEscaped: false), copy = JSONWriter(copyEscaped: true)
        plain.string(value)
        copy.string(value)
        let doubled = plain.bytes.flatMap { $0 == UInt8(ascii: "\\") ? [$0, $0] : [$0] }
        #expect(copy.bytes == doubled)
    }

    @Test func containersNumbersAndLiteralsAreJSONEncodersText() throws {
        struct Sample: Encodable {
            let a: Int, b: [Double], c: Bool, d: [String: Int]
        }
        let sample = Sample(a: -9_223_372_036_854_775_808, b: [0, -0.0, 1.5, 1e15, 1e-7, 123_456.789, 2], c: true, d: ["k": 0])
        var json = JSONWriter(copyEscaped: false)
        json.beginObject()
        json.key("a"); json.int(sample.a)
        json.key("b"); json.beginArray()
        for value in sample.b {
            json.element()
            try json.double(value)
        }
        json.endArray()
        json.key("c"); json.bool(sample.c)
        json.key("d"); json.beginObject(); json.key("k"); json.int(0); json.endObject()
        json.endObject()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: try encoder.encode(sample), as: UTF8.self))
    }

    @Test func nonFiniteNumbersAreRefused() {
        for value in [Double.nan, .infinity, -.infinity] {
            var json = JSONWriter(copyEscaped: false)
            #expect(throws: JSONWriteError.self) { try json.double(value) }
        }
    }
}
