import EventStore
import Foundation
import HTTPServer
import JourneyDomain
import JourneyStore

/// `capture-opened` and `callback`: what the app reports with the journey's client token.
struct ClientReportHandler: Sendable {
    /// The body of `callback`: the SDK's outcome and, optionally, the attempt it belongs to.
    struct Callback: Decodable, Sendable {
        var attempt: Int?
        var outcome: CallbackOutcome

        private enum CodingKeys: String, CodingKey { case attempt }

        init(from decoder: any Decoder) throws {
            attempt = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .attempt)
            outcome = try CallbackOutcome(from: decoder)
        }
    }

    /// The optional body of `capture-opened`.
    struct CaptureOpened: Decodable, Sendable {
        var attempt: Int?
    }

    let authenticator: RequestAuthenticator
    let writer: JourneyWriter

    func captureOpened(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body: CaptureOpened = request.body.isEmpty ? CaptureOpened() : try request.decode()
        return try await record(request) { .recordCaptureOpened(attempt: body.attempt ?? $0) }
    }

    /// A recorded report: the journey's state after it.
    struct Recorded: Sendable {
        var id: JourneyID
        var state: JourneyState
        func response() throws -> HTTPResponse {
            try HTTPResponse.json(JourneyView(state, id: id), encoder: TokenResponse.encoder)
        }
    }

    /// A success callback that arrives after the journey completed for that very process (Unico's
    /// webhook was faster) answers 200 with the final state; nothing is appended. Anything else the
    /// domain refuses stays a 409.
    func callback(_ request: HTTPRequest) async throws -> Recorded {
        let body: Callback = try request.decode()
        do {
            return try await recordState(request) { .recordCallback(attempt: body.attempt ?? $0, outcome: body.outcome) }
        } catch let problem as Problem where problem.status == .conflict {
            guard case .success(let processID) = body.outcome else { throw problem }
            let id = JourneyID(try RequestAuthenticator.journeyID(request).uuidString.lowercased())
            let state = try await writer.load(id)
            guard state.status == .completed, state.currentAttempt?.processID == processID else { throw problem }
            return Recorded(id: id, state: state)
        }
    }

    /// Authenticates the client token and runs the command made from the current attempt number.
    private func record(_ request: HTTPRequest,
                        _ command: @escaping @Sendable (Int) -> JourneyCommand) async throws -> HTTPResponse {
        try await recordState(request, command).response()
    }

    private func recordState(_ request: HTTPRequest,
                             _ command: @escaping @Sendable (Int) -> JourneyCommand) async throws -> Recorded {
        let uuid = try RequestAuthenticator.journeyID(request)
        _ = try authenticator.clientToken(request, journey: uuid)
        let id = JourneyID(uuid.uuidString.lowercased())
        let metadata = EventMetadata(correlationID: UUID(), actor: "client-token")
        let state = try await writer.transaction { connection, now in
            let (state, version) = try JourneyRepository.load(id, on: connection)
            guard version > 0 else { throw Problem.journeyNotFound() }
            return try JourneyWriter.execute(command(state.currentAttemptNumber), journey: id, metadata: metadata,
                                             now: now, on: connection).state
        }
        return Recorded(id: id, state: state)
    }
}
