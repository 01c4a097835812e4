import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine

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
    let journeys: Journeys

    func captureOpened(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.requireMediaType()
        let body: CaptureOpened = request.body.isEmpty ? CaptureOpened() : try request.decode()
        let id = try authenticated(request)
        return try Recorded(id: id, state: try await journeys.recordCaptureOpened(id, attempt: body.attempt)).response()
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
        try request.requireMediaType()
        let body: Callback = try request.decode()
        let id = try authenticated(request)
        return Recorded(id: id, state: try await journeys.recordCallback(id, attempt: body.attempt, outcome: body.outcome))
    }

    /// The journey of the request's path, once its client token is verified.
    private func authenticated(_ request: HTTPRequest) throws -> JourneyID {
        let uuid = try RequestAuthenticator.journeyID(request)
        _ = try authenticator.clientToken(request, journey: uuid)
        return JourneyID(uuid.uuidString.lowercased())
    }
}
