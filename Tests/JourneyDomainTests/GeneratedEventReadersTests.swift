import Foundation
import Testing

/// `Events/Generated/EventReaders.swift` is what ops/gen-event-readers.sh writes from today's
/// declarations: its header's fingerprint is that of its input files on disk, and every payload's
/// file is an input.
@Suite("Generated event readers")
struct GeneratedEventReadersTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let generated = "Sources/JourneyDomain/Events/Generated/EventReaders.swift"
    static let events = "Sources/JourneyDomain/Events"

    @Test func generatedReadersMatchTheDeclarations() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(Self.generated), encoding: .utf8)
        let header = text.split(separator: "\n").prefix { $0.hasPrefix("//") }
        let inputs = header.compactMap { $0.hasPrefix("// input: ") ? String($0.dropFirst(10)) : nil }
        let recorded = header.first { $0.hasPrefix("// fingerprint: ") }.map { String($0.dropFirst(16)) }
        let payloads = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent(Self.events).path)
            .filter { $0.hasSuffix(".swift") }.sorted().map { "\(Self.events)/\($0)" }
            .filter { try Self.declaresPayload(String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8)) }
        #expect(!payloads.isEmpty)
        #expect(Set(payloads).subtracting(inputs).isEmpty, "a payload is not read: run ops/gen-event-readers.sh")
        let missing = inputs.filter { !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent($0).path) }
        #expect(missing.isEmpty, "inputs gone: run ops/gen-event-readers.sh")
        guard missing.isEmpty else { return }
        #expect(try Self.fingerprint(inputs) == recorded, "declarations changed: run ops/gen-event-readers.sh")
    }

    /// Whether `source` declares a struct conforming to `JourneyEventPayload`.
    static func declaresPayload(_ source: String) -> Bool {
        source.split(separator: "\n").contains { line in
            line.contains("struct ") && line.contains(": ") && line.contains("JourneyEventPayload")
        }
    }

    /// The generator's fingerprint: FNV-1a 64 over each path and newline, then each of its file's
    /// lines trimmed of blanks, tabs and carriage returns, except empty lines and comments, with a newline.
    static func fingerprint(_ paths: [String]) throws -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        let newline = UInt8(ascii: "\n"), slash = UInt8(ascii: "/")
        let blank: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]
        for path in paths {
            add(path.utf8)
            add([newline])
            let data = try Data(contentsOf: Self.root.appendingPathComponent(path))
            for line in data.split(separator: newline, omittingEmptySubsequences: false) {
                let start = line.firstIndex { !blank.contains($0) } ?? line.endIndex
                let end = line.lastIndex { !blank.contains($0) }.map { line.index(after: $0) } ?? start
                let trimmed = line[start..<end]
                if trimmed.isEmpty || trimmed.starts(with: [slash, slash]) { continue }
                add(trimmed)
                add([newline])
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
