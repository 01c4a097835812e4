import Foundation

/// Internal helpers for handing Swift bytes to C.
enum Bytes {
    /// Calls `body` with contiguous bytes of `data`, copying only if `data` is fragmented.
    static func with<D: DataProtocol, R>(
        _ data: D, _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        if data.regions.count == 1, let region = data.regions.first {
            return try region.withUnsafeBytes(body)
        }
        return try Array(data).withUnsafeBytes(body)
    }

    /// Like ``with(_:_:)`` but never passes a nil base address, which some OpenSSL calls reject.
    static func withNonNil<D: DataProtocol, R>(
        _ data: D, _ body: (UnsafePointer<UInt8>, Int) throws -> R
    ) rethrows -> R {
        try with(data) { raw in
            if let base = raw.baseAddress, raw.count > 0 {
                return try body(base.assumingMemoryBound(to: UInt8.self), raw.count)
            }
            var zero: UInt8 = 0
            return try withUnsafePointer(to: &zero) { try body($0, 0) }
        }
    }
}
