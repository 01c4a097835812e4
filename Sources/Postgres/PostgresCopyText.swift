/// Rows in `COPY`'s text format, built field by field: fields separated by tabs, rows ended by a
/// newline, NULL as `\N`, and backslash, tab, newline and carriage return escaped in values.
public struct PostgresCopyText: Sendable {
    /// The encoded rows so far.
    public private(set) var bytes: [UInt8] = []
    /// Complete rows so far.
    public private(set) var rowCount = 0
    private var fieldsInRow = 0

    public init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    public var isEmpty: Bool { rowCount == 0 && fieldsInRow == 0 }

    /// Appends one field: `value`'s UTF-8 text escaped, or NULL when nil.
    public mutating func append(_ value: String?) {
        guard var text = value else { return appendNull() }
        text.withUTF8 { appendEscaped($0) }
    }

    /// Appends one field holding `value` in decimal, or NULL when nil.
    public mutating func append(_ value: Int64?) {
        guard let value else { return appendNull() }
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends a NULL field.
    public mutating func appendNull() {
        separate()
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "N"))
    }

    /// Appends one field from UTF-8 bytes, escaping what the text format requires.
    public mutating func appendEscaped(_ utf8: some Sequence<UInt8>) {
        separate()
        for byte in utf8 { appendEscapedByte(byte) }
    }

    /// Appends one field from UTF-8 bytes, escaping what the text format requires: a field with
    /// nothing to escape (most) is one bulk copy.
    public mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        if utf8.contains(where: {
            $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }) {
            for byte in utf8 { appendEscapedByte(byte) }
        } else {
            bytes.append(contentsOf: utf8)
        }
    }

    /// Appends one field whose bytes `write` appends to the text directly, escaped already (no raw
    /// backslash, tab, newline or carriage return): a writer that escapes as it goes (JSON with
    /// each backslash doubled) saves an intermediate copy.
    public mutating func appendPreEscaped(_ write: (inout [UInt8]) throws -> Void) rethrows {
        separate()
        try write(&bytes)
    }

    private mutating func appendEscapedByte(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\\"): bytes.append(byte); bytes.append(byte)
        case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
        case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
        default: bytes.append(byte)
        }
    }

    /// Ends the current row.
    public mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
        rowCount += 1
        fieldsInRow = 0
    }

    /// Forgets every row, keeping the storage.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        rowCount = 0
        fieldsInRow = 0
    }

    private mutating func separate() {
        if fieldsInRow > 0 { bytes.append(UInt8(ascii: "\t")) }
        fieldsInRow += 1
    }
}
