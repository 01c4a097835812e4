import Retention

extension AppServices {
    /// The scheduled retention policy; its failures are logged and retried, and its end does not
    /// shut the group down.
    public static func retention(_ service: RetentionService) -> Entry {
        Entry(service: service, name: "retention", successTerminationBehavior: .ignore)
    }
}
