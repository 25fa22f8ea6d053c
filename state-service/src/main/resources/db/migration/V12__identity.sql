-- Operators' identity (issue 39): API tokens and the audit log.
--
-- api_tokens: named tokens for automation, each with one role (and a team for a team role), stored
-- as the SHA-256 of the token (hex); the token itself is shown once, at creation. Revoking deletes
-- the row (the audit log keeps who revoked it). last_used_at is refreshed at most once a minute.
CREATE TABLE api_tokens (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('admin', 'operator', 'viewer', 'team_admin', 'team_member')),
    team_id       TEXT,
    token_hash    TEXT NOT NULL UNIQUE,
    token_prefix  TEXT NOT NULL,
    created_by    TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL,
    expires_at    TIMESTAMPTZ,
    last_used_at  TIMESTAMPTZ,
    CHECK ((role IN ('team_admin', 'team_member')) = (team_id IS NOT NULL))
);

-- audit_log: one row per admin write, inserted in the write's own transaction (no change without its
-- entry). Listed newest first by id (the cursor); before/after are JSON with secrets redacted.
CREATE TABLE audit_log (
    id             BIGSERIAL PRIMARY KEY,
    occurred_at    TIMESTAMPTZ NOT NULL,
    subject        TEXT NOT NULL,
    via            TEXT NOT NULL,
    token_id       TEXT,
    method         TEXT NOT NULL,
    path           TEXT NOT NULL,
    resource_type  TEXT NOT NULL,
    resource_id    TEXT,
    before_json    TEXT,
    after_json     TEXT,
    request_id     TEXT NOT NULL
);
CREATE INDEX audit_log_time ON audit_log (occurred_at);
CREATE INDEX audit_log_subject ON audit_log (subject, id DESC);
CREATE INDEX audit_log_resource ON audit_log (resource_type, resource_id, id DESC);
