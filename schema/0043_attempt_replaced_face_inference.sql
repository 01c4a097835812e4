-- Two journey event types (issue 25): AttemptReplaced (a new attempt replaced the current one
-- before it failed or expired: a new capture after the opened one, or a token about to expire)
-- and FaceInferenceTimedOut (the app reported the SDK's face-inference timeout; the capture went
-- on manually). append_events takes on `journey-*` streams only the types listed here.
CREATE OR REPLACE FUNCTION journey_event_types() RETURNS text[] LANGUAGE sql IMMUTABLE
    RETURN ARRAY['JourneyStarted', 'ProcessCreationRequested', 'ProcessCreated', 'ProcessCreationFailed', 'TokenIssued', 'CaptureOpened', 'CallbackReceived', 'WebhookReceived', 'ResultPending', 'ResultFetched', 'TokenExpired', 'AttemptFailed', 'JourneyCompleted', 'JourneyAbandoned', 'RetryAllowed', 'CaptureClosedByUser', 'CaptureSessionTimedOut', 'LinkIssued', 'SubjectErased', 'PersonalDataDisclosed', 'JourneyCancelled', 'AttemptReplaced', 'FaceInferenceTimedOut']::text[];
