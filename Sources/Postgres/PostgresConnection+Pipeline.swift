import CLibPQ

extension PostgresConnection {
    /// Sends every statement in one pipeline (one network round trip) and returns each result.
    ///
    /// Statements run in order as if each were its own implicit transaction segment up to the
    /// single sync point; once one fails, later ones report `pipeline_aborted` and did not run.
    /// Wrap them in `BEGIN`/`COMMIT` statements of the pipeline for all-or-nothing.
    ///
    /// With the statement cache on, each statement runs as its named prepared statement (one
    /// parse and plan per connection, prepared before the pipeline when new), as `query` does.
    /// Deferred statements (see ``enqueue(_:)``) lead the pipeline; the first failure among them
    /// is thrown.
    public func pipeline(_ queries: [PostgresQuery]) throws -> [Result<PostgresRows, PostgresError>] {
        guard !deferred.isEmpty else { return try sendPipeline(queries) }
        let leading = deferred
        (deferred, beginDeferred) = ([], false)
        let results = try sendPipeline(leading + queries)
        for result in results.prefix(leading.count) { _ = try result.get() }
        return Array(results.dropFirst(leading.count))
    }

    /// A failure that is the connection's (no SQLSTATE) reads `connection_closed` once the
    /// connection turns out dead, however early libpq noticed; a pipeline cut short leaves the
    /// connection in pipeline mode, where ``isReusable`` is false and the pool closes it.
    func sendPipeline(_ queries: [PostgresQuery]) throws -> [Result<PostgresRows, PostgresError>] {
        let names = try queries.map { query in
            statementCache.isEnabled ? try statementCache.name(for: query.sql) ?? prepare(query) : nil
        }
        roundTrips += 1
        guard PQenterPipelineMode(handle) == 1 else {
            throw classified(
                PostgresError(
                    isUsable ? .queryFailed : .connectionClosed,
                    "could not enter pipeline mode: \(Self.lastError(handle))"))
        }
        let outcome = Result { try runPipeline(queries, names: names) }
        PQexitPipelineMode(handle)
        switch outcome {
        case .success(let results): return results.map { $0.mapError(classified) }
        case .failure(let error as PostgresError): throw classified(error)
        case .failure(let error): throw error
        }
    }

    /// `error`, as `connection_closed` when it is the connection's and the connection is dead.
    func classified(_ error: PostgresError) -> PostgresError {
        guard error.code == .queryFailed, error.sqlState == nil, !checkAlive() else { return error }
        return PostgresError(.connectionClosed, error.message)
    }

    private func runPipeline(_ queries: [PostgresQuery], names: [String?]) throws -> [Result<PostgresRows, PostgresError>] {
        for (query, name) in zip(queries, names) {
            let sent = withBindPointers(query.binds) { values in
                if let name { return PQsendQueryPrepared(handle, name, Int32(query.binds.count), values, nil, nil, 0) }
                return PQsendQueryParams(handle, query.sql, Int32(query.binds.count), nil, values, nil, nil, 0)
            }
            guard sent == 1 else {
                throw PostgresError(
                    isUsable ? .queryFailed : .connectionClosed,
                    "\(query): \(Self.lastError(handle))")
            }
        }
        guard PQpipelineSync(handle) == 1 else {
            throw PostgresError(.connectionClosed, "pipeline sync failed: \(Self.lastError(handle))")
        }
        var results: [Result<PostgresRows, PostgresError>] = []
        results.reserveCapacity(queries.count)
        for query in queries {
            guard let result = PQgetResult(handle) else {
                throw PostgresError(.connectionClosed, "pipeline ended early: \(Self.lastError(handle))")
            }
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
                results.append(.failure(PostgresError(isUsable ? .queryFailed : .connectionClosed, "\(query): pipeline_aborted")))
            } else {
                let outcome = Result { try consume(result, statement: query) }.mapError { $0 as! PostgresError }
                if case .failure(let error) = outcome, Self.isStalePreparedStatement(error) {
                    // As `queryPrepared`: the next use prepares it again.
                    if error.sqlState == "26000" {
                        statementCache.removeAll()
                    } else if let name = statementCache.remove(query.sql) {
                        statementCache.stale.append(name)
                    }
                }
                results.append(outcome)
            }
            // Each statement's results end with a NULL.
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        // The sync point.
        if let sync = PQgetResult(handle) {
            let status = PQresultStatus(sync)
            PQclear(sync)
            guard status == PGRES_PIPELINE_SYNC else {
                throw PostgresError(isUsable ? .queryFailed : .connectionClosed, "pipeline did not end with a sync point")
            }
        }
        return results
    }
}
