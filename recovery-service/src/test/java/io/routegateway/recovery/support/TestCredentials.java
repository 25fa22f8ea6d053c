package io.routegateway.recovery.support;

import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.state.AccountState;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Writes credentials and model rows the way state-service stores them (tests play state-service:
 * recovery-service itself only reads).
 */
@ApplicationScoped
public class TestCredentials {

    /** One credential to insert; defaults: an openai api key, status ok, no config. */
    public static final class Spec {
        final String id = "cred-" + UUID.randomUUID();
        String platform = "openai";
        String kind = "api";
        String baseUrl = "http://127.0.0.1:9";
        String configJson = "{}";
        String status = "ok";
        Instant nextRetryAt;
        Instant cooldownUntil;
        boolean archived;
        String oauthAccountId;
        String lastFailureKind;

        public Spec platform(String value) {
            platform = value;
            return this;
        }

        public Spec kind(String value) {
            kind = value;
            return this;
        }

        public Spec baseUrl(String value) {
            baseUrl = value;
            return this;
        }

        public Spec config(String value) {
            configJson = value;
            return this;
        }

        public Spec status(String value) {
            status = value;
            return this;
        }

        public Spec cooldownUntil(Instant value) {
            nextRetryAt = value;
            cooldownUntil = value;
            return this;
        }

        /** An OAuth-managed official account: authorized, its access token belonging to this platform account. */
        public Spec oauthAccount(String accountId) {
            oauthAccountId = accountId;
            return this;
        }

        public Spec archived() {
            archived = true;
            return this;
        }

        /** Taken out by the consecutive-failure blacklist: status error with the state's marker. */
        public Spec blacklisted() {
            status = "error";
            lastFailureKind = AccountState.BLACKLISTED_KIND;
            return this;
        }
    }

    private final Pool pool;
    private final SecretBox secrets;

    TestCredentials(Pool pool, SecretBox secrets) {
        this.pool = pool;
        this.secrets = secrets;
    }

    public static Spec credential() {
        return new Spec();
    }

    /** The clear-text secret a credential was stored with. */
    public static String secretOf(String credentialId) {
        return "sk-secret-" + credentialId;
    }

    /** Inserts the credential and returns its id. */
    public String insert(Spec spec) {
        String now = Instant.parse("2026-01-01T00:00:00Z").toString();
        pool.preparedQuery("""
                        INSERT INTO route_credentials (id, name, platform, kind, base_url, encrypted_secret, config_json,
                            status, archived, next_retry_at, cooldown_until, created_at, updated_at,
                            oauth_state, oauth_account_id, last_failure_kind)
                        VALUES ($1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13, $14)
                        """)
                .execute(Tuple.from(new Object[] {
                    spec.id,
                    spec.platform,
                    spec.kind,
                    spec.baseUrl,
                    secrets.seal(new SecretBox.Binding(spec.id, spec.platform, spec.baseUrl), secretOf(spec.id)),
                    spec.configJson,
                    spec.status,
                    spec.archived,
                    text(spec.nextRetryAt),
                    text(spec.cooldownUntil),
                    now,
                    spec.oauthAccountId == null ? null : "authorized",
                    spec.oauthAccountId,
                    spec.lastFailureKind
                }))
                .await()
                .indefinitely();
        return spec.id;
    }

    /** Inserts one model row with a failure (or a pause), last updated at {@code updatedAt}. */
    public void modelRow(
            String credentialId, String modelKey, String status, Instant cooldownUntil, Instant updatedAt) {
        pool.preparedQuery("""
                        INSERT INTO route_credential_models (route_credential_id, model_key, status,
                            transient_failure_count, cooldown_until, last_failure_kind, created_at, updated_at)
                        VALUES ($1, $2, $3, 1, $4, 'upstream_status', $5, $5)
                        """)
                .execute(Tuple.of(credentialId, modelKey, status, text(cooldownUntil), updatedAt.toString()))
                .await()
                .indefinitely();
    }

    /** Removes every credential (model rows cascade), so one test's accounts never tick in another. */
    public void deleteAll() {
        pool.query("DELETE FROM route_credentials").execute().await().indefinitely();
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
