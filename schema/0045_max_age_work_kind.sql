-- A journey's maximum age (issue 23): work_leases gains the kind `abandonAtMaxAge`, the worker's
-- abandonment of a journey still open at its start plus the retry policy's `maximumAge`
-- (`JourneyAbandoned`, reason kind `maxAgeReached`). No new event type.
--
-- Journeys started before this migration recorded no maximum age: their policy reads as the
-- default, 30 days (2592000 s) from their start. The read model computes next_due_* only when a
-- journey's events are projected, so an open journey waiting on nothing (or on work later than
-- its maximum age) is scheduled here, exactly as the projection would now schedule it; one with
-- earlier work gets the maximum age when that work's events are projected.

ALTER TABLE work_leases DROP CONSTRAINT work_leases_kind_check;
ALTER TABLE work_leases ADD CONSTRAINT work_leases_kind_check
    CHECK (kind IN ('retry', 'reconcileProcessCreation', 'expireToken', 'fetchResult', 'abandonAbsent',
                    'abandonAtDeadline', 'abandonAtMaxAge'));

UPDATE journey_state
SET next_due_at = started_at + interval '2592000 seconds', next_due_kind = 'abandonAtMaxAge',
    next_due_attempt = current_attempt
WHERE status NOT IN ('notStarted', 'completed', 'abandoned') AND started_at IS NOT NULL
  AND (next_due_at IS NULL OR next_due_at > started_at + interval '2592000 seconds');
