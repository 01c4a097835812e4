-- The work seed (Workers, `WorkersStatements.seed`) reads due items from journey_state in
-- (next_due_at, journey_id) order and carries on after the last item it seeded, instead of walking
-- again past every item already seeded on each call (linear per seed, quadratic over a burst of
-- items due at one instant). The old index on next_due_at alone kept ties unordered; this one
-- serves the keyset and every other next_due_at range (dueCount) as before.
CREATE INDEX journey_state_next_due_key ON journey_state (next_due_at, journey_id) WHERE next_due_at IS NOT NULL;
DROP INDEX journey_state_next_due;
