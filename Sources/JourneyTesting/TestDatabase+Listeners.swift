extension TestDatabase {
    /// Returns once at least `count` sessions of this database listen on `channel`: a follower
    /// started in the background is then woken by the next commit's NOTIFY, not by its poll.
    public func waitForListeners(on channel: String, count: Int = 1, fileID: String = #fileID, line: Int = #line) async throws {
        try await waitUntil("\(count) session(s) listening on \(channel)", fileID: fileID, line: line) {
            try await superuser.query(JourneyTestingStatements.listeners(name, channel: channel))
                .first?.decode(0, as: Int.self) ?? 0 >= count
        }
    }
}
