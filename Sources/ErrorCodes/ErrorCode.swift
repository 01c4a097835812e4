/// A stable, machine-readable error code: snake_case text that API problems, command output,
/// guides and tests quote, so a published code never changes.
///
/// An error type declares its codes as a struct holding the text, one static member a code:
///
/// ```swift
/// public struct Code: ErrorCode {
///     public let rawValue: String
///     public init(rawValue: String) { self.rawValue = rawValue }
///
///     /// No journey has this id.
///     public static let journeyNotFound = Code(rawValue: "journey_not_found")
/// }
/// ```
public protocol ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == String {
    init(rawValue: String)
}

extension ErrorCode {
    /// The code's text, e.g. `journey_not_found`.
    public var description: String { rawValue }

    /// The same as ``init(rawValue:)``.
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
}
