/// A drop-off the SDK reports through its delegate, without a result.
public enum DropOff: String, Sendable, CaseIterable {
    /// `onUserClosedCameraManually`.
    case closedByUser
    /// `onSystemClosedCameraTimeoutSession`.
    case sessionTimedOut
}
