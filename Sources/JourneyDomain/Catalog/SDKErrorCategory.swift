/// Who or what has to act on an SDK error.
public enum SDKErrorCategory: String, Sendable, Codable, CaseIterable {
    /// The app is wired wrongly; a new process will fail the same way.
    case integrationBug
    /// The device or runtime cannot capture (e.g. the simulator).
    case environment
    /// A passing failure (network, unexpected response); a retry may succeed.
    case transient
    /// Unico or the account must be configured by a person.
    case operatorAction
    /// The token's lifetime ended; a fresh process is the cure.
    case expired
    /// The capture stopped before a result: the person cancelled, refused the camera or consent,
    /// left the app, or the session ended; the person may try again.
    case captureInterrupted
    /// A code documented nowhere.
    case unknown
}
