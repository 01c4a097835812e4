import Cryptography
import EventStore
import Foundation
import Postgres

/// Checks every stored checkpoint: that the checkpoints still form one chain, that each is
/// signed by a trusted key, and that the log still holds exactly what each summarized (events
/// may have been added after a cut, none removed or altered at or before it).
public struct CheckpointVerifier: Sendable {
    /// One checkpoint that does not hold.
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        public let checkpointID: Int64
        public let reason: String
        public var description: String { "checkpoint \(checkpointID): \(reason)" }
    }

    public struct Report: Sendable, Equatable {
        /// Checkpoints checked.
        public var checked = 0
        public var failures: [Failure] = []
        /// The newest checkpoint that holds.
        public var lastGood: AuditCheckpoint?
        /// False when no trusted key was configured and signatures were checked only against
        /// the public keys stored with them (which a forger could replace).
        public var trustedKeys = true
        public var isIntact: Bool { failures.isEmpty }
    }

    public let client: PostgresClient
    public let keys: AuditKeys

    public init(client: PostgresClient, keys: AuditKeys) {
        self.client = client
        self.keys = keys
    }

    /// Verifies every checkpoint, oldest first; `progress` gets the number checked so far.
    public func verify(progress: (@Sendable (Int) -> Void)? = nil) async throws -> Report {
        var report = Report()
        report.trustedKeys = !keys.trusted.isEmpty
        let trusted = Set(keys.trusted.map(\.rawRepresentation))
        var previous: AuditCheckpoint?
        for checkpoint in try await SignedCheckpointStore(client: client).all() {
            report.checked += 1
            defer { previous = checkpoint; progress?(report.checked) }
            let expectedPrevious = previous?.signatureDigest ?? AuditCheckpoint.genesis
            var reasons: [String] = []
            if checkpoint.previousSignature != expectedPrevious {
                reasons.append(previous.map { "does not follow checkpoint \($0.id) (a checkpoint was removed or altered)" }
                    ?? "the first stored checkpoint does not start the chain (earlier checkpoints were removed)")
            }
            if !trusted.isEmpty, !trusted.contains(checkpoint.publicKey) {
                reasons.append("signed by an untrusted key \(Self.keyID(checkpoint.publicKey))")
            } else if !checkpoint.hasValidSignature {
                reasons.append("signature does not match its contents (forged or altered)")
            }
            let summary = checkpoint.summary
            let now = try await client.withConnection { try LogSummary.compute(upTo: summary.cut, on: $0) }
            if now.events != summary.events {
                reasons.append("the log holds \(now.events) events up to position \(summary.cut.position), the checkpoint signed \(summary.events)")
            }
            if now.streams != summary.streams {
                reasons.append("the log holds \(now.streams) streams up to the cut, the checkpoint signed \(summary.streams)")
            }
            if now.headsDigest != summary.headsDigest, now.events == summary.events, now.streams == summary.streams {
                reasons.append("stream heads up to the cut differ from the signed digest (events altered)")
            }
            if reasons.isEmpty {
                report.lastGood = checkpoint
            } else {
                report.failures.append(Failure(checkpointID: checkpoint.id, reason: reasons.joined(separator: "; ")))
            }
        }
        return report
    }

    /// A short fingerprint of a raw public key: the first 16 hex digits of its sha256.
    public static func keyID(_ publicKey: Data) -> String { String(SHA256.hexDigest(publicKey).prefix(16)) }
}
