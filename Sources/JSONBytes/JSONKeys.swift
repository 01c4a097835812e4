#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An object's known keys for ``JSONReader/object(keys:_:)``, matched by their bytes; at most 64.
public struct JSONKeys: Sendable {
    /// All keys' bytes, one after the other.
    @usableFromInline let bytes: [UInt8]
    /// Per key: its offset in `bytes` and its length.
    @usableFromInline let spans: [(offset: Int, count: Int)]

    /// The keys in slot order: `keys[i]` is reported as slot `i`.
    public init(_ keys: [String]) {
        precondition(keys.count <= 64)
        var bytes: [UInt8] = [], spans: [(offset: Int, count: Int)] = []
        for key in keys {
            spans.append((bytes.count, key.utf8.count))
            bytes += key.utf8
        }
        self.bytes = bytes
        self.spans = spans
    }

    /// No keys: every member is skipped.
    public static let none = JSONKeys([])

    /// The slot of `key`, nil when it is not one of the keys.
    @inlinable
    func slot(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = key.first else { return nil }
        return bytes.withUnsafeBufferPointer { all in
            for (slot, span) in spans.enumerated() where span.count == key.count && all[span.offset] == first {
                if memcmp(all.baseAddress! + span.offset, key.baseAddress!, span.count) == 0 { return slot }
            }
            return nil
        }
    }
}
