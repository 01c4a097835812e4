/// Input of `.recordWebhook`: Unico's payload `{"processId","state","flow","result"}`, authenticated upstream.
public struct WebhookNotice: Hashable, Sendable {
    public var processID: ProcessID
    public var state: String
    public var result: String?
    public var lastEvent: String?

    public init(processID: ProcessID, state: String, result: String? = nil, lastEvent: String? = nil) {
        self.processID = processID
        self.state = state
        self.result = result
        self.lastEvent = lastEvent
    }
}
