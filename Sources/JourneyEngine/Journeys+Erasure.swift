import EventStore
import Foundation
import JourneyDomain

extension Journeys {
    /// Records that the journey's subject was erased (``SubjectErased``), abandoning the journey
    /// first when it is still active; returns false when the journey already carried the mark.
    ///
    /// The subject's data key must already be wiped (``Privacy/SubjectVault/erase(subject:)``):
    /// this only writes the log. `journey_not_found` when the journey has no events.
    public func recordSubjectErased(_ id: JourneyID, erasure: SubjectErasure, actor: String) async throws -> Bool {
        let metadata = metadata(actor: actor)
        let outcome = try await commands.transaction { context in
            let (_, version) = try context.load(id)
            guard version > 0 else { throw EngineError.notFound() }
            return try context.execute(.recordSubjectErased(erasure), journey: id, metadata: metadata)
        }
        return !outcome.events.isEmpty
    }
}
