/// The SDK Lite error codes of the seed, with meaning, category, action and retryability.
public struct SDKErrorCatalog: Sendable, Equatable {
    /// Entries by code.
    public let entries: [SDKErrorCode: SDKErrorEntry]

    public init(entries: [SDKErrorEntry]) {
        self.entries = Dictionary(entries.map { ($0.code, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The entry for `code`; undocumented codes get ``unknownEntry(for:)``.
    public func entry(for code: SDKErrorCode) -> SDKErrorEntry {
        entries[code] ?? Self.unknownEntry(for: code)
    }

    /// Codes a fresh process will not cure, sorted.
    public var nonRetryableCodes: [SDKErrorCode] {
        entries.values.filter { !$0.retryable }.map(\.code).sorted()
    }

    /// Conservative default for a code the seed does not list: not retryable, escalate.
    ///
    /// A new process per retry costs a Unico process; an unexplained failure should not burn the budget.
    public static func unknownEntry(for code: SDKErrorCode) -> SDKErrorEntry {
        SDKErrorEntry(
            code: code,
            meaning: "Code not documented for SDK Lite",
            category: .unknown,
            recommendedAction: "Do not retry automatically; record it and contact Unico support with the code",
            retryable: false,
            isDocumented: false
        )
    }

    /// The eight codes of the seed's table.
    public static let standard = SDKErrorCatalog(entries: [
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
    ])
}
