import Cryptography
import Foundation
import HTTPServer

extension EmulatorCore {
    /// `POST /processes`: validates the body and creates a process in the caller's environment.
    func createProcess(_ request: HTTPRequest) -> HTTPResponse {
        do throws(APIError) {
            let grant = try authorize(request)
            let body = try ProcessCreationBody.parse(request.body)
            let now = now()
            let id = SecureRandom.uuid().uuidString.lowercased()
            let expiresAt = now.addingTimeInterval(body.expiresIn ?? configuration.defaultProcessLifetime)
            let webAppTokenExpiry = min(expiresAt, now.addingTimeInterval(configuration.webAppTokenLifetime))
            let token: String
            let webAppToken: String
            do {
                token = try issuer.issue(
                    kind: .token, processID: id, environment: grant.environment, now: now, expiresAt: expiresAt)
                webAppToken = try issuer.issue(
                    kind: .webAppToken, processID: id, environment: grant.environment, now: now, expiresAt: webAppTokenExpiry)
            } catch {
                throw .internalError()
            }
            let process = UnicoEmulator.ProcessRecord(
                id: id, tenantID: grant.tenantID, environment: grant.environment,
                clientReference: body.clientReference, flow: body.flow, purpose: body.purpose,
                callbackUri: body.callbackUri, duiType: body.duiType, state: .created, result: .unspecified,
                createdAt: now, expiresAt: expiresAt, finishedAt: nil, humanToken: nil, lastEvent: nil,
                captureStarted: false, notificationChannels: body.notificationChannels)
            state.withLock { $0.add(process) }
            return JSONBody.response(
                ProcessView(
                    process, link: link(for: id), shape: configuration.responseShape,
                    token: token, webAppToken: webAppToken))
        } catch {
            return error.response
        }
    }

    /// `GET /processes/{id}`: 404 (code 5) unless the process belongs to the caller's tenant and environment.
    func getProcess(_ request: HTTPRequest) -> HTTPResponse {
        do throws(APIError) {
            let grant = try authorize(request)
            guard let id = request.pathParameters["id"], let process = process(id: id),
                process.tenantID == grant.tenantID, process.environment == grant.environment
            else { throw .notFound() }
            return JSONBody.response(ProcessView(process, link: link(for: process.id), shape: configuration.responseShape))
        } catch {
            return error.response
        }
    }
}
