import CLibPQ

extension PostgresConnection {
    /// Runs `query` as a named prepared statement: parsed once per connection, then executed by
    /// name. A statement the server lost (DISCARD ALL, a PgBouncer that switched server
    /// connections) or whose result type changed under it (a migration) is prepared again once,
    /// when no transaction is open; inside one the error is thrown, and the next use re-prepares.
    func queryPrepared(_ query: PostgresQuery) throws -> PostgresRows {
        do {
            return try executePrepared(query)
        } catch let error as PostgresError where Self.isStalePreparedStatement(error) {
            if error.sqlState == "26000" {
                statementCache.removeAll()
            } else if let name = statementCache.remove(query.sql) {
                statementCache.stale.append(name)
            }
            guard !isServerInTransaction else { throw error }
            return try executePrepared(query)
        }
    }

    /// True when something (a pooler such as PgBouncer) sits between this connection and the
    /// server: the server process serving it is not the one libpq was told of at login (a pooler
    /// answers the login itself, with a cancel key of its own), or the server listens on another
    /// TCP port than the one this connection reached. A Unix-socket server (no port) with the
    /// same process counts as direct.
    func isThroughProxy() throws -> Bool {
        guard let row = try query(PostgresStatements.serverIdentity).first else { return true }
        if try row.decode("pid", as: Int.self) != Int(PQbackendPID(handle)) { return true }
        guard let serverPort = try row.decode("port", as: Int?.self) else { return false }
        guard let port = PQport(handle).flatMap({ Int(String(cString: $0)) }) else { return false }
        return port != serverPort
    }

    /// Named statements this connection holds in its cache now (for tests and metrics).
    public var preparedStatementCount: Int { statementCache.count }

    private func executePrepared(_ query: PostgresQuery) throws -> PostgresRows {
        let name = try statementCache.name(for: query.sql) ?? prepare(query)
        roundTrips += 1
        let result = withBindPointers(query.binds) { values in
            PQexecPrepared(handle, name, Int32(query.binds.count), values, nil, nil, 0)
        }
        return try consume(result, statement: query)
    }

    func prepare(_ query: PostgresQuery) throws -> String {
        if !statementCache.stale.isEmpty, PQtransactionStatus(handle) != PQTRANS_INERROR {
            let stale = statementCache.stale
            statementCache.stale = []
            for name in stale { try? execute(unsafeSQL: PostgresStatements.deallocate(name)) }
        }
        let (name, evicted) = statementCache.reserve(for: query.sql)
        if let evicted { try execute(unsafeSQL: PostgresStatements.deallocate(evicted)) }
        // No parameter types given: the server infers them, as PQexecParams does.
        roundTrips += 1
        do {
            try consume(PQprepare(handle, name, query.sql, 0, nil), statement: query)
        } catch let error as PostgresError where error.sqlState == "42P05" && !isServerInTransaction {
            // Already prepared in this server session (a pooler gave it another client before):
            // the name is the digest of this very text, so it is this statement.
        }
        statementCache.insert(query.sql, name: name)
        return name
    }

    /// `prepared statement "…" does not exist` (26000) or `cached plan must not change result
    /// type` (0A000): both raised before the statement ran, so running it again is safe.
    static func isStalePreparedStatement(_ error: PostgresError) -> Bool {
        error.sqlState == "26000"
            || (error.sqlState == "0A000" && error.message.contains("cached plan must not change result type"))
    }
}

/// Passes `binds` as a `const char * const *` (NULL entries for SQL NULL) for the duration of
/// `body`: one buffer for every value, on the stack when small, instead of a `strdup` each.
func withBindPointers<R>(_ binds: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    if binds.isEmpty { return body(nil) }
    var total = 0
    for bind in binds { total += (bind?.utf8.count ?? 0) + 1 }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: total) { chars in
        withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: binds.count) { pointers in
            let base = chars.baseAddress!
            var at = 0
            for (index, bind) in binds.enumerated() {
                guard var bind else {
                    pointers[index] = nil
                    continue
                }
                let start = base + at
                bind.withUTF8 { utf8 in
                    if let source = utf8.baseAddress, utf8.count > 0 {
                        UnsafeMutableRawPointer(start).copyMemory(from: source, byteCount: utf8.count)
                    }
                    at += utf8.count
                }
                base[at] = 0
                at += 1
                pointers[index] = UnsafePointer(start)
            }
            return body(UnsafePointer(pointers.baseAddress!))
        }
    }
}
