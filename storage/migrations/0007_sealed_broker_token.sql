-- The broker access token is sealed at rest since this release, like the
-- broker credentials: AES-256-GCM under MDC_SECRET_KEY, bound to the context
-- "mdc broker_tokens.access_token" (service/broker/broker_tokens.h). A token
-- stored in clear before is discarded, not converted (the database never
-- holds the key): the next GET /v1/developer/token fetches a new one from
-- the broker. Without MDC_SECRET_KEY nothing is stored here (docs/api.md,
-- "Broker token").
DELETE FROM broker_tokens;
ALTER TABLE broker_tokens
  DROP COLUMN access_token,
  ADD COLUMN access_token_sealed bytea NOT NULL;
