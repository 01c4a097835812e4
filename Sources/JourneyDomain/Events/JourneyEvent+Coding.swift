import Foundation

extension JourneyEvent {
    /// Encodes the event as sorted-key JSON with RFC 3339 microsecond timestamps.
    public func encoded() throws(EventCodingError) -> EncodedJourneyEvent {
        let encoder = EventJSON.makeEncoder()
        do {
            let data: Data
            switch self {
            case .journeyStarted(let event): data = try encoder.encode(event)
            case .processCreationRequested(let event): data = try encoder.encode(event)
            case .processCreated(let event): data = try encoder.encode(event)
            case .processCreationFailed(let event): data = try encoder.encode(event)
            case .tokenIssued(let event): data = try encoder.encode(event)
            case .captureOpened(let event): data = try encoder.encode(event)
            case .callbackReceived(let event): data = try encoder.encode(event)
            case .webhookReceived(let event): data = try encoder.encode(event)
            case .resultPending(let event): data = try encoder.encode(event)
            case .resultFetched(let event): data = try encoder.encode(event)
            case .tokenExpired(let event): data = try encoder.encode(event)
            case .attemptFailed(let event): data = try encoder.encode(event)
            case .journeyCompleted(let event): data = try encoder.encode(event)
            case .journeyAbandoned(let event): data = try encoder.encode(event)
            case .retryAllowed(let event): data = try encoder.encode(event)
            case .captureClosedByUser(let event): data = try encoder.encode(event)
            case .captureSessionTimedOut(let event): data = try encoder.encode(event)
            case .linkIssued(let event): data = try encoder.encode(event)
            case .subjectErased(let event): data = try encoder.encode(event)
            case .personalDataDisclosed(let event): data = try encoder.encode(event)
            case .journeyCancelled(let event): data = try encoder.encode(event)
            case .attemptReplaced(let event): data = try encoder.encode(event)
            case .faceInferenceTimedOut(let event): data = try encoder.encode(event)
            }
            return EncodedJourneyEvent(type: eventType, data: data)
        } catch {
            throw EventCodingError(
                code: .encodingFailed,
                eventType: eventType,
                message: "could not encode \(eventType): \(error)"
            )
        }
    }

    /// Decodes a stored event; unknown type strings throw `unknown_event_type`.
    public init(type: String, data: Data) throws(EventCodingError) {
        try self.init(type: type, data: data, decoder: EventJSON.makeDecoder())
    }

    /// Decodes a stored event with `decoder` (one of ``EventJSON/makeDecoder()``'s, reused over
    /// many events by one thread: making a decoder per event is a measurable share of a rebuild).
    public init(type: String, data: Data, decoder: JSONDecoder) throws(EventCodingError) {
        guard let decode = Self.decoders[type] else {
            throw EventCodingError(
                code: .unknownEventType,
                eventType: type,
                message: "unknown event type \"\(type)\"; known types: \(Self.allEventTypes.joined(separator: ", "))"
            )
        }
        do {
            self = try decode(data, decoder)
        } catch {
            throw EventCodingError(
                code: .malformedEvent,
                eventType: type,
                message: "data is not a valid \(type): \(error)"
            )
        }
    }

    /// Decodes a stored event.
    public init(_ encoded: EncodedJourneyEvent) throws(EventCodingError) {
        try self.init(type: encoded.type, data: encoded.data)
    }

    private typealias Decode = @Sendable (Data, JSONDecoder) throws -> JourneyEvent

    private static let decoders: [String: Decode] = [
        JourneyStarted.eventType: { .journeyStarted(try $1.decode(JourneyStarted.self, from: $0)) },
        ProcessCreationRequested.eventType: {
            .processCreationRequested(try $1.decode(ProcessCreationRequested.self, from: $0))
        },
        ProcessCreated.eventType: { .processCreated(try $1.decode(ProcessCreated.self, from: $0)) },
        ProcessCreationFailed.eventType: { .processCreationFailed(try $1.decode(ProcessCreationFailed.self, from: $0)) },
        TokenIssued.eventType: { .tokenIssued(try $1.decode(TokenIssued.self, from: $0)) },
        CaptureOpened.eventType: { .captureOpened(try $1.decode(CaptureOpened.self, from: $0)) },
        CallbackReceived.eventType: { .callbackReceived(try $1.decode(CallbackReceived.self, from: $0)) },
        WebhookReceived.eventType: { .webhookReceived(try $1.decode(WebhookReceived.self, from: $0)) },
        ResultPending.eventType: { .resultPending(try $1.decode(ResultPending.self, from: $0)) },
        ResultFetched.eventType: { .resultFetched(try $1.decode(ResultFetched.self, from: $0)) },
        TokenExpired.eventType: { .tokenExpired(try $1.decode(TokenExpired.self, from: $0)) },
        AttemptFailed.eventType: { .attemptFailed(try $1.decode(AttemptFailed.self, from: $0)) },
        JourneyCompleted.eventType: { .journeyCompleted(try $1.decode(JourneyCompleted.self, from: $0)) },
        JourneyAbandoned.eventType: { .journeyAbandoned(try $1.decode(JourneyAbandoned.self, from: $0)) },
        RetryAllowed.eventType: { .retryAllowed(try $1.decode(RetryAllowed.self, from: $0)) },
        CaptureClosedByUser.eventType: { .captureClosedByUser(try $1.decode(CaptureClosedByUser.self, from: $0)) },
        CaptureSessionTimedOut.eventType: {
            .captureSessionTimedOut(try $1.decode(CaptureSessionTimedOut.self, from: $0))
        },
        LinkIssued.eventType: { .linkIssued(try $1.decode(LinkIssued.self, from: $0)) },
        SubjectErased.eventType: { .subjectErased(try $1.decode(SubjectErased.self, from: $0)) },
        PersonalDataDisclosed.eventType: {
            .personalDataDisclosed(try $1.decode(PersonalDataDisclosed.self, from: $0))
        },
        JourneyCancelled.eventType: { .journeyCancelled(try $1.decode(JourneyCancelled.self, from: $0)) },
        AttemptReplaced.eventType: { .attemptReplaced(try $1.decode(AttemptReplaced.self, from: $0)) },
        FaceInferenceTimedOut.eventType: { .faceInferenceTimedOut(try $1.decode(FaceInferenceTimedOut.self, from: $0)) },
    ]
}
