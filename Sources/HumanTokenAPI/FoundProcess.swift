import Cryptography
import Foundation
import JSONBytes

/// One process found by ``HumanTokenAPIClient/findProcesses(clientReference:priority:)``.
///
/// The lookup is ASSUMED (Unico documents `clientReference` as indexed but no search endpoint):
/// ``created`` is present only when the answer carries the tokens, as the emulator's does.
public struct FoundProcess: Sendable, Hashable, CustomStringConvertible {
    /// What Get Process would say about it.
    public let snapshot: UnicoProcessSnapshot
    /// The Create Process fields (id, tokens, link), when the lookup returned them.
    public let created: CreatedProcess?

    public init(snapshot: UnicoProcessSnapshot, created: CreatedProcess?) {
        self.snapshot = snapshot
        self.created = created
    }

    /// Reads one entry of the lookup's `processes` array.
    init(json: JSONValue) throws {
        snapshot = try UnicoProcessSnapshot(json: json)
        created = try? CreatedProcess(json: json)
    }

    public var description: String {
        "FoundProcess(id: \(snapshot.id), state: \(snapshot.state), tokens: \(created == nil ? "absent" : "<redacted>"))"
    }
}
