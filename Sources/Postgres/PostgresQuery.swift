/// A SQL statement whose interpolated values become `$n` binds.
///
/// ```swift
/// let query: PostgresQuery = "SELECT * FROM events WHERE stream_name = \(name)"
/// // sql: "SELECT * FROM events WHERE stream_name = $1", binds: [name]
/// ```
/// Raw SQL text needs the explicit `\(unsafeSQL:)` label.
public struct PostgresQuery: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public var sql: String
    public var binds: [String?]

    public init(unsafeSQL sql: String, binds: [String?] = []) {
        self.sql = sql
        self.binds = binds
    }

    public init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, binds: stringInterpolation.binds)
    }

    /// The statement's first words, safe to show in errors and logs (no values).
    public var description: String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(4)
        return words.joined(separator: " ")
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [String?] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            binds.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// Appends a bound value as the next `$n` parameter.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value) {
            binds.append(value.postgresText)
            sql += "$\(binds.count)"
        }

        /// Binds an optional value (NULL for nil) without the compiler's optional-interpolation warning.
        public mutating func appendInterpolation<Value: PostgresEncodable>(nullable value: Value?) {
            appendInterpolation(value)
        }

        /// Appends raw SQL text. Never pass user input here.
        public mutating func appendInterpolation(unsafeSQL text: String) {
            sql += text
        }
    }
}
