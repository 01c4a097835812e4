import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine

/// `capture-opened`, `callback` and `link`: what the app reports and asks for with the journey's
/// client token.
struct ClientReportHandler: Sendable {
    /// The body of `callback`: the SDK's callback and, optionally, the attempt it belongs to.
    ///
    /// `{"outcome":"success","processId":…}` (`onSuccess`), `{"outcome":"error","code":…}`
    /// (`onErrorSelfie`), `{"outcome":"closedByUser"}` (`onUserClosedCameraManually`) or
    /// `{"outcome":"sessionTimedOut"}` (`onSystemClosedCameraTimeoutSession`) or
    /// `{"outcome":"faceInferenceTimedOut"}` (`onSystemChangedTypeCameraTimeoutFaceInference`: the
    /// capture goes on, manually).
    struct Callback: Decodable, Sendable {
        enum Report: Sendable {
            case sdk(CallbackOutcome)
            case dropOff(DropOff)
            case faceInferenceTimedOut
        }

        var attempt: Int?
        var report: Report

        private enum CodingKeys: String, CodingKey { case attempt, outcome }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            attempt = try container.decodeIfPresent(Int.self, forKey: .attempt)
            let outcome = try container.decode(String.self, forKey: .outcome)
            if let dropOff = DropOff(rawValue: outcome) {
                report = .dropOff(dropOff)
            } else if outcome == "faceInferenceTimedOut" {
                report = .faceInferenceTimedOut
            } else if outcome == "success" || outcome == "error" {
                report = .sdk(try CallbackOutcome(from: decoder))
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: .outcome, in: container,
                    debugDescription: "outcome must be \"success\", \"error\", \"closedByUser\", \"sessionTimedOut\" or "
                        + "\"faceInferenceTimedOut\"")
            }
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
        let id = try await authenticated(request)
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
        let id = try await authenticated(request)
        switch body.report {
        case .sdk(let outcome):
            return Recorded(id: id, state: try await journeys.recordCallback(id, attempt: body.attempt, outcome: outcome))
        case .dropOff(let dropOff):
            return Recorded(id: id, state: try await journeys.recordDropOff(id, attempt: body.attempt, dropOff))
        case .faceInferenceTimedOut:
            return Recorded(id: id, state: try await journeys.recordFaceInferenceTimedOut(id, attempt: body.attempt))
        }
    }

    /// `GET …/link`: the current attempt's `link` for an app that cannot use the SDK Lite.
    func link(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try await authenticated(request)
        let issued = try await journeys.issueLink(id, actor: "client-token")
        return try HTTPResponse.json(
            LinkResponse(
                journeyId: id.rawValue, attempt: issued.attempt, link: issued.link,
                linkExpiresAt: issued.expiresAt), encoder: TokenResponse.encoder)
    }

    /// The journey of the request's path, once its client token is verified.
    private func authenticated(_ request: HTTPRequest) async throws -> JourneyID {
        let uuid = try RequestAuthenticator.journeyID(request)
        _ = try await authenticator.clientToken(request, journey: uuid)
        return JourneyID(uuid.uuidString.lowercased())
    }
}
