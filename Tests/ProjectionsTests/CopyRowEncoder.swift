import Foundation
@testable import Projections
import Postgres

/// Writes `Encodable` rows (``StateRow``, ``AttemptRow``: keys are column names) as `COPY` text rows
/// for a fixed column list, with the meaning `json_populate_recordset` gives the same row as JSON:
/// a key left out (nil) is NULL, a key that is no column is ignored, strings and numbers are the
/// column's text, and a nested value (the `state`) is its JSON. Any projection table whose rows
/// are such structs can join a rebuild's `COPY` path with one of these.
struct CopyRowEncoder {
    /// The table's columns, in the order of the `COPY` statement.
    let columns: [String]
    private let index: [String: Int]
    /// Per column, the byte range of its field in `scratch` (nil: NULL) for the row being written.
    private var fields: [Range<Int>?]
    private var scratch: [UInt8] = []

    init(columns: [String]) {
        self.columns = columns
        index = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        fields = Array(repeating: nil, count: columns.count)
    }

    /// Appends `row` to `text`.
    mutating func append<Row: Encodable>(_ row: Row, to text: inout PostgresCopyText) throws {
        scratch.removeAll(keepingCapacity: true)
        for position in fields.indices { fields[position] = nil }
        let collector = CopyFieldCollector(index: index)
        swap(&collector.scratch, &scratch)
        defer { swap(&collector.scratch, &scratch) }
        try row.encode(to: collector)
        if let failure = collector.failure { throw failure }
        for (position, range) in collector.fields { fields[position] = range }
        collector.scratch.withUnsafeBufferPointer { scratch in
            for range in fields {
                // Through `String`: `appendEscaped` is generic across the module boundary, and unspecialized
                // it costs a witness call per byte (a fifth of a rebuild's CPU); `append(String)` is not.
                if let range {
                    text.append(String(decoding: UnsafeBufferPointer(rebasing: scratch[range]), as: UTF8.self))
                } else {
                    text.appendNull()
                }
            }
        }
        text.endRow()
    }
}

/// The `Encoder` for one row: its keyed container puts each value's text in `scratch`.
final class CopyFieldCollector: Encoder {
    let index: [String: Int]
    var scratch: [UInt8] = []
    var fields: [(Int, Range<Int>)] = []
    var failure: (any Error)?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(index: [String: Int]) {
        self.index = index
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(CopyFieldContainer<Key>(collector: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        failure = JSONStreamEncoder.Unsupported(description: "a COPY row must encode as a keyed container")
        return JSONStreamValueEncoder.discarding.unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        failure = JSONStreamEncoder.Unsupported(description: "a COPY row must encode as a keyed container")
        return JSONStreamValueEncoder.discarding.singleValueContainer()
    }

    /// Records the field for `key` written by `write`; a key that is no column is skipped.
    func field(_ key: some CodingKey, _ write: (inout [UInt8]) throws -> Void) rethrows {
        guard let position = index[key.stringValue] else { return }
        let start = scratch.count
        try write(&scratch)
        fields.append((position, start..<scratch.count))
    }
}

struct CopyFieldContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let collector: CopyFieldCollector
    var codingPath: [any CodingKey] { [] }

    private func text(_ value: String, _ key: Key) { collector.field(key) { $0.append(contentsOf: value.utf8) } }

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws { text(value ? "t" : "f", key) }
    mutating func encode(_ value: String, forKey key: Key) throws { text(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try collector.field(key) { bytes in try JSONStreamEncoder.encode(value, into: &bytes) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { text(String(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { text(String(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let value = value as? String { return text(value, key) }
        if let value = value as? any BinaryInteger { return text(String(describing: value), key) }
        try collector.field(key) { bytes in
            let start = bytes.count
            try JSONStreamEncoder.encode(value, into: &bytes)
            // json_populate_recordset unquotes a JSON string for a text column: pass a String instead.
            if bytes.count > start, bytes[start] == UInt8(ascii: "\"") {
                throw JSONStreamEncoder.Unsupported(description: "column \(key.stringValue): encode text columns as String")
            }
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        collector.failure = JSONStreamEncoder.Unsupported(
            description: "column \(key.stringValue): nested containers are not streamed")
        return JSONStreamValueEncoder.discarding.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        collector.failure = JSONStreamEncoder.Unsupported(
            description: "column \(key.stringValue): nested containers are not streamed")
        return JSONStreamValueEncoder.discarding.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { unsupported("super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { unsupported(key.stringValue) }

    private func unsupported(_ column: String) -> any Encoder {
        collector.failure = JSONStreamEncoder.Unsupported(description: "column \(column): superEncoder is not streamed")
        return JSONStreamValueEncoder.discarding
    }
}
