-- Journeys as the SDK Lite page says (issue 12): a fresh process per capture, no lost approvals,
-- every drop-off recorded.
--
-- * work_leases gains the kind `abandonAbsent` (an SDK journey whose allowed retry the app never
--   asked for is abandoned after the policy's window).
-- * journey_state gains next_due_attempt: due work may be about an earlier attempt (the result
--   of a capture that ended after a retry replaced it is still fetched), so the workers copy the
--   due item's own attempt rather than current_attempt. Existing rows: their due work was always
--   about the current attempt.
-- * journey_attempts gains the drop-offs the app reports and the link fallback, for the funnel.

ALTER TABLE work_leases DROP CONSTRAINT work_leases_kind_check;
ALTER TABLE work_leases ADD CONSTRAINT work_leases_kind_check
    CHECK (kind IN ('retry', 'reconcileProcessCreation', 'expireToken', 'fetchResult', 'abandonAbsent'));

ALTER TABLE journey_state ADD COLUMN next_due_attempt integer;
UPDATE journey_state SET next_due_attempt = current_attempt WHERE next_due_kind IS NOT NULL;

ALTER TABLE journey_attempts
    ADD COLUMN closed_by_user_at    timestamptz,
    ADD COLUMN session_timed_out_at timestamptz,
    ADD COLUMN link_issued_at       timestamptz;
