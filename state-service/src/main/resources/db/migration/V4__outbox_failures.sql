-- A snapshot that can never be published (larger than a Kafka message may be, or refused by the
-- broker as such) is marked failed instead of being retried every round: failed_at and failure (the
-- reason, never the payload) are set, the relay skips it, and the rows behind it are published.
ALTER TABLE state_outbox ADD COLUMN failed_at TEXT;
ALTER TABLE state_outbox ADD COLUMN failure TEXT;
CREATE INDEX state_outbox_pending ON state_outbox (id) WHERE failed_at IS NULL;
