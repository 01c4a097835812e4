import CLI

/// `journeys retention`: the deployment's retention policy.
struct RetentionCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "retention", summary: "Apply the retention policy: erase subjects, purge stored answers, drop old tokens.",
        discussion: """
            The policy comes from the environment: JOURNEYS_RETENTION (on, the default, or off), \
            JOURNEYS_RETENTION_ERASE_AFTER_DAYS (default 365: a subject is erased that many days after \
            their last journey ended), JOURNEYS_RETENTION_IDEMPOTENCY_HOURS (default 24: stored \
            idempotency answers are purged after that many hours), JOURNEYS_RETENTION_TOKEN_DAYS (default 7: \
            the sealed webAppToken, process token and link of a journey's attempts leave the read model that \
            many days after it ended) and JOURNEYS_RETENTION_INTERVAL (default 3600: seconds between the \
            workers' runs in `journeys work` and `serve --with-workers`).
            """,
        subcommands: [RetentionRun.self])
}
