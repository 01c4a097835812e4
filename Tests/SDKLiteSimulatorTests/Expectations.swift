import SDKLiteSimulator
import Testing

/// Checks what every capture must show whatever its ending: one ending callback and nothing after
/// it, every callback on the main queue and none during the opening call, never `onSuccessSelfie`,
/// and the capture screen gone.
func expectWellBehaved(_ record: CaptureRecord, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(record.ending != nil, "no callback ended the capture in time", sourceLocation: sourceLocation)
    #expect(record.callbacks.filter(\.endsCapture).count == 1, "\(record.callbacks)", sourceLocation: sourceLocation)
    #expect(record.callbacks.last?.endsCapture == true, "\(record.callbacks)", sourceLocation: sourceLocation)
    #expect(record.offMainQueue.isEmpty, "off the main queue: \(record.offMainQueue)", sourceLocation: sourceLocation)
    #expect(record.duringCall.isEmpty, "during the call: \(record.duringCall)", sourceLocation: sourceLocation)
    #expect(!record.callbacks.contains(.onSuccessSelfie), sourceLocation: sourceLocation)
    #expect(!record.presentedAfterwards, "the capture screen stayed up", sourceLocation: sourceLocation)
}

/// Checks that the capture failed with `code` through `onErrorSelfie` and nothing else.
func expectSelfieError(_ record: CaptureRecord, _ code: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    expectWellBehaved(record, sourceLocation: sourceLocation)
    #expect(record.callbacks == [.onErrorSelfie(code: code)], sourceLocation: sourceLocation)
}
