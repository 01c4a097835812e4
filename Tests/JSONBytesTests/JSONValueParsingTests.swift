import Foundation
import JSONBytes
import Testing

/// The one-pass reader gives what `JSONDecoder` gives for `JSONValue`: the same value, or nil
/// where the decoder refuses.
@Suite struct JSONValueParsingTests {
    static let documents: [String] = [
        #"{"id":"2b7c","token":"a.b.c","webAppToken":"x","link":"https://u/x?y=1&z=%2B","n":42,"neg":-7,"zero":0}"#,
        #"{"process":{"id":"p","state":"PROCESS_STATE_CREATED","notifications":[{"channel":"EMAIL"}],"ok":true,"no":false,"none":null}}"#,
        #"  [1, 2 ,3, [], {}, [[["deep"]]]]  "#,
        #"{"escaped":"a\"b\\c\/d\b\f\n\r\t","unicode":"ação ✓ 𝄞"}"#,
        #"{"u":"\u00e9"}"#, #"{"fraction":1.5}"#, #"{"exponent":1e3}"#, #"{"big":123456789012345678901234}"#,
        #"{"int18":999999999999999999,"int19":9223372036854775807}"#, #"{"minusZero":-0}"#, #"{"lead":01}"#,
        #"{"dup":1,"dup":2}"#, #"{"trailing":1,}"#, #"[1,]"#, #"{"a":1} x"#, #"{"a" 1}"#, #"{"a":tru}"#,
        #""string at top""#, "42", "true", "null", "", "   ", "{", "[", #"{"a":"unterminated}"#,
        "{\"control\":\"a\u{01}b\"}", #"{"bad escape":"\x"}"#, "\u{FEFF}{\"bom\":1}", #"{"plus":+1}"#,
        #"{"nested":{"a":{"b":{"c":[1,{"d":"e"}]}}}}"#,
    ]

    @Test(arguments: documents)
    func givesWhatJSONDecoderGives(_ text: String) {
        let data = Data(text.utf8)
        let expected = try? JSONDecoder().decode(JSONValue.self, from: data)
        #expect(
            JSONValue.parse(data) == expected,
            "\(String(describing: JSONValue.parse(data))) \(String(describing: expected))")
    }

    @Test func invalidUTF8IsRefusedLikeJSONDecoder() {
        let data = Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D])
        let expected = try? JSONDecoder().decode(JSONValue.self, from: data)
        #expect(JSONValue.parse(data) == expected)
    }

    @Test func randomDocumentsGiveWhatJSONDecoderGives() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let value = Self.random(depth: 0, using: &generator)
            let data = try JSONEncoder().encode(JSONValue.object(["v": value]))
            let expected = try JSONDecoder().decode(JSONValue.self, from: data)
            #expect(JSONValue.parse(data) == expected)
        }
    }

    static func random(depth: Int, using generator: inout SystemRandomNumberGenerator) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator))
        case 3: return .number(Double.random(in: -1000...1000, using: &generator))
        case 4:
            let pool = Array("ab\"\\/\n\té✓ 0-_")
            return .string(
                String((0..<Int.random(in: 0...12, using: &generator)).map { _ in pool.randomElement(using: &generator)! }))
        case 5:
            return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in random(depth: depth + 1, using: &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                members["k\(index)"] = random(depth: depth + 1, using: &generator)
            }
            return .object(members)
        }
    }
}
