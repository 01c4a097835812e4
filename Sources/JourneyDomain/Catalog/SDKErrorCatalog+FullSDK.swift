extension SDKErrorCatalog {
    /// The codes of Unico's full iOS SDK that the SDK Lite page does not list, as
    /// `unico-contract.md` gives them ("SDK codes beyond the SDK Lite page"); each is retryable.
    ///
    /// The session-status range 73705–73713 is public only as a range (camera denied, app sent to
    /// the background, wrong orientation, timeout at 73710, memory pressure, …), so its codes
    /// share one meaning; the app reads the `ErrorBio` description for the detail.
    public static let fullSDK: [SDKErrorEntry] =
        [
            SDKErrorEntry(
                code: .unknownInternalError,
                meaning: "An unexpected error in the SDK (catch-all)",
                category: .transient,
                recommendedAction: "Offer the capture again (a new token starts the next attempt); "
                    + "if it persists, contact Unico support with the code",
                retryable: true, source: .fullSDK, fullSDKName: "UNKNOWN_INTERNAL_ERROR"
            ),
            SDKErrorEntry(
                code: .networkError,
                meaning: "No internet connection",
                category: .transient,
                recommendedAction: "Ask the person to check the connection, then offer the capture again with a new token",
                retryable: true, source: .fullSDK, fullSDKName: "NETWORK_ERROR"
            ),
            SDKErrorEntry(
                code: .environmentNotSet,
                meaning: "setEnvironment was not called on the AcessoBioManager builder",
                category: .integrationBug,
                recommendedAction: "Call setEnvironment(.UAT or .PROD) with the process's environment before build()",
                retryable: true, source: .fullSDK, fullSDKName: "CONFIG_ENVIRONMENT_NOT_SET"
            ),
            SDKErrorEntry(
                code: .userCancelled,
                meaning: "The person pressed cancel",
                category: .captureInterrupted,
                recommendedAction: "Offer the capture again; a new token starts the next attempt",
                retryable: true, source: .fullSDK, fullSDKName: "SESSION_STATUS_USER_CANCELLED"
            ),
        ]
        + SDKErrorCode.sessionStatusCodes.map { raw in
            let code = SDKErrorCode(rawValue: raw)
            guard code != .sessionTimeout else {
                return SDKErrorEntry(
                    code: code,
                    meaning: "The capture session timed out",
                    category: .captureInterrupted,
                    recommendedAction: "Offer the capture again; a new token starts the next attempt",
                    retryable: true, source: .fullSDK, fullSDKName: "SESSION_STATUS_*"
                )
            }
            return SDKErrorEntry(
                code: code,
                meaning: "The capture session ended without a result: camera permission denied, app sent to the background, "
                    + "wrong orientation, memory pressure or another session status",
                category: .captureInterrupted,
                recommendedAction: "Show the person what to fix (allow the camera in Settings, keep the app open, "
                    + "hold the phone upright) and offer the capture again; a new token starts the next attempt",
                retryable: true, source: .fullSDK, fullSDKName: "SESSION_STATUS_*"
            )
        } + [
            SDKErrorEntry(
                code: .consentNotGiven,
                meaning: "The person refused consent",
                category: .captureInterrupted,
                recommendedAction:
                    "Explain why consent is needed and offer the capture again; a new token starts the next attempt",
                retryable: true, source: .fullSDK, fullSDKName: "CONSENT_NOT_GIVEN_ERROR"
            )
        ]
}
