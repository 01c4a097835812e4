-- Listing journeys by the company's own reference (`GET /v1/journeys?clientReference=`): per
-- tenant, newest first, with the listing's keyset (started_at, journey_id). The rebuild copies it
-- with `LIKE ... INCLUDING ALL`.

CREATE INDEX journey_state_client_reference
    ON journey_state (tenant, client_reference, started_at DESC, journey_id DESC)
    WHERE client_reference IS NOT NULL;
