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

    // Codes of Unico's full iOS SDK that the SDK Lite page does not list (unico-contract.md,
    // "SDK codes beyond the SDK Lite page"): possible from an SDK Lite build, not confirmed.

    /// `73000`, full SDK `UNKNOWN_INTERNAL_ERROR`: an unexpected error (catch-all).
    public static let unknownInternalError: SDKErrorCode = 73000
    /// `73100`, full SDK `NETWORK_ERROR`: no internet.
    public static let networkError: SDKErrorCode = 73100
    /// `73204`, full SDK `CONFIG_ENVIRONMENT_NOT_SET`: `setEnvironment` was not called.
    public static let environmentNotSet: SDKErrorCode = 73204
    /// `73704`, full SDK `SESSION_STATUS_USER_CANCELLED`: the user pressed cancel.
    public static let userCancelled: SDKErrorCode = 73704
    /// `73705`–`73713`, full SDK `SESSION_STATUS_*`: camera denied, app sent to background, wrong
    /// orientation, timeout (73710), memory pressure, …; which code is which is not public beyond 73710.
    public static let sessionStatusCodes: ClosedRange<Int> = 73705...73713
    /// `73710`, full SDK `SESSION_STATUS_*`: the capture session timed out.
    public static let sessionTimeout: SDKErrorCode = 73710
    /// `73740`, full SDK `CONSENT_NOT_GIVEN_ERROR`: the user refused consent.
    public static let consentNotGiven: SDKErrorCode = 73740

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
