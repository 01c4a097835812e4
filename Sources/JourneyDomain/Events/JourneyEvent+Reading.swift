import Foundation
import JSONBytes

extension JourneyEvent {
    /// Decodes a stored event from its JSON bytes (UTF-8) with a hand-written reader, several
    /// times cheaper than `JSONDecoder`; input the reader cannot vouch for goes to `decoder` (one of
    /// ``EventJSON/makeDecoder()``'s), so the result, or the error, is the Codable path's.
    public init(type: String, utf8 bytes: UnsafeBufferPointer<UInt8>, decoder: JSONDecoder) throws(EventCodingError) {
        try self.init(type: type, utf8: bytes) { decoder }
    }

    /// ``init(type:utf8:decoder:)`` making a decoder only if the Codable path must decide.
    public init(type: String, utf8 bytes: UnsafeBufferPointer<UInt8>) throws(EventCodingError) {
        try self.init(type: type, utf8: bytes) { EventJSON.makeDecoder() }
    }

    /// ``init(type:utf8:decoder:)`` over an array of bytes.
    public init(type: String, utf8 bytes: [UInt8], decoder: JSONDecoder) throws(EventCodingError) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(EventCodingError) in try JourneyEvent(type: type, utf8: buffer, decoder: decoder) }
        }
        self = try result.get()
    }

    /// ``init(type:utf8:)`` over JSON text.
    public init(type: String, text: String) throws(EventCodingError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(EventCodingError) in try JourneyEvent(type: type, utf8: buffer) }
        }
        self = try result.get()
    }

    private init(type: String, utf8 bytes: UnsafeBufferPointer<UInt8>, fallback: () -> JSONDecoder) throws(EventCodingError) {
        if let event = Self.read(type: type, utf8: bytes) {
            self = event
        } else {
            try self.init(type: type, data: Data(buffer: bytes), decoder: fallback())
        }
    }

    /// The reader's event, nil when it cannot vouch for the input (or does not know `type`).
    static func read(type: String, utf8 bytes: UnsafeBufferPointer<UInt8>) -> JourneyEvent? {
        guard let read = readers[type] else { return nil }
        var reader = JSONReader(bytes)
        do throws(JSONReadError) {
            let event = try read(&reader)
            try reader.end()
            return event
        } catch {
            return nil
        }
    }

    private typealias Read = @Sendable (inout JSONReader) throws(JSONReadError) -> JourneyEvent

    private static let readers: [String: Read] = [
        JourneyStarted.eventType: { (r) throws(JSONReadError) in .journeyStarted(try JourneyStarted(reading: &r)) },
        ProcessCreationRequested.eventType: { (r) throws(JSONReadError) in
            .processCreationRequested(try ProcessCreationRequested(reading: &r))
        },
        ProcessCreated.eventType: { (r) throws(JSONReadError) in .processCreated(try ProcessCreated(reading: &r)) },
        ProcessCreationFailed.eventType: { (r) throws(JSONReadError) in
            .processCreationFailed(try ProcessCreationFailed(reading: &r))
        },
        TokenIssued.eventType: { (r) throws(JSONReadError) in .tokenIssued(try TokenIssued(reading: &r)) },
        CaptureOpened.eventType: { (r) throws(JSONReadError) in .captureOpened(try CaptureOpened(reading: &r)) },
        CallbackReceived.eventType: { (r) throws(JSONReadError) in
            .callbackReceived(try CallbackReceived(reading: &r))
        },
        WebhookReceived.eventType: { (r) throws(JSONReadError) in .webhookReceived(try WebhookReceived(reading: &r))
        },
        ResultPending.eventType: { (r) throws(JSONReadError) in .resultPending(try ResultPending(reading: &r)) },
        ResultFetched.eventType: { (r) throws(JSONReadError) in .resultFetched(try ResultFetched(reading: &r)) },
        TokenExpired.eventType: { (r) throws(JSONReadError) in .tokenExpired(try TokenExpired(reading: &r)) },
        AttemptFailed.eventType: { (r) throws(JSONReadError) in .attemptFailed(try AttemptFailed(reading: &r)) },
        JourneyCompleted.eventType: { (r) throws(JSONReadError) in
            .journeyCompleted(try JourneyCompleted(reading: &r))
        },
        JourneyAbandoned.eventType: { (r) throws(JSONReadError) in
            .journeyAbandoned(try JourneyAbandoned(reading: &r))
        },
        RetryAllowed.eventType: { (r) throws(JSONReadError) in .retryAllowed(try RetryAllowed(reading: &r)) },
        CaptureClosedByUser.eventType: { (r) throws(JSONReadError) in
            .captureClosedByUser(try CaptureClosedByUser(reading: &r))
        },
        CaptureSessionTimedOut.eventType: { (r) throws(JSONReadError) in
            .captureSessionTimedOut(try CaptureSessionTimedOut(reading: &r))
        },
        LinkIssued.eventType: { (r) throws(JSONReadError) in .linkIssued(try LinkIssued(reading: &r)) },
        SubjectErased.eventType: { (r) throws(JSONReadError) in .subjectErased(try SubjectErased(reading: &r)) },
        PersonalDataDisclosed.eventType: { (r) throws(JSONReadError) in
            .personalDataDisclosed(try PersonalDataDisclosed(reading: &r))
        },
        JourneyCancelled.eventType: { (r) throws(JSONReadError) in
            .journeyCancelled(try JourneyCancelled(reading: &r))
        },
        AttemptReplaced.eventType: { (r) throws(JSONReadError) in .attemptReplaced(try AttemptReplaced(reading: &r))
        },
        FaceInferenceTimedOut.eventType: { (r) throws(JSONReadError) in
            .faceInferenceTimedOut(try FaceInferenceTimedOut(reading: &r))
        },
    ]
}
