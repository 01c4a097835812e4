/// Audit timelines, evidence bundles and signed checkpoints (issue 5). Placeholder until the module lands.
enum AuditModule {}
