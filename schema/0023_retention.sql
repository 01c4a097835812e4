-- Retention (issue 13 item 4): what the policy's runs look for, indexed so an hourly run stays
-- cheap on millions of journeys. Each partial index's predicate is repeated word for word in
-- Sources/Retention/RetentionStatements.swift.

-- A subject's journeys in the read model, for "erase N days after the last journey ended".
CREATE INDEX journey_state_subject_reference ON journey_state (subject_reference)
    WHERE subject_reference IS NOT NULL;

-- Ended journeys whose attempts still hold a sealed webAppToken, process token or link; a row
-- leaves the index once retention drops them.
CREATE INDEX journey_state_sealed_tokens ON journey_state ((COALESCE(completed_at, abandoned_at)))
    WHERE status IN ('completed', 'abandoned')
      AND jsonb_path_exists(state, '$.attempts[*] ? (exists(@.webAppToken) || exists(@.processToken) || exists(@.link))');

-- Stored idempotency answers (live tokens), by when they were stored.
CREATE INDEX idempotency_keys_stored_answers ON idempotency_keys (completed_at)
    WHERE response_body IS NOT NULL;
