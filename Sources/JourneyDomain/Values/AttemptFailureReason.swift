import Foundation

/// Why an attempt ended without a result; the input to the retry policy.
public struct AttemptFailureReason: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The `webAppToken` expired (timer or SDK code 73305).
        case tokenExpired
        /// The SDK reported an error other than expiry.
        case sdkError
        /// Create Process failed at Unico.
        case processCreationFailed
        /// Get Process reported the process itself expired without a capture.
        case processExpired
        /// Get Process reported `PROCESS_STATE_FAILED` or a result other than OK, invalid
        /// identity or expired (such as `PROCESS_RESULT_ERROR`): Unico's side failed.
        case processFailed
        /// The app reported `onUserClosedCameraManually`.
        case closedByUser
        /// The app reported `onSystemClosedCameraTimeoutSession`.
        case sessionTimedOut

        /// True for the drop-offs the app reports while the user is there.
        public var isUserDropOff: Bool { self == .closedByUser || self == .sessionTimedOut }
    }

    public var kind: Kind
    /// The SDK code, for `tokenExpired` via callback and for `sdkError`.
    public var sdkCode: SDKErrorCode?
    /// Whether a fresh process can help, before the policy's own limits.
    public var retryable: Bool
    /// Earliest delay a server asked for (`Retry-After`), in seconds.
    public var retryAfter: TimeInterval?
    /// Short text for operators; no personal data.
    public var detail: String

    public init(
        kind: Kind,
        sdkCode: SDKErrorCode? = nil,
        retryable: Bool,
        retryAfter: TimeInterval? = nil,
        detail: String
    ) {
        self.kind = kind
        self.sdkCode = sdkCode
        self.retryable = retryable
        self.retryAfter = retryAfter
        self.detail = detail
    }

    /// The token expired; `sdkCode` is 73305 when the SDK said so, nil when a timer found it.
    public static func tokenExpired(sdkCode: SDKErrorCode? = nil) -> AttemptFailureReason {
        AttemptFailureReason(
            kind: .tokenExpired,
            sdkCode: sdkCode,
            retryable: true,
            detail: sdkCode == nil ? "webAppToken expired without a callback" : "SDK reported an expired token"
        )
    }

    /// An SDK error classified by `catalog`.
    public static func sdkError(_ code: SDKErrorCode, catalog: SDKErrorCatalog = .standard) -> AttemptFailureReason {
        let entry = catalog.entry(for: code)
        return AttemptFailureReason(kind: .sdkError, sdkCode: code, retryable: entry.retryable, detail: entry.meaning)
    }

    /// Create Process failed.
    public static func processCreationFailed(_ failure: ProcessCreationFailure) -> AttemptFailureReason {
        AttemptFailureReason(
            kind: .processCreationFailed,
            retryable: failure.retryable,
            retryAfter: failure.retryAfter,
            detail: failure.message
        )
    }

    /// Unico finished the process as expired.
    public static let processExpired = AttemptFailureReason(
        kind: .processExpired,
        retryable: true,
        detail: "Unico reported the process as expired"
    )

    /// Unico finished the process as failed or in error; `state` and `result` as Unico sent them.
    public static func processFailed(state: ProcessState, result: ProcessResult) -> AttemptFailureReason {
        AttemptFailureReason(
            kind: .processFailed,
            retryable: true,
            detail: "Unico reported the process as \(state.rawValue) with \(result.rawValue)"
        )
    }

    /// The user closed the capture.
    public static let closedByUser = AttemptFailureReason(
        kind: .closedByUser,
        retryable: true,
        detail: "the user closed the capture"
    )

    /// The capture session timed out.
    public static let sessionTimedOut = AttemptFailureReason(
        kind: .sessionTimedOut,
        retryable: true,
        detail: "the capture session timed out"
    )
}
