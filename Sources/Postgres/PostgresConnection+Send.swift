import CLibPQ

extension PostgresConnection {
    /// The connection's socket, for an event loop to wait on; -1 when closed.
    var socket: Int32 { PQsocket(handle) }

    /// Sends `query` without waiting for its result (read it with `PQgetResult` once the socket
    /// is readable, then ``finishSent(_:statement:)``). False, with nothing sent, when the
    /// statement cache is on and `query` is not prepared on this connection yet: run it through
    /// ``query(_:)``, which prepares it.
    func send(_ query: PostgresQuery) throws -> Bool {
        let sent: Int32
        if statementCache.isEnabled {
            guard PQtransactionStatus(handle) == PQTRANS_IDLE, let name = statementCache.name(for: query.sql) else {
                return false
            }
            sent = withBindPointers(query.binds) { values in
                PQsendQueryPrepared(handle, name, Int32(query.binds.count), values, nil, nil, 0)
            }
        } else {
            sent = withBindPointers(query.binds) { values in
                PQsendQueryParams(handle, query.sql, Int32(query.binds.count), nil, values, nil, nil, 0)
            }
        }
        roundTrips += 1
        guard sent == 1 else {
            throw PostgresError(isUsable ? .queryFailed : .connectionClosed, "\(query): \(Self.lastError(handle))")
        }
        return true
    }

    /// Turns the first result of a sent statement into rows or an error, as ``query(_:)`` does;
    /// a prepared statement the server lost is forgotten, so the next call prepares it again
    /// (and `isStale` tells the caller to run it once more).
    func finishSent(_ result: OpaquePointer?, statement: PostgresQuery) -> (Result<PostgresRows, any Error>, isStale: Bool) {
        let outcome = Result { try consume(result, statement: statement) }
        guard statementCache.isEnabled, case .failure(let error as PostgresError) = outcome,
            Self.isStalePreparedStatement(error)
        else { return (outcome, false) }
        if error.sqlState == "26000" {
            statementCache.removeAll()
        } else if let name = statementCache.remove(statement.sql) {
            statementCache.stale.append(name)
        }
        return (outcome, !isInTransaction)
    }
}

extension PostgresConnection {
    /// Blocks until a sent statement's results are in; returns the first (nil when the connection broke).
    func receiveBlocking() -> OpaquePointer? {
        var first: OpaquePointer?
        while let result = PQgetResult(handle) {
            if first == nil { first = result } else { PQclear(result) }
        }
        return first
    }
}
