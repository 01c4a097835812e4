/// One append of a group (`EventStore.appendGroup`), and what became of it.
struct GroupedAppend: Sendable {
    let events: [NewEvent]
    let stream: StreamName
    let expected: ExpectedVersion

    enum Outcome: Sendable {
        /// Written by the group, or found already written (idempotent retry).
        case written(AppendResult)
        /// Refused alone, with the direct path's error; nothing written.
        case refused(EventStoreError)
        /// Not taken by the group (stream locked elsewhere, order conflict, group failed):
        /// nothing written; append it on its own.
        case alone
    }

    /// The outcome of `code` (schema 0027) given the append's version and positions.
    func outcome(code: Int64, version: Int64?, positions: [Int64?]) -> Outcome {
        switch code {
        case 0, 1:
            let written = positions.compactMap { $0 }
            guard let version, written.count == events.count else { return .alone }
            return .written(AppendResult(positions: written, streamVersion: version))
        case 2:
            return .refused(EventStoreError.wrongVersion(stream: stream, expected: expected, current: version))
        case 3:
            return .refused(EventStoreError(.duplicateEventID, "an event id of this append is already stored elsewhere"))
        case 5:
            return .refused(EventStoreError(.invalidEvent, "stream name is empty"))
        default:
            return .alone
        }
    }
}
