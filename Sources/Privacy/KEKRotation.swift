import Foundation
import Postgres

/// Re-wraps every live wrapped value of its targets under the active KEK (`journeys keys rotate-kek`).
///
/// Before writing anything, ``check()`` makes sure every KEK id in use is configured and that
/// each older KEK unwraps a sample of its rows, so a missing or wrong `JOURNEYS_KEK_PREVIOUS`
/// changes nothing. Then ``run(progress:)`` works in batches of one transaction each; every
/// row of a batch is unwrapped before the batch writes, and a row is replaced only if it still
/// holds what was read, so each row has either its old wrapping or its new one. Rows already
/// under the active KEK are never selected: a run stopped anywhere (a crash,
/// ``Configuration/maximumBatches``) is finished by running it again.
///
/// Runs as the schema owner: the application role may not change a row's KEK id.
public struct KEKRotation: Sendable {
    /// Batch sizes and limits.
    public struct Configuration: Sendable {
        /// Rows per batch, each batch one transaction. Default 500.
        public var batchSize = 500
        /// Batches to run before stopping (over all targets); nil runs to the end. Default nil.
        public var maximumBatches: Int?
        /// Rows of each older KEK that ``check()`` tries to unwrap; one success proves the key. Default 5.
        public var probeSize = 5

        public init() {}
    }

    /// What ``check()`` found: rows to re-wrap and rows already current, per target.
    public struct Plan: Sendable {
        /// Per target noun, its counts before the run (``RewrapTally/remaining`` = to re-wrap).
        public var targets: [(noun: String, tally: RewrapTally)]
        /// Rows to re-wrap over all targets.
        public var toRewrap: Int { targets.reduce(0) { $0 + $1.tally.remaining } }
    }

    /// What ``run(progress:)`` did, per target and in total.
    public struct Outcome: Sendable {
        public var targets: [(noun: String, tally: RewrapTally)]
        public var total: RewrapTally { targets.reduce(RewrapTally()) { $0 + $1.tally } }
        /// True when nothing is left under an older KEK except rows that failed.
        public var isComplete: Bool { total.remaining == 0 }
    }

    let client: PostgresClient
    let privacy: PrivacyConfiguration
    let targets: [any RewrapTarget]
    public let configuration: Configuration

    /// `client` connects as the schema owner.
    public init(
        client: PostgresClient, privacy: PrivacyConfiguration, targets: [any RewrapTarget],
        configuration: Configuration = Configuration()
    ) {
        self.client = client
        self.privacy = privacy
        self.targets = targets
        self.configuration = configuration
    }

    /// Counts rows per target and proves each older KEK in use; writes nothing.
    ///
    /// Throws `unknown_key_id` when rows are wrapped under a KEK that is not configured, and
    /// `decryption_failed` when a configured older KEK unwraps none of its sampled rows; both
    /// messages name `JOURNEYS_KEK_PREVIOUS` and the KEK id, never key material.
    public func check() async throws -> Plan {
        let active = privacy.activeKeyID
        var plan = Plan(targets: [])
        var missing: [String: [String]] = [:]
        for target in targets {
            let census = try await client.withConnection { try target.census(on: $0) }
            var tally = RewrapTally()
            tally.alreadyCurrent = census[active] ?? 0
            tally.remaining = census.filter { $0.key != active }.values.reduce(0, +)
            plan.targets.append((target.noun, tally))
            for (keyID, count) in census where privacy.keyEncryptionKeys[keyID] == nil {
                missing[keyID, default: []].append("\(count) \(target.noun)")
            }
        }
        if let (keyID, counts) = missing.sorted(by: { $0.key < $1.key }).first {
            let variable = PrivacyConfiguration.Variable.previousKeys
            let hint = privacy.keyEncryptionKeys.count == 1 ? "\(variable) is not set" : "\(variable) does not hold it"
            throw PrivacyError(
                .unknownKeyID,
                "\(counts.joined(separator: " and ")) are wrapped under key-encryption key "
                    + "\(keyID), which is not configured (\(hint)): add the previous KEK to \(variable); nothing was changed")
        }
        for target in targets {
            let census = try await client.withConnection { try target.census(on: $0) }
            for keyID in census.keys.sorted() where keyID != active {
                let sample = try await client.withConnection { [configuration] in
                    try target.rows(after: nil, notUnder: active, keyID: keyID, limit: configuration.probeSize, on: $0)
                }
                guard sample.isEmpty || sample.contains(where: { (try? target.rewrap($0, activeKeyID: active)) != nil }) else {
                    throw PrivacyError(
                        .decryptionFailed,
                        "the key-encryption key \(keyID) of "
                            + "\(PrivacyConfiguration.Variable.previousKeys) does not unwrap the \(target.noun) wrapped under "
                            + "that id: it is not the key that wrapped them; nothing was changed")
                }
            }
        }
        return plan
    }

    /// Checks (``check()``), then re-wraps batch by batch; `progress` gets the rows handled so far.
    public func run(progress: @Sendable (Int) -> Void = { _ in }) async throws -> Outcome {
        let plan = try await check()
        let active = privacy.activeKeyID
        var outcome = Outcome(targets: [])
        var batches = 0
        var handled = 0
        for (index, target) in targets.enumerated() {
            var tally = RewrapTally()
            tally.alreadyCurrent = plan.targets[index].tally.alreadyCurrent
            var cursor: String?
            while configuration.maximumBatches.map({ batches < $0 }) ?? true {
                let rows = try await client.withConnection { [configuration, cursor] in
                    try target.rows(after: cursor, notUnder: active, keyID: nil, limit: configuration.batchSize, on: $0)
                }
                guard let last = rows.last else { break }
                cursor = last.id
                var rewrapped: [(WrappedValue, Data)] = []
                for row in rows {
                    if let value = try? target.rewrap(row, activeKeyID: active) {
                        rewrapped.append((row, value))
                    } else {
                        tally.failed += 1
                    }
                }
                let ready = rewrapped
                let written = try await client.transaction { connection in
                    try ready.filter { try target.replace($0.0, with: $0.1, keyID: active, on: connection) }.count
                }
                tally.rewrapped += written
                batches += 1
                handled += rows.count
                progress(handled)
            }
            let census = try await client.withConnection { try target.census(on: $0) }
            tally.remaining = max(0, census.filter { $0.key != active }.values.reduce(0, +) - tally.failed)
            outcome.targets.append((target.noun, tally))
        }
        return outcome
    }
}
