import EventStore
import Foundation
import HumanTokenAPI
import JourneyApp
import JourneyDomain

/// `journeys bench e2e`: journey starts through service, emulator (rate limit off) and
/// PostgreSQL, against Create Process called directly on the same emulator (the baseline). Starts
/// with `createProcess: now` (one Unico call each, the figures of earlier runs), then the default
/// start that makes no Unico call (ratio to the former) and the app's first token request after
/// it, which makes the process (ratio to the baseline).
struct EndToEndBenchmark: Sendable {
    struct Configuration: Sendable {
        /// Concurrent callers. Default 8.
        var clients = 8
        /// Seconds per workload. Default 5.
        var seconds = 5.0
        /// What sends the starts. Default `sockets`.
        var loadClient = LoadClientKind.sockets
    }

    /// The starts' HTTP client: `sockets` (``LoadClient``, one blocking keep-alive connection per
    /// caller on its own thread, like wrk) or `urlsession` (FoundationNetworking in this process,
    /// the client before session 7, which took CPU from the service it measured).
    enum LoadClientKind: String, Sendable, Codable, CaseIterable {
        case sockets
        case urlsession
    }

    struct Group: Sendable, Codable, Equatable {
        let starts_per_s: Double
        let p50_ms: Double
        let p99_ms: Double
        let ratio_to_baseline: Double?
        let failures: Int
    }

    struct Result: Sendable, Codable, Equatable {
        let journey_start: Group
        let unico_create_process_baseline: Group
        let clients: Int
        let seconds_per_workload: Double
        /// With `--through-pgbouncer`: the same starts with the service's pool through a local
        /// PgBouncer in transaction mode; its ratio is to the direct starts.
        var journey_start_through_pgbouncer: Group?
        /// Where the direct starts' time went in the handler, stage by stage (``StartStage``), then
        /// `handler` (their sum per start).
        var start_stages: [StageSamples.Figure] = []
        /// Mean start as the caller saw it, less the mean `handler`: HTTP (client and server) and scheduling.
        var start_outside_handler_mean_ms: Double?
        /// The starts' HTTP client (``LoadClientKind``).
        var load_client: String?
        /// CPU per start of this process (service, emulator and load client), user + system.
        var process_cpu_ms_per_start: Double?
        /// CPU per start of the embedded cluster's processes; nil with DATABASE_URL.
        var postgres_cpu_ms_per_start: Double?
        /// Default starts (no Unico call: the process waits for the app's token request); ratio to `journey_start`.
        var journey_start_without_process: Group?
        /// The first `POST …/token` of a journey started without a process (Create Process plus
        /// its recording), timed alone; ratio to the Create Process baseline.
        var first_token: Group?
    }

    let database: Database
    let configuration: Configuration

    func run() async throws -> Result {
        let stages = StageSamples()
        var settings = LocalStack.Configuration()
        settings.startStages = { stages.add($0) }
        settings.rateLimits = .off  // one key starts as fast as the service goes: the limits would cut the figures
        var (result, startMean) = try await LocalStack.with(database: database, configuration: settings) { stack in
            var (result, mean) = try await run(on: stack)
            let deferred = try await deferredStarts(on: stack)
            result.journey_start_without_process = Group(
                starts_per_s: deferred.0.perSecond, p50_ms: deferred.0.p50Milliseconds, p99_ms: deferred.0.p99Milliseconds,
                ratio_to_baseline: result.journey_start.starts_per_s > 0
                    ? deferred.0.perSecond / result.journey_start.starts_per_s : 0,
                failures: deferred.1)
            let tokens = try await firstTokens(on: stack)
            let baseline = result.unico_create_process_baseline.starts_per_s
            result.first_token = Group(
                starts_per_s: tokens.0.perSecond, p50_ms: tokens.0.p50Milliseconds, p99_ms: tokens.0.p99Milliseconds,
                ratio_to_baseline: baseline > 0 ? tokens.0.perSecond / baseline : 0, failures: tokens.1)
            return (result, mean)
        }
        result.start_stages = stages.figures()
        if let handler = result.start_stages.last, handler.stage == StageSamples.handler {
            result.start_outside_handler_mean_ms = startMean - handler.mean_ms
        }
        return result
    }

    /// The result and the starts' mean latency (ms).
    private func run(on stack: LocalStack) async throws -> (Result, Double) {
        guard let unico = stack.unicoClients[.uat] else { throw AppError(.invalidInput, "no UAT client") }
        let baseline = try await measure {
            _ = try await unico.createProcess(
                CreateProcessRequest(
                    flow: "humantoken", purpose: .creditProcess, person: ProcessPerson(duiValue: Self.document())))
            return true
        }
        let dataDirectory = database.embedded.map { _ in
            URL(fileURLWithPath: AppEnvironment.current.database.embeddedDirectory).appendingPathComponent("data").path
        }
        let cpuBefore = CPUTime.now(dataDirectory: dataDirectory)
        let starts: (LatencyStats, Int, Double)
        switch configuration.loadClient {
        case .urlsession:
            starts = try await measure {
                let (status, _) = try await stack.api.call(
                    "POST", "v1/journeys", bearer: stack.apiKey, body: Self.startBody(),
                    headers: ["Idempotency-Key": UUID().uuidString])
                return status == 201
            }
        case .sockets:
            guard let port = stack.api.baseURL.port.flatMap(UInt16.init(exactly:)) else {
                throw AppError(.invalidInput, "the service has no loopback port")
            }
            let (path, bearer) = (stack.api.baseURL.appendingPathComponent("v1/journeys").path, stack.apiKey)
            let started = ContinuousClock.now
            let (durations, failures) = await LoadClient(port: port).run(
                callers: configuration.clients, until: started + .seconds(configuration.seconds), expected: 201
            ) {
                LoadClient.Request(
                    method: "POST", path: path,
                    headers: [
                        ("Authorization", "Bearer \(bearer)"), ("Content-Type", "application/json"),
                        ("Idempotency-Key", UUID.random().uuidString),
                    ], body: Self.startBodyBytes())
            }
            let mean = durations.isEmpty ? 0 : durations.reduce(0, +) / Double(durations.count) * 1000
            starts = (LatencyStats(durations: durations, seconds: (ContinuousClock.now - started).seconds), failures, mean)
        }
        let cpuAfter = CPUTime.now(dataDirectory: dataDirectory)
        let count = Double(max(starts.0.operations + starts.1, 1))
        func group(_ stats: (LatencyStats, Int, Double), baseline: LatencyStats?) -> Group {
            Group(
                starts_per_s: stats.0.perSecond, p50_ms: stats.0.p50Milliseconds, p99_ms: stats.0.p99Milliseconds,
                ratio_to_baseline: baseline.map { $0.perSecond > 0 ? stats.0.perSecond / $0.perSecond : 0 }, failures: stats.1)
        }
        return (
            Result(
                journey_start: group(starts, baseline: baseline.0), unico_create_process_baseline: group(baseline, baseline: nil),
                clients: configuration.clients, seconds_per_workload: configuration.seconds,
                load_client: configuration.loadClient.rawValue,
                process_cpu_ms_per_start: (cpuAfter.process - cpuBefore.process) / count * 1000,
                postgres_cpu_ms_per_start: cpuAfter.postgres.flatMap { after in
                    cpuBefore.postgres.map { (after - $0) / count * 1000 }
                }), starts.2
        )
    }

    /// Default starts (no Unico call) by the sockets client; latencies and failures.
    private func deferredStarts(on stack: LocalStack) async throws -> (LatencyStats, Int) {
        guard let port = stack.api.baseURL.port.flatMap(UInt16.init(exactly:)) else {
            throw AppError(.invalidInput, "the service has no loopback port")
        }
        let (path, bearer) = (stack.api.baseURL.appendingPathComponent("v1/journeys").path, stack.apiKey)
        let started = ContinuousClock.now
        let (durations, failures) = await LoadClient(port: port).run(
            callers: configuration.clients, until: started + .seconds(configuration.seconds), expected: 201
        ) {
            LoadClient.Request(
                method: "POST", path: path,
                headers: [
                    ("Authorization", "Bearer \(bearer)"), ("Content-Type", "application/json"),
                    ("Idempotency-Key", UUID.random().uuidString),
                ], body: Self.startBodyBytes(processNow: false))
        }
        return (LatencyStats(durations: durations, seconds: (ContinuousClock.now - started).seconds), failures)
    }

    /// Each caller starts a journey without a process (not timed), then times its first token
    /// request; latencies of the token requests over their own summed time, and failures.
    private func firstTokens(on stack: LocalStack) async throws -> (LatencyStats, Int) {
        let deadline = ContinuousClock.now + .seconds(configuration.seconds)
        let results = try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
            for _ in 0..<configuration.clients {
                group.addTask {
                    var (durations, failures) = ([Double](), 0)
                    while ContinuousClock.now < deadline {
                        let (status, json) = try await stack.api.call(
                            "POST", "v1/journeys", bearer: stack.apiKey, body: Self.startBody(processNow: false),
                            headers: ["Idempotency-Key": UUID().uuidString])
                        guard status == 201, let id = json["journeyId"] as? String, let client = json["clientToken"] as? String
                        else { failures += 1; continue }
                        let begin = ContinuousClock.now
                        let (tokenStatus, _) = try await stack.api.call("POST", "v1/journeys/\(id)/token", bearer: client)
                        if tokenStatus == 200 { durations.append((ContinuousClock.now - begin).seconds) } else { failures += 1 }
                    }
                    return (durations, failures)
                }
            }
            return try await group.reduce(into: ([Double](), 0)) {
                $0.0 += $1.0; $0.1 += $1.1
            }
        }
        // Throughput over the callers' time inside token requests, as if they did nothing else.
        let busy = results.0.reduce(0, +) / Double(max(configuration.clients, 1))
        return (LatencyStats(durations: results.0, seconds: max(busy, 0.001)), results.1)
    }

    /// Each client loops until the deadline; returns latencies of successes, the failure count
    /// and the successes' mean latency (ms).
    private func measure(_ operation: @escaping @Sendable () async throws -> Bool) async throws -> (LatencyStats, Int, Double) {
        let started = ContinuousClock.now
        let deadline = started + .seconds(configuration.seconds)
        let results = try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
            for _ in 0..<configuration.clients {
                group.addTask {
                    var durations: [Double] = []
                    var failures = 0
                    while ContinuousClock.now < deadline {
                        let begin = ContinuousClock.now
                        if (try? await operation()) == true {
                            durations.append((ContinuousClock.now - begin).seconds)
                        } else {
                            failures += 1
                        }
                    }
                    return (durations, failures)
                }
            }
            return try await group.reduce(into: ([Double](), 0)) {
                $0.0 += $1.0; $0.1 += $1.1
            }
        }
        let mean = results.0.isEmpty ? 0 : results.0.reduce(0, +) / Double(results.0.count) * 1000
        return (LatencyStats(durations: results.0, seconds: (ContinuousClock.now - started).seconds), results.1, mean)
    }

    /// A start's body with a fresh CPF; `processNow` asks for attempt 1's process with the start.
    static func startBody(processNow: Bool = true) -> [String: Any] {
        var body: [String: Any] = [
            "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": document(), "name": "Bench Person"],
            "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess",
        ]
        if processNow { body["createProcess"] = "now" }
        return body
    }

    /// ``startBody(processNow:)`` as JSON bytes, written directly (as wrk sends a prepared body):
    /// the load client's own cost stays out of the service's figures.
    static func startBodyBytes(processNow: Bool = true) -> [UInt8] {
        // A CPF is eleven digits: nothing to escape.
        let process = processNow ? #","createProcess":"now""# : ""
        return Array(
            #"{"subject":{"documentType":"DUI_TYPE_BR_CPF","documentNumber":"\#(document())","name":"Bench Person"},"environment":"UAT","flow":"humantoken","purpose":"creditprocess"\#(process)}"#
                .utf8)
    }

    /// A random CPF with valid check digits (the API refuses others).
    static func document() -> String { CheckDigits.randomCPF() }
}
