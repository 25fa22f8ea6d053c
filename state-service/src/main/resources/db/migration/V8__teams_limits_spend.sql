-- Teams, limits and spend (route-core limits/Limits, limits/CredentialLimits, event/TeamSnapshot,
-- event/SpendSnapshot).
--
-- Limits are typed columns with the bounds of route-core's Limits as CHECK constraints, so a row
-- always reads back as a valid Limits (a hand-edit cannot silently drop a budget). Null = no limit.
-- Like V7, the new timestamps are TIMESTAMPTZ: spend windows are compared in SQL.

CREATE TABLE teams (
    id                    TEXT PRIMARY KEY,
    name                  TEXT NOT NULL,
    rpm_limit             INTEGER CHECK (rpm_limit BETWEEN 1 AND 10000000),
    tpm_limit             BIGINT CHECK (tpm_limit BETWEEN 1 AND 1000000000000),
    max_parallel_requests INTEGER CHECK (max_parallel_requests BETWEEN 1 AND 100000),
    -- USD, to the micro-USD
    max_budget            NUMERIC(16, 6) CHECK (max_budget BETWEEN 0 AND 1000000000),
    budget_duration       TEXT CHECK (budget_duration IN ('1h', '1d', '7d', '30d', '1mo')),
    -- the team's share of a contended pool relative to other teams'
    weight                INTEGER NOT NULL DEFAULT 1 CHECK (weight BETWEEN 1 AND 1000),
    version               BIGINT NOT NULL DEFAULT 0,
    created_at            TIMESTAMPTZ NOT NULL,
    updated_at            TIMESTAMPTZ NOT NULL,
    CHECK (budget_duration IS NULL OR max_budget IS NOT NULL)
);

-- A key belongs to at most one team. No cascade: a team that still owns keys is not deleted
-- (409 team.has_keys); the admin API checks under the team's row lock, the key holds it FOR SHARE.
ALTER TABLE access_keys ADD COLUMN team_id TEXT REFERENCES teams(id);
ALTER TABLE access_keys ADD COLUMN rpm_limit INTEGER CHECK (rpm_limit BETWEEN 1 AND 10000000);
ALTER TABLE access_keys ADD COLUMN tpm_limit BIGINT CHECK (tpm_limit BETWEEN 1 AND 1000000000000);
ALTER TABLE access_keys ADD COLUMN max_parallel_requests INTEGER CHECK (max_parallel_requests BETWEEN 1 AND 100000);
ALTER TABLE access_keys ADD COLUMN max_budget NUMERIC(16, 6) CHECK (max_budget BETWEEN 0 AND 1000000000);
ALTER TABLE access_keys ADD COLUMN budget_duration TEXT CHECK (budget_duration IN ('1h', '1d', '7d', '30d', '1mo'));
ALTER TABLE access_keys ADD CONSTRAINT access_keys_budget_duration_needs_budget
    CHECK (budget_duration IS NULL OR max_budget IS NOT NULL);
CREATE INDEX access_keys_team ON access_keys (team_id);

-- What an upstream credential itself allows (CredentialLimits).
ALTER TABLE route_credentials ADD COLUMN rpm_limit INTEGER CHECK (rpm_limit BETWEEN 1 AND 10000000);
ALTER TABLE route_credentials ADD COLUMN max_parallel_requests INTEGER CHECK (max_parallel_requests BETWEEN 1 AND 100000);

-- The team a request was charged to (RequestCompleted.team_id): the request-log and usage filter
-- team_id and a team's spend by model read it.
ALTER TABLE request_logs ADD COLUMN team_id TEXT;
CREATE INDEX request_logs_team ON request_logs (team_id, occurred_epoch_ms DESC);

-- Settled spend of one AccessKey or team per window, maintained in the transaction that stores
-- the usage records, from the rows that transaction actually inserted (a redelivered request id
-- counts once). duration: the window's kind, a BudgetDuration ('1h' … '1mo'; '1mo' is also the
-- window of a subject without a budget) or 'lifetime' (a budget without a duration: window_start is
-- the epoch and window_end null).
CREATE TABLE spend_windows (
    subject            TEXT NOT NULL CHECK (subject IN ('key', 'team')),
    subject_id         TEXT NOT NULL,
    duration           TEXT NOT NULL CHECK (duration IN ('1h', '1d', '7d', '30d', '1mo', 'lifetime')),
    window_start       TIMESTAMPTZ NOT NULL,
    window_end         TIMESTAMPTZ,
    spend_micros       BIGINT NOT NULL DEFAULT 0,
    requests           BIGINT NOT NULL DEFAULT 0,
    input_tokens       BIGINT NOT NULL DEFAULT 0,
    output_tokens      BIGINT NOT NULL DEFAULT 0,
    cache_read_tokens  BIGINT NOT NULL DEFAULT 0,
    -- 5-minute and 1-hour cache writes together
    cache_write_tokens BIGINT NOT NULL DEFAULT 0,
    updated_at         TIMESTAMPTZ NOT NULL,
    -- the newest occurred_at counted; the window's start while nothing is
    as_of              TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (subject, subject_id, duration, window_start)
);

-- Versions of the published spend.v1 snapshots: one sequence, so a subject's versions only grow
-- whichever transaction (usage batch, admin write, start-up) queues them.
CREATE SEQUENCE spend_version_seq;
