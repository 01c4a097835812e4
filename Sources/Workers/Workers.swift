/// Scheduled workers: token expiry, retries, result fetching, outbound webhooks (issue 6). Placeholder.
enum WorkersModule {}
