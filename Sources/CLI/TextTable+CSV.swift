extension TextTable {
    /// The table as CSV (RFC 4180 quoting, `\n` line ends), titles first, cells unpadded.
    public func csv() -> String {
        ([columns.map(\.title)] + rows).map { row in
            row.map(Self.csvField).joined(separator: ",") + "\n"
        }.joined()
    }

    /// A field quoted when it holds a comma, quote or line break; inner quotes doubled.
    static func csvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacing("\"", with: "\"\"") + "\""
    }
}
