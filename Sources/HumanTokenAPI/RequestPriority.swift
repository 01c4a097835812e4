/// Which queue an API call waits in when the tenant's rate limit is reached.
public enum RequestPriority: Sendable, Hashable, CaseIterable {
    /// A person is waiting (a journey start): always served before any background call.
    case live
    /// Retries, result fetches and other work nobody watches.
    case background
}
