/// Hand-written matchers for the Create Process body's fixed shapes. Each equals the regex in
/// its doc (tested against it); a regex literal compiled on every request cost more CPU than the
/// rest of the request's validation.
enum FieldShapes {
    /// `DUI_TYPE_[A-Z]{2}_[A-Z0-9_]+`, whole string.
    static func isDUIType(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let prefix = Array("DUI_TYPE_".utf8)
        guard bytes.count >= prefix.count + 4, bytes.starts(with: prefix) else { return false }
        let rest = bytes[prefix.count...]
        let country = rest.prefix(2)
        guard country.allSatisfy(isUpper), rest.dropFirst(2).first == UInt8(ascii: "_") else { return false }
        return rest.dropFirst(3).allSatisfy { isUpper($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// `\+?[0-9]{8,15}`, whole string.
    static func isPhone(_ text: String) -> Bool {
        var digits = Substring(text).utf8[...]
        if digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        return (8...15).contains(digits.count) && digits.allSatisfy(isDigit)
    }

    /// `[0-9]{1,10}(\.[0-9]{1,9})?s`, whole string.
    static func isDuration(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.last == UInt8(ascii: "s") else { return false }
        let number = bytes.dropLast()
        let parts = number.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, (1...10).contains(whole.count), whole.allSatisfy(isDigit) else { return false }
        guard parts.count == 2 else { return true }
        return (1...9).contains(parts[1].count) && parts[1].allSatisfy(isDigit)
    }

    private static func isUpper(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
