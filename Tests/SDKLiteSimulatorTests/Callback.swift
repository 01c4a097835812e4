import SDKLiteSimulator

/// One SDK callback as a test sees it.
enum Callback: Sendable, Hashable, CustomStringConvertible {
    case onSuccess(processId: String)
    case onSuccessSelfie
    case onErrorSelfie(code: Int)
    case onErrorAcessoBioManager(code: Int)
    case onUserClosedCameraManually
    case onSystemClosedCameraTimeoutSession
    case onSystemChangedTypeCameraTimeoutFaceInference

    /// Whether the SDK is done with the capture after this callback.
    var endsCapture: Bool {
        switch self {
        case .onSuccessSelfie, .onSystemChangedTypeCameraTimeoutFaceInference: false
        default: true
        }
    }

    var description: String {
        switch self {
        case .onSuccess(let id): "onSuccess(\(id))"
        case .onSuccessSelfie: "onSuccessSelfie"
        case .onErrorSelfie(let code): "onErrorSelfie(\(code))"
        case .onErrorAcessoBioManager(let code): "onErrorAcessoBioManager(\(code))"
        case .onUserClosedCameraManually: "onUserClosedCameraManually"
        case .onSystemClosedCameraTimeoutSession: "onSystemClosedCameraTimeoutSession"
        case .onSystemChangedTypeCameraTimeoutFaceInference: "onSystemChangedTypeCameraTimeoutFaceInference"
        }
    }
}

/// What one capture did, as recorded by its delegate.
struct CaptureRecord: Sendable {
    /// Every callback, in arrival order.
    var callbacks: [Callback] = []
    /// Callbacks that ran anywhere but the SDK's main queue.
    var offMainQueue: [Callback] = []
    /// Callbacks delivered while the opening call was still on the stack.
    var duringCall: [Callback] = []
    /// The title of the screen presented over the host at each callback (nil: nothing presented).
    var presentedAt: [String?] = []
    /// Whether anything was still presented over the host once the capture ended.
    var presentedAfterwards = false

    /// The callback that ended the capture, if any arrived in time.
    var ending: Callback? { callbacks.first(where: \.endsCapture) }
}
