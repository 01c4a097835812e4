import EventStore
import Foundation
import HTTPServer
import HumanTokenAPI
import JourneyDomain
import Postgres
import Privacy

/// Creates the Unico process of a recorded attempt, outside any transaction, then records the
/// outcome (process created and token issued, or the failed creation) in one transaction.
struct AttemptRunner: Sendable {
    /// A `webAppToken` handed to the app.
    struct Issued: Sendable {
        var attempt: Int
        var webAppToken: String
        var expiresAt: Date
    }

    /// What the runner needs to know about the journey and its attempt.
    struct Target: Sendable {
        var journeyID: JourneyID
        var attempt: Int
        var unicoClientReference: String
        var environment: Environment
        var flow: Flow
        var purpose: Purpose
        var subject: ValidatedSubject
        var reference: SubjectReference
    }

    /// Field names Unico's secrets are sealed under.
    enum SealedName {
        static let webAppToken = "webAppToken"
        static let processToken = "processToken"
        static let link = "link"
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
            case .failure(let error):
                let failure = ProcessCreationFailure(
                    httpStatus: error.status, errorCode: error.unicoCode.flatMap { Int($0) },
                    message: "Create Process failed: \(error.code.rawValue)",
                    retryable: error.code == .unauthorized || error.code == .configuration ? false : nil,
                    retryAfter: error.retryAfter.map(TimeInterval.init))
                _ = try JourneyWriter.execute(.recordProcessCreationFailed(attempt: target.attempt, failure: failure),
                                              journey: target.journeyID, metadata: metadata, now: now, on: connection)
                result = .failure(missingClient ? Problem.unicoNotConfigured(target.environment) : Problem.unico(error))
            }
            let response = try respond(result, now)
            try store?(response, connection)
            return response
        }
    }

    static func create(_ target: Target, with unico: HumanTokenAPIClient) async -> Result<CreatedProcess, HumanTokenAPIError> {
        let subject = target.subject
        let person = ProcessPerson(
            duiType: .init(rawValue: subject.documentType.rawValue), duiValue: subject.documentNumber,
            friendlyName: subject.friendlyName, phone: subject.phone, email: subject.email,
            notifications: subject.notificationChannels.map { ProcessNotification(.init(rawValue: $0.rawValue)) })
        let request = CreateProcessRequest(
            flow: target.flow.rawValue, purpose: .init(rawValue: target.purpose.rawValue), person: person,
            clientReference: target.unicoClientReference)
        do {
            return .success(try await unico.createProcess(request, priority: .live))
        } catch let error as HumanTokenAPIError {
            return .failure(error)
        } catch {
            return .failure(HumanTokenAPIError(.transport, "Create Process did not complete"))
        }
    }

    /// Records the created process (its secrets sealed) and the token's issuance.
    static func record(_ process: CreatedProcess, target: Target, metadata: EventMetadata, now: Date,
                       vault: SubjectVault, on connection: PostgresConnection) throws -> Issued {
        func seal(_ value: String, _ field: String) throws -> SealedField {
            try vault.seal(value, field: field, subject: target.reference, on: connection)
        }
        let creation = ProcessCreation(
            attempt: target.attempt, processID: ProcessID(process.id),
            webAppToken: try seal(process.webAppToken, SealedName.webAppToken),
            processToken: try seal(process.token, SealedName.processToken),
            link: try seal(process.link, SealedName.link))
        _ = try JourneyWriter.execute(.recordProcessCreated(creation), journey: target.journeyID, metadata: metadata,
                                      now: now, on: connection)
        // The webhook's lookup (schema/0005), in the transaction of the ProcessCreated event.
        _ = try connection.query("""
            INSERT INTO process_journeys (process_id, journey_id, attempt)
            VALUES (\(process.id), \(target.journeyID.rawValue), \(target.attempt))
            ON CONFLICT (process_id) DO NOTHING
            """)
        let issued = try JourneyWriter.execute(.issueToken, journey: target.journeyID, metadata: metadata,
                                               now: now, on: connection)
        let expiresAt = issued.state.currentAttempt?.tokenExpiresAt ?? now.addingTimeInterval(300)
        return Issued(attempt: target.attempt, webAppToken: process.webAppToken, expiresAt: expiresAt)
    }
}
