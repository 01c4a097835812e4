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

    @Test func writesOneJSONLinePerEntryWithLabelLevelAndMergedMetadata() {
        let lines = Lines()
        let logger = Logger(label: "worker", metadata: ["worker_id": "w1", "kind": "base"], sink: lines.sink)
        logger.warning("item failed", metadata: ["kind": "retry"])
        #expect(
            lines.objects == [
                [
                    "level": "warning", "label": "worker", "message": "item failed",
                    "worker_id": "w1", "kind": "retry",
                ]
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
}
