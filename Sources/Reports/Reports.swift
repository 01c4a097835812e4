/// Compliance reports over the journey read models (issue 5). Placeholder until the module lands.
enum ReportsModule {}
