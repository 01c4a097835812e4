/// The full SDK's selfie payload for `onSuccessSelfie(_:)`.
///
/// The Lite edition sends the capture to Unico itself, so the simulator never produces one; the
/// type exists because the seed's delegate protocol requires the callback.
public struct SelfieResult: Sendable, Hashable {
    /// The selfie as base64 JPEG.
    public let base64: String
    /// The encrypted payload the full SDK hands to the backend.
    public let encrypted: String

    public init(base64: String, encrypted: String) {
        self.base64 = base64
        self.encrypted = encrypted
    }
}
