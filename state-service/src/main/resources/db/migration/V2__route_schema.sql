-- The route gateway schema. state-service is its only writer; gateway-service and recovery-service
-- read it (or the compacted topics published from it).
--
-- Timestamps of the spec's tables are TEXT holding ISO-8601 UTC instants (Instant.toString()).
-- Instant.toString() omits zero fractions, so the texts do not sort as instants: compare them in
-- Java, never lexicographically in SQL. request_logs adds occurred_epoch_ms for range filters.

-- Accounts (credentials). The failure columns are exactly the spec's; state_version is bumped on
-- every change and is the version of the published CredentialSnapshot.
CREATE TABLE route_credentials (
    id                                  TEXT PRIMARY KEY,
    name                                TEXT NOT NULL,
    platform                            TEXT NOT NULL CHECK (platform IN ('claude', 'codex', 'gemini', 'grok', 'openai')),
    kind                                TEXT NOT NULL CHECK (kind IN ('api', 'official')),
    base_url                            TEXT NOT NULL,
    encrypted_secret                    TEXT NOT NULL,
    config_json                         TEXT NOT NULL DEFAULT '{}',
    status                              TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'warning', 'error', 'paused', 'revoked')),
    enabled                             BOOLEAN NOT NULL DEFAULT TRUE,
    archived                            BOOLEAN NOT NULL DEFAULT FALSE,
    in_pool                             BOOLEAN NOT NULL DEFAULT TRUE,
    priority                            INTEGER NOT NULL DEFAULT 0,
    weight_mode                         TEXT NOT NULL DEFAULT 'auto' CHECK (weight_mode IN ('auto', 'manual')),
    weight                              INTEGER NOT NULL DEFAULT 50,
    quota_remaining                     BIGINT,
    transient_failure_count             INTEGER NOT NULL DEFAULT 0,
    next_retry_at                       TEXT,
    cooldown_until                      TEXT,
    last_failure_kind                   TEXT,
    last_failure_message                TEXT,
    last_failure_response_json          TEXT,
    semantic_failure_streak_count       INTEGER NOT NULL DEFAULT 0,
    semantic_failure_streak_fingerprint TEXT,
    state_version                       BIGINT NOT NULL DEFAULT 0,
    created_at                          TEXT NOT NULL,
    updated_at                          TEXT NOT NULL
);

-- Model level: exactly the spec's DDL. Rows exist only after a failure or a manual pause.
CREATE TABLE IF NOT EXISTS route_credential_models (
  route_credential_id TEXT NOT NULL,
  model_key TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'error', 'paused')),
  transient_failure_count INTEGER NOT NULL DEFAULT 0,
  cooldown_until TEXT,
  semantic_failure_streak_count INTEGER NOT NULL DEFAULT 0,
  semantic_failure_streak_fingerprint TEXT,
  last_failure_kind TEXT,
  last_failure_message TEXT,
  last_failure_response_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (route_credential_id, model_key),
  FOREIGN KEY (route_credential_id) REFERENCES route_credentials(id) ON DELETE CASCADE
);

-- Groups and their credential pools.
CREATE TABLE route_groups (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    enabled          BOOLEAN NOT NULL DEFAULT TRUE,
    weight_mode      TEXT NOT NULL DEFAULT 'auto' CHECK (weight_mode IN ('auto', 'manual')),
    weight           INTEGER NOT NULL DEFAULT 100,
    exposed_models   TEXT NOT NULL DEFAULT '[]',
    affinity_enabled BOOLEAN NOT NULL DEFAULT FALSE,
    version          BIGINT NOT NULL DEFAULT 0,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

CREATE TABLE route_group_credentials (
    group_id      TEXT NOT NULL REFERENCES route_groups(id) ON DELETE CASCADE,
    credential_id TEXT NOT NULL REFERENCES route_credentials(id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, credential_id)
);
CREATE INDEX route_group_credentials_credential ON route_group_credentials (credential_id);

-- AccessKeys: only the SHA-256 hex of the key is stored (core.access.AccessKeys.hash).
CREATE TABLE access_keys (
    id                TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    key_hash          TEXT NOT NULL UNIQUE,
    key_prefix        TEXT,
    enabled           BOOLEAN NOT NULL DEFAULT TRUE,
    expires_at        TEXT,
    allowed_protocols TEXT NOT NULL DEFAULT '[]',
    allowed_models    TEXT NOT NULL DEFAULT '[]',
    version           BIGINT NOT NULL DEFAULT 0,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL
);

-- A key's authorization scope, in failover order (position ascending).
CREATE TABLE access_key_groups (
    access_key_id TEXT NOT NULL REFERENCES access_keys(id) ON DELETE CASCADE,
    group_id      TEXT NOT NULL REFERENCES route_groups(id) ON DELETE CASCADE,
    position      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (access_key_id, group_id)
);
CREATE INDEX access_key_groups_group ON access_key_groups (group_id);

-- Idempotency: an event id is recorded in the transaction that applied it.
CREATE TABLE processed_events (
    event_id      UUID PRIMARY KEY,
    credential_id TEXT NOT NULL,
    event_type    TEXT NOT NULL,
    applied_at    TEXT NOT NULL
);

-- Transactional outbox of the compacted topics; a NULL payload is a tombstone. Rows are deleted
-- once the broker acknowledged them.
CREATE TABLE state_outbox (
    id          BIGSERIAL PRIMARY KEY,
    topic       TEXT NOT NULL,
    message_key TEXT NOT NULL,
    payload     TEXT,
    created_at  TEXT NOT NULL
);

-- One line per visible health change (core.state.HealthChange); model_key NULL = the account.
CREATE TABLE credential_health_timeline (
    id             BIGSERIAL PRIMARY KEY,
    credential_id  TEXT NOT NULL REFERENCES route_credentials(id) ON DELETE CASCADE,
    model_key      TEXT,
    occurred_at    TEXT NOT NULL,
    from_condition TEXT NOT NULL,
    to_condition   TEXT NOT NULL,
    cause          TEXT NOT NULL,
    until          TEXT,
    detail         TEXT,
    event_id       UUID
);
CREATE INDEX credential_health_timeline_credential ON credential_health_timeline (credential_id, id);

-- One row per client request or probe (RequestCompleted), failed ones included.
CREATE TABLE request_logs (
    request_id          UUID PRIMARY KEY,
    occurred_at         TEXT NOT NULL,
    occurred_epoch_ms   BIGINT NOT NULL,
    protocol            TEXT,
    access_key_id       TEXT,
    group_id            TEXT,
    credential_id       TEXT,
    requested_model     TEXT,
    model_key           TEXT,
    attempts            INTEGER NOT NULL DEFAULT 0,
    status              INTEGER NOT NULL,
    reason_code         TEXT,
    latency_ms          BIGINT NOT NULL DEFAULT 0,
    ttft_ms             BIGINT,
    input_tokens        BIGINT,
    output_tokens       BIGINT,
    cost_micros         BIGINT,
    stream              BOOLEAN NOT NULL DEFAULT FALSE,
    client_disconnected BOOLEAN NOT NULL DEFAULT FALSE,
    success             BOOLEAN NOT NULL,
    probe               BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX request_logs_time ON request_logs (occurred_epoch_ms DESC);
CREATE INDEX request_logs_credential ON request_logs (credential_id, occurred_epoch_ms DESC);
CREATE INDEX request_logs_access_key ON request_logs (access_key_id, occurred_epoch_ms DESC);
CREATE INDEX request_logs_group ON request_logs (group_id, occurred_epoch_ms DESC);
CREATE INDEX request_logs_model ON request_logs (requested_model, occurred_epoch_ms DESC);
CREATE INDEX request_logs_failures ON request_logs (occurred_epoch_ms DESC) WHERE NOT success;

-- Runtime settings, editable through the admin API.
CREATE TABLE runtime_settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO runtime_settings (key, value) VALUES
    ('blacklist_threshold', '0'),
    ('affinity_ttl_seconds', '3600'),
    ('affinity_capacity', '10000'),
    ('model_prices', '{}');
