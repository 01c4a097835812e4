/// A strict, allocation-light cursor over JSON bytes (UTF-8): the caller reads the values it
/// expects, in order, and anything else throws a ``JSONReadError`` naming the byte offset.
///
/// Reads exactly what `JSONDecoder` reads the same way and refuses the rest (escaped keys in
/// ``object(keys:_:)``, repeated keys, numbers an `Int` cannot hold exactly, lone surrogates,
/// invalid UTF-8, nesting deeper than 64), so a caller may fall back to `JSONDecoder` on any error
/// and get the same values or the same refusal.
///
/// The reads are `@inlinable`: a caller's closures and loops compile into one piece with them, as
/// they did when each caller had its own reader.
public struct JSONReader {
    /// Containers nested deeper than this are refused.
    public static let maximumDepth = 64

    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var position = 0

    /// The offset of the next byte to read.
    public var offset: Int { position }

    @inlinable
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// An error of kind `code` at the current offset.
    @inlinable
    public func failure(_ code: JSONReadError.Code) -> JSONReadError {
        JSONReadError(code, at: position)
    }

    // MARK: - Structure

    @inlinable
    mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The next byte after whitespace, not consumed.
    @inlinable
    public mutating func peek() throws(JSONReadError) -> UInt8 {
        skipSpace()
        guard position < bytes.count else { throw failure(.syntax) }
        return bytes[position]
    }

    @inlinable
    mutating func expect(_ byte: UInt8) throws(JSONReadError) {
        guard try peek() == byte else { throw failure(.syntax) }
        position += 1
    }

    /// Only whitespace is left.
    @inlinable
    public mutating func end() throws(JSONReadError) {
        skipSpace()
        guard position == bytes.count else { throw failure(.syntax) }
    }

    /// Reads an object, calling `field` with each key's index in `keys` (keys it does not list
    /// are skipped, their values checked). Escaped or non-ASCII keys and a key given twice are refused.
    @inlinable
    public mutating func object(
        keys: JSONKeys, _ field: (inout JSONReader, Int) throws(JSONReadError) -> Void
    ) throws(JSONReadError) {
        try expect(UInt8(ascii: "{"))
        var seen: UInt64 = 0
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            let keyOffset = position
            let key = try rawKey()
            try expect(UInt8(ascii: ":"))
            if let slot = keys.slot(of: key) {
                let bit: UInt64 = 1 << UInt64(slot)
                guard seen & bit == 0 else { throw JSONReadError(.duplicateKey, at: keyOffset) }
                seen |= bit
                try field(&self, slot)
            } else {
                try skipValue(depth: 0)
            }
            if try endOfMember() { return }
        }
    }

    /// Reads an object with any keys (escapes resolved), calling `member` with each key in order;
    /// repeated keys are the caller's to refuse.
    public mutating func members(_ member: (inout JSONReader, String) throws(JSONReadError) -> Void) throws(JSONReadError) {
        try expect(UInt8(ascii: "{"))
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            if try endOfMember() { return }
        }
    }

    /// Consumes the `,` or `}` after an object member; true after the `}`.
    @inlinable
    mutating func endOfMember() throws(JSONReadError) -> Bool {
        switch try peek() {
        case UInt8(ascii: ","): position += 1; return false
        case UInt8(ascii: "}"): position += 1; return true
        default: throw failure(.syntax)
        }
    }

    /// A key's bytes, unescaped ASCII only.
    @inlinable
    mutating func rawKey() throws(JSONReadError) -> UnsafeBufferPointer<UInt8> {
        try expect(UInt8(ascii: "\""))
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                defer { position += 1 }
                return UnsafeBufferPointer(rebasing: bytes[start..<position])
            }
            guard byte >= 0x20 else { throw failure(.invalidString) }
            guard byte != UInt8(ascii: "\\"), byte < 0x80 else { throw failure(.unsupportedKey) }
            position += 1
        }
        throw failure(.syntax)
    }

    /// Reads an array, calling `element` once per element.
    @inlinable
    public mutating func array(_ element: (inout JSONReader) throws(JSONReadError) -> Void) throws(JSONReadError) {
        try expect(UInt8(ascii: "["))
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            try element(&self)
            switch try peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return
            default: throw failure(.syntax)
            }
        }
    }

    /// True (and consumed) when the next value is `null`.
    @inlinable
    public mutating func null() throws(JSONReadError) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// `nil` for `null`, else `read`'s value (an absent key stays nil at the caller).
    @inlinable
    public mutating func optional<T>(_ read: (inout JSONReader) throws(JSONReadError) -> T) throws(JSONReadError) -> T? {
        if try null() { return nil }
        return try read(&self)
    }

    @inlinable
    mutating func literal(_ word: StaticString) throws(JSONReadError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw failure(.syntax) }
        let base = word.utf8Start
        for index in 0..<count where bytes[position + index] != base[index] { throw failure(.syntax) }
        position += count
    }

    /// Skips any valid value, checking it as strictly as the typed reads do; `depth` counts the
    /// containers already open around it.
    public mutating func skipValue(depth: Int = 0) throws(JSONReadError) {
        guard depth < Self.maximumDepth else { throw failure(.tooDeep) }
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "{"):
            try object(keys: .none) { (reader, _) throws(JSONReadError) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["): try array { (reader) throws(JSONReadError) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try numberText()
        default: throw failure(.syntax)
        }
    }
}
