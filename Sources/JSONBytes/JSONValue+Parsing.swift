import Foundation

extension JSONValue {
    /// The value `JSONDecoder().decode(JSONValue.self, from: data)` gives, nil where it throws.
    ///
    /// `JSONDecoder` builds a `JSONValue` by trying Bool, Int, Double, String and array in turn for
    /// every value (a thrown error each), which made decoding Unico's Create Process answer a
    /// visible share of a start's CPU. ``JSONReader`` reads a top-level object or array in one
    /// pass; on anything it refuses (fractions, exponents, `-0`, repeated keys, deep nesting,
    /// fragments, malformed input) `JSONDecoder` decides, so both paths give the same value or
    /// the same refusal.
    public static func parse(_ data: Data) -> JSONValue? {
        let fast = data.withUnsafeBytes { raw -> JSONValue? in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            return try? reader.document()
        }
        if let fast { return fast }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }
}

extension JSONReader {
    /// A whole document whose top level is an object or an array.
    fileprivate mutating func document() throws(JSONReadError) -> JSONValue {
        let first = try peek()
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { throw failure(.unexpectedValue) }
        let value = try value(depth: 0)
        try end()
        return value
    }

    /// Any value; integers that fit `Int` only (other numbers are refused).
    private mutating func value(depth: Int) throws(JSONReadError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw failure(.tooDeep) }
            var object: [String: JSONValue] = [:]
            try members { (reader, key) throws(JSONReadError) in
                let start = reader.offset
                guard object.updateValue(try reader.value(depth: depth + 1), forKey: key) == nil else {
                    throw JSONReadError(.duplicateKey, at: start)
                }
            }
            return .object(object)
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw failure(.tooDeep) }
            var elements: [JSONValue] = []
            try array { (reader) throws(JSONReadError) in elements.append(try reader.value(depth: depth + 1)) }
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try bool())
        case UInt8(ascii: "n"): _ = try null(); return .null
        default: return .integer(try int())
        }
    }
}
