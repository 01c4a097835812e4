import Foundation
import JourneyDomain
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts journeys as a company's backend would while faults happen: each client sends
/// `POST /v1/journeys` under a fresh Idempotency-Key and retries that key every
/// `retryInterval` until a final answer (2xx, or a 4xx about the request), then takes a new key.
///
/// The load ends after `duration` or when `stopFile` appears (each client starts at least one
/// key); keys still pending keep retrying
/// for up to `drain` seconds more. Judging the outcome is the caller's (the report has every attempt).
struct LoadDriver: Sendable {
    struct Configuration: Sendable {
        var baseURL: URL
        var apiKey: String
        /// Concurrent clients, each with one key in flight. Default 8.
        var clients = 8
        /// Seconds during which clients start new keys. Default 60.
        var duration: TimeInterval = 60
        /// Seconds between the attempts of one key. Default 1.
        var retryInterval: TimeInterval = 1
        /// Least seconds between a client's new keys. Default 1.
        var keyInterval: TimeInterval = 1
        /// Seconds a key still pending when the load ends goes on retrying. Default 60.
        var drain: TimeInterval = 60
        /// Seconds one request may take. Default 20 (over the service's 15 s wait on a key in progress).
        var requestTimeout: TimeInterval = 20
        /// The load ends once this file exists. Default none.
        var stopFile: String?
        /// Rewritten every 0.25 s with ``LoadLedger/statusLine(now:)``. Default none.
        var statusFile: String?
        /// The journeys' environment. Default `UAT`.
        var environment = "UAT"

        init(baseURL: URL, apiKey: String) {
            self.baseURL = baseURL
            self.apiKey = apiKey
        }
    }

    let configuration: Configuration
    /// The wall clock the report's times come from.
    var now: @Sendable () -> Date = Date.init

    /// Runs the load and returns what every key saw.
    func run() async -> LoadReport {
        let ledger = LoadLedger(clients: configuration.clients)
        let session = URLSession(configuration: Self.sessionConfiguration(configuration))
        defer { session.finishTasksAndInvalidate() }
        let startedAt = seconds()
        // Each child says whether it was a client; the watcher runs until the last client is done.
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await watch(ledger, startedAt: startedAt); return false
            }
            for client in 0..<configuration.clients {
                group.addTask {
                    await runClient(client, ledger: ledger, session: session); return true
                }
            }
            var running = configuration.clients
            for await wasClient in group where wasClient {
                running -= 1
                if running == 0 { break }
            }
            group.cancelAll()
        }
        writeStatus(ledger)
        return ledger.report(startedAt: startedAt, endedAt: seconds(), clients: configuration.clients)
    }

    /// One client: keys one after another until the load ends (at least one, however short the load),
    /// each retried until final or the drain ends.
    private func runClient(_ client: Int, ledger: LoadLedger, session: URLSession) async {
        repeat {
            let began = seconds()
            let key = UUID().uuidString.lowercased()
            let reference = Self.clientReference(key)
            let body = requestBody(clientReference: reference)
            var record = LoadReport.Key(
                key: key, client: client, clientReference: reference, firstAttemptAt: began,
                journeyIds: [], attempts: [])
            while !Task.isCancelled {
                let sent = seconds()
                let answer = await send(key: key, body: body, session: session)
                ledger.count(status: answer.status)
                record.attempts.append(.init(at: sent, seconds: seconds() - sent, status: answer.status, code: answer.code))
                if let id = answer.journeyID, !record.journeyIds.contains(id) { record.journeyIds.append(id) }
                if Self.isFinal(answer.status) {
                    record.finalAt = seconds()
                    record.finalStatus = answer.status
                    record.journeyId = answer.journeyID
                    break
                }
                ledger.retrying(client: client, since: began)
                if let stopped = ledger.stoppedAt, seconds() >= stopped + configuration.drain { break }
                await pause(until: sent + configuration.retryInterval)
            }
            ledger.finish(record)
            if ledger.stoppedAt == nil { await pause(until: began + configuration.keyInterval) }
        } while !Task.isCancelled && ledger.stoppedAt == nil
    }

    /// Ends the load at its deadline or when the stop file appears, and keeps the status file current.
    private func watch(_ ledger: LoadLedger, startedAt: Double) async {
        while !Task.isCancelled {
            if ledger.stoppedAt == nil {
                let stopRequested = configuration.stopFile.map { FileManager.default.fileExists(atPath: $0) } ?? false
                if stopRequested || seconds() >= startedAt + configuration.duration { ledger.stop(at: seconds()) }
            }
            writeStatus(ledger)
            try? await Task.sleep(for: .milliseconds(250))
        }
    }

    private func writeStatus(_ ledger: LoadLedger) {
        guard let file = configuration.statusFile else { return }
        try? Data((ledger.statusLine(now: seconds()) + "\n").utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
    }

    /// 2xx, or a 4xx about the request itself; 408, 409, 425 and 429 say "later", like 5xx and no answer.
    static func isFinal(_ status: Int) -> Bool {
        (200..<300).contains(status) || ((400..<500).contains(status) && ![408, 409, 425, 429].contains(status))
    }

    /// `load-<key>` with the key's digits written as the letters g-p: a UUID's digit runs would
    /// look like a CPF or phone number, which the service refuses in a clientReference.
    static func clientReference(_ key: String) -> String {
        "load-"
            + String(
                key.lowercased().map { character in
                    guard let digit = character.wholeNumberValue, character.isASCII else { return character }
                    return Character(UnicodeScalar(UInt8(ascii: "g") + UInt8(digit)))
                })
    }

    private func requestBody(clientReference: String) -> Data {
        let body: [String: Any] = [
            "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": CheckDigits.randomCPF(), "name": "Load Person"],
            "environment": configuration.environment, "flow": "humantoken", "purpose": "creditprocess",
            "clientReference": clientReference, "createProcess": "now",
        ]
        return (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
    }

    private func pause(until time: Double) async {
        let wait = time - seconds()
        if wait > 0 { try? await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
    }

    private func seconds() -> Double { now().timeIntervalSince1970 }

    private static func sessionConfiguration(_ configuration: Configuration) -> URLSessionConfiguration {
        let session = URLSessionConfiguration.ephemeral
        session.timeoutIntervalForRequest = configuration.requestTimeout
        session.httpMaximumConnectionsPerHost = configuration.clients
        return session
    }
}
