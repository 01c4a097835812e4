-- Listing journeys (`GET /v1/journeys`): newest first, optionally by subject reference or state,
-- with a keyset cursor on (started_at, journey_id). The rebuild copies these with `LIKE ... INCLUDING ALL`.

CREATE INDEX journey_state_listing ON journey_state (started_at DESC, journey_id DESC);
CREATE INDEX journey_state_subject ON journey_state (subject_reference, started_at DESC, journey_id DESC)
    WHERE subject_reference IS NOT NULL;
