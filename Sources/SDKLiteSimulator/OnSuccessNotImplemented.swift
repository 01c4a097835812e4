/// The marker a delegate without `onSuccess(_:)` gets; its presence means error `74001`.
public struct OnSuccessNotImplemented: Sendable {
    init() {}
}
