/// JSON text written by hand straight into a byte buffer, as `JSONEncoder` writes it (same escapes
/// and numbers; keys in the caller's order), optionally escaped for a PostgreSQL `COPY` text field
/// in the same pass: JSON holds no raw tab, newline or carriage return, so that is writing each
/// backslash twice.
public struct JSONWriter {
    public var bytes: [UInt8]
    /// Each backslash is written twice (the JSON is a `COPY` text field).
    public let copyEscaped: Bool
    /// Open containers (at most 64), one bit each: set once the container holds an element.
    private var filled: UInt64 = 0
    private var depth = 0

    public init(bytes: [UInt8] = [], copyEscaped: Bool) {
        self.bytes = bytes
        self.copyEscaped = copyEscaped
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts the member `name` (no escaping needed) of the innermost object.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts an element of the innermost array.
    public mutating func element() { separate() }

    public mutating func bool(_ value: Bool) {
        if value { append("true") } else { append("false") }
    }

    /// `value` in decimal, without an intermediate `String`.
    public mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64's 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: buffer[start...])
        }
    }

    /// `value` as `JSONEncoder` writes it: shortest round-trip text, no `.0` on integral values.
    public mutating func double(_ value: Double) throws(JSONWriteError) {
        guard value.isFinite else {
            throw JSONWriteError(.unrepresentableNumber, message: "\(value) is not representable in JSON")
        }
        if value == value.rounded(.towardZero), value.magnitude < 1e15, !(value == 0 && value.sign == .minus) {
            return int(Int(value))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `value` quoted: `"` and `\` escaped, newline, return and tab as `\n`, `\r`, `\t`, other
    /// control characters as `\u00XX`, everything else (`/` too) as is.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: utf8)
            } else {
                for byte in utf8 { escaped(byte) }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// A raw value (no escaping needed): a literal.
    public mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func escaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): backslash(); bytes.append(byte)
        case UInt8(ascii: "\\"): backslash(); backslash()
        case UInt8(ascii: "\n"): backslash(); bytes.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): backslash(); bytes.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): backslash(); bytes.append(UInt8(ascii: "t"))
        case 0..<0x20:
            backslash()
            append("u00")
            bytes.append(Self.hex[Int(byte >> 4)])
            bytes.append(Self.hex[Int(byte & 0xF)])
        default: bytes.append(byte)
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func backslash() {
        bytes.append(UInt8(ascii: "\\"))
        if copyEscaped { bytes.append(UInt8(ascii: "\\")) }
    }

    private mutating func open(_ byte: UInt8) {
        bytes.append(byte)
        depth += 1
        filled &= ~(1 << UInt64(depth & 63))
    }

    private mutating func close(_ byte: UInt8) {
        bytes.append(byte)
        depth -= 1
    }

    /// The comma before every element of the innermost container but its first.
    private mutating func separate() {
        let bit: UInt64 = 1 << UInt64(depth & 63)
        if filled & bit != 0 { bytes.append(UInt8(ascii: ",")) } else { filled |= bit }
    }
}
