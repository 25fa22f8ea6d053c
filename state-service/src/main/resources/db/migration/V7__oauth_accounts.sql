-- OAuth-managed official (subscription) accounts.
--
-- The current access token is the credential's encrypted_secret (sealed like any secret), so
-- gateways use it as they use an API key. The non-secret status lives on route_credentials because
-- every published CredentialSnapshot carries it; the refresh token and the refresher's bookkeeping
-- live in route_credential_oauth and never leave state-service.
--
-- Unlike the spec's tables, the new timestamps are TIMESTAMPTZ: the refresher selects due rows and
-- takes its lease with comparisons in SQL, which TEXT instants cannot do (see V2).

-- null: not OAuth-managed (api credentials, official credentials holding a static token)
ALTER TABLE route_credentials ADD COLUMN oauth_state TEXT
    CHECK (oauth_state IN ('authorized', 'expired', 'unauthorized'));
ALTER TABLE route_credentials ADD COLUMN oauth_access_expires_at TIMESTAMPTZ;
ALTER TABLE route_credentials ADD COLUMN oauth_account_id TEXT;
ALTER TABLE route_credentials ADD COLUMN oauth_refreshed_at TIMESTAMPTZ;
-- the last refresh failure's reason, screened; cleared by a successful refresh or authorization
ALTER TABLE route_credentials ADD COLUMN oauth_last_refresh_error TEXT;

-- official credentials created without a secret before this migration await authorization
UPDATE route_credentials SET oauth_state = 'unauthorized'
 WHERE kind = 'official' AND encrypted_secret = '';

CREATE TABLE route_credential_oauth (
    credential_id        TEXT PRIMARY KEY REFERENCES route_credentials(id) ON DELETE CASCADE,
    -- SecretBox-sealed refresh token; null when the platform gave none (the account expires with its token)
    sealed_refresh_token TEXT,
    -- when the current access token was stored: a 401 that occurred after it asks for a refresh
    token_issued_at      TIMESTAMPTZ NOT NULL,
    -- set by a 401 about the current token: refresh at or after this instant regardless of expiry
    refresh_due_at       TIMESTAMPTZ,
    -- after a transient refresh failure: no new attempt before this instant (backoff)
    next_attempt_at      TIMESTAMPTZ,
    refresh_failures     INTEGER NOT NULL DEFAULT 0,
    -- the single flight: the one refresher that may call the token endpoint until lease_until
    lease_owner          TEXT,
    lease_until          TIMESTAMPTZ,
    updated_at           TIMESTAMPTZ NOT NULL
);

-- started authorization-code flows (PKCE); a row is deleted when its state is used
CREATE TABLE route_oauth_pending_authorizations (
    state                TEXT PRIMARY KEY,
    credential_id        TEXT NOT NULL REFERENCES route_credentials(id) ON DELETE CASCADE,
    sealed_code_verifier TEXT NOT NULL,
    redirect_uri         TEXT NOT NULL,
    created_at           TIMESTAMPTZ NOT NULL,
    expires_at           TIMESTAMPTZ NOT NULL
);
CREATE INDEX route_oauth_pending_expiry ON route_oauth_pending_authorizations (expires_at);
