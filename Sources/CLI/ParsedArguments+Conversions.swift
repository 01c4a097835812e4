import Foundation

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
            Self.parseISO8601)
    }

    /// Parses the strict forms `2024-05-01` and `2024-05-01T12:30:00[.fff](Z|±hh:mm)`,
    /// rejecting impossible dates such as `2024-02-30`.
    static func parseISO8601(_ text: String) -> Date? {
        let shape = #/(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:(Z)|([+-])(\d{2}):(\d{2})))?/#
        guard let match = text.wholeMatch(of: shape) else { return nil }
        let number = { (digits: Substring?) in digits.flatMap { Int($0) } ?? 0 }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(secondsFromGMT: 0) else { return nil }
        calendar.timeZone = utc
        let (hour, minute, second) = (number(match.4), number(match.5), number(match.6))
        let (offsetHours, offsetMinutes) = (number(match.10), number(match.11))
        let components = DateComponents(
            year: number(match.1), month: number(match.2), day: number(match.3),
            hour: hour, minute: minute, second: second)
        guard components.isValidDate(in: calendar), hour < 24, minute < 60, second < 60,
            offsetHours < 24, offsetMinutes < 60, let date = calendar.date(from: components)
        else { return nil }
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        let offset = Double(offsetHours * 3600 + offsetMinutes * 60) * (match.9 == "-" ? -1 : 1)
        return date.addingTimeInterval(fraction - offset)
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
