import Foundation
import JSONBytes

/// ``StateRow`` and ``AttemptRow`` arrays as JSON text for `json_populate_recordset`, written by
/// hand into ``JSONWriter`` (the state nested with ``JourneyStateJSON``): the same members and
/// values as their `Encodable` conformance through `JSONEncoder`, at a fraction of its cost on the
/// live runner's batch.
enum ReadModelRowsJSON {
    /// `rows` as a JSON array.
    static func states(_ rows: [StateRow]) throws -> String {
        try array(rows, bytesEach: 2048) { row, json in try write(row, to: &json) }
    }

    /// `rows` as a JSON array.
    static func attempts(_ rows: [AttemptRow]) -> String {
        array(rows, bytesEach: 512) { row, json in write(row, to: &json) }
    }

    /// The columns of `rows` the daily rollups read, as a JSON array.
    static func rollupStates(_ rows: [StateRow]) -> String {
        array(rows, bytesEach: 320) { row, json in
            json.beginObject()
            json.key("journey_id"); json.string(row.journey_id)
            json.key("status"); json.string(row.status)
            string("environment", row.environment, &json)
            string("flow", row.flow, &json)
            string("purpose", row.purpose, &json)
            json.key("current_attempt"); json.int(row.current_attempt)
            string("started_at", row.started_at, &json)
            string("callback_at", row.callback_at, &json)
            string("result_at", row.result_at, &json)
            string("outcome", row.outcome, &json)
            json.key("tenant"); json.string(row.tenant)
            json.endObject()
        }
    }

    /// The columns of `rows` the daily rollups read, as a JSON array.
    static func rollupAttempts(_ rows: [AttemptRow]) -> String {
        array(rows, bytesEach: 256) { row, json in
            json.beginObject()
            json.key("journey_id"); json.string(row.journey_id)
            json.key("attempt"); json.int(row.attempt)
            string("token_issued_at", row.token_issued_at, &json)
            string("capture_opened_at", row.capture_opened_at, &json)
            string("callback_outcome", row.callback_outcome, &json)
            string("result_fetched_at", row.result_fetched_at, &json)
            string("closed_by_user_at", row.closed_by_user_at, &json)
            string("session_timed_out_at", row.session_timed_out_at, &json)
            string("error", row.error, &json)
            int("sdk_error_code", row.sdk_error_code, &json)
            json.endObject()
        }
    }

    /// `rows` as a JSON array, each element written by `element`.
    private static func array<Row>(
        _ rows: [Row], bytesEach: Int,
        _ element: (Row, inout JSONWriter) throws -> Void
    ) rethrows -> String {
        var json = JSONWriter(bytes: [], copyEscaped: false)
        json.bytes.reserveCapacity(rows.count * bytesEach)
        json.beginArray()
        for row in rows {
            json.element()
            try element(row, &json)
        }
        json.endArray()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    static func write(_ row: StateRow, to json: inout JSONWriter) throws {
        json.beginObject()
        json.key("journey_id"); json.string(row.journey_id)
        json.key("status"); json.string(row.status)
        string("environment", row.environment, &json)
        string("flow", row.flow, &json)
        string("purpose", row.purpose, &json)
        string("client_reference", row.client_reference, &json)
        string("subject_reference", row.subject_reference, &json)
        json.key("current_attempt"); json.int(row.current_attempt)
        string("current_process_id", row.current_process_id, &json)
        string("token_expires_at", row.token_expires_at, &json)
        int("last_error_code", row.last_error_code, &json)
        string("started_at", row.started_at, &json)
        string("captured_at", row.captured_at, &json)
        string("callback_at", row.callback_at, &json)
        string("result_at", row.result_at, &json)
        string("completed_at", row.completed_at, &json)
        string("abandoned_at", row.abandoned_at, &json)
        string("outcome", row.outcome, &json)
        string("next_due_at", row.next_due_at, &json)
        string("next_due_kind", row.next_due_kind, &json)
        json.key("version"); json.int(Int(row.version))
        json.key("updated_position"); json.int(Int(row.updated_position))
        json.key("state"); try JourneyStateJSON.write(row.state, to: &json)
        string("updated_at", row.updated_at, &json)
        int("next_due_attempt", row.next_due_attempt, &json)
        json.key("tenant"); json.string(row.tenant)
        json.endObject()
    }

    static func write(_ row: AttemptRow, to json: inout JSONWriter) {
        json.beginObject()
        json.key("journey_id"); json.string(row.journey_id)
        json.key("attempt"); json.int(row.attempt)
        string("process_id", row.process_id, &json)
        string("requested_at", row.requested_at, &json)
        string("created_at", row.created_at, &json)
        string("token_expires_at", row.token_expires_at, &json)
        string("capture_opened_at", row.capture_opened_at, &json)
        string("callback_at", row.callback_at, &json)
        string("result_fetched_at", row.result_fetched_at, &json)
        string("outcome", row.outcome, &json)
        string("error", row.error, &json)
        string("token_issued_at", row.token_issued_at, &json)
        string("callback_outcome", row.callback_outcome, &json)
        int("sdk_error_code", row.sdk_error_code, &json)
        string("closed_by_user_at", row.closed_by_user_at, &json)
        string("session_timed_out_at", row.session_timed_out_at, &json)
        string("link_issued_at", row.link_issued_at, &json)
        json.endObject()
    }

    private static func string(_ key: StaticString, _ value: String?, _ json: inout JSONWriter) {
        guard let value else { return }
        json.key(key)
        json.string(value)
    }

    private static func int(_ key: StaticString, _ value: Int?, _ json: inout JSONWriter) {
        guard let value else { return }
        json.key(key)
        json.int(value)
    }
}
