/// The SDK error codes with meaning, category, action and retryability: the eight of the SDK
/// Lite page (the seed), then the full SDK's codes the page does not list.
///
/// A code off the page never ends a journey by default: Unico does not confirm it for SDK Lite,
/// and the person may fix the cause (grant the camera, give consent) and try again. Each such
/// failure fails the attempt only; the retry budget bounds what it costs, and an operator can
/// still stop retrying a code with the policy's `nonRetryableCodes`
/// (`JOURNEYS_RETRY_NON_RETRYABLE_CODES`).
public struct SDKErrorCatalog: Sendable, Equatable {
    /// Entries by code.
    public let entries: [SDKErrorCode: SDKErrorEntry]

    public init(entries: [SDKErrorEntry]) {
        self.entries = Dictionary(entries.map { ($0.code, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The entry for `code`; a code listed nowhere gets ``unknownEntry(for:)``.
    public func entry(for code: SDKErrorCode) -> SDKErrorEntry {
        entries[code] ?? Self.unknownEntry(for: code)
    }

    /// Codes a fresh process will not cure, sorted.
    public var nonRetryableCodes: [SDKErrorCode] {
        entries.values.filter { !$0.retryable }.map(\.code).sorted()
    }

    /// A code listed neither on the SDK Lite page nor for the full SDK: the attempt fails, the
    /// journey stays open (retryable), and the code is counted in the sdk-errors report.
    public static func unknownEntry(for code: SDKErrorCode) -> SDKErrorEntry {
        SDKErrorEntry(
            code: code,
            meaning: "Code listed neither on the SDK Lite page nor for Unico's full iOS SDK",
            category: .unknown,
            recommendedAction: "Offer the capture again (a new token starts the next attempt); "
                + "if the code recurs, ask Unico support what it means",
            retryable: true,
            source: .unlisted
        )
    }

    /// The SDK Lite page's eight codes and the full SDK's codes the page does not list.
    public static let standard = SDKErrorCatalog(entries: sdkLitePage + fullSDK)

    /// The eight codes of the seed's table.
    public static let sdkLitePage: [SDKErrorEntry] = [
        SDKErrorEntry(
            code: .emptyToken,
            meaning: "The webAppToken is empty or contains only spaces",
            category: .integrationBug,
            recommendedAction: "Pass the webAppToken returned by your backend",
            retryable: false
        ),
        SDKErrorEntry(
            code: .simulator,
            meaning: "Running on the simulator",
            category: .environment,
            recommendedAction: "Test on a physical device",
            retryable: false
        ),
        SDKErrorEntry(
            code: .authenticationFailed,
            meaning: "Authentication failed for another reason, such as network or an unexpected response",
            category: .transient,
            recommendedAction: "Retry; if it persists, contact support",
            retryable: true
        ),
        SDKErrorEntry(
            code: .captureRefused,
            meaning: "Unico refused to prepare the capture, including when token entry is not enabled "
                + "for your account in the environment",
            category: .operatorAction,
            recommendedAction: "Check with Unico that token entry is enabled in that environment",
            retryable: false
        ),
        SDKErrorEntry(
            code: .tokenRejected,
            meaning: "The token was rejected (invalid signature or content), including when the token field "
                + "is passed instead of the webAppToken",
            category: .integrationBug,
            recommendedAction: "Pass the webAppToken of a valid process",
            retryable: false
        ),
        SDKErrorEntry(
            code: .tokenExpired,
            meaning: "The token expired",
            category: .expired,
            recommendedAction: "Create a new process and call prepareAndOpenSelfieCamera again with the new webAppToken",
            retryable: true
        ),
        SDKErrorEntry(
            code: .notAvailableInLite,
            meaning: "The call is not available in the SDK Lite",
            category: .integrationBug,
            recommendedAction: "Use prepareAndOpenSelfieCamera(_:webAppToken:)",
            retryable: false
        ),
        SDKErrorEntry(
            code: .missingOnSuccess,
            meaning: "The delegate does not implement onSuccess(_:)",
            category: .integrationBug,
            recommendedAction: "Implement onSuccess(_:) with the exact signature",
            retryable: false
        ),
    ]
}
