import Audit
import CLI
import Cryptography
import EventStore
import Foundation
import JourneyApp
import JourneyDomain
import Postgres
import Timestamps

/// `journeys audit`: tamper evidence, timelines and evidence bundles.
///
/// Exit codes: 3 a hash chain is broken; 4 a signed checkpoint does not hold (bad or forged
/// signature, untrusted key, removed checkpoint, or the log no longer holds what it signed);
/// 64 invalid input; 1 anything else (unknown journey, missing key).
struct AuditCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "audit", summary: "Verify the log, sign checkpoints, show and export journey histories.",
        subcommands: [AuditVerify.self, AuditCheckpointCommand.self, AuditShow.self, AuditExport.self, AuditKeygen.self])

    /// Exit code for a checkpoint that does not hold.
    static let badCheckpointExitCode: Int32 = 4

    static let keyDiscussion = """
        Keys: \(AuditKeys.Configuration.signingKeyVariable) is the path of the Ed25519 signing key (PKCS#8 PEM or \
        32 raw bytes; 'journeys audit keygen' writes one); \(AuditKeys.Configuration.publicKeysVariable) lists \
        further trusted public key files, comma-separated.
        """

    static func keys() throws -> AuditKeys {
        do {
            return try AuditKeys.load(.from(environment: AppEnvironment.current.variables))
        } catch {
            throw CommandFailure(error.message)
        }
    }

    /// A journey id argument: non-empty, printable, no spaces; a `journey-` stream prefix is dropped.
    static func journeyID(_ text: String) throws -> JourneyID {
        var id = StreamName.journeyID(ofStream: text) ?? text
        guard !id.isEmpty, id.count <= 200, id.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value < 127 }) else {
            throw AppError(.invalidInput, "JOURNEY must be a journey id such as 0193a5e2-7c1d-7b3e-9f00-5b1f2a3c4d5e")
        }
        if let uuid = UUID(uuidString: id) { id = uuid.uuidString.lowercased() }
        return JourneyID(id)
    }

    /// Maps the audit module's errors onto the tool's exit codes.
    static func mapped(_ error: Error) -> Error {
        guard let error = error as? AuditError else { return error }
        switch error.code {
        case .journeyNotFound: return AppError(.notFound, error.message)
        case .invalidInput: return AppError(.invalidInput, error.message)
        default: return CommandFailure(error.message)
        }
    }
}

struct AuditVerify: Command {
    static let configuration = CommandConfiguration(
        name: "verify",
        summary: "Recompute every hash chain (exit 3 if broken) and check every signed checkpoint (exit 4 if one fails).",
        discussion: """
            Hashes are recomputed outside the database from each event's canonical content. Each \
            checkpoint must follow the one before it, carry a valid signature by a trusted key, and \
            the log must still hold exactly what it summarized (events added later are fine). A \
            checkpoint signed by a key that is not configured as trusted fails (exit 4), also when no \
            key is configured, unless --allow-unpinned-keys is given. \(AuditCommand.keyDiscussion)
            """,
        flags: [
            FlagSpec("sign", help: "When everything holds, store a new signed checkpoint."),
            FlagSpec(
                "allow-unpinned-keys",
                help: "Accept checkpoints signed by keys not configured as trusted (checked against their stored key; warns)."),
        ])
    let sign: Bool
    let allowUnpinnedKeys: Bool
    init(arguments: ParsedArguments) throws {
        sign = try arguments.flag("sign")
        allowUnpinnedKeys = try arguments.flag("allow-unpinned-keys")
    }

    func run() async throws {
        let keys = try AuditCommand.keys()
        if sign, keys.signingKey == nil {
            throw CommandFailure("--sign needs a signing key: set \(AuditKeys.Configuration.signingKeyVariable)")
        }
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        let out = AppEnvironment.current.writeLine
        let chain = try await AuditVerify.verifyChains(database.app)
        let checkpoints = try await CheckpointVerifier(
            client: database.app, keys: keys,
            configuration: .init(allowUnpinnedKeys: allowUnpinnedKeys)
        ).verify()
        let last =
            checkpoints.lastGood.map {
                "\($0.id) at \(RFC3339.string(from: $0.createdAt)) (\($0.summary.events) events, position \($0.summary.cut.position))"
            } ?? "none"
        out("checkpoints=\(checkpoints.checked) last=\(last)")
        if checkpoints.unpinned > 0 {
            out(
                "warning: \(checkpoints.unpinned) checkpoint(s) signed by keys not configured as trusted were "
                    + "checked against the keys stored with them (--allow-unpinned-keys)")
        }
        for failure in checkpoints.failures { out("checkpoint \(failure.checkpointID) FAILED: \(failure.reason)") }
        if let broken = chain.firstBreak { throw AppError(.chainBroken, "hash chain broken at \(broken)") }
        out("hash chains intact")
        guard checkpoints.isIntact else {
            let ids = checkpoints.failures.map { String($0.checkpointID) }.joined(separator: ", ")
            throw CommandFailure("signed checkpoint(s) \(ids) do not hold", exitCode: AuditCommand.badCheckpointExitCode)
        }
        if checkpoints.checked > 0 { out("checkpoints intact") }
        if sign, let key = keys.signingKey {
            let stored = try await SignedCheckpointStore(client: database.app).create(signingWith: key)
            out(AuditCheckpointCommand.describe(stored))
        }
    }

    /// Runs the chain verifier with a progress bar on large logs; prints the counts.
    static func verifyChains(_ client: PostgresClient) async throws -> ChainVerifier.Report {
        var bar: ProgressBar? = nil
        let total = try await JourneyApp.eventStore(on: client).eventCount()
        if total > 50_000 { bar = ProgressBar(total: total, label: "verify") }
        let progressBar = ProgressBox(bar)
        let report = try await ChainVerifier(client: client).verify { done in progressBar.update(done) }
        progressBar.finish()
        AppEnvironment.current.writeLine("streams=\(report.streams) events=\(report.events)")
        return report
    }
}

struct AuditCheckpointCommand: Command {
    static let configuration = CommandConfiguration(
        name: "checkpoint", summary: "Verify the hash chains, then store a signed summary of the log (streams, events, heads).",
        discussion: """
            Run it periodically (e.g. hourly from cron). The checkpoint covers every event readable in \
            the global order; it is chained to the previous checkpoint. \(AuditCommand.keyDiscussion)
            """)
    init(arguments: ParsedArguments) throws {}

    func run() async throws {
        guard let key = try AuditCommand.keys().signingKey else {
            throw CommandFailure(
                "no signing key: set \(AuditKeys.Configuration.signingKeyVariable) (see 'journeys audit keygen')")
        }
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        let chain = try await AuditVerify.verifyChains(database.app)
        if let broken = chain.firstBreak {
            throw AppError(.chainBroken, "hash chain broken at \(broken); no checkpoint signed")
        }
        let stored = try await SignedCheckpointStore(client: database.app).create(signingWith: key)
        AppEnvironment.current.writeLine(Self.describe(stored))
    }

    static func describe(_ checkpoint: AuditCheckpoint) -> String {
        "checkpoint \(checkpoint.id) signed: streams=\(checkpoint.summary.streams) events=\(checkpoint.summary.events) "
            + "position=\(checkpoint.summary.cut.position) key=\(CheckpointVerifier.keyID(checkpoint.publicKey))"
    }
}

struct AuditShow: Command {
    enum Format: String, CaseIterable { case table, json }

    static let configuration = CommandConfiguration(
        name: "show", summary: "A journey's step timeline and its state, now or as of a moment.",
        discussion: """
            Only events recorded at or before --as-of are folded. Sealed personal data is never \
            printed; the subject appears as its pseudonymous reference. Disclosures (who opened which \
            sealed fields, when and why) are listed after the steps.
            """,
        options: [
            .optional("as-of", valueName: "TIMESTAMP", help: "RFC 3339 instant, e.g. 2026-11-29T18:00:00Z (default: now)."),
            .optional("format", valueName: "table|json", help: "Output format.", default: "table"),
        ],
        positionals: [PositionalSpec("journey", help: "The journey id.")])
    let journey: JourneyID
    let asOf: Date?
    let format: Format

    init(arguments: ParsedArguments) throws {
        journey = try AuditCommand.journeyID(try arguments.string("journey"))
        if let text = try arguments.optionalString("as-of") {
            do { asOf = try AsOf.parse(text, field: "--as-of") } catch { throw AppError(.invalidInput, error.message) }
        } else {
            asOf = nil
        }
        format = try arguments.choice("format")
    }

    func run() async throws {
        let (reports, close) = try await Database.openReports(AppEnvironment.current.database)
        defer { close() }
        let timeline: JourneyTimeline
        do {
            timeline = try await JourneyTimeline.load(journey, asOf: asOf, events: JourneyApp.eventStore(on: reports))
        } catch {
            throw AuditCommand.mapped(error)
        }
        let out = AppEnvironment.current.writeLine
        switch format {
        case .json: out(try AuditShow.json(timeline))
        case .table: out(AuditShow.table(timeline))
        }
    }

    struct Document: Encodable {
        var journeyId: String
        var asOf: Date?
        var eventsShown: Int
        var eventsTotal: Int64
        var timeline: [JourneyTimeline.Entry]
        var disclosures: [Disclosure]
        var state: StateSummary
    }

    static func json(_ timeline: JourneyTimeline) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        let document = Document(
            journeyId: timeline.journeyID.rawValue, asOf: timeline.asOf, eventsShown: timeline.entries.count,
            eventsTotal: timeline.currentVersion, timeline: timeline.entries,
            disclosures: timeline.disclosures, state: StateSummary(timeline.state))
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    static func table(_ timeline: JourneyTimeline) -> String {
        let when = timeline.asOf.map { "as of \(RFC3339.string(from: $0))" } ?? "now"
        var lines = [
            "journey \(timeline.journeyID.rawValue) \(when): \(timeline.entries.count) of \(timeline.currentVersion) events"
        ]
        var steps = TextTable(columns: [
            "time", .init("version", alignment: .right), "event", .init("attempt", alignment: .right),
            "description", "actor",
        ])
        for entry in timeline.entries {
            steps.append([
                RFC3339.string(from: entry.recordedAt), String(entry.version), entry.type, String(entry.attempt),
                entry.description, entry.actor ?? "-",
            ])
        }
        if timeline.entries.isEmpty {
            lines.append("no event was recorded at or before that time: the journey did not exist yet")
        } else {
            lines.append(steps.render())
        }
        lines.append(disclosures(timeline.disclosures))
        let state = StateSummary(timeline.state)
        func time(_ date: Date?) -> String { date.map(RFC3339.string(from:)) ?? "-" }
        var facts = TextTable(columns: ["state", "value"])
        let rows: [(String, String?)] = [
            ("status", state.status), ("version", String(state.version)), ("attempt", String(state.attempt)),
            ("environment", state.environment), ("flow", state.flow), ("purpose", state.purpose),
            ("client reference", state.clientReference), ("subject reference", state.subjectReference),
            ("subject erased", state.subjectErasedAt.map(RFC3339.string(from:))),
            ("started", state.startedAt.map(RFC3339.string(from:))),
            ("deadline", state.deadline.map(RFC3339.string(from:))), ("outcome", state.outcome),
            ("completed", state.completedAt.map(RFC3339.string(from:))),
            ("abandoned", state.abandonedAt.map { "\(RFC3339.string(from: $0)) (\(state.abandonReason ?? "-"))" }),
            ("last error code", state.lastErrorCode.map(String.init)),
            ("next due", state.nextDue.map { "\($0) at \(time(state.nextDueAt))" }),
        ]
        for (name, value) in rows { if let value { facts.append([name, value]) } }
        for attempt in state.attempts {
            var parts = ["requested \(time(attempt.requestedAt))"]
            if let process = attempt.processId { parts.append("process \(process)") }
            if let at = attempt.captureOpenedAt { parts.append("capture \(time(at))") }
            if let at = attempt.callbackAt { parts.append("callback \(time(at))") }
            if let result = attempt.processResult { parts.append("result \(result)") }
            if let failure = attempt.failure { parts.append("failed: \(failure)\(attempt.sdkErrorCode.map { " \($0)" } ?? "")") }
            facts.append(["attempt \(attempt.number)", parts.joined(separator: ", ")])
        }
        lines.append(facts.render())
        return lines.joined(separator: "\n")
    }
}

extension AuditShow {
    /// The disclosure trail: who opened which sealed fields, when, through what and why.
    static func disclosures(_ disclosures: [Disclosure]) -> String {
        guard !disclosures.isEmpty else { return "disclosures: none" }
        var table = TextTable(columns: ["disclosed at", "by", "fields", "purpose", "via"])
        for disclosure in disclosures {
            let who = disclosure.actor + (disclosure.tenant.map { " (tenant \($0))" } ?? "")
            table.append([
                RFC3339.string(from: disclosure.recordedAt), who, disclosure.fields.joined(separator: ","),
                disclosure.purpose, disclosure.channel,
            ])
        }
        return "disclosures: \(disclosures.count)\n" + table.render()
    }
}

struct AuditExport: Command {
    static let configuration = CommandConfiguration(
        name: "export", summary: "Write a journey's evidence bundle (events, hashes, chain check, signed checkpoint) as JSON.",
        discussion: "Sealed fields stay sealed. The file is written with mode 0600. \(AuditCommand.keyDiscussion)",
        options: [
            .optional(
                "output", valueName: "FILE",
                help: "Write to a new FILE (mode 0600; an existing file or a link is refused) instead of standard output.")
        ],
        positionals: [PositionalSpec("journey", help: "The journey id.")])
    let journey: JourneyID
    let output: String?

    init(arguments: ParsedArguments) throws {
        journey = try AuditCommand.journeyID(try arguments.string("journey"))
        output = try arguments.optionalString("output")
        if let output, output.isEmpty || output.hasSuffix("/") {
            throw AppError(.invalidInput, "--output must name a file")
        }
    }

    func run() async throws {
        let keys = try AuditCommand.keys()
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        let bundle: EvidenceBundle
        do {
            bundle = try await EvidenceBundle.collect(journey, events: JourneyApp.eventStore(on: database.app), keys: keys)
        } catch {
            throw AuditCommand.mapped(error)
        }
        let json = try bundle.json()
        guard let output else {
            AppEnvironment.current.writeLine(String(decoding: json, as: UTF8.self))
            return
        }
        try ExclusiveFile.write(json, to: output)
        AppEnvironment.current.writeLine(
            "wrote \(output): \(bundle.events.count) events, chain "
                + (bundle.verification.intact ? "intact" : "BROKEN") + ", checkpoint "
                + (bundle.checkpoint.map { "\($0.id)" } ?? "none"))
    }
}

struct AuditKeygen: Command {
    static let configuration = CommandConfiguration(
        name: "keygen",
        summary: "Create an Ed25519 checkpoint signing key (PKCS#8 PEM, mode 0600) and its public key (FILE.pub).",
        options: [.required("output", valueName: "FILE", help: "Where to write the private key; must not exist.")])
    let output: String

    init(arguments: ParsedArguments) throws {
        output = try arguments.string("output")
        guard !output.isEmpty, !output.hasSuffix("/") else { throw AppError(.invalidInput, "--output must name a file") }
    }

    func run() async throws {
        let key: Ed25519PrivateKey
        do {
            key = try AuditKeys.generate(writingTo: output)
        } catch {
            throw AuditCommand.mapped(error)
        }
        let publicPath = output + ".pub"
        _ = FileManager.default.createFile(
            atPath: publicPath, contents: Data(try key.publicKey.pem.utf8),
            attributes: [.posixPermissions: 0o644])
        let out = AppEnvironment.current.writeLine
        out(
            "wrote \(output) (private, 0600) and \(publicPath); key id \(CheckpointVerifier.keyID(key.publicKey.rawRepresentation))"
        )
        out("sign with: export \(AuditKeys.Configuration.signingKeyVariable)=\(output)")
    }
}
