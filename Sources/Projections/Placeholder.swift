// Projections module.
