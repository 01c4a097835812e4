import Foundation
import Observability
import Synchronization
import Testing

@Suite struct LoggerTests {
    final class Lines: Sendable {
        let value = Mutex<[String]>([])
        var sink: Logger.Sink { { line in self.value.withLock { $0.append(line) } } }
        var objects: [[String: String]] {
            value.withLock { $0 }.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: String] ?? [:] }
        }
    }

    /// 1_800_000_000.25 = 2027-01-15T08:00:00.250000Z.
    static let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000.25) }

    @Test func writesOneJSONLinePerEntryWithTimeLevelLabelAndMergedMetadata() {
        let lines = Lines()
        let logger = Logger(label: "worker", metadata: ["worker_id": "w1", "kind": "base"], sink: lines.sink, now: Self.now)
        logger.warning("item failed", metadata: ["kind": "retry"])
        #expect(
            lines.objects == [
                [
                    "ts": "2027-01-15T08:00:00.250000Z", "level": "warning", "label": "worker", "message": "item failed",
                    "worker_id": "w1", "kind": "retry",
                ]
            ])
    }

    /// The one schema (``LogLine``): `ts`, `level`, `label`, `message` first, then the metadata by
    /// key; metadata cannot replace the four.
    @Test func keysComeInTheSchemasOrder() {
        let lines = Lines()
        let logger = Logger(
            label: "api", metadata: ["zone": "a", "message": "spoof", "ts": "x"], sink: lines.sink, now: Self.now)
        logger.info("started", metadata: ["address": "127.0.0.1:8080", "level": "error"])
        #expect(
            lines.value.withLock { $0 } == [
                #"{"ts":"2027-01-15T08:00:00.250000Z","level":"info","label":"api","message":"started","#
                    + #""address":"127.0.0.1:8080","zone":"a"}"#
            ])
    }

    @Test func dropsEntriesBelowItsLevel() {
        let lines = Lines()
        let logger = Logger(label: "api", logLevel: .notice, sink: lines.sink)
        logger.debug("noise")
        logger.info("noise")
        logger.notice("kept")
        logger.error("kept too")
        #expect(lines.objects.map { $0["message"] } == ["kept", "kept too"])
    }

    @Test func escapesMessagesSoEveryEntryStaysOneLine() {
        let lines = Lines()
        Logger(label: "x", sink: lines.sink).info("two\nlines \"quoted\"")
        #expect(lines.value.withLock { $0 }.count == 1)
        #expect(!lines.value.withLock { $0 }[0].contains("\n"))
        #expect(lines.objects.first?["message"] == "two\nlines \"quoted\"")
    }

    @Test func escapesControlCharactersAndKeepsOtherTextAsItIs() {
        let lines = Lines()
        Logger(label: "x", sink: lines.sink, now: Self.now).info("tab\there \u{1} back\\slash /path é")
        #expect(lines.value.withLock { $0 }[0].contains(#""message":"tab\there \u0001 back\\slash /path é""#))
        #expect(lines.objects.first?["message"] == "tab\there \u{1} back\\slash /path é")
    }
}
