-- Which journey (and attempt) created each Unico process: `POST /v1/webhooks/unico` finds the
-- journey of a notice's `processId` here. Written in the transaction that appends the attempt's
-- ProcessCreated event; the events stay the source of truth (this is a lookup, rebuilt below).

CREATE TABLE process_journeys (
    process_id text PRIMARY KEY CHECK (char_length(process_id) BETWEEN 1 AND 200),
    journey_id text NOT NULL,
    attempt    integer NOT NULL CHECK (attempt >= 1),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX process_journeys_journey ON process_journeys (journey_id);

-- Processes created before this table existed.
INSERT INTO process_journeys (process_id, journey_id, attempt, created_at)
SELECT data->>'processID', substr(stream_name, 9), (data->>'attempt')::integer, recorded_at
FROM events
WHERE event_type = 'ProcessCreated' AND stream_name LIKE 'journey-%' AND data->>'processID' IS NOT NULL
ORDER BY position
ON CONFLICT (process_id) DO NOTHING;

-- Least privilege: the service inserts and reads; rows are never changed or deleted by it.
GRANT SELECT, INSERT ON process_journeys TO journeys_app;
