// The typed reads of one value each: Booleans, numbers and strings.

extension JSONReader {
    @inlinable
    public mutating func bool() throws(JSONReadError) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw failure(.unexpectedValue)
        }
    }

    /// A plain integer (`-?(0|[1-9][0-9]*)`) that fits an `Int`; `-0`, fractions and exponents are refused.
    @inlinable
    public mutating func int() throws(JSONReadError) -> Int {
        var negative = false
        if try peek() == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        let start = position
        var value = 0
        while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 {
            let digit = Int(bytes[position] &- UInt8(ascii: "0"))
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !o1, !o2 else { throw JSONReadError(.numberOutOfRange, at: start) }
            value = sum
            position += 1
        }
        let digits = position - start
        guard digits > 0 else { throw failure(negative ? .syntax : .unexpectedValue) }
        guard !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { throw JSONReadError(.syntax, at: start) }
        guard !(negative && value == 0) else { throw JSONReadError(.numberOutOfRange, at: start) }
        if position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): throw JSONReadError(.numberOutOfRange, at: start)
            default: break
            }
        }
        return value
    }

    /// A JSON number as a finite `Double` (correctly rounded, as `JSONDecoder` reads it).
    @inlinable
    public mutating func double() throws(JSONReadError) -> Double {
        let start = position
        let text = try numberText()
        guard let value = Double(text), value.isFinite else { throw JSONReadError(.numberOutOfRange, at: start) }
        return value
    }

    /// The text of a number in JSON's grammar (at most 64 bytes).
    @usableFromInline
    mutating func numberText() throws(JSONReadError) -> Substring {
        skipSpace()
        let start = position
        func digits(_ reader: inout JSONReader) -> Int {
            let from = reader.position
            while reader.position < reader.bytes.count, reader.bytes[reader.position] &- UInt8(ascii: "0") < 10 {
                reader.position += 1
            }
            return reader.position - from
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let intStart = position
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw failure(position == start ? .unexpectedValue : .syntax) }
        guard !(intDigits > 1 && bytes[intStart] == UInt8(ascii: "0")) else { throw JSONReadError(.syntax, at: intStart) }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw failure(.syntax) }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits(&self) > 0 else { throw failure(.syntax) }
        }
        guard position - start <= 64 else { throw JSONReadError(.numberOutOfRange, at: start) }
        return Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// A string, escapes resolved; invalid UTF-8, raw control characters and lone surrogates are refused.
    @inlinable
    public mutating func string() throws(JSONReadError) -> String {
        guard try peek() == UInt8(ascii: "\"") else { throw failure(.unexpectedValue) }
        position += 1
        let start = position
        var high: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            high |= byte
            if byte == UInt8(ascii: "\"") {
                defer { position += 1 }
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                return high < 0x80 ? String(decoding: slice, as: UTF8.self) : try Self.validated(slice, at: start)
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw failure(.invalidString) }
            position += 1
        }
        throw failure(.syntax)
    }

    /// An array of strings.
    @inlinable
    public mutating func strings() throws(JSONReadError) -> [String] {
        var values: [String] = []
        try array { (reader) throws(JSONReadError) in values.append(try reader.string()) }
        return values
    }

    /// A string-backed enumeration; unknown raw values are refused.
    @inlinable
    public mutating func raw<T: RawRepresentable>(_ type: T.Type) throws(JSONReadError) -> T where T.RawValue == String {
        let start = position
        guard let value = T(rawValue: try string()) else { throw JSONReadError(.unexpectedValue, at: start) }
        return value
    }

    /// The slice as a `String`; invalid UTF-8 is refused. (`String(validating:as:)` runs
    /// unspecialized here, a generic-metadata lookup per string.) Decoding repairs invalid
    /// sequences with U+FFFD, so the bytes come back unchanged exactly when they were valid.
    @usableFromInline
    static func validated(_ slice: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONReadError) -> String {
        let text = String(decoding: slice, as: UTF8.self)
        guard text.utf8.elementsEqual(slice) else { throw JSONReadError(.invalidString, at: start) }
        return text
    }

    @usableFromInline
    mutating func escapedString(from start: Int) throws(JSONReadError) -> String {
        var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try out.withUnsafeBufferPointer { (buffer) throws(JSONReadError) in
                    try Self.validated(buffer, at: start)
                }
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw failure(.syntax) }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: UTF8.encode(try unicodeEscape(at: position - 2))!)
                default: throw JSONReadError(.invalidString, at: position - 2)
                }
            default:
                guard byte >= 0x20 else { throw JSONReadError(.invalidString, at: position - 1) }
                out.append(byte)
            }
        }
        throw failure(.syntax)
    }

    /// The scalar of a `\uXXXX` escape (a surrogate pair takes two) whose backslash is at `escape`.
    private mutating func unicodeEscape(at escape: Int) throws(JSONReadError) -> Unicode.Scalar {
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else {
                throw JSONReadError(.invalidString, at: escape)
            }
            position += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw JSONReadError(.invalidString, at: escape) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        // A lone low surrogate is no scalar.
        guard let unicode = Unicode.Scalar(scalar) else { throw JSONReadError(.invalidString, at: escape) }
        return unicode
    }

    private mutating func hex4() throws(JSONReadError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure(.invalidString) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure(.invalidString)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
