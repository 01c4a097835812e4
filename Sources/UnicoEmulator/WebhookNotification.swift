/// The webhook payload Unico sends when a process reaches `PROCESS_STATE_FINISHED`.
///
/// `result` is `ok`, `expired` or `invalid_identity` as documented; a process finished with
/// `PROCESS_RESULT_ERROR` is announced as `error` (undocumented, the emulator's choice).
/// `lastEvent` and `lastEventDescription` accompany `expired` only.
public struct WebhookNotification: Codable, Sendable, Hashable {
    public var processId: String
    public var state: String
    public var flow: String
    public var result: String
    public var lastEvent: String?
    public var lastEventDescription: String?

    init(_ process: UnicoEmulator.ProcessRecord) {
        processId = process.id
        state = process.state.rawValue
        flow = process.flow
        result = process.result.webhookValue
        if process.result == .expired {
            lastEvent = process.lastEvent
            lastEventDescription = Self.describe(process.lastEvent)
        }
    }

    private static func describe(_ event: String?) -> String? {
        switch event {
        case "EVENT_TYPE_SESSION_ENDED": "Session ended by timeout or by new session created"
        case "EVENT_TYPE_PROCESS_CREATED": "Process created"
        case nil: nil
        default: "Process expired"
        }
    }
}
