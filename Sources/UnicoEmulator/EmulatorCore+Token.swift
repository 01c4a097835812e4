import Cryptography
import Foundation
import HTTPServer

extension EmulatorCore {
    static let jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// `POST /oauth2/token`: exchanges a JWT-bearer assertion for an opaque access token.
    func token(_ request: HTTPRequest) -> HTTPResponse {
        do throws(TokenEndpointError) {
            let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
            guard contentType.hasPrefix("application/x-www-form-urlencoded"),
                let form = FormBody.parse(request.body),
                form["grant_type"] == Self.jwtBearerGrant,
                let assertion = form["assertion"], !assertion.isEmpty
            else { throw .malformedRequest }
            let now = now()
            let accepted = try validator.validate(
                assertion, now: now, extraAudience: configuration.acceptsBaseURLAsAudience ? baseURL : nil)
            let assertionHash = SHA256.hexDigest(assertion)
            let accessToken = Self.randomToken()
            let grant = EmulatorState.AccessGrant(
                tenantID: accepted.account.tenantID, environment: accepted.account.environment,
                expiresAt: now.addingTimeInterval(configuration.accessTokenLifetime))
            let fresh = state.withLock { state in
                guard state.useAssertion(hash: assertionHash, expiresAt: accepted.expiresAt, now: now) else { return false }
                state.accessTokens = state.accessTokens.filter { $0.value.expiresAt > now }
                state.accessTokens[SHA256.hexDigest(accessToken)] = grant
                return true
            }
            guard fresh else { throw .replayed }
            return JSONBody.response(
                TokenResponse(
                    access_token: accessToken, token_type: "Bearer",
                    expires_in: Int(configuration.accessTokenLifetime.rounded(.down))))
        } catch {
            return error.response
        }
    }

    /// The grant behind the request's bearer token, after the tenant's rate limit; 401 or 429 otherwise.
    func authorize(_ request: HTTPRequest) throws(APIError) -> EmulatorState.AccessGrant {
        guard let header = request.headers["Authorization"] else {
            throw .unauthenticated("missing bearer access token")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw .unauthenticated("missing bearer access token")
        }
        let hash = SHA256.hexDigest(parts[1].trimmingCharacters(in: .whitespaces))
        let now = now()
        let limit = configuration.rateLimitPerSecond
        let outcome = state.withLock { state -> Result<EmulatorState.AccessGrant, APIError> in
            guard let grant = state.grant(forTokenHash: hash, now: now) else {
                return .failure(.unauthenticated("access token is invalid or expired"))
            }
            guard limit > 0 else { return .success(grant) }
            var bucket = state.buckets[grant.tenantID] ?? TokenBucket(ratePerSecond: limit, now: now)
            let wait = bucket.take(now: now)
            state.buckets[grant.tenantID] = bucket
            if let wait { return .failure(.rateLimited(retryAfterSeconds: wait)) }
            return .success(grant)
        }
        return try outcome.get()
    }

    private struct TokenResponse: Encodable {
        var access_token: String
        var token_type: String
        var expires_in: Int
    }
}
