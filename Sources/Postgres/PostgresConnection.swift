import CLibPQ
import Foundation

/// One libpq connection. Every call blocks the calling thread, so use it only from a thread
/// that may block (the pool runs each connection on its own serial queue), one caller at a time.
public final class PostgresConnection: @unchecked Sendable {
    let handle: OpaquePointer
    /// Named prepared statements by SQL text; emptied on reconnect.
    var statementCache: StatementCache
    /// The socket the pool's event loop registered for this connection; -1 after a reset.
    var watchedSocket: Int32 = -1
    /// Statements waiting to be sent in front of the next one, in its round trip: an open
    /// transaction's `BEGIN` and ``enqueue(_:)``'d writes (see ``transaction(isolation:_:)``).
    var deferred: [PostgresQuery] = []
    /// True from ``transaction(isolation:_:)`` until its `BEGIN` leaves with a statement.
    var beginDeferred = false
    /// Round trips to the server so far (a statement, a pipeline, a prepare), for tests and metrics.
    public internal(set) var roundTrips = 0

    private init(handle: OpaquePointer, statementCacheCapacity: Int) {
        self.handle = handle
        self.statementCache = StatementCache(capacity: statementCacheCapacity)
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    /// Named prepared statements kept per connection unless a pool says otherwise.
    public static let defaultStatementCacheCapacity = 256

    deinit { PQfinish(handle) }

    /// Opens a connection, blocking until it is ready or fails. `statementCacheCapacity` named
    /// prepared statements are kept (see ``query(_:)``); 0 runs every statement unnamed.
    public static func connect(
        _ configuration: PostgresConfiguration,
        statementCacheCapacity: Int = defaultStatementCacheCapacity
    ) throws -> PostgresConnection {
        let keywords = ["dbname", "connect_timeout", "fallback_application_name"]
        let values = [configuration.connectionString, String(configuration.connectTimeout), configuration.applicationName]
        let handle: OpaquePointer? = withCStrings(keywords) { keys in
            withCStrings(values) { vals in PQconnectdbParams(keys, vals, 1) }
        }
        guard let handle else {
            throw PostgresError(.connectionFailed, "could not allocate a libpq connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = lastError(handle)
            PQfinish(handle)
            let code: PostgresError.Code =
                message.contains("authentication failed") || message.contains("password")
                ? .authenticationFailed : .connectionFailed
            throw PostgresError(code, "could not connect to PostgreSQL: \(message)")
        }
        return PostgresConnection(handle: handle, statementCacheCapacity: statementCacheCapacity)
    }

    /// Runs one parameterized statement and returns its rows: as a named prepared statement
    /// when the statement cache is on, otherwise unnamed (parsed on every call).
    @discardableResult
    public func query(_ query: PostgresQuery) throws -> PostgresRows {
        if !deferred.isEmpty { return try sendDeferred(then: query)! }
        if statementCache.isEnabled { return try queryPrepared(query) }
        roundTrips += 1
        let result: OpaquePointer? = withBindPointers(query.binds) { values in
            PQexecParams(handle, query.sql, Int32(query.binds.count), nil, values, nil, nil, 0)
        }
        return try consume(result, statement: query)
    }

    /// Runs SQL text through the simple query protocol (several statements allowed, no binds).
    /// Use for migrations and fixed administrative statements only.
    public func execute(unsafeSQL sql: String) throws {
        if !deferred.isEmpty { try sendDeferred(then: nil) }
        roundTrips += 1
        try consume(PQexec(handle, sql), statement: PostgresQuery(unsafeSQL: sql))
    }

    /// Runs `body` inside BEGIN/COMMIT, rolling back when it throws.
    ///
    /// `BEGIN` is not sent on its own: it leaves with the body's first statement, and writes the
    /// body ``enqueue(_:)``s leave with `COMMIT`, each batch in one pipeline (one round trip). A
    /// body that runs no statement sends nothing.
    public func transaction<T>(isolation: String? = nil, _ body: (PostgresConnection) throws -> T) throws -> T {
        guard !beginDeferred && !isServerInTransaction else {
            throw PostgresError(.queryFailed, "a transaction is already open on this connection")
        }
        deferred = [PostgresQuery(unsafeSQL: PostgresStatements.begin(isolation: isolation))]
        beginDeferred = true
        do {
            let value = try body(self)
            try commitDeferred()
            return value
        } catch {
            rollbackIfOpen()
            throw error
        }
    }

    /// False once the connection is broken.
    public var isUsable: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Usable and at rest (no transaction, out of pipeline mode), as the pool keeps a connection
    /// it gets back; one a failure left otherwise is closed instead.
    var isReusable: Bool {
        isUsable && !isServerInTransaction && PQpipelineStatus(handle) == PQ_PIPELINE_OFF
    }

    /// True while a transaction is open (or failed and not yet rolled back).
    public var isInTransaction: Bool {
        beginDeferred || isServerInTransaction
    }

    /// True while the server holds a transaction open (or failed and not yet rolled back).
    var isServerInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// The server process id, for `pg_terminate_backend` and diagnostics.
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// Reads pending input without blocking and reports whether the connection still works;
    /// a server restart is noticed here, before any statement is sent.
    func checkAlive() -> Bool {
        for _ in 0..<4 {
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return isUsable }
            // Readable while idle: a FATAL message and/or end of file after a server shutdown.
            if PQconsumeInput(handle) == 0 || !isUsable { return false }
        }
        return isUsable
    }

    /// Re-opens the connection with the same parameters.
    func reset() throws {
        (deferred, beginDeferred) = ([], false)
        statementCache.removeAll()
        statementCache.stale = []
        watchedSocket = -1
        PQreset(handle)
        guard isUsable else {
            throw PostgresError(.connectionFailed, "could not reconnect to PostgreSQL: \(Self.lastError(handle))")
        }
    }

    // MARK: - Results

    @discardableResult
    func consume(_ result: OpaquePointer?, statement: PostgresQuery) throws -> PostgresRows {
        guard let result else {
            throw PostgresError(
                isUsable ? .queryFailed : .connectionClosed,
                "\(statement): \(Self.lastError(handle))")
        }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE:
            // The rows read their cells from the result itself, which they now own.
            return PostgresRows(PostgresResult(result))
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            defer { PQclear(result) }
            return PostgresRows(affectedRows: Self.affectedRows(result))
        default:
            defer { PQclear(result) }
            throw error(from: result, statement: statement)
        }
    }

    func error(from result: OpaquePointer, statement: PostgresQuery) -> PostgresError {
        func field(_ code: Character) -> String? {
            guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        let message = field("M") ?? Self.lastError(handle)
        guard let sqlState = field("C") else {
            return PostgresError(isUsable ? .queryFailed : .connectionClosed, "\(statement): \(message)")
        }
        let code = isUsable ? PostgresError.code(forSQLState: sqlState) : .connectionClosed
        return PostgresError(code, message, sqlState: sqlState, detail: field("D"), constraint: field("n"))
    }

    static func affectedRows(_ result: OpaquePointer) -> Int {
        guard let text = PQcmdTuples(result) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    static func lastError(_ handle: OpaquePointer) -> String {
        guard let message = PQerrorMessage(handle) else { return "unknown error" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Passes `strings` as a NULL-terminated `const char * const *` for the duration of `body`.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    withOptionalCStrings(strings.map { Optional($0) }, body)
}

/// Like `withCStrings`, with nil entries passed as NULL pointers (and a NULL after the last).
func withOptionalCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0)! } }
    defer { pointers.forEach { free($0) } }
    let constPointers = pointers.map { $0.map { UnsafePointer($0) } }
    return (constPointers + [nil]).withUnsafeBufferPointer { buffer in
        body(buffer.baseAddress!)
    }
}
