import Foundation
import JSONBytes
import Timestamps

/// Read-model rows as a JSON array for the live projection's `json_populate_recordset` upsert,
/// written by hand into ``JSONWriter``: one object per row, keys the column names, NULL values
/// left out, timestamps RFC 3339 text, the state nested as ``JourneyStateJSON``.
enum ReadModelRowsJSON {
    /// `rows` as a JSON array.
    static func states(_ rows: [JourneyStateRow]) throws -> String {
        try array(rows, columns: JourneyStateRow.columns, bytesEach: 2048)
    }

    /// `rows` as a JSON array.
    static func attempts(_ rows: [JourneyAttemptRow]) throws -> String {
        try array(rows, columns: JourneyAttemptRow.columns, bytesEach: 512)
    }

    /// The columns of `rows` the daily rollups read, as a JSON array.
    static func rollupStates(_ rows: [JourneyStateRow]) throws -> String {
        try array(rows, columns: JourneyStateRow.rollupColumns, bytesEach: 320)
    }

    /// The columns of `rows` the daily rollups read, as a JSON array.
    static func rollupAttempts(_ rows: [JourneyAttemptRow]) throws -> String {
        try array(rows, columns: JourneyAttemptRow.rollupColumns, bytesEach: 256)
    }

    /// `rows` as a JSON array of objects holding `columns`.
    static func array<Row>(_ rows: [Row], columns: [ReadModelColumn<Row>], bytesEach: Int) throws -> String {
        var json = JSONWriter(bytes: [], copyEscaped: false)
        json.bytes.reserveCapacity(rows.count * bytesEach)
        json.beginArray()
        for row in rows {
            json.element()
            json.beginObject()
            for column in columns {
                switch column.value(row) {
                case .null: continue
                case .text(let value): json.key(column.name); json.string(value)
                case .int(let value): json.key(column.name); json.int(value)
                case .timestamp(let value):
                    json.key(column.name)
                    json.append("\"")
                    RFC3339.append(value, to: &json.bytes)
                    json.append("\"")
                case .state(let value): json.key(column.name); try JourneyStateJSON.write(value, to: &json)
                }
            }
            json.endObject()
        }
        json.endArray()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
