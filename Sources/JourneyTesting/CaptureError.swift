/// Runs `body` and returns the error it threw, or nil when it returned.
public func captureError<T>(_ body: () async throws -> T) async -> (any Error)? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
