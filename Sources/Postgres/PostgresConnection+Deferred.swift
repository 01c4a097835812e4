import CLibPQ

/// Statements that leave with the next one: a transaction's `BEGIN` with its first statement,
/// and writes whose rows nobody reads with the statement after them or with `COMMIT`, in one
/// pipeline each, so a transaction of n statements costs n round trips, not n + 2.
extension PostgresConnection {
    /// Inside a transaction, sends `query` in front of this connection's next statement (or the
    /// transaction's `COMMIT`), in that statement's round trip; its rows are dropped and its
    /// error is thrown by the statement that carried it, which then did not run. Outside a
    /// transaction it runs at once.
    public func enqueue(_ query: PostgresQuery) throws {
        guard isInTransaction else {
            try self.query(query)
            return
        }
        deferred.append(query)
    }

    /// Sends the deferred statements followed by `query` in one pipeline; `query`'s rows, or the
    /// first failure among them all (later statements did not run).
    @discardableResult
    func sendDeferred(then query: PostgresQuery?) throws -> PostgresRows? {
        let queries = deferred + (query.map { [$0] } ?? [])
        (deferred, beginDeferred) = ([], false)
        var last: PostgresRows?
        for result in try sendPipeline(queries) { last = try result.get() }
        return query == nil ? nil : last
    }

    /// Commits the open transaction, with the deferred writes in front of `COMMIT`; a
    /// transaction that never sent its `BEGIN` and has nothing deferred sends nothing.
    func commitDeferred() throws {
        if beginDeferred && deferred.count == 1 {
            (deferred, beginDeferred) = ([], false)
            return
        }
        guard deferred.isEmpty else {
            try sendDeferred(then: PostgresQuery(unsafeSQL: PostgresStatements.commit))
            return
        }
        try execute(unsafeSQL: PostgresStatements.commit)
    }

    /// Ends an open or failed transaction with `ROLLBACK` and drops what was deferred (a
    /// `BEGIN` never sent needs nothing).
    func rollbackIfOpen() {
        (deferred, beginDeferred) = ([], false)
        if isServerInTransaction && isUsable { try? execute(unsafeSQL: PostgresStatements.rollback) }
    }
}
