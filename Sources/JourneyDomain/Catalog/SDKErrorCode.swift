/// A numeric error code that SDK Lite passes to `onErrorSelfie`.
public struct SDKErrorCode: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByIntegerLiteral, CustomStringConvertible
{
    public let rawValue: Int

    /// `73203`: the `webAppToken` is empty or blank.
    public static let emptyToken: SDKErrorCode = 73203
    /// `73006`: running on the simulator.
    public static let simulator: SDKErrorCode = 73006
    /// `73302`: authentication failed for another reason (network, unexpected response).
    public static let authenticationFailed: SDKErrorCode = 73302
    /// `73303`: Unico refused to prepare the capture (token entry not enabled).
    public static let captureRefused: SDKErrorCode = 73303
    /// `73304`: the token was rejected (bad signature or content, or `token` instead of `webAppToken`).
    public static let tokenRejected: SDKErrorCode = 73304
    /// `73305`: the token expired.
    public static let tokenExpired: SDKErrorCode = 73305
    /// `73701`: the call is not available in SDK Lite.
    public static let notAvailableInLite: SDKErrorCode = 73701
    /// `74001`: the delegate does not implement `onSuccess(_:)`.
    public static let missingOnSuccess: SDKErrorCode = 74001

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public init(integerLiteral value: Int) {
        self.rawValue = value
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: SDKErrorCode, rhs: SDKErrorCode) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { String(rawValue) }
}
