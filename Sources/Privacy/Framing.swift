import Foundation

/// Unambiguous byte strings for MACs and AAD: a purpose label, then each part length-prefixed.
enum Framing {
    /// `label || 0x00 || (u32 big-endian length || UTF-8 bytes)` for each part.
    static func frame(_ label: String, _ parts: String...) -> Data {
        var out = Data(label.utf8)
        out.append(0)
        for part in parts {
            let bytes = Data(part.utf8)
            withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { out.append(contentsOf: $0) }
            out.append(bytes)
        }
        return out
    }
}
