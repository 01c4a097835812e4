import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The emulator's SDK-facing endpoints as the phone calls them, failures already turned into
/// the seed's codes.
///
/// Runs wherever the caller's task runs (not on ``SDKMainActor``). Requests and errors never
/// carry the token beyond the request body.
struct CaptureAPI: Sendable {
    /// A capture the emulator agreed to open.
    struct PreparedCapture: Sendable, Hashable {
        var captureId: String
        var processId: String
    }

    let baseURL: URL
    let network: SimulatedDevice.NetworkCondition
    private let owner: SessionOwner

    init(baseURL: URL, network: SimulatedDevice.NetworkCondition, requestTimeout: TimeInterval) {
        self.baseURL = baseURL
        self.network = network
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = requestTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        owner = SessionOwner(session: URLSession(configuration: configuration), timeout: requestTimeout)
    }

    /// `POST /sdk/captures`: 201 opens the capture; an `sdkCode` body is Unico's refusal;
    /// anything else, or no answer, is `73302`.
    func prepare(webAppToken: String, environment: EnvironmentEnum) async throws(ErrorBio) -> PreparedCapture {
        let (status, body) = try await post(
            "sdk/captures", ["webAppToken": webAppToken, "environment": environment.rawValue], offline: network == .offline)
        if status == 201, let prepared = try? JSONDecoder().decode(Prepared.self, from: body),
            !prepared.captureId.isEmpty, !prepared.processId.isEmpty
        {
            return PreparedCapture(captureId: prepared.captureId, processId: prepared.processId)
        }
        throw Self.refusal(status: status, body: body)
    }

    /// `POST /sdk/captures/{id}/finish`: 200 with the process id ends the journey.
    func finish(captureId: String, outcome: String) async throws(ErrorBio) {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        let escaped = captureId.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let offline = network == .offline || network == .lostAfterCaptureOpens
        let (status, body) = try await post("sdk/captures/\(escaped)/finish", ["outcome": outcome], offline: offline)
        guard status == 200, (try? JSONDecoder().decode(Finished.self, from: body)) != nil else {
            throw Self.refusal(status: status, body: body)
        }
    }

    /// Sends one JSON POST; the injected conditions answer before anything leaves the phone.
    private func post(_ path: String, _ fields: [String: String], offline: Bool) async throws(ErrorBio) -> (Int, Data) {
        if offline {
            throw ErrorBio(code: ErrorBio.Code.authenticationFailed, description: "network failure: the device is offline")
        }
        if network == .captivePortal {
            return (200, Data("<!doctype html><title>Wi-Fi login</title><p>Sign in to continue.</p>".utf8))
        }
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.timeoutInterval = owner.timeout
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        do {
            request.httpBody = try JSONEncoder().encode(fields)
            let (data, response) = try await owner.session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw ErrorBio(code: ErrorBio.Code.authenticationFailed, description: "unexpected response: not HTTP")
            }
            return (http.statusCode, data)
        } catch let error as ErrorBio {
            throw error
        } catch let error as URLError {
            throw ErrorBio(
                code: ErrorBio.Code.authenticationFailed, description: "network failure (URLError \(error.code.rawValue))")
        } catch {
            throw ErrorBio(code: ErrorBio.Code.authenticationFailed, description: "network failure")
        }
    }

    /// Unico's `sdkCode` when the body carries a known one, else `73302` for an unexpected response.
    private static func refusal(status: Int, body: Data) -> ErrorBio {
        if let refusal = try? JSONDecoder().decode(Refusal.self, from: body), ErrorBio.Code.fromUnico.contains(refusal.sdkCode) {
            return ErrorBio(code: refusal.sdkCode, description: refusal.message ?? "refused by Unico (HTTP \(status))")
        }
        return ErrorBio(code: ErrorBio.Code.authenticationFailed, description: "unexpected response from Unico (HTTP \(status))")
    }

    private struct Prepared: Decodable {
        var captureId: String
        var processId: String
    }

    private struct Finished: Decodable {
        var processId: String
    }

    private struct Refusal: Decodable {
        var sdkCode: Int
        var message: String?
    }

    /// Owns the phone's `URLSession` and invalidates it when the last device using it goes.
    private final class SessionOwner: Sendable {
        let session: URLSession
        let timeout: TimeInterval

        init(session: URLSession, timeout: TimeInterval) {
            self.session = session
            self.timeout = timeout
        }

        deinit {
            session.finishTasksAndInvalidate()
        }
    }
}
