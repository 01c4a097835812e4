-- Workers' claims on due work. The due work itself comes from journey_state (next_due_at,
-- next_due_kind, current_attempt); a worker copies due items here and claims them with
-- FOR UPDATE SKIP LOCKED plus a lease renewed by heartbeat. An item is keyed by what is due
-- (journey, kind, attempt, due time): once done it stays done, so a journey_state row that
-- lags behind the worker's own append cannot make the same item run again. Expired leases of
-- unfinished items are claimable by any worker; nothing needs a leader.

CREATE TABLE work_leases (
    journey_id   text NOT NULL,
    kind         text NOT NULL CHECK (kind IN ('retry', 'reconcileProcessCreation', 'expireToken', 'fetchResult')),
    attempt      integer NOT NULL CHECK (attempt >= 0),
    due_at       timestamptz NOT NULL,
    -- Who holds the lease, and until when; '-infinity' = never claimed (or released).
    worker       text,
    lease_until  timestamptz NOT NULL DEFAULT '-infinity',
    -- Claims so far (a released item counts its tries for backoff).
    tries        integer NOT NULL DEFAULT 0,
    done_at      timestamptz,
    -- How it ended: done, stale, refused, left_open ... (no personal data).
    outcome      text,
    PRIMARY KEY (journey_id, kind, attempt, due_at)
);

-- Claimable items: unfinished, in order of when they may run next.
CREATE INDEX work_leases_claimable ON work_leases (lease_until, due_at) WHERE done_at IS NULL;
-- Purging finished items.
CREATE INDEX work_leases_done ON work_leases (done_at) WHERE done_at IS NOT NULL;

GRANT SELECT, INSERT, UPDATE, DELETE ON work_leases TO journeys_app;
