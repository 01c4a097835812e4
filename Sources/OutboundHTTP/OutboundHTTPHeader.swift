/// One header field of a request or an answer, as sent or received (names compare case-insensitively).
public struct OutboundHTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension [OutboundHTTPHeader] {
    /// The first value of the field `name` (case-insensitive), nil when absent.
    public func first(_ name: String) -> String? {
        first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of the field `name` (case-insensitive), in order.
    public func all(_ name: String) -> [String] {
        filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }
}

extension String {
    /// ASCII case-insensitive equality, as HTTP field names compare.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(x | 0x20))
        }
    }
}
