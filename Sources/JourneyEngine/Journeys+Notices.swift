import Foundation
import JourneyDomain

/// What fetching a result right after a callback or a webhook came to. A failure is reported,
/// not thrown: the journey stays `awaitingResult` and its `nextDue` asks a worker to fetch again.
public enum ImmediateFetch: Sendable {
    /// No attempt awaited a result: nothing was called.
    case skipped
    case done(ResultFetch)
    case failed(any Error)
}

/// What Unico's webhook came to.
public enum WebhookOutcome: Sendable {
    /// No journey created the process: recorded as `UnmatchedWebhookReceived`.
    case unknownProcess
    /// The caller's credentials may not touch the process's journey: nothing recorded.
    case foreignTenant(JourneyID)
    /// Recorded on the journey, then the result fetched; the journey's status after.
    case recorded(JourneyID, status: JourneyStatus, fetch: ImmediateFetch)
}

/// The notices that a capture ended, Unico's webhook and the app's callback: each is recorded,
/// then Get Process decides the outcome, awaited by the caller (so every Unico call is owned by
/// a request task, nothing detached to leak or lose at shutdown) and never failing the notice.
extension Journeys {
    /// Records Unico's webhook about `notice.processID` and fetches its journey's result.
    /// `may(tenant, environment)`, when given, says whether the caller's credentials may touch
    /// the journey (tenants with credentials of their own); when they may not, the webhook is
    /// answered exactly as one about a process no journey created.
    public func receiveWebhook(
        _ notice: WebhookNotice, flow: String?, may: (@Sendable (String, Environment?) -> Bool)? = nil
    ) async throws -> WebhookOutcome {
        guard let id = try await journey(ofProcess: notice.processID) else {
            try await recordUnmatchedWebhook(notice, flow: flow)
            return .unknownProcess
        }
        if let may {
            let owner = try await state(of: id)
            guard may(owner.tenantName, owner.environment) else { return .foreignTenant(id) }
        }
        try await recordWebhook(notice, journey: id)
        let fetch = await fetchNow(id)
        return .recorded(id, status: try await state(of: id).status, fetch: fetch)
    }

    /// After the app's callback left `state`: fetches the result when an attempt awaits it; the
    /// journey's state after (`state` itself when nothing was fetched).
    public func fetchAfterCallback(_ id: JourneyID, state: JourneyState) async throws -> (JourneyState, ImmediateFetch) {
        guard !state.attemptsAwaitingResult.isEmpty else { return (state, .skipped) }
        let fetch = await fetchNow(id)
        return (try await self.state(of: id), fetch)
    }

    /// Fetches the journey's result now, reporting a failure instead of throwing it.
    public func fetchNow(_ id: JourneyID) async -> ImmediateFetch {
        do {
            return .done(try await fetchResult(id))
        } catch {
            return .failed(error)
        }
    }
}
