/// An ordered list of header fields with case-insensitive name lookup.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as received or to be sent.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    public init() {
        fields = []
    }

    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value for `name`, compared case-insensitively; setting replaces all values.
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            remove(name)
            if let newValue { add(name, newValue) }
        }
    }

    /// Every value for `name`, in the order received.
    public func values(for name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Whether a field called `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.same($0.name, name) }
    }

    /// Appends a field, keeping existing fields with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.same($0.name, name) }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// ASCII case-insensitive comparison; header names are ASCII tokens (RFC 9110 §5.1).
    private static func same(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        return zip(lhs.utf8, rhs.utf8).allSatisfy { left, right in
            if left == right { return true }
            let lower = left | 0x20
            return lower == right | 0x20 && lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
        }
    }
}
