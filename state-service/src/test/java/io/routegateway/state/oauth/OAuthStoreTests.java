package io.routegateway.state.oauth;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthMaterial;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialOAuthEntity;
import io.routegateway.state.repository.CredentialRepository;
import io.routegateway.state.support.TestKafka;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.credential;
import static io.routegateway.state.support.OutcomeFixtures.inSession;
import static io.routegateway.state.support.OutcomeFixtures.inTransaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Storing OAuth material: sealed where it rests, published as status only, revocation lifted. */
@QuarkusTest
class OAuthStoreTests {

    /**
     * Far ahead of the real clock: this instance's own refresher (every {@code route.oauth.tick})
     * judges what is due by the real clock, so an access token that expires an hour after this
     * instant is never due for it and it never touches these credentials while a test looks at them.
     */
    private static final Instant NOW = Instant.parse("2100-01-01T10:00:00Z");

    @Inject
    OAuthStore store;

    @Inject
    CredentialRepository credentials;

    @Inject
    SecretBox secretBox;

    @Test
    void storedMaterialIsSealedAuthorizesTheAccountAndPublishesOnlyItsStatus() {
        String id = awaitingAuthorization("codex");
        String access = "access-" + UUID.randomUUID();
        String refresh = "refresh-" + UUID.randomUUID();
        Instant expiry = NOW.plus(Duration.ofHours(1));

        long version = store(id, new OAuthMaterial(access, refresh, expiry, "acct-7"));

        CredentialEntity row = credential(id);
        assertThat(row.stateVersion).isEqualTo(version).isEqualTo(1);
        assertThat(row.oauthState).isEqualTo("authorized");
        assertThat(row.oauthAccessExpiresAt).isEqualTo(expiry);
        assertThat(row.oauthAccountId).isEqualTo("acct-7");
        assertThat(row.oauthRefreshedAt).isEqualTo(NOW);
        assertThat(row.encryptedSecret).doesNotContain(access);
        assertThat(secretBox.open(row.secretBinding(), row.encryptedSecret)).isEqualTo(access);
        CredentialOAuthEntity oauth = oauthRow(id);
        assertThat(oauth.sealedRefreshToken).isNotNull().doesNotContain(refresh);
        assertThat(oauth.tokenIssuedAt).isEqualTo(NOW);
        assertThat(store.held(row, oauth)).isEqualTo(new OAuthMaterial(access, refresh, expiry, "acct-7"));

        CredentialSnapshot published =
                await().atMost(Duration.ofSeconds(60)).until(() -> published(id, 1), snapshot -> snapshot != null);
        assertThat(published.oauth().state()).isEqualTo(AuthState.AUTHORIZED);
        assertThat(published.oauth().accessExpiresAt()).isEqualTo(expiry);
        assertThat(published.oauth().accountId()).isEqualTo("acct-7");
        assertThat(published.encryptedSecret()).isEqualTo(row.encryptedSecret);
        assertThat(TestKafka.readKey(Topics.CREDENTIAL_STATE, id))
                .allSatisfy(record ->
                        assertThat(record.value()).doesNotContain(access).doesNotContain(refresh));
    }

    @Test
    void aRefreshTokenIsBoundToItsCredentialAndPlatformNotToTheBaseUrl() {
        String id = awaitingAuthorization("claude");
        store(id, new OAuthMaterial("access-a", "refresh-a", null, null));
        CredentialOAuthEntity oauth = oauthRow(id);
        String opened =
                secretBox.open(CredentialOAuthEntity.refreshTokenBinding(id, "claude"), oauth.sealedRefreshToken);
        assertThat(opened).isEqualTo("refresh-a");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> secretBox.open(
                        CredentialOAuthEntity.refreshTokenBinding("another-" + id, "claude"), oauth.sealedRefreshToken))
                .isInstanceOf(RuntimeException.class);
    }

    @Test
    void storingAgainStartsTheRefreshBookkeepingOverAndKeepsNoOldRefreshToken() {
        String id = awaitingAuthorization("gemini");
        store(id, new OAuthMaterial("access-1", "refresh-1", NOW.plusSeconds(60), null));
        inTransaction(() -> Panache.getSession()
                .flatMap(session -> session.find(CredentialOAuthEntity.class, id))
                .invoke(oauth -> {
                    oauth.refreshDueAt = NOW;
                    oauth.nextAttemptAt = NOW.plusSeconds(30);
                    oauth.refreshFailures = 3;
                    oauth.leaseOwner = "someone";
                    oauth.leaseUntil = NOW.plusSeconds(60);
                }));
        inTransaction(() -> credentials.findForUpdate(id).invoke(row -> row.oauthLastRefreshError = "refresh: 503"));

        store(id, new OAuthMaterial("access-2", null, NOW.plusSeconds(3600), null));

        CredentialOAuthEntity oauth = oauthRow(id);
        assertThat(oauth.sealedRefreshToken).isNull();
        assertThat(oauth.refreshDueAt).isNull();
        assertThat(oauth.nextAttemptAt).isNull();
        assertThat(oauth.refreshFailures).isZero();
        assertThat(oauth.leaseOwner).isNull();
        assertThat(oauth.leaseUntil).isNull();
        CredentialEntity row = credential(id);
        assertThat(row.oauthLastRefreshError).isNull();
        assertThat(row.stateVersion).isEqualTo(2);
        assertThat(secretBox.open(row.secretBinding(), row.encryptedSecret)).isEqualTo("access-2");
    }

    @Test
    void reauthorizingARevokedAccountRestoresIt() {
        String id = awaitingAuthorization("codex");
        store(id, new OAuthMaterial("access-1", "refresh-1", NOW.plusSeconds(60), null));
        inTransaction(() -> credentials.findForUpdate(id).invoke(row -> {
            row.status = "revoked";
            row.lastFailureKind = "permanent_failure";
            row.lastFailureMessage = "invalid_grant";
        }));

        store(id, new OAuthMaterial("access-2", "refresh-2", NOW.plusSeconds(3600), null));

        CredentialEntity row = credential(id);
        assertThat(row.status).isEqualTo("ok");
        assertThat(row.lastFailureKind).isNull();
        assertThat(row.oauthState).isEqualTo("authorized");
    }

    @Test
    void forgettingMakesTheCredentialAnOrdinaryOneAndDropsTheRefreshToken() {
        String id = awaitingAuthorization("codex");
        store(id, new OAuthMaterial("access-1", "refresh-1", NOW.plusSeconds(60), "acct"));

        inTransaction(() -> credentials.findForUpdate(id).flatMap(row -> store.forget(row)));

        CredentialEntity row = credential(id);
        assertThat(row.oauthState).isNull();
        assertThat(row.oauthAccessExpiresAt).isNull();
        assertThat(row.oauthAccountId).isNull();
        assertThat(row.oauthRefreshedAt).isNull();
        assertThat(oauthRow(id)).isNull();
    }

    private long store(String id, OAuthMaterial material) {
        return inTransaction(() -> credentials.findForUpdate(id).flatMap(row -> store.store(row, material, NOW)));
    }

    private static CredentialOAuthEntity oauthRow(String id) {
        return inSession(() -> Panache.getSession().flatMap(session -> session.find(CredentialOAuthEntity.class, id)));
    }

    private static String awaitingAuthorization(String platform) {
        String id = "official-" + UUID.randomUUID();
        CredentialEntity row = new CredentialEntity();
        row.id = id;
        row.name = "subscription " + id.substring(9, 17);
        row.platform = platform;
        row.kind = "official";
        row.baseUrl = "https://official.example.test";
        row.encryptedSecret = "";
        row.oauthState = "unauthorized";
        row.createdAt = Instant.parse("2026-01-01T00:00:00Z");
        row.updatedAt = row.createdAt;
        inTransaction(() -> row.persist());
        return id;
    }

    /** The snapshot of {@code id} published at {@code version}, or null while it is not. */
    private static CredentialSnapshot published(String id, long version) {
        return TestKafka.readKey(Topics.CREDENTIAL_STATE, id).stream()
                .filter(record -> record.value() != null)
                .map(record -> {
                    try {
                        return Json.MAPPER.readValue(record.value(), CredentialSnapshot.class);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                })
                .filter(snapshot -> snapshot.version() == version)
                .findFirst()
                .orElse(null);
    }
}
