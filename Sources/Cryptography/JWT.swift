import Foundation
import JSONBytes

/// Compact JWS / JWT (RFC 7515, RFC 7519) signing and verification with RS256, EdDSA and HS256.
///
/// Verification accepts only the algorithm bound to the key (so `none` and RS256/HS256
/// confusion are rejected), refuses `crit` extensions, and checks the signature before
/// parsing the claims.
public enum JWT {
    /// Tokens longer than this are refused before any parsing.
    public static let maximumTokenLength = 64 * 1024

    /// Signs `claims` (any Encodable that encodes to a JSON object) into a compact JWS.
    ///
    /// `header` adds members such as `kid`; `alg` is set from `key` and `typ` defaults to `JWT`.
    /// `Date` properties of `claims` encode as integer seconds since 1970 (NumericDate).
    public static func sign(
        claims: some Encodable,
        header: [String: JSONValue] = [:],
        with key: SigningKey
    ) throws -> String {
        var header = header
        if let alg = header["alg"], alg != .string(key.algorithm.rawValue) {
            throw CryptoError(.invalidArgument, "header alg does not match the \(key.algorithm.rawValue) signing key")
        }
        header["alg"] = .string(key.algorithm.rawValue)
        if header["typ"] == nil { header["typ"] = "JWT" }

        let encoder = makeEncoder()
        let payload: Data
        do {
            payload = try encoder.encode(claims)
        } catch {
            throw CryptoError(.invalidArgument, "claims could not be encoded as JSON: \(error)")
        }
        guard payload.first == UInt8(ascii: "{") else {
            throw CryptoError(.invalidArgument, "claims must encode to a JSON object")
        }
        let signingInput = Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(payload)
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Verifies `token`'s algorithm and signature under `key` and returns its header and claims.
    ///
    /// Does not check `exp` or `nbf`; use ``verify(_:with:now:leeway:)`` or
    /// ``VerifiedJWT/checkValidity(at:leeway:)`` for that.
    public static func verify(_ token: String, with key: VerificationKey) throws -> VerifiedJWT {
        let parts = try split(token)
        let header = try decodeObject(parts.header, what: "header")
        guard case .string(let alg)? = header["alg"] else {
            throw CryptoError(.invalidEncoding, "JWT header has no alg")
        }
        guard alg.lowercased() != "none" else {
            throw CryptoError(.algorithmMismatch, "unsigned JWTs (alg none) are not accepted")
        }
        guard alg == key.algorithm.rawValue else {
            throw CryptoError(
                .algorithmMismatch,
                "JWT alg \(String(alg.prefix(16)).debugDescription) does not match the \(key.algorithm.rawValue) key")
        }
        guard header["crit"] == nil else {
            throw CryptoError(.invalidEncoding, "JWT crit header extensions are not supported")
        }
        guard let signature = Base64URL.decode(parts.signature) else {
            throw CryptoError(.invalidEncoding, "JWT signature is not base64url")
        }
        let signingInput = Data(token.utf8.prefix(parts.header.utf8.count + 1 + parts.payload.utf8.count))
        guard try key.isValidSignature(signature, for: signingInput) else {
            throw CryptoError(.invalidSignature, "JWT signature does not verify")
        }
        guard let payload = Base64URL.decode(parts.payload) else {
            throw CryptoError(.invalidEncoding, "JWT payload is not base64url")
        }
        let claims = try decodeObject(payload, what: "claims")
        return VerifiedJWT(header: header, claims: claims, payload: payload)
    }

    /// Verifies like ``verify(_:with:)`` and also checks `exp` and `nbf` against `now`.
    public static func verify(
        _ token: String, with key: VerificationKey, now: Date, leeway: TimeInterval = 0
    ) throws -> VerifiedJWT {
        let verified = try verify(token, with: key)
        try verified.checkValidity(at: now, leeway: leeway)
        return verified
    }

    /// The header of `token` without verifying anything, e.g. to pick a key by `kid`.
    ///
    /// Never trust anything read here until ``verify(_:with:)`` succeeds.
    public static func unverifiedHeader(of token: String) throws -> [String: JSONValue] {
        try decodeObject(split(token).header, what: "header")
    }

    private static func split(_ token: String) throws -> (header: Substring, payload: Substring, signature: Substring) {
        guard token.utf8.count <= maximumTokenLength else {
            throw CryptoError(.invalidEncoding, "JWT is longer than \(maximumTokenLength) bytes")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw CryptoError(.invalidEncoding, "JWT must have three non-empty dot-separated parts")
        }
        return (parts[0], parts[1], parts[2])
    }

    private static func decodeObject(_ part: Substring, what: String) throws -> [String: JSONValue] {
        guard let data = Base64URL.decode(part) else {
            throw CryptoError(.invalidEncoding, "JWT \(what) is not base64url")
        }
        return try decodeObject(data, what: what)
    }

    private static func decodeObject(_ data: Data, what: String) throws -> [String: JSONValue] {
        guard case .object(let object)? = JSONValue.parse(data) else {
            throw CryptoError(.invalidEncoding, "JWT \(what) is not a JSON object")
        }
        return object
    }

    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Int64(date.timeIntervalSince1970.rounded(.down)))
        }
        return encoder
    }
}
