// EmbeddedPostgres module.
