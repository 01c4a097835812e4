import Foundation

/// The URL- and filename-safe base64 alphabet of RFC 4648 §5, unpadded on output (as JWS uses it).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = UInt8(index) }
        return table
    }()

    /// Encodes `data` without `=` padding.
    public static func encode(_ data: some DataProtocol) -> String {
        let bytes = Array(data)
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(contentsOf: [18, 12, 6, 0].map { alphabet[Int((n >> $0) & 0x3F)] })
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let n = UInt32(bytes[index]) << 16
            out.append(contentsOf: [18, 12].map { alphabet[Int((n >> $0) & 0x3F)] })
        case 2:
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(contentsOf: [18, 12, 6].map { alphabet[Int((n >> $0) & 0x3F)] })
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64url with or without trailing `=` padding.
    ///
    /// Returns nil for characters outside the alphabet (including `+`, `/` and whitespace),
    /// impossible lengths, misplaced padding, or non-zero trailing bits (non-canonical input).
    public static func decode(_ string: some StringProtocol) -> Data? {
        var chars = Array(string.utf8)
        if let firstPad = chars.firstIndex(of: UInt8(ascii: "=")) {
            let padding = chars.count - firstPad
            guard chars.count % 4 == 0, padding <= 2,
                chars[firstPad...].allSatisfy({ $0 == UInt8(ascii: "=") })
            else { return nil }
            chars.removeLast(padding)
            guard chars.count % 4 == 4 - padding else { return nil }
        }
        guard chars.count % 4 != 1 else { return nil }
        var out = Data(capacity: chars.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for char in chars {
            let value = reverse[Int(char)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((accumulator >> UInt32(bits)) & 0xFF))
            }
        }
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }
}
