/// How one simulated capture ended, as seen through the SDK's callbacks.
public enum DeviceOutcome: Sendable, Hashable {
    /// `onSuccess`: the journey for this process ended. Not an approval: read the process result.
    case success(processId: String)
    /// `onErrorSelfie` or `onErrorAcessoBioManager` with one of the seed's codes.
    case error(ErrorBio)
    /// `onUserClosedCameraManually`.
    case closedByUser
    /// `onSystemClosedCameraTimeoutSession`.
    case sessionTimedOut

    /// The seed's error code, when the capture failed.
    public var errorCode: Int? {
        if case .error(let error) = self { error.code } else { nil }
    }

    /// The process id, when the journey ended.
    public var processId: String? {
        if case .success(let processId) = self { processId } else { nil }
    }
}
