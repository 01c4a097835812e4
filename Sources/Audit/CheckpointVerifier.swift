import Cryptography
import EventStore
import Foundation
import Postgres

/// Checks every stored checkpoint: that the checkpoints still form one chain, that each is
/// signed by a trusted key, and that the log still holds exactly what each summarized (events
/// may have been added after a cut, none removed or altered at or before it).
///
/// A checkpoint signed by a key not configured as trusted fails, also when no key is configured
/// at all: the database stores each checkpoint's public key, so whoever can write to it could
/// re-sign a rewritten log. ``Configuration/allowUnpinnedKeys`` turns that into a warning.
public struct CheckpointVerifier: Sendable {
    public struct Configuration: Sendable {
        /// Check a checkpoint signed by an untrusted key against its stored public key only, and
        /// count it in ``Report/unpinned`` instead of failing it. Default false.
        public var allowUnpinnedKeys = false

        public init(allowUnpinnedKeys: Bool = false) {
            self.allowUnpinnedKeys = allowUnpinnedKeys
        }
    }

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
        /// Checkpoints accepted under ``Configuration/allowUnpinnedKeys`` although their key is not trusted.
        public var unpinned = 0
        public var isIntact: Bool { failures.isEmpty }
    }

    public let client: PostgresClient
    public let keys: AuditKeys
    public let configuration: Configuration

    public init(client: PostgresClient, keys: AuditKeys, configuration: Configuration = Configuration()) {
        self.client = client
        self.keys = keys
        self.configuration = configuration
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
                reasons.append(
                    previous.map { "does not follow checkpoint \($0.id) (a checkpoint was removed or altered)" }
                        ?? "the first stored checkpoint does not start the chain (earlier checkpoints were removed)")
            }
            let pinned = trusted.contains(checkpoint.publicKey)
            if !pinned, !configuration.allowUnpinnedKeys {
                reasons.append("signed by an untrusted key \(Self.keyID(checkpoint.publicKey)) (not configured as trusted)")
            } else if !checkpoint.hasValidSignature {
                reasons.append("signature does not match its contents (forged or altered)")
            }
            let summary = checkpoint.summary
            let now = try await client.withConnection { try LogSummary.compute(upTo: summary.cut, on: $0) }
            if now.events != summary.events {
                reasons.append(
                    "the log holds \(now.events) events up to position \(summary.cut.position), the checkpoint signed \(summary.events)"
                )
            }
            if now.streams != summary.streams {
                reasons.append("the log holds \(now.streams) streams up to the cut, the checkpoint signed \(summary.streams)")
            }
            if now.headsDigest != summary.headsDigest, now.events == summary.events, now.streams == summary.streams {
                reasons.append("stream heads up to the cut differ from the signed digest (events altered)")
            }
            if reasons.isEmpty {
                if !pinned { report.unpinned += 1 }
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
