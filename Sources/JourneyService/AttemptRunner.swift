import EventStore
import Foundation
import HTTPServer
import HumanTokenAPI
import JourneyDomain
import Postgres
import Privacy

/// Creates the Unico process of a recorded attempt, outside any transaction, then records the
/// outcome (process created and token issued, or the failed creation) in one transaction.
///
/// A Create Process without an answer (`timeout`, `transport`) records nothing: the intent stays
/// open and a worker reconciles it by client reference (``JourneyState/nextDue``
/// `reconcileProcessCreation`), so one attempt never gets two processes.
public struct AttemptRunner: Sendable {
    /// A `webAppToken` handed to the app.
    struct Issued: Sendable {
        var attempt: Int
        var webAppToken: String
        var expiresAt: Date
    }

    /// What the runner needs to know about the journey and its attempt.
    public struct Target: Sendable {
        public var journeyID: JourneyID
        public var attempt: Int
        public var unicoClientReference: String
        public var environment: Environment
        public var flow: Flow
        public var purpose: Purpose
        public var subject: ValidatedSubject
        public var reference: SubjectReference

        public init(journeyID: JourneyID, attempt: Int, unicoClientReference: String, environment: Environment,
                    flow: Flow, purpose: Purpose, subject: ValidatedSubject, reference: SubjectReference) {
            self.journeyID = journeyID
            self.attempt = attempt
            self.unicoClientReference = unicoClientReference
            self.environment = environment
            self.flow = flow
            self.purpose = purpose
            self.subject = subject
            self.reference = reference
        }

        /// The target of the journey's current attempt, its subject opened with `vault` on `connection`;
        /// nil before the journey started.
        public static func current(_ state: JourneyState, vault: SubjectVault,
                                   on connection: PostgresConnection) throws -> Target? {
            guard let id = state.journeyID, let attempt = state.currentAttempt, let subject = state.subject,
                  let environment = state.environment, let flow = state.flow, let purpose = state.purpose
            else { return nil }
            return Target(journeyID: id, attempt: attempt.number, unicoClientReference: attempt.unicoClientReference,
                          environment: environment, flow: flow, purpose: purpose,
                          subject: try vault.open(subject, on: connection), reference: subject.reference)
        }
    }

    /// Field names Unico's secrets are sealed under.
    public enum SealedName {
        public static let webAppToken = "webAppToken"
        public static let processToken = "processToken"
        public static let link = "link"
    }

    /// True when Create Process got no answer (`timeout`, `transport`): the process may exist, so
    /// the intent is left open for reconciliation instead of recording a failure.
    public static func leavesIntentOpen(_ error: HumanTokenAPIError) -> Bool {
        error.code == .timeout || error.code == .transport
    }

    /// The failure recorded for a Create Process that answered with an error.
    public static func failure(_ error: HumanTokenAPIError) -> ProcessCreationFailure {
        ProcessCreationFailure(
            httpStatus: error.status, errorCode: error.unicoCode.flatMap { Int($0) },
            message: "Create Process failed: \(error.code.rawValue)",
            retryable: error.code == .unauthorized || error.code == .configuration ? false : nil,
            retryAfter: error.retryAfter.map(TimeInterval.init))
    }

    let writer: JourneyWriter
    let dependencies: JourneyDependencies

    /// Runs the attempt; `respond` turns its outcome into the answer, and `store` (if any) saves
    /// that answer in the transaction that records the outcome.
    func run(
        _ target: Target, metadata: EventMetadata,
        respond: @escaping @Sendable (Result<Issued, Problem>, Date) throws -> HTTPResponse,
        store: (@Sendable (HTTPResponse, PostgresConnection) throws -> Void)? = nil
    ) async throws -> HTTPResponse {
        let outcome: Result<CreatedProcess, HumanTokenAPIError>
        let missingClient = dependencies.unico[target.environment] == nil
        if let unico = dependencies.unico[target.environment] {
            outcome = await Self.create(target, with: unico)
        } else {
            outcome = .failure(HumanTokenAPIError(.configuration, "no Unico client for the environment"))
        }
        let vault = dependencies.vault
        return try await writer.transaction { connection, now in
            let result: Result<Issued, Problem>
            switch outcome {
            case .success(let process):
                result = .success(try Self.record(process, target: target, metadata: metadata, now: now,
                                                  vault: vault, on: connection))
            case .failure(let error) where Self.leavesIntentOpen(error) && !missingClient:
                result = .failure(Problem.unico(error))
            case .failure(let error):
                _ = try JourneyWriter.execute(.recordProcessCreationFailed(attempt: target.attempt, failure: Self.failure(error)),
                                              journey: target.journeyID, metadata: metadata, now: now, on: connection)
                result = .failure(missingClient ? Problem.unicoNotConfigured(target.environment) : Problem.unico(error))
            }
            let response = try respond(result, now)
            try store?(response, connection)
            return response
        }
    }

    /// Calls Create Process for `target` with its deterministic client reference; never throws.
    public static func create(_ target: Target, with unico: HumanTokenAPIClient,
                              priority: RequestPriority = .live) async -> Result<CreatedProcess, HumanTokenAPIError> {
        let subject = target.subject
        let person = ProcessPerson(
            duiType: .init(rawValue: subject.documentType.rawValue), duiValue: subject.documentNumber,
            friendlyName: subject.friendlyName, phone: subject.phone, email: subject.email,
            notifications: subject.notificationChannels.map { ProcessNotification(.init(rawValue: $0.rawValue)) })
        let request = CreateProcessRequest(
            flow: target.flow.rawValue, purpose: .init(rawValue: target.purpose.rawValue), person: person,
            clientReference: target.unicoClientReference)
        do {
            return .success(try await unico.createProcess(request, priority: priority))
        } catch let error as HumanTokenAPIError {
            return .failure(error)
        } catch {
            return .failure(HumanTokenAPIError(.transport, "Create Process did not complete"))
        }
    }

    /// Records the created process (its secrets sealed) and the token's issuance.
    static func record(_ process: CreatedProcess, target: Target, metadata: EventMetadata, now: Date,
                       vault: SubjectVault, on connection: PostgresConnection) throws -> Issued {
        try recordCreated(process, target: target, metadata: metadata, now: now, vault: vault, on: connection)
        let issued = try JourneyWriter.execute(.issueToken, journey: target.journeyID, metadata: metadata,
                                               now: now, on: connection)
        let expiresAt = issued.state.currentAttempt?.tokenExpiresAt ?? now.addingTimeInterval(300)
        return Issued(attempt: target.attempt, webAppToken: process.webAppToken, expiresAt: expiresAt)
    }

    /// Records the created process (its secrets sealed) and its webhook lookup row, without
    /// issuing the token (workers: the app asks for it later). `tokenExpiresAt` nil means five
    /// minutes from `now`.
    @discardableResult
    public static func recordCreated(_ process: CreatedProcess, target: Target, metadata: EventMetadata, now: Date,
                                     tokenExpiresAt: Date? = nil, vault: SubjectVault,
                                     on connection: PostgresConnection) throws -> JourneyState {
        func seal(_ value: String, _ field: String) throws -> SealedField {
            try vault.seal(value, field: field, subject: target.reference, on: connection)
        }
        let creation = ProcessCreation(
            attempt: target.attempt, processID: ProcessID(process.id),
            webAppToken: try seal(process.webAppToken, SealedName.webAppToken),
            processToken: try seal(process.token, SealedName.processToken),
            link: try seal(process.link, SealedName.link), tokenExpiresAt: tokenExpiresAt)
        let created = try JourneyWriter.execute(.recordProcessCreated(creation), journey: target.journeyID,
                                                metadata: metadata, now: now, on: connection)
        // The webhook's lookup (schema/0005), in the transaction of the ProcessCreated event.
        _ = try connection.query("""
            INSERT INTO process_journeys (process_id, journey_id, attempt)
            VALUES (\(process.id), \(target.journeyID.rawValue), \(target.attempt))
            ON CONFLICT (process_id) DO NOTHING
            """)
        return created.state
    }
}
