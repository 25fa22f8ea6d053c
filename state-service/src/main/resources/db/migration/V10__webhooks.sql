-- Outgoing webhooks (docs/state-service.md#webhooks; route-core webhook/*).
--
-- webhook_endpoints: what an operator configured. The secret is sealed (SecretBox, bound to the
-- endpoint id) and never returned by the API.
CREATE TABLE webhook_endpoints (
    id            TEXT PRIMARY KEY,
    url           TEXT NOT NULL,
    -- WebhookEventType wire names
    event_types   TEXT[] NOT NULL,
    secret_sealed TEXT NOT NULL,
    format        TEXT NOT NULL CHECK (format IN ('json', 'slack')),
    enabled       BOOLEAN NOT NULL DEFAULT TRUE,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);

-- One row per notification and endpoint, written in the transaction of the state change that
-- caused it (one INSERT … SELECT over the enabled endpoints subscribed to its type), so a change
-- commits with its deliveries or not at all. Replicas claim due rows with FOR UPDATE SKIP LOCKED
-- and push next_attempt_at past the claim's lease in the same statement: each row is sent by one
-- replica at a time. id is the X-Route-Delivery-Id, the same at every retry.
CREATE TABLE webhook_deliveries (
    id              UUID PRIMARY KEY,
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    notification_id UUID NOT NULL,
    event_type      TEXT NOT NULL,
    payload         TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ,
    last_status     INTEGER,
    last_error      TEXT,
    created_at      TIMESTAMPTZ NOT NULL,
    delivered_at    TIMESTAMPTZ,
    -- a notification goes to an endpoint once, however often its cause is applied
    UNIQUE (endpoint_id, notification_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at DESC, id);
