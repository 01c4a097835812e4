import Cryptography
import ErrorCodes
import Foundation

/// Verifies Standard Webhooks signatures, for tests and for customers' receivers.
public struct StandardWebhookVerifier: Sendable {
    /// How far the `webhook-timestamp` may be from now, either way; 5 minutes by default.
    public var tolerance: TimeInterval
    public let secret: WebhookSecret

    public init(secret: WebhookSecret, tolerance: TimeInterval = 300) {
        self.secret = secret
        self.tolerance = tolerance
    }

    /// Checks the headers (names compared case-insensitively) against `body` at time `now`.
    ///
    /// Accepts when any `v1` signature in the space-separated `webhook-signature` list matches,
    /// compared in constant time.
    public func verify(body: Data, headers: [String: String], now: Date = Date()) throws(WebhookVerificationError) {
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name }?.value
        }
        guard let id = header(StandardWebhookSigner.idHeader),
            let timestampText = header(StandardWebhookSigner.timestampHeader),
            let signatures = header(StandardWebhookSigner.signatureHeader)
        else {
            throw WebhookVerificationError(.missingHeaders)
        }
        guard let timestamp = Int64(timestampText) else { throw WebhookVerificationError(.invalidTimestamp) }
        let age = now.timeIntervalSince1970 - Double(timestamp)
        guard age <= tolerance else { throw WebhookVerificationError(.timestampTooOld) }
        guard age >= -tolerance else { throw WebhookVerificationError(.timestampTooNew) }
        let content = Self.content(id: id, timestamp: timestamp, body: body)
        for candidate in signatures.split(separator: " ") {
            let parts = candidate.split(separator: ",", maxSplits: 1)
            guard parts.count == 2, parts[0] == "v1", let mac = Data(base64Encoded: String(parts[1])) else { continue }
            if HMACSHA256.isValid(mac, for: content, key: secret.key) { return }
        }
        throw WebhookVerificationError(.noMatchingSignature)
    }

    private static func content(id: String, timestamp: Int64, body: Data) -> Data {
        var content = Data("\(id).\(timestamp).".utf8)
        content.append(body)
        return content
    }
}

/// Why a webhook signature was rejected.
public struct WebhookVerificationError: CodedError, Equatable {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let missingHeaders = Code("missing_headers")
        public static let invalidTimestamp = Code("invalid_timestamp")
        public static let timestampTooOld = Code("timestamp_too_old")
        public static let timestampTooNew = Code("timestamp_too_new")
        public static let noMatchingSignature = Code("no_matching_signature")
    }

    public let code: Code
    public init(_ code: Code) { self.code = code }
    public var message: String { "webhook verification failed: \(code)" }
    /// The message alone.
    public var description: String { message }
}
