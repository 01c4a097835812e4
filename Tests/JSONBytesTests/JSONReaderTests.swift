import Foundation
import JSONBytes
import Testing

/// `JSONReader` against `JSONDecoder` where both read, and its refusals by code and byte offset.
@Suite("JSON reader")
struct JSONReaderTests {
    /// `read` over the UTF-8 of `text`, the whole input consumed.
    static func read<T>(_ text: String, _ body: (inout JSONReader) throws(JSONReadError) -> T) -> Result<T, JSONReadError> {
        read(Array(text.utf8), body)
    }

    static func read<T>(_ bytes: [UInt8], _ body: (inout JSONReader) throws(JSONReadError) -> T) -> Result<T, JSONReadError> {
        bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) in
                var reader = JSONReader(buffer)
                let value = try body(&reader)
                try reader.end()
                return value
            }
        }
    }

    static func failure<T>(_ result: Result<T, JSONReadError>) -> JSONReadError? {
        if case .failure(let error) = result { error } else { nil }
    }

    @Test(arguments: [
        #""plain""#, #""""#, #""q\"b\\s\/n\nr\rt\tb\bf\f""#, #""\u00e9\u4e2d \u0000z""#, #""\ud83d\ude00""#,
        #""\uD83D\uDE00 mixed \u0041""#, #""ação 中文 😀 \u007f""#, #"  "spaced"  "#,
    ])
    func stringsAreWhatJSONDecoderReads(_ json: String) throws {
        let expected = try JSONDecoder().decode(String.self, from: Data(json.utf8))
        #expect(try Self.read(json) { (r) throws(JSONReadError) in try r.string() }.get() == expected)
    }

    @Test(arguments: [
        (#""\ud800""#, 1), (#""ab\udc00\ud800""#, 3), (#""\ud800\u0041""#, 1), (#""x\u12""#, 2), (#""\x""#, 1),
        ("\"a\u{1}b\"", 2),
    ])
    func badStringsAreRefusedAtTheirEscapeOrByte(_ json: String, offset: Int) {
        let error = Self.failure(Self.read(json) { (r) throws(JSONReadError) in try r.string() })
        #expect(error?.code == .invalidString)
        if error?.code == .invalidString, json.contains("\\u12") == false { #expect(error?.offset == offset) }
    }

    @Test func invalidUTF8IsRefused() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
            let bytes = [UInt8(ascii: "\"")] + bad + [UInt8(ascii: "\"")]
            let error = Self.failure(Self.read(bytes) { (r) throws(JSONReadError) in try r.string() })
            #expect(error == JSONReadError(.invalidString, at: 1))
        }
    }

    @Test(arguments: ["0", "-1", "42", "9223372036854775807", "-9223372036854775808", " 7 "])
    func integersAreWhatJSONDecoderReads(_ json: String) throws {
        let expected = try JSONDecoder().decode(Int.self, from: Data(json.utf8))
        #expect(try Self.read(json) { (r) throws(JSONReadError) in try r.int() }.get() == expected)
    }

    @Test(arguments: [
        ("9223372036854775808", JSONReadError.Code.numberOutOfRange, 0), ("-0", .numberOutOfRange, 1),
        ("1.0", .numberOutOfRange, 0), ("1e2", .numberOutOfRange, 0), ("01", .syntax, 0), ("-", .syntax, 1),
        ("+1", .unexpectedValue, 0), (#""1""#, .unexpectedValue, 0),
    ])
    func integersAreRefusedWithACodeAndOffset(_ json: String, code: JSONReadError.Code, offset: Int) {
        #expect(Self.failure(Self.read(json) { (r) throws(JSONReadError) in try r.int() }) == JSONReadError(code, at: offset))
    }

    @Test(arguments: [
        "0", "-0", "1.5", "-2.5e3", "5E+2", "0.1e-5", "1.7976931348623157e308", "123456789.123456789123", "4.9e-324",
    ])
    func doublesAreWhatJSONDecoderReads(_ json: String) throws {
        let expected = try JSONDecoder().decode(Double.self, from: Data(json.utf8))
        let read = try Self.read(json) { (r) throws(JSONReadError) in try r.double() }.get()
        #expect(read == expected && read.sign == expected.sign)
    }

    @Test(arguments: [("1e400", JSONReadError.Code.numberOutOfRange), ("1.", .syntax), ("1e", .syntax), (".5", .unexpectedValue)])
    func doublesAreRefused(_ json: String, code: JSONReadError.Code) {
        #expect(Self.failure(Self.read(json) { (r) throws(JSONReadError) in try r.double() })?.code == code)
    }

    static let keys = JSONKeys(["a", "bb", "c"])

    @Test func objectsReportKnownKeysBySlotAndSkipTheRest() throws {
        let json = #"{ "c" : [1, {"x": null}], "zz": {"deep": [true, false, "s\u0041", -2.5e3]}, "a": 1, "bb": "two" }"#
        var seen: [Int] = []
        try Self.read(json) { (r) throws(JSONReadError) in
            try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
                seen.append(slot)
                switch slot {
                case 0: #expect(try r.int() == 1)
                case 1: #expect(try r.string() == "two")
                default: try r.skipValue()
                }
            }
        }.get()
        #expect(seen == [2, 0, 1])
    }

    @Test(arguments: [
        (#"{"a":1,"a":2}"#, JSONReadError.Code.duplicateKey, 7), (#"{"\u0061":1}"#, .unsupportedKey, 2),
        (#"{"a":1,}"#, .syntax, 7), (#"{"a" 1}"#, .syntax, 5), (#"{"a":1} x"#, .syntax, 8), (#"{"a":tru}"#, .syntax, 5),
        (#"{"a":1"#, .syntax, 6), (#"{"zz":[1,]}"#, .syntax, 9), (#"[1]"#, .syntax, 0), ("", .syntax, 0),
    ])
    func badObjectsAreRefusedWhereTheyGoWrong(_ json: String, code: JSONReadError.Code, offset: Int) {
        let result = Self.read(json) { (r) throws(JSONReadError) in
            try r.object(keys: Self.keys) { (r, _) throws(JSONReadError) in try r.skipValue() }
        }
        #expect(Self.failure(result) == JSONReadError(code, at: offset))
    }

    @Test func nestingDeeperThanTheLimitIsRefused() {
        let limit = JSONReader.maximumDepth
        let within = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        let beyond = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: Never.self) { try Self.read(within) { (r) throws(JSONReadError) in try r.skipValue() }.get() }
        #expect(
            Self.failure(Self.read(beyond) { (r) throws(JSONReadError) in try r.skipValue() })
                == JSONReadError(.tooDeep, at: limit))
    }

    @Test func arraysOptionalsAndEnumerations() throws {
        enum Kind: String { case one, two }
        let values = try Self.read(#"[ "one", null, "two" ]"#) { (r) throws(JSONReadError) in
            var kinds: [Kind?] = []
            try r.array { (r) throws(JSONReadError) in
                kinds.append(try r.optional { (r) throws(JSONReadError) in try r.raw(Kind.self) })
            }
            return kinds
        }.get()
        #expect(values == [.one, nil, .two])
        #expect(try Self.read(#"["a","b"]"#) { (r) throws(JSONReadError) in try r.strings() }.get() == ["a", "b"])
        #expect(try Self.read(" true ") { (r) throws(JSONReadError) in try r.bool() }.get())
        let unknown = Self.read(#"["three"]"#) { (r) throws(JSONReadError) in
            try r.array { (r) throws(JSONReadError) in _ = try r.raw(Kind.self) }
        }
        #expect(Self.failure(unknown) == JSONReadError(.unexpectedValue, at: 1))
    }

    @Test func errorsSayTheirCodeAndOffset() {
        #expect(JSONReadError(.duplicateKey, at: 7).description == "json_duplicate_key: invalid JSON at byte 7")
    }
}
