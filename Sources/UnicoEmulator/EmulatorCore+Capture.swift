import Cryptography
import Foundation
import HTTPServer
import JSONBytes

extension EmulatorCore {
    /// Outcomes a simulated device can report when it finishes a capture.
    enum CaptureOutcome: String, Sendable {
        case approved, rejected, expired, error

        var result: UnicoEmulator.ProcessResult {
            switch self {
            case .approved: .ok
            case .rejected: .invalidIdentity
            case .expired: .expired
            case .error: .error
            }
        }
    }

    /// `POST /sdk/captures` with `{"webAppToken","environment"}`: 201 `{"captureId","processId"}`.
    ///
    /// Checks in order: blank token (73203), signature and kind (73304), environment and process
    /// (73304), token expiry (73305), token entry enabled in the environment (73303). A process
    /// that is no longer open answers 73304, one past its own lifetime 73305.
    func prepareCapture(_ request: HTTPRequest) -> HTTPResponse {
        do throws(SDKError) {
            guard case .object(let body)? = JSONValue.parse(request.body) else {
                throw .other(.badRequest, "body must be a JSON object")
            }
            let token = body["webAppToken"]?.stringValue ?? ""
            guard !token.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .blankToken() }
            guard let name = body["environment"]?.stringValue, let environment = UnicoEmulator.Environment(name: name) else {
                throw .other(.badRequest, "environment must be UAT or PROD")
            }
            let now = now()
            let claims: CaptureTokenIssuer.Claims
            do {
                claims = try issuer.verifyWebAppToken(token, now: now)
            } catch .expired {
                throw .expired()
            } catch .wrongKind {
                throw .rejected("not a webAppToken")
            } catch {
                throw .rejected("webAppToken is not valid")
            }
            guard claims.env == environment else { throw .rejected("webAppToken belongs to another environment") }
            guard let process = process(id: claims.pid), process.environment == environment else {
                throw .rejected("unknown process")
            }
            guard process.state == .created else {
                throw process.result == .expired ? .expired() : .rejected("process is no longer open")
            }
            guard !faults.tokenEntryDisabled(in: environment) else { throw .tokenEntryDisabled() }
            let captureID = SecureRandom.uuid().uuidString.lowercased()
            state.withLock { state in
                state.captures[captureID] = EmulatorState.Capture(processID: process.id, finished: false)
                state.processes[process.id]?.captureStarted = true
            }
            return JSONBody.response(["captureId": captureID, "processId": process.id], status: .created)
        } catch {
            return error.response
        }
    }

    /// `POST /link/{id}/captures`: the person opened Unico's link (web journey, no `webAppToken`)
    /// and starts the capture: 201 `{"captureId","processId"}` while the process is open (the link
    /// lives as long as the process), else 73305 past its lifetime or 73304 once it ended.
    func linkCapture(_ request: HTTPRequest) -> HTTPResponse {
        do throws(SDKError) {
            guard let id = request.pathParameters["id"], let process = process(id: id) else {
                throw .rejected("unknown process")
            }
            guard process.state == .created else {
                throw process.result == .expired ? .expired() : .rejected("process is no longer open")
            }
            let captureID = SecureRandom.uuid().uuidString.lowercased()
            state.withLock { state in
                state.captures[captureID] = EmulatorState.Capture(processID: process.id, finished: false)
                state.processes[process.id]?.captureStarted = true
            }
            return JSONBody.response(["captureId": captureID, "processId": process.id], status: .created)
        } catch {
            return error.response
        }
    }

    /// `POST /sdk/captures/{id}/finish` with `{"outcome":"approved|rejected|expired|error"}`.
    ///
    /// Finishes the process (state FINISHED, result OK/INVALID_IDENTITY/EXPIRED/ERROR, a Human
    /// Token for approved), queues the webhook and answers 200 `{"processId","state","result"}`.
    func finishCapture(_ request: HTTPRequest) -> HTTPResponse {
        do throws(SDKError) {
            guard case .object(let body)? = JSONValue.parse(request.body),
                let outcome = body["outcome"]?.stringValue.flatMap(CaptureOutcome.init(rawValue:))
            else { throw .other(.badRequest, "outcome must be approved, rejected, expired or error") }
            let captureID = request.pathParameters["id"] ?? ""
            let now = now()
            let humanToken = Self.randomToken()
            let finished = try state.withLock { (state) throws(SDKError) -> UnicoEmulator.ProcessRecord in
                guard let capture = state.captures[captureID], var process = state.processes[capture.processID] else {
                    throw .other(.notFound, "unknown capture")
                }
                guard !capture.finished else { throw .other(.conflict, "capture already finished") }
                _ = process.expireIfDue(now: now)
                guard
                    process.finish(
                        result: outcome.result, at: now, humanToken: humanToken, lastEvent: "EVENT_TYPE_SESSION_ENDED")
                else { throw .other(.conflict, "process already finished") }
                state.processes[process.id] = process
                state.captures[captureID]?.finished = true
                return process
            }
            announce(WebhookNotification(finished))
            return JSONBody.response([
                "processId": finished.id, "state": finished.state.rawValue, "result": finished.result.rawValue,
            ])
        } catch {
            return error.response
        }
    }
}
