import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The OAuth2 client-credentials token the emulator (standing in for Unico) presents on its
/// webhooks: fetched from the receiver's token endpoint, kept until shortly before `expires_in`
/// runs out, dropped when the receiver answers 401.
final class WebhookTokenCache: Sendable {
    private struct Cached: Sendable {
        var token: String
        var until: Date
    }

    private let tokenURL: URL
    private let clientID: String
    private let clientSecret: String
    private let now: @Sendable () -> Date
    private let cached = Mutex<Cached?>(nil)
    private let fetches = Mutex(0)

    init(tokenURL: URL, clientID: String, clientSecret: String, now: @escaping @Sendable () -> Date) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.now = now
    }

    /// Token requests sent so far.
    var fetchCount: Int { fetches.withLock { $0 } }

    /// `Bearer <token>`, from the cache or a fresh token request; nil when the endpoint refuses.
    func authorization(_ session: URLSession, timeout: TimeInterval) async -> String? {
        let at = now()
        if let hit = cached.withLock({ $0 }), hit.until > at { return "Bearer " + hit.token }
        fetches.withLock { $0 += 1 }
        var request = URLRequest(url: tokenURL)
        request.httpMethod = "POST"
        request.timeoutInterval = timeout
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let credentials = Self.formEncoded(clientID) + ":" + Self.formEncoded(clientSecret)
        request.setValue("Basic " + Data(credentials.utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.httpBody = Data("grant_type=client_credentials".utf8)
        guard let (status, body) = await Self.send(request, session), status == 200,
            let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            let token = json["access_token"] as? String, !token.isEmpty
        else { return nil }
        let lifetime = (json["expires_in"] as? NSNumber)?.doubleValue ?? 60
        let margin = min(30, lifetime / 10)
        cached.withLock { $0 = Cached(token: token, until: at.addingTimeInterval(lifetime - margin)) }
        return "Bearer " + token
    }

    /// Forgets the cached token (the receiver refused it).
    func invalidate() { cached.withLock { $0 = nil } }

    private static func formEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~"))) ?? text
    }

    private static func send(_ request: URLRequest, _ session: URLSession) async -> (Int, Data)? {
        await withCheckedContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                guard error == nil, let status = (response as? HTTPURLResponse)?.statusCode else {
                    return continuation.resume(returning: nil)
                }
                continuation.resume(returning: (status, data ?? Data()))
            }.resume()
        }
    }
}
