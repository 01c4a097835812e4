-- A journey's maximum age (issue 23): work_leases gains the kind `abandonAtMaxAge`, the worker's
-- abandonment of a journey still open at its start plus the retry policy's `maximumAge`
-- (`JourneyAbandoned`, reason kind `maxAgeReached`). No new event type.
--
-- Journeys started before this migration recorded no maximum age: their policy reads as the
-- default, 30 days (2592000 s) from their start. The read model computes next_due_* only when a
-- journey's events are projected, so open journeys are scheduled here when their row waits on
-- nothing, on work later than the maximum age, or on an item that already ran and will not run
-- again (stuck); any other gets the maximum age when its next events are projected, and any item
-- a worker runs for a journey past its maximum age abandons it.

ALTER TABLE work_leases DROP CONSTRAINT work_leases_kind_check;
ALTER TABLE work_leases ADD CONSTRAINT work_leases_kind_check
    CHECK (kind IN ('retry', 'reconcileProcessCreation', 'expireToken', 'fetchResult', 'abandonAbsent',
                    'abandonAtDeadline', 'abandonAtMaxAge'));

UPDATE journey_state s
SET next_due_at = s.started_at + interval '2592000 seconds', next_due_kind = 'abandonAtMaxAge',
    next_due_attempt = s.current_attempt
WHERE s.status NOT IN ('notStarted', 'completed', 'abandoned') AND s.started_at IS NOT NULL
  AND (s.next_due_at IS NULL OR s.next_due_at > s.started_at + interval '2592000 seconds'
       OR EXISTS (SELECT 1 FROM work_leases l
                  WHERE l.journey_id = s.journey_id AND l.kind = s.next_due_kind
                    AND l.attempt = coalesce(s.next_due_attempt, s.current_attempt) AND l.due_at = s.next_due_at
                    AND l.done_at IS NOT NULL));
