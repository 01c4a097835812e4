import EventStore
import Foundation
import JourneyDomain

extension Journeys {
    private enum TokenStep: Sendable {
        case current(IssuedToken, Environment)
        case newAttempt(AttemptTarget)
    }

    /// A `webAppToken` to open a capture: the current attempt's while its capture has not been
    /// opened (at least 60 s of it left), else a fresh process (a new attempt) if the retry policy
    /// allows. A request that finds another request's Create Process for the attempt in flight
    /// waits for it (up to ``EngineDependencies/tokenCreationWait``) and gets the same token: two
    /// racing requests are one capture and create one process. A reuse the domain does not record
    /// (all but an attempt's first) is answered from the loaded state and writes nothing. The
    /// domain's refusals (ended journey, no attempts left, retry not allowed yet) are thrown as
    /// `DomainError`.
    public func issueToken(_ id: JourneyID, actor: String) async throws -> AttemptOutcome {
        let deadline = ContinuousClock.now.advanced(by: dependencies.tokenCreationWait)
        while true {
            do {
                return try await issueTokenOnce(id, actor: actor)
            } catch let refusal as DomainError where refusal.code == .processCreationPending {
                guard ContinuousClock.now < deadline else { throw refusal }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private func issueTokenOnce(_ id: JourneyID, actor: String) async throws -> AttemptOutcome {
        let metadata = metadata(actor: actor)
        let vault = dependencies.vault
        let step: TokenStep = try await commands.transaction { context in
            let outcome = try context.execute(.issueToken, journey: id, metadata: metadata)
            let state = outcome.state
            guard let attempt = state.currentAttempt, let subject = state.subject, let environment = state.environment,
                let flow = state.flow, let purpose = state.purpose
            else { throw EngineError(.inconsistentState, "a journey with a token has no attempt") }
            if Self.handsOutCurrent(outcome.events, recording: TokenIssued.eventType), let sealed = attempt.webAppToken,
                let expiresAt = state.webAppTokenExpiry(of: attempt)
            {
                let token = try vault.open(
                    sealed, field: SealedName.webAppToken, subject: subject.reference,
                    on: context.connection)
                return .current(
                    IssuedToken(attempt: attempt.number, webAppToken: token, expiresAt: expiresAt),
                    environment)
            }
            return .newAttempt(
                AttemptTarget(
                    journeyID: id, attempt: attempt.number, unicoClientReference: attempt.unicoClientReference,
                    environment: environment, flow: flow, purpose: purpose,
                    subject: try vault.open(subject, on: context.connection), reference: subject.reference,
                    tenant: state.tenant, processLifetime: AttemptTarget.processLifetime(of: state)))
        }
        switch step {
        case .current(let issued, let environment):
            return AttemptOutcome(
                journeyID: id, environment: environment, result: .success(issued),
                decidedAt: dependencies.clock())
        case .newAttempt(let target):
            return try await runAttempt(target, metadata: metadata)
        }
    }

    /// The current attempt's `link`, for an app that cannot use the SDK Lite; its first read per
    /// attempt is recorded as `LinkIssued`, later ones are answered from the loaded state and write
    /// nothing. The domain refuses it when no attempt has a live process.
    public func issueLink(_ id: JourneyID, actor: String) async throws -> IssuedLink {
        let metadata = metadata(actor: actor)
        let vault = dependencies.vault
        return try await commands.transaction { context in
            let known = try context.load(id)
            guard known.version > 0 else { throw EngineError.notFound() }
            let outcome = try context.execute([.issueLink], journey: id, metadata: metadata, known: known)
            guard Self.handsOutCurrent(outcome.events, recording: LinkIssued.eventType),
                let attempt = outcome.state.currentAttempt, let sealed = attempt.link,
                let expiresAt = attempt.tokenExpiresAt, let subject = outcome.state.subject
            else { throw EngineError(.inconsistentState, "a journey with a link has no attempt") }
            let link = try vault.open(sealed, field: SealedName.link, subject: subject.reference, on: context.connection)
            return IssuedLink(attempt: attempt.number, link: link, expiresAt: expiresAt)
        }
    }

    /// True when the decision hands out the current attempt's token or link: it recorded the
    /// hand-out (an event of type `recording`), or decided nothing (a reuse not recorded).
    private static func handsOutCurrent(_ events: [JourneyEvent], recording type: String) -> Bool {
        events.isEmpty || events.contains { $0.eventType == type }
    }
}
