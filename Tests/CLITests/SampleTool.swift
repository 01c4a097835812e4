import CLI
import Foundation

/// A small tool shaped like `journeys`, used across the tests.
struct SampleTool: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "journeys",
        summary: "Run and inspect human token journeys.",
        subcommands: [Events.self, Bench.self, Report.self, Fail.self, Wait.self])
}

struct Events: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "events",
        summary: "Append, read and tail events.",
        subcommands: [Append.self, Read.self])
}

enum ExpectedVersion: String, CaseIterable {
    case any
    case noStream = "no-stream"
}

struct Append: Command {
    static let configuration = CommandConfiguration(
        name: "append",
        summary: "Append one event to a stream.",
        discussion: "Fails when the stream's version differs from --expected-version.",
        options: [
            .required("stream", valueName: "S", help: "Stream to append to."),
            .required("type", valueName: "T", help: "Event type."),
            .optional("data", valueName: "JSON", help: "Event payload.", default: "{}"),
            .optional("expected-version", valueName: "N|any|no-stream", help: "Optimistic check.", default: "any"),
            .optional("id", valueName: "UUID", help: "Event id for idempotency."),
            .repeatable("tag", valueName: "TAG", help: "A tag; repeat for more."),
        ],
        flags: [FlagSpec("json", help: "Print the stored event as JSON.")])

    var stream: String
    var type: String
    var data: String
    var expectedVersion: String
    var id: UUID?
    var tags: [String]
    var json: Bool

    init(arguments: ParsedArguments) throws {
        stream = try arguments.string("stream")
        type = try arguments.string("type")
        data = try arguments.string("data")
        expectedVersion = try arguments.string("expected-version")
        id = try arguments.optionalUUID("id")
        tags = try arguments.strings("tag")
        json = try arguments.flag("json")
    }

    func run() async throws {
        await Recorder.current?.record("append \(stream) \(type) \(data) \(expectedVersion) \(tags) json=\(json)")
    }
}

struct Read: Command {
    static let configuration = CommandConfiguration(
        name: "read",
        summary: "Print a stream's events.",
        options: [.required("stream", valueName: "S", help: "Stream to read.")])

    var stream: String

    init(arguments: ParsedArguments) throws {
        stream = try arguments.string("stream")
    }

    func run() async throws {
        await Recorder.current?.record("read \(stream)")
    }
}

struct Bench: Command {
    static let configuration = CommandConfiguration(
        name: "bench",
        summary: "Measure append throughput.",
        options: [
            .optional("writers", valueName: "N", help: "Concurrent writers.", default: "8"),
            .optional("ratio", valueName: "R", help: "Read ratio."),
        ],
        flags: [FlagSpec("json", help: "Print results as JSON.")])

    var writers: Int

    init(arguments: ParsedArguments) throws {
        writers = try arguments.int("writers", in: 1...64)
    }

    func run() async throws {
        await Recorder.current?.record("bench \(writers)")
    }
}

enum ReportFormat: String, CaseIterable {
    case table, csv, json
}

struct Report: Command {
    static let configuration = CommandConfiguration(
        name: "report",
        summary: "Run a compliance report.",
        options: [
            .required("from", valueName: "DATE", help: "First day, inclusive."),
            .optional("to", valueName: "DATE", help: "Last moment, exclusive."),
            .optional("format", valueName: "FORMAT", help: "Output format.", default: "table"),
        ],
        positionals: [
            PositionalSpec("name", help: "The report to run."),
            PositionalSpec("filters", help: "Extra filters.", isRequired: false, isRepeatable: true),
        ])

    var name: String
    var from: Date
    var to: Date?
    var format: ReportFormat
    var filters: [String]

    init(arguments: ParsedArguments) throws {
        name = try arguments.string("name")
        from = try arguments.date("from")
        to = try arguments.optionalDate("to")
        format = try arguments.choice("format")
        filters = try arguments.strings("filters")
    }

    func run() async throws {
        await Recorder.current?.record("report \(name) \(format.rawValue) \(filters)")
    }
}

/// Fails with the message given in `--message`, and the exit code in `--code` if any.
struct Fail: Command {
    static let configuration = CommandConfiguration(
        name: "fail",
        summary: "Fail on purpose.",
        options: [
            .optional("message", valueName: "TEXT", help: "The failure.", default: "boom"),
            .optional("code", valueName: "N", help: "Exit code."),
        ])

    var message: String
    var code: Int?

    init(arguments: ParsedArguments) throws {
        message = try arguments.string("message")
        code = try arguments.optionalInt("code", in: 0...255)
    }

    struct Boom: Error, CustomStringConvertible {
        var description: String
    }

    func run() async throws {
        if let code { throw CommandFailure(message, exitCode: Int32(code)) }
        throw Boom(description: message)
    }
}

/// Waits until cancelled.
struct Wait: Command {
    static let configuration = CommandConfiguration(name: "wait", summary: "Wait until cancelled.")

    init(arguments: ParsedArguments) {}

    func run() async throws {
        await Recorder.current?.record("waiting")
        // A stream nothing ever yields to: iterating it ends only when the task is cancelled.
        let (never, continuation) = AsyncStream<Never>.makeStream()
        for await _ in never {}
        withExtendedLifetime(continuation) {}
        throw CancellationError()
    }
}
