/// The capture's callbacks, passed to `prepareAndOpenSelfieCamera(_:webAppToken:)`.
///
/// `onSuccess(_:)` is *optional* as in the seed, where it is an `@objc optional` requirement:
/// the compiler does not make you write it, and without it the capture does not open and
/// `onErrorSelfie(_:)` receives `74001`. Linux Swift has no optional requirements, so the
/// simulator infers ``OnSuccessImplementation`` from your `onSuccess(_:)`; when you have none
/// (or a different signature), the default below fills in and is detected before opening.
/// Declare `onSuccess(_:)` on the class that declares the conformance.
///
/// Called on ``SDKMainActor``; held weakly while the capture runs.
@SDKMainActor
public protocol AcessoBioSelfieDelegate: AnyObject {
    /// Inferred from your `onSuccess(_:)` (normally `Void`); never name it.
    associatedtype OnSuccessImplementation = OnSuccessNotImplemented

    /// The journey ended for `successResult.processId`; it does not mean the person was approved.
    func onSuccess(_ successResult: SuccessResult) -> OnSuccessImplementation
    /// Required by the protocol; the Lite edition never calls it (the result comes in `onSuccess`).
    func onSuccessSelfie(_ result: SelfieResult)
    /// The capture failed or did not open; `errorBio.code` is one of the seed's codes.
    func onErrorSelfie(_ errorBio: ErrorBio)
}

extension AcessoBioSelfieDelegate where OnSuccessImplementation == OnSuccessNotImplemented {
    /// Stands in for a missing `onSuccess(_:)`; the simulator answers `74001` instead of calling it.
    public func onSuccess(_ successResult: SuccessResult) -> OnSuccessNotImplemented {
        OnSuccessNotImplemented()
    }
}

extension AcessoBioSelfieDelegate {
    /// Whether this delegate's type implements `onSuccess(_:)` itself.
    nonisolated static var implementsOnSuccess: Bool {
        OnSuccessImplementation.self != OnSuccessNotImplemented.self
    }
}
