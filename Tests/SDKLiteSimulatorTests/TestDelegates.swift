import SDKLiteSimulator

/// The kinds of integration a test can try.
enum DelegateKind: Sendable {
    /// Implements every callback, `onSuccess(_:)` with the seed's signature.
    case complete
    /// Lacks `onSuccess(_:)`.
    case withoutOnSuccess
    /// Has `onSuccess` with other signatures, which do not fill the optional requirement.
    case misspelledOnSuccess

    @SDKMainActor
    func make(_ log: CallbackLog) -> any AcessoBioManagerDelegate & AcessoBioSelfieDelegate {
        switch self {
        case .complete: CompleteDelegate(log)
        case .withoutOnSuccess: DelegateWithoutOnSuccess(log)
        case .misspelledOnSuccess: DelegateWithMisspelledOnSuccess(log)
        }
    }
}

/// Every manager callback, recorded; shared by the test delegates.
@SDKMainActor
class RecordingManagerDelegate: AcessoBioManagerDelegate {
    let log: CallbackLog

    init(_ log: CallbackLog) {
        self.log = log
    }

    func onErrorAcessoBioManager(_ error: ErrorBio) { log.add(.onErrorAcessoBioManager(code: error.code)) }
    func onUserClosedCameraManually() { log.add(.onUserClosedCameraManually) }
    func onSystemClosedCameraTimeoutSession() { log.add(.onSystemClosedCameraTimeoutSession) }
    func onSystemChangedTypeCameraTimeoutFaceInference() { log.add(.onSystemChangedTypeCameraTimeoutFaceInference) }
}

/// The seed's integration: all callbacks, `onSuccess(_:)` included.
@SDKMainActor
final class CompleteDelegate: RecordingManagerDelegate, AcessoBioSelfieDelegate {
    func onSuccess(_ successResult: SuccessResult) { log.add(.onSuccess(processId: successResult.processId)) }
    func onSuccessSelfie(_ result: SelfieResult) { log.add(.onSuccessSelfie) }
    func onErrorSelfie(_ errorBio: ErrorBio) { log.add(.onErrorSelfie(code: errorBio.code)) }
}

/// Forgot `onSuccess(_:)`: compiles, as the seed warns, and must get 74001.
@SDKMainActor
final class DelegateWithoutOnSuccess: RecordingManagerDelegate, AcessoBioSelfieDelegate {
    func onSuccessSelfie(_ result: SelfieResult) { log.add(.onSuccessSelfie) }
    func onErrorSelfie(_ errorBio: ErrorBio) { log.add(.onErrorSelfie(code: errorBio.code)) }
}

/// Wrote `onSuccess` with the wrong label or type: compiles, and must get 74001 too.
@SDKMainActor
final class DelegateWithMisspelledOnSuccess: RecordingManagerDelegate, AcessoBioSelfieDelegate {
    func onSuccess(successResult: SuccessResult) { log.add(.onSuccess(processId: successResult.processId)) }
    func onSuccess(_ result: SelfieResult) { log.add(.onSuccessSelfie) }
    func onSuccessSelfie(_ result: SelfieResult) { log.add(.onSuccessSelfie) }
    func onErrorSelfie(_ errorBio: ErrorBio) { log.add(.onErrorSelfie(code: errorBio.code)) }
}
