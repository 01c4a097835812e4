-- A journey's deadline (issue 26): work_leases gains the kind `abandonAtDeadline`, the worker's
-- abandonment of a journey whose start set a deadline that came before it completed
-- (`JourneyAbandoned`, reason kind `deadlineReached`). No new event type.

ALTER TABLE work_leases DROP CONSTRAINT work_leases_kind_check;
ALTER TABLE work_leases ADD CONSTRAINT work_leases_kind_check
    CHECK (kind IN ('retry', 'reconcileProcessCreation', 'expireToken', 'fetchResult', 'abandonAbsent',
                    'abandonAtDeadline'));
