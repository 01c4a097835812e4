import Foundation
import HTTPServer

extension EmulatorCore {
    /// `GET /processes?clientReference=X` (ASSUMED: Unico documents `clientReference` as indexed on
    /// its side but no search endpoint): the caller's processes with that reference, oldest first.
    ///
    /// Each entry has the Get Process fields plus `token` and a `webAppToken` re-issued with the
    /// original expiry (creation + token lifetime), so a caller that lost the Create Process answer
    /// can still use the process. 400 (code 3) without a `clientReference`.
    func findProcesses(_ request: HTTPRequest) -> HTTPResponse {
        do throws(APIError) {
            let grant = try authorize(request)
            guard let reference = request.queryItems.first(where: { $0.name == "clientReference" })?.value,
                !reference.isEmpty
            else { throw .invalidArgument("clientReference", "is required") }
            let now = now()
            let matches = state.withLock { state in
                state.processOrder.compactMap { state.processes[$0] }.filter {
                    $0.tenantID == grant.tenantID && $0.environment == grant.environment && $0.clientReference == reference
                }
            }
            var views: [ProcessView] = []
            for process in matches {
                let tokenExpiry = min(process.expiresAt, process.createdAt.addingTimeInterval(configuration.webAppTokenLifetime))
                do {
                    let token = try issuer.issue(
                        kind: .token, processID: process.id, environment: process.environment,
                        now: now, expiresAt: process.expiresAt)
                    let webAppToken = try issuer.issue(
                        kind: .webAppToken, processID: process.id,
                        environment: process.environment, now: now, expiresAt: tokenExpiry)
                    views.append(
                        ProcessView(
                            process, link: link(for: process.id), shape: configuration.responseShape,
                            token: token, webAppToken: webAppToken))
                } catch {
                    throw .internalError()
                }
            }
            return JSONBody.response(ProcessList(processes: views))
        } catch {
            return error.response
        }
    }

    /// The body of the lookup: `{"processes": [...]}`.
    struct ProcessList: Encodable, Sendable {
        var processes: [ProcessView]
    }
}
