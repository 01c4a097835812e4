import Foundation
@testable import Projections

/// Encodes `Encodable` values as JSON the way Foundation's `JSONEncoder` does with its default
/// strategies (dates as seconds since 2001, `Data` as base64, nil optionals left out, integral
/// doubles without `.0`), streamed straight into bytes: no intermediate tree, several times
/// faster on a journey state. Key order is the encoding order (PostgreSQL's `jsonb` sorts keys).
struct JSONStreamEncoder {
    typealias Unsupported = JSONStreamUnsupported

    /// Appends the JSON text of `value` to `bytes`.
    static func encode<T: Encodable>(_ value: T, into bytes: inout [UInt8]) throws {
        let writer = JSONStreamWriter()
        swap(&writer.bytes, &bytes)
        defer { swap(&writer.bytes, &bytes) }
        try writer.value(value)
        if let failure = writer.failure { throw failure }
    }

    /// The JSON text of `value`.
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(value, into: &bytes)
        return bytes
    }
}

/// The output and the containers open in it (innermost last), shared by every container of one
/// ``JSONStreamEncoder/encode(_:into:)``.
final class JSONStreamWriter {
    var bytes: [UInt8] = []
    /// Per open container: its closing byte and whether it holds an element yet.
    private var open: [(close: UInt8, filled: Bool)] = []
    var failure: JSONStreamEncoder.Unsupported?
    var depth: Int { open.count }

    /// Writes one complete value at the current position.
    func value<T: Encodable>(_ value: T) throws {
        if let text = value as? String { return string(text) }
        if let date = value as? Date { return try double(date.timeIntervalSinceReferenceDate) }
        if let data = value as? Data { return string(data.base64EncodedString()) }
        if let url = value as? URL { return string(url.absoluteString) }
        if let decimal = value as? Decimal { return raw(decimal.description) }
        let level = depth
        let encoder = JSONStreamValueEncoder(writer: self, level: level)
        try value.encode(to: encoder)
        if encoder.state == .empty { raw("{}") }
        close(to: level)
    }

    /// Opens a container at `level` (closing deeper ones first).
    func openContainer(_ opening: UInt8, _ closing: UInt8) {
        bytes.append(opening)
        open.append((closing, false))
    }

    /// Closes every container deeper than `level`.
    func close(to level: Int) {
        while open.count > level { bytes.append(open.removeLast().close) }
    }

    /// Starts an element of the container at `level` (closing deeper ones, adding the comma).
    func element(in level: Int) {
        close(to: level + 1)
        if open[level].filled { bytes.append(UInt8(ascii: ",")) } else { open[level].filled = true }
    }

    func key(_ key: some CodingKey, in level: Int) {
        element(in: level)
        string(key.stringValue)
        bytes.append(UInt8(ascii: ":"))
    }

    func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    func bool(_ value: Bool) { raw(value ? "true" : "false") }

    func integer(_ value: some BinaryInteger) { raw(String(value)) }

    func double(_ value: Double) throws {
        guard value.isFinite else {
            throw JSONStreamEncoder.Unsupported(description: "\(value) is not representable in JSON")
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        raw(text)
    }

    func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            // Most strings need no escape: one bulk copy (a per-byte append to this class's
            // property pays an exclusivity check per byte).
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: utf8)
                bytes.append(UInt8(ascii: "\""))
                return
            }
            var bytes: [UInt8] = []
            swap(&bytes, &self.bytes)
            defer { swap(&bytes, &self.bytes) }
            bytes.append(UInt8(ascii: "\""))
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
                case UInt8(ascii: "\\"): bytes.append(byte); bytes.append(byte)
                case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
                case 0..<0x20:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [
                        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                    ])
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}

/// The `Encoder` handed to one value's `encode(to:)`.
final class JSONStreamValueEncoder: Encoder {
    enum State { case empty, keyed, unkeyed, single }

    let writer: JSONStreamWriter
    /// The depth the value starts at: its own container, if any, sits at this index.
    let level: Int
    var state = State.empty
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(writer: JSONStreamWriter, level: Int) {
        self.writer = writer
        self.level = level
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        open(.keyed, UInt8(ascii: "{"), UInt8(ascii: "}"))
        return KeyedEncodingContainer(JSONStreamKeyedContainer<Key>(writer: writer, level: level))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        open(.unkeyed, UInt8(ascii: "["), UInt8(ascii: "]"))
        return JSONStreamUnkeyedContainer(writer: writer, level: level)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        if state == .empty { state = .single }
        return JSONStreamSingleContainer(writer: writer, encoder: self)
    }

    /// Opens this value's container once; asking again continues it (as `JSONEncoder` does).
    private func open(_ kind: State, _ opening: UInt8, _ closing: UInt8) {
        guard state == .empty else {
            if state != kind { writer.failure = .init(description: "a value asked for two kinds of container") }
            return
        }
        state = kind
        writer.close(to: level)
        writer.openContainer(opening, closing)
    }
}

struct JSONStreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONStreamWriter
    let level: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { writer.key(key, in: level); writer.raw("null") }
    mutating func encode(_ value: Bool, forKey key: Key) throws { writer.key(key, in: level); writer.bool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { writer.key(key, in: level); writer.string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { writer.key(key, in: level); try writer.double(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { writer.key(key, in: level); try writer.double(Double(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { writer.key(key, in: level); writer.integer(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { writer.key(key, in: level); writer.integer(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { writer.key(key, in: level); writer.integer(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { writer.key(key, in: level); writer.integer(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { writer.key(key, in: level); writer.integer(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { writer.key(key, in: level); writer.integer(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { writer.key(key, in: level); writer.integer(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { writer.key(key, in: level); writer.integer(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { writer.key(key, in: level); writer.integer(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { writer.key(key, in: level); writer.integer(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { writer.key(key, in: level); try writer.value(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        writer.key(key, in: level)
        writer.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"))
        return KeyedEncodingContainer(JSONStreamKeyedContainer<NestedKey>(writer: writer, level: level + 1))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.key(key, in: level)
        writer.openContainer(UInt8(ascii: "["), UInt8(ascii: "]"))
        return JSONStreamUnkeyedContainer(writer: writer, level: level + 1)
    }

    mutating func superEncoder() -> any Encoder { unsupportedSuperEncoder(writer) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { unsupportedSuperEncoder(writer) }
}

struct JSONStreamUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: JSONStreamWriter
    let level: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(writer: JSONStreamWriter, level: Int) {
        self.writer = writer
        self.level = level
    }

    private mutating func next() { writer.element(in: level); count += 1 }

    mutating func encodeNil() throws { next(); writer.raw("null") }
    mutating func encode(_ value: Bool) throws { next(); writer.bool(value) }
    mutating func encode(_ value: String) throws { next(); writer.string(value) }
    mutating func encode(_ value: Double) throws { next(); try writer.double(value) }
    mutating func encode(_ value: Float) throws { next(); try writer.double(Double(value)) }
    mutating func encode(_ value: Int) throws { next(); writer.integer(value) }
    mutating func encode(_ value: Int64) throws { next(); writer.integer(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { next(); try writer.value(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next()
        writer.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"))
        return KeyedEncodingContainer(JSONStreamKeyedContainer<NestedKey>(writer: writer, level: level + 1))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        next()
        writer.openContainer(UInt8(ascii: "["), UInt8(ascii: "]"))
        return JSONStreamUnkeyedContainer(writer: writer, level: level + 1)
    }

    mutating func superEncoder() -> any Encoder { unsupportedSuperEncoder(writer) }
}

struct JSONStreamSingleContainer: SingleValueEncodingContainer {
    let writer: JSONStreamWriter
    let encoder: JSONStreamValueEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { writer.raw("null") }
    mutating func encode(_ value: Bool) throws { writer.bool(value) }
    mutating func encode(_ value: String) throws { writer.string(value) }
    mutating func encode(_ value: Double) throws { try writer.double(value) }
    mutating func encode(_ value: Float) throws { try writer.double(Double(value)) }
    mutating func encode(_ value: Int) throws { writer.integer(value) }
    mutating func encode(_ value: Int8) throws { writer.integer(value) }
    mutating func encode(_ value: Int16) throws { writer.integer(value) }
    mutating func encode(_ value: Int32) throws { writer.integer(value) }
    mutating func encode(_ value: Int64) throws { writer.integer(value) }
    mutating func encode(_ value: UInt) throws { writer.integer(value) }
    mutating func encode(_ value: UInt8) throws { writer.integer(value) }
    mutating func encode(_ value: UInt16) throws { writer.integer(value) }
    mutating func encode(_ value: UInt32) throws { writer.integer(value) }
    mutating func encode(_ value: UInt64) throws { writer.integer(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try writer.value(value) }
}

/// `superEncoder` (class hierarchies) is not streamed: the encoding fails with a clear error.
private func unsupportedSuperEncoder(_ writer: JSONStreamWriter) -> any Encoder {
    writer.failure = .init(description: "superEncoder is not supported by the streaming JSON encoder")
    return JSONStreamValueEncoder.discarding
}

extension JSONStreamValueEncoder {
    /// An encoder whose output goes nowhere, handed out after a failure has been recorded.
    static var discarding: JSONStreamValueEncoder { JSONStreamValueEncoder(writer: JSONStreamWriter(), level: 0) }
}

/// A value or shape the streaming encoder cannot write (a NaN or infinite number, a super encoder).
struct JSONStreamUnsupported: Error, CustomStringConvertible {
    let description: String
}
