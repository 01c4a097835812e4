import CLibPQ

extension PostgresConnection {
    /// Runs `sql` (a `COPY … FROM STDIN` in text format, from a statements file) and sends `text`
    /// as its data; returns the rows copied. Inside the caller's transaction when one is open.
    ///
    /// A row the server refuses (bad value, constraint) ends the COPY with that error; the
    /// connection stays usable (the caller's transaction is then failed, as after any error).
    @discardableResult
    public func copyIn(unsafeSQL sql: String, _ text: PostgresCopyText) throws -> Int {
        let statement = PostgresQuery(unsafeSQL: sql)
        if !deferred.isEmpty { try sendDeferred(then: nil) }
        roundTrips += 1
        guard let start = PQexec(handle, sql) else {
            throw PostgresError(isUsable ? .queryFailed : .connectionClosed, "\(statement): \(Self.lastError(handle))")
        }
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            // Not a COPY FROM STDIN, or refused before any data (unknown table or column).
            _ = try consume(start, statement: statement)
            throw PostgresError(.queryFailed, "\(statement): not a COPY FROM STDIN")
        }
        PQclear(start)
        var refused: String?
        text.bytes.withUnsafeBufferPointer { buffer in
            let chunk = 1 << 20
            var offset = 0
            while offset < buffer.count {
                let length = min(chunk, buffer.count - offset)
                let sent = buffer.baseAddress!.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: length) {
                    PQputCopyData(handle, $0, Int32(length))
                }
                guard sent == 1 else { refused = Self.lastError(handle); return }
                offset += length
            }
        }
        guard PQputCopyEnd(handle, refused) == 1 else {
            throw PostgresError(isUsable ? .queryFailed : .connectionClosed, "\(statement): \(Self.lastError(handle))")
        }
        // The COPY's own result, then the NULL that ends the command.
        var copied = 0
        var failure: PostgresError?
        while let result = PQgetResult(handle) {
            if failure == nil {
                do { copied = try consume(result, statement: statement).affectedRows } catch let error as PostgresError {
                    failure = error
                } catch {
                    failure = PostgresError(.queryFailed, "\(statement): \(error)")
                }
            } else {
                PQclear(result)
            }
        }
        if let failure { throw failure }
        if let refused { throw PostgresError(.connectionClosed, "\(statement): \(refused)") }
        return copied
    }
}
