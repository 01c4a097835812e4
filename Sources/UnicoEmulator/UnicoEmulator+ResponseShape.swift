extension UnicoEmulator {
    /// Where the process fields sit in Create Process, Get Process and lookup answers.
    public enum ResponseShape: String, Sendable, CaseIterable {
        /// Inside a `process` object, as Unico's documented process answers do.
        case wrapped
        /// At the top level of the answer.
        case flat
    }
}
