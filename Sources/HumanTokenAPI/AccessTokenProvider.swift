import Cryptography
import Foundation
import JSONBytes
import Observability
import Synchronization

/// Fetches access tokens with the JWT-bearer grant and caches them.
///
/// A token is reused until `expires_in` minus the refresh margin has passed (half of
/// `expires_in` if the margin is longer). Concurrent callers share one in-flight fetch. An
/// assertion refused as already used (`1.2.7`: another process of the same service account
/// signed the same claims in the same second) is answered by signing a fresh one, at most
/// ``replayRetries`` times. Every failed fetch is counted (``failures``) and logged at `error`.
final class AccessTokenProvider: Sendable {
    /// How many fresh assertions a replay refusal gets before the fetch fails.
    static let replayRetries = 3

    private enum State {
        case empty
        case fetching(id: UInt64, Task<AccessToken, any Error>)
        case cached(AccessToken)
    }

    private enum Next {
        case ready(AccessToken)
        case join(Task<AccessToken, any Error>)
    }

    private let signer: AssertionSigner
    private let endpoint: URL
    private let exchange: HTTPExchange
    private let margin: TimeInterval
    private let clock: @Sendable () -> Date
    private let logger: Logger
    private let state = Mutex<(state: State, fetches: UInt64)>((.empty, 0))
    private let failed = Mutex<[String: Int]>([:])

    init(
        signer: AssertionSigner, endpoint: URL, exchange: HTTPExchange, margin: TimeInterval,
        clock: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.signer = signer
        self.endpoint = endpoint
        self.exchange = exchange
        self.margin = margin
        self.clock = clock
        self.logger = logger
    }

    /// How many times a token was requested from the token endpoint.
    var fetchCount: UInt64 { state.withLock { $0.fetches } }

    /// Failed fetches so far, by error code (`unauthorized`, `timeout`, …).
    var failures: [String: Int] { failed.withLock { $0 } }

    /// A fresh access token, from the cache or the token endpoint.
    func token() async throws -> AccessToken {
        let now = clock()
        let next = state.withLock { current -> Next in
            switch current.state {
            case .cached(let token) where token.isFresh(at: now):
                return .ready(token)
            case .fetching(_, let task):
                return .join(task)
            case .empty, .cached:
                current.fetches += 1
                let id = current.fetches
                let task = Task { try await self.fetch(id: id) }
                current.state = .fetching(id: id, task)
                return .join(task)
            }
        }
        switch next {
        case .ready(let token): return token
        case .join(let task): return try await task.value
        }
    }

    /// Drops `token` from the cache after Unico refused it, so the next call fetches anew.
    func invalidate(_ token: AccessToken) {
        state.withLock { current in
            if case .cached(let cached) = current.state, cached == token { current.state = .empty }
        }
    }

    private func fetch(id: UInt64) async throws -> AccessToken {
        do {
            let token = try await requestToken()
            state.withLock { current in
                if case .fetching(let running, _) = current.state, running == id { current.state = .cached(token) }
            }
            return token
        } catch {
            state.withLock { current in
                if case .fetching(let running, _) = current.state, running == id { current.state = .empty }
            }
            throw error
        }
    }

    /// Fetches a token, signing a fresh assertion after a replay refusal; counts and logs a failure.
    private func requestToken() async throws -> AccessToken {
        var replays = 0
        while true {
            do {
                return try await fetchOnce()
            } catch let error as HumanTokenAPIError {
                if error.unicoCode == "1.2.7", replays < Self.replayRetries {
                    replays += 1
                    continue
                }
                failed.withLock { $0[error.code.rawValue, default: 0] += 1 }
                var metadata = ["code": error.code.rawValue]
                if let status = error.status { metadata["status"] = String(status) }
                if let unicoCode = error.unicoCode { metadata["unico_code"] = unicoCode }
                logger.error("Unico access token could not be fetched", metadata: metadata)
                throw error
            }
        }
    }

    /// One exchange of a newly signed assertion for a token.
    private func fetchOnce() async throws -> AccessToken {
        let issuedAt = clock()
        let assertion = try signer.assertion(at: issuedAt)
        let body = Data(
            Self.formEncoded([
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion),
            ]).utf8)
        let response = try await exchange.send(
            "POST", endpoint,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")], body: body)
        guard response.status == 200 else { throw HumanTokenAPIError.fromTokenEndpoint(response, now: clock()) }
        guard let body = try? JSONDecoder().decode(JSONValue.self, from: response.body),
            let value = body["access_token"]?.stringValue, !value.isEmpty
        else { throw HumanTokenAPIError(.invalidResponse, "the token endpoint answered without access_token") }
        let expiresIn = body["expires_in"]?.doubleValue ?? body["expires_in"]?.stringValue.flatMap(Double.init)
        guard let expiresIn, expiresIn > 0 else {
            throw HumanTokenAPIError(.invalidResponse, "the token endpoint answered without a positive expires_in")
        }
        let lifetime = expiresIn > margin ? expiresIn - margin : expiresIn / 2
        return AccessToken(value: value, issuedAt: issuedAt, refreshAt: issuedAt.addingTimeInterval(lifetime))
    }

    /// `application/x-www-form-urlencoded` per the WHATWG URL standard (space as `+`).
    static func formEncoded(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "*-._")
        func encode(_ text: String) -> String {
            (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "").replacingOccurrences(of: "%20", with: "+")
        }
        return fields.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}
