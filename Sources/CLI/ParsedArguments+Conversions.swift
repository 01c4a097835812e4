import Foundation
import Timestamps

extension ParsedArguments {
    /// An integer value, optionally checked against a range.
    public func int(_ name: String, in range: ClosedRange<Int>? = nil) throws -> Int {
        try required(name, optionalInt(name, in: range))
    }

    /// An integer value, or `nil` when absent without a default.
    public func optionalInt(_ name: String, in range: ClosedRange<Int>? = nil) throws -> Int? {
        let expected = range.map { "an integer in \($0.lowerBound)...\($0.upperBound)" } ?? "an integer"
        return try convert(name, expected: expected) { text in
            Int(text).flatMap { range?.contains($0) ?? true ? $0 : nil }
        }
    }

    /// A floating-point value, optionally checked against a range.
    public func double(_ name: String, in range: ClosedRange<Double>? = nil) throws -> Double {
        try required(name, optionalDouble(name, in: range))
    }

    /// A floating-point value, or `nil` when absent without a default.
    public func optionalDouble(_ name: String, in range: ClosedRange<Double>? = nil) throws -> Double? {
        let expected = range.map { "a number in \($0.lowerBound)...\($0.upperBound)" } ?? "a number"
        return try convert(name, expected: expected) { text in
            Double(text).flatMap { $0.isFinite && (range?.contains($0) ?? true) ? $0 : nil }
        }
    }

    /// A UUID value such as `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    public func uuid(_ name: String) throws -> UUID {
        try required(name, optionalUUID(name))
    }

    /// A UUID value, or `nil` when absent without a default.
    public func optionalUUID(_ name: String) throws -> UUID? {
        try convert(name, expected: "a UUID", UUID.init(uuidString:))
    }

    /// An absolute `http` or `https` URL with a host, such as `http://127.0.0.1:8080`.
    public func httpURL(_ name: String) throws -> URL {
        try required(
            name,
            convert(name, expected: "an http(s) URL such as http://127.0.0.1:8080") { text in
                URL(string: text).flatMap {
                    ["http", "https"].contains($0.scheme?.lowercased() ?? "") && $0.host != nil ? $0 : nil
                }
            })
    }

    /// One of an enumeration's raw values; the error lists them all.
    public func choice<Value: CaseIterable & RawRepresentable>(
        _ name: String, as type: Value.Type = Value.self
    ) throws -> Value where Value.RawValue == String {
        try required(name, optionalChoice(name, as: type))
    }

    /// One of an enumeration's raw values, or `nil` when absent without a default.
    public func optionalChoice<Value: CaseIterable & RawRepresentable>(
        _ name: String, as type: Value.Type = Value.self
    ) throws -> Value? where Value.RawValue == String {
        let allowed = Value.allCases.map(\.rawValue).joined(separator: ", ")
        return try convert(name, expected: "one of: \(allowed)", Value.init(rawValue:))
    }

    /// An ISO-8601 date (`2024-05-01`, midnight UTC) or timestamp (`2024-05-01T12:30:00Z`,
    /// `2024-05-01T12:30:00.250-03:00`).
    public func date(_ name: String) throws -> Date {
        try required(name, optionalDate(name))
    }

    /// An ISO-8601 date or timestamp, or `nil` when absent without a default.
    public func optionalDate(_ name: String) throws -> Date? {
        try convert(
            name, expected: "an ISO-8601 date (2024-05-01) or timestamp (2024-05-01T12:30:00Z)",
            { ISO8601Date.parse($0)?.date })
    }

    private func convert<Value>(
        _ name: String, expected: String, _ transform: (String) -> Value?
    ) throws -> Value? {
        guard let text = try optionalString(name) else { return nil }
        guard let value = transform(text) else { throw invalid(name, text, expected: expected) }
        return value
    }

    private func required<Value>(_ name: String, _ value: Value?) throws -> Value {
        guard let value else { throw missing(name) }
        return value
    }
}
