import CLibPQ

extension PostgresConnection {
    /// Sends every statement in one pipeline (one network round trip) and returns each result.
    ///
    /// Statements run in order as if each were its own implicit transaction segment up to the
    /// single sync point; once one fails, later ones report `pipeline_aborted` and did not run.
    /// Wrap them in `BEGIN`/`COMMIT` statements of the pipeline for all-or-nothing.
    public func pipeline(_ queries: [PostgresQuery]) throws -> [Result<PostgresRows, PostgresError>] {
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError(.queryFailed, "could not enter pipeline mode: \(Self.lastError(handle))")
        }
        defer { PQexitPipelineMode(handle) }
        for query in queries {
            let sent = withBindPointers(query.binds) { values in
                PQsendQueryParams(handle, query.sql, Int32(query.binds.count), nil, values, nil, nil, 0)
            }
            guard sent == 1 else {
                throw PostgresError(isUsable ? .queryFailed : .connectionClosed,
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
                results.append(.failure(PostgresError(.queryFailed, "\(query): pipeline_aborted")))
            } else {
                results.append(Result { try consume(result, statement: query) }.mapError { $0 as! PostgresError })
            }
            // Each statement's results end with a NULL.
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        // The sync point.
        if let sync = PQgetResult(handle) {
            let status = PQresultStatus(sync)
            PQclear(sync)
            guard status == PGRES_PIPELINE_SYNC else {
                throw PostgresError(.queryFailed, "pipeline did not end with a sync point")
            }
        }
        return results
    }
}
