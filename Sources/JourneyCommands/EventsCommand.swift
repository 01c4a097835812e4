import CLI
import EventStore
import Foundation
import JourneyApp
import Postgres

/// `journeys events`: operator access to the log.
struct EventsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "events", summary: "Append to and read the event log.",
        subcommands: [EventsAppend.self, EventsRead.self, EventsTail.self])
}

struct EventsAppend: Command {
    static let configuration = CommandConfiguration(
        name: "append", summary: "Append one event to a stream; prints its position.",
        options: [
            .required("stream", valueName: "S", help: "Stream name, e.g. journey-<uuid>."),
            .required("type", valueName: "T", help: "Event type."),
            .required("data", valueName: "JSON", help: "Event data as JSON."),
            .optional(
                "expected-version", valueName: "N|any|no-stream", help: "Refuse unless the stream is at this version.",
                default: "any"),
            .optional("id", valueName: "UUID", help: "Event id; a retry with the same id is idempotent (default: a new UUIDv7)."),
            .optional("actor", valueName: "NAME", help: "Who appends.", default: "operator"),
            .optional("correlation-id", valueName: "UUID", help: "Correlation id."),
        ])
    let stream: StreamName
    let event: NewEvent
    let expected: ExpectedVersion

    init(arguments: ParsedArguments) throws {
        stream = StreamName(try arguments.string("stream"))
        guard !stream.rawValue.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw AppError(.invalidInput, "--stream must not be empty")
        }
        let type = try arguments.string("type")
        guard !type.isEmpty else { throw AppError(.invalidInput, "--type must not be empty") }
        let data = try arguments.string("data")
        guard (try? JSONSerialization.jsonObject(with: Data(data.utf8), options: [.fragmentsAllowed])) != nil else {
            throw AppError(.invalidInput, "--data is not valid JSON")
        }
        expected = try Self.expectedVersion(try arguments.string("expected-version"))
        event = NewEvent(
            id: try arguments.optionalUUID("id") ?? .v7(), type: type, data: JSONB(text: data),
            metadata: EventMetadata(
                correlationID: try arguments.optionalUUID("correlation-id"),
                actor: try arguments.string("actor")))
    }

    static func expectedVersion(_ text: String) throws -> ExpectedVersion {
        switch text {
        case "any": return .any
        case "no-stream": return .noStream
        default:
            guard let version = Int64(text), version >= 0 else {
                throw AppError(.invalidInput, "--expected-version must be a version number, 'any' or 'no-stream', not '\(text)'")
            }
            return .exact(version)
        }
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        let result = try await JourneyApp.eventStore(on: database.app).append([event], to: stream, expectedVersion: expected)
        AppEnvironment.current.writeLine(#"{"position":\#(result.positions[0]),"streamVersion":\#(result.streamVersion)}"#)
    }
}

struct EventsRead: Command {
    static let configuration = CommandConfiguration(
        name: "read", summary: "Print a stream's events, one JSON line each.",
        options: [
            .required("stream", valueName: "S", help: "Stream name."),
            .optional("from", valueName: "VERSION", help: "First version to print.", default: "1"),
        ])
    let stream: StreamName
    let from: Int
    init(arguments: ParsedArguments) throws {
        stream = StreamName(try arguments.string("stream"))
        from = try arguments.int("from", in: 1...Int.max)
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        let store = JourneyApp.eventStore(on: database.app)
        guard try await store.streamVersion(stream) != nil else {
            throw AppError(.notFound, "stream \(stream) does not exist")
        }
        var version = Int64(from)
        while true {
            let page = try await store.readStream(stream, from: version, limit: 1000)
            page.forEach { AppEnvironment.current.writeLine(EventJSONLine.render($0)) }
            guard let last = page.last, page.count == 1000 else { break }
            version = last.streamVersion + 1
        }
    }
}

struct EventsTail: Command {
    static let configuration = CommandConfiguration(
        name: "tail", summary: "Print the log in global order, one JSON line each.",
        discussion: "With --follow, keeps printing new events (NOTIFY wakes it; polling is the source of truth).",
        options: [.optional("after", valueName: "POSITION", help: "Start after the event at this position.", default: "0")],
        flags: [FlagSpec("follow", help: "Keep following new events until interrupted.")])
    let after: Int64
    let follow: Bool
    init(arguments: ParsedArguments) throws {
        after = Int64(try arguments.int("after", in: 0...Int.max))
        follow = try arguments.flag("follow")
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 2)
        defer { database.close() }
        let store = JourneyApp.eventStore(on: database.app)
        guard let start = try await store.checkpoint(atPosition: after) else {
            throw AppError(.notFound, "no event at position \(after)")
        }
        let writeLine = AppEnvironment.current.writeLine
        if follow {
            try await LogFollower(client: database.app, checkpoint: .after(start)) { batch, _ in
                batch.forEach { writeLine(EventJSONLine.render($0)) }
            }.run()
            return
        }
        var checkpoint = start
        while true {
            let page = try await store.readAll(after: checkpoint, limit: 1000)
            page.forEach { writeLine(EventJSONLine.render($0)) }
            guard let last = page.last else { break }
            checkpoint = last.checkpoint
        }
    }
}
