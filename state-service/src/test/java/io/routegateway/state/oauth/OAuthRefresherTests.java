package io.routegateway.state.oauth;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthMaterial;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialOAuthEntity;
import io.routegateway.state.repository.CredentialRepository;
import io.routegateway.state.support.MockTokenEndpoint;
import io.routegateway.state.support.OAuthTestProfile;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import io.routegateway.testsupport.WebhookReceiver;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.OutcomeFixtures.credential;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The token lifecycle of OAuth-managed official credentials against a mock token endpoint, on the
 * real database and broker. The scheduled refresher runs too (every second, as its own lease
 * owner): the tests wait for outcomes, and the single-flight test races it as well.
 */
@QuarkusTest
@TestProfile(OAuthTestProfile.class)
class OAuthRefresherTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** The account's own failure cooldown, so a refresh failure visibly cools it. */
    private static final String COOLING_CONFIG =
            "{\"failure_policy\":{\"cooldown_enabled\":true,\"cooldown_seconds\":60}}";

    @Inject
    OAuthRefresher refresher;

    @Inject
    OAuthStore store;

    @Inject
    CredentialRepository credentials;

    @Inject
    CredentialEventService events;

    @Inject
    SecretBox secretBox;

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** An official credential of the platform holding the account's current material. */
    private String official(Platform platform, MockTokenEndpoint.Account account, Instant accessExpiresAt) {
        String id = unique("cred-oauth");
        CredentialEntity row = new CredentialEntity();
        row.id = id;
        row.name = "official " + id;
        row.platform = platform.wire();
        row.kind = "official";
        row.baseUrl = "https://subscription.example.test/v1";
        row.encryptedSecret = "";
        row.configJson = COOLING_CONFIG;
        row.createdAt = Instant.now();
        row.updatedAt = row.createdAt;
        OutcomeFixtures.inTransaction(() -> row.persist());
        OAuthMaterial material =
                new OAuthMaterial(account.accessToken, account.refreshToken, accessExpiresAt, account.id);
        OutcomeFixtures.inTransaction(
                () -> credentials.findForUpdate(id).flatMap(locked -> store.store(locked, material, Instant.now())));
        return id;
    }

    private CredentialOAuthEntity oauthRow(String id) {
        return OutcomeFixtures.inSession(() -> store.oauthRow(id));
    }

    private OAuthMaterial held(String id) {
        return OutcomeFixtures.inSession(() ->
                credentials.findById(id).flatMap(row -> store.oauthRow(id).map(oauth -> store.held(row, oauth))));
    }

    /** Moves the backoff (or a 401's request) to the past, as time passing would. */
    private static void makeDueNow(String id) {
        OutcomeFixtures.inTransaction(() -> Panache.getSession()
                .flatMap(session -> session.createMutationQuery("update CredentialOAuthEntity o"
                                + " set o.nextAttemptAt = :past, o.refreshDueAt = :past where o.credentialId = :id")
                        .setParameter("past", Instant.now().minusSeconds(1))
                        .setParameter("id", id)
                        .executeUpdate()));
    }

    private int round(String owner) {
        return OutcomeFixtures.await(() -> refresher.refreshDue(owner));
    }

    private static List<CredentialSnapshot> snapshots(String id) {
        return TestKafka.readKey(Topics.CREDENTIAL_STATE, id).stream()
                .filter(record -> record.value() != null)
                .map(record -> {
                    try {
                        return Json.MAPPER.readValue(record.value(), CredentialSnapshot.class);
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
    }

    private static CredentialSnapshot latestSnapshot(String id) {
        List<CredentialSnapshot> all = snapshots(id);
        return all.isEmpty() ? null : all.get(all.size() - 1);
    }

    /** The audit entries of a credential written by the refresher, newest first. */
    private static List<java.util.Map<String, Object>> refresherEntries(String id) {
        List<java.util.Map<String, Object>> items = admin().get(
                        "/admin/v1/audit?subject=service:oauth-refresh&resource_type=credentials&resource_id=" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
        assertThat(items).allSatisfy(entry -> {
            assertThat(entry.get("via")).isEqualTo("service");
            assertThat(entry.get("method")).isEqualTo("SERVICE");
        });
        return items;
    }

    private static long entriesOf(String id, String action) {
        return refresherEntries(id).stream()
                .filter(entry -> action.equals(entry.get("path")))
                .count();
    }

    @Test
    void aTokenWithinTheLeadIsRefreshedAndTheRotatedTokensArePublished() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("due"));
        String oldAccess = account.accessToken;
        Instant soon = Instant.now().plusSeconds(60);
        String id = official(Platform.CODEX, account, soon);
        CredentialEntity before = credential(id);

        round("test-owner");

        await().atMost(PATIENCE).until(() -> account.refreshSuccesses.get() == 1);
        await().atMost(PATIENCE).until(() -> credential(id).stateVersion > before.stateVersion);
        CredentialEntity after = credential(id);
        assertThat(after.oauthState).isEqualTo(AuthState.AUTHORIZED.wire());
        assertThat(after.oauthAccessExpiresAt)
                .isCloseTo(Instant.now().plusSeconds(3600), within(Duration.ofMinutes(1)));
        assertThat(after.oauthLastRefreshError).isNull();
        assertThat(after.encryptedSecret).isNotEqualTo(before.encryptedSecret);
        OAuthMaterial held = held(id);
        assertThat(held.accessToken()).isEqualTo(account.accessToken).isNotEqualTo(oldAccess);
        assertThat(held.refreshToken()).as("the rotated refresh token").isEqualTo(account.refreshToken);
        assertThat(account.reuse).hasValue(0);
        CredentialOAuthEntity oauth = oauthRow(id);
        assertThat(oauth.leaseOwner).isNull();
        assertThat(oauth.refreshFailures).isZero();
        await().atMost(PATIENCE).untilAsserted(() -> {
            CredentialSnapshot published = latestSnapshot(id);
            assertThat(published).isNotNull();
            assertThat(published.version()).isEqualTo(after.stateVersion);
            assertThat(published.encryptedSecret()).isEqualTo(after.encryptedSecret);
            assertThat(published.oauth().state()).isEqualTo(AuthState.AUTHORIZED);
            assertThat(published.oauth().accessExpiresAt())
                    .isEqualTo(after.oauthAccessExpiresAt)
                    .isAfter(soon);
        });
        assertThat(TestKafka.readKey(Topics.CREDENTIAL_STATE, id))
                .allSatisfy(record -> assertThat(String.valueOf(record.value()))
                        .doesNotContain(account.refreshToken)
                        .doesNotContain(account.accessToken));
        // the refresh is the service's write, audited with it, without a token
        List<java.util.Map<String, Object>> audited = refresherEntries(id);
        assertThat(audited).hasSize(1);
        assertThat(audited.get(0).get("subject")).isEqualTo("service:oauth-refresh");
        assertThat(audited.get(0).get("path")).isEqualTo("oauth/refreshed");
        assertThat(((java.util.Map<?, ?>) audited.get(0).get("after")).get("access_expires_at"))
                .isEqualTo(after.oauthAccessExpiresAt.toString());
        assertThat(admin().get("/admin/v1/audit?resource_id=" + id).asString())
                .doesNotContain(account.refreshToken)
                .doesNotContain(account.accessToken)
                .doesNotContain(oldAccess);
    }

    @Test
    void refreshersRacingOnOneDueCredentialCallTheTokenEndpointExactlyOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int race = 0; race < 3; race++) {
                MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("race"));
                // slow enough that every racer reads the credential as due while the first call is out
                account.delayMillis = 1_000;
                String id = official(Platform.CLAUDE, account, Instant.now().plusSeconds(30));
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Integer>> racers = List.of("replica-a", "replica-b", "replica-c").stream()
                        .map(owner -> pool.submit(() -> {
                            start.await();
                            return round(owner);
                        }))
                        .toList();
                start.countDown();
                int calls = 0;
                for (Future<Integer> racer : racers) {
                    calls += racer.get();
                }

                await().atMost(PATIENCE).until(() -> account.refreshSuccesses.get() == 1);
                assertThat(calls).as("token calls the racing rounds made").isLessThanOrEqualTo(1);
                assertThat(round("replica-a")).as("no longer due").isZero();
                assertThat(account.refreshCalls)
                        .as("token calls in all, the scheduled refresher's included")
                        .hasValue(1);
                assertThat(account.reuse).hasValue(0);
                await().atMost(PATIENCE).until(() -> held(id).refreshToken().equals(account.refreshToken));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTransientFailureCoolsTheAccountWithTheRefreshLabelBacksOffAndALaterSuccessClearsIt() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("busy"));
        account.failStatus = 503;
        String id = official(Platform.CODEX, account, Instant.now().plusSeconds(60));
        Instant started = Instant.now();

        round("test-owner");

        await().atMost(PATIENCE).until(() -> credential(id).oauthLastRefreshError != null);
        CredentialEntity failed = credential(id);
        assertThat(failed.lastFailureKind).isEqualTo("refresh");
        assertThat(failed.transientFailureCount).isEqualTo(1);
        assertThat(failed.cooldownUntil).as("the account cools").isAfter(started.plusSeconds(50));
        assertThat(failed.status).isEqualTo("ok");
        assertThat(failed.oauthState).as("the token is still valid").isEqualTo(AuthState.AUTHORIZED.wire());
        assertThat(failed.oauthLastRefreshError)
                .isEqualTo("token endpoint returned 503: temporarily_unavailable (try again later)");
        CredentialOAuthEntity backedOff = oauthRow(id);
        assertThat(backedOff.refreshFailures).isEqualTo(1);
        assertThat(backedOff.nextAttemptAt).isAfter(started);
        assertThat(backedOff.leaseOwner).isNull();
        int callsAfterFailure = account.refreshCalls.get();
        assertThat(round("test-owner")).as("backed off").isZero();
        assertThat(account.refreshCalls).hasValue(callsAfterFailure);
        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(latestSnapshot(id)).satisfies(published -> {
                    assertThat(published.account().lastFailureKind()).isEqualTo("refresh");
                    assertThat(published.account().cooldownUntil()).isEqualTo(failed.cooldownUntil);
                }));

        account.failStatus = 0;
        makeDueNow(id);
        round("test-owner");

        await().atMost(PATIENCE).until(() -> account.refreshSuccesses.get() == 1);
        await().atMost(PATIENCE).until(() -> credential(id).oauthLastRefreshError == null);
        CredentialOAuthEntity cleared = oauthRow(id);
        assertThat(cleared.refreshFailures).isZero();
        assertThat(cleared.nextAttemptAt).isNull();
        assertThat(held(id).accessToken()).isEqualTo(account.accessToken);
    }

    @Test
    void thePermanentMarkerRevokesTheAccountAndItIsNeverRefreshedAgain() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("void"));
        account.invalidGrant = true;
        String id = official(Platform.GEMINI, account, Instant.now().plusSeconds(60));

        round("test-owner");

        await().atMost(PATIENCE).until(() -> "revoked".equals(credential(id).status));
        CredentialEntity revoked = credential(id);
        assertThat(revoked.lastFailureKind).isEqualTo("refresh");
        assertThat(revoked.lastFailureMessage).contains("invalid_grant");
        assertThat(revoked.oauthLastRefreshError).contains("refresh token has been revoked");
        assertThat(account.refreshCalls).hasValue(1);
        await().atMost(PATIENCE)
                .untilAsserted(() ->
                        assertThat(latestSnapshot(id).account().status().wire()).isEqualTo("revoked"));

        makeDueNow(id);
        assertThat(round("test-owner")).isZero();
        assertThat(round("another-owner")).isZero();
        assertThat(account.refreshCalls).as("never retried, even when due").hasValue(1);
        assertThat(credential(id).status).isEqualTo("revoked");
        // the revocation is the refresher's write, recorded once
        List<java.util.Map<String, Object>> audited = refresherEntries(id);
        assertThat(audited).hasSize(1);
        assertThat(audited.get(0).get("path")).isEqualTo("oauth/refresh-failed");
        assertThat(((java.util.Map<?, ?>) audited.get(0).get("after")).get("status"))
                .isEqualTo("revoked");
    }

    @Test
    void an401AboutTheHeldTokenAsksForARefreshAndOneAboutAnOlderTokenDoesNot() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("unauthorized"));
        String id = official(Platform.CODEX, account, Instant.now().plusSeconds(3600));
        Instant issued = oauthRow(id).tokenIssuedAt;

        OutcomeFixtures.await(() -> events.apply(unauthorized(id, issued.minusSeconds(30), 401)));
        OutcomeFixtures.await(() -> events.apply(unauthorized(id, issued.plusSeconds(1), 429)));

        assertThat(oauthRow(id).refreshDueAt)
                .as("a 401 about an older token, a 429")
                .isNull();
        assertThat(round("test-owner")).isZero();
        assertThat(account.refreshCalls).hasValue(0);

        OutcomeFixtures.await(() -> events.apply(unauthorized(id, issued.plusSeconds(1), 401)));

        await().atMost(PATIENCE).until(() -> account.refreshSuccesses.get() == 1);
        await().atMost(PATIENCE).until(() -> held(id).accessToken().equals(account.accessToken));
        assertThat(oauthRow(id).refreshDueAt).as("answered by the refresh").isNull();
    }

    @Test
    void anAuthorizedTokenPastItsExpiryWithoutASuccessfulRefreshIsPublishedExpired() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("expired"));
        account.failStatus = 502;
        String id = official(Platform.CLAUDE, account, Instant.now().minusSeconds(5));

        round("test-owner");

        await().atMost(PATIENCE).until(() -> AuthState.EXPIRED.wire().equals(credential(id).oauthState));
        await().atMost(PATIENCE)
                .untilAsserted(
                        () -> assertThat(latestSnapshot(id).oauth().state()).isEqualTo(AuthState.EXPIRED));
        assertThat(credential(id).oauthLastRefreshError).contains("502");

        account.failStatus = 0;
        makeDueNow(id);
        round("test-owner");

        await().atMost(PATIENCE).until(() -> AuthState.AUTHORIZED.wire().equals(credential(id).oauthState));
        await().atMost(PATIENCE)
                .untilAsserted(
                        () -> assertThat(latestSnapshot(id).oauth().state()).isEqualTo(AuthState.AUTHORIZED));
        // each of the refresher's changes is its own entry: the failure, the expiry, the refresh
        assertThat(entriesOf(id, "oauth/expired")).isEqualTo(1);
        assertThat(entriesOf(id, "oauth/refresh-failed")).isPositive();
        assertThat(entriesOf(id, "oauth/refreshed")).isEqualTo(1);
        java.util.Map<String, Object> expired = refresherEntries(id).stream()
                .filter(entry -> "oauth/expired".equals(entry.get("path")))
                .findFirst()
                .orElseThrow();
        assertThat(((java.util.Map<?, ?>) expired.get("before")).get("oauth_state"))
                .isEqualTo("authorized");
        assertThat(((java.util.Map<?, ?>) expired.get("after")).get("oauth_state"))
                .isEqualTo("expired");
    }

    @Test
    void aFailingRefreshNotifiesOnceAtTheStartOfItsStreakWithItsLabelOnly() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String path = "/" + unique("refresh-failing");
            String endpoint = webhook(receiver.url(path), "oauth.refresh_failing");
            try {
                MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("streak"));
                account.failStatus = 503;
                String id = official(Platform.CODEX, account, Instant.now().plusSeconds(60));

                round("test-owner");
                await().atMost(PATIENCE).until(() -> oauthRow(id).refreshFailures == 1);
                makeDueNow(id);
                round("test-owner");
                await().atMost(PATIENCE).until(() -> oauthRow(id).refreshFailures == 2);
                await().atMost(PATIENCE)
                        .until(() -> !deliveredFor(receiver, path, id).isEmpty());
                // a few delivery polls later, the second failure of the streak has still not notified
                Thread.sleep(1_500);

                List<WebhookReceiver.Received> got = deliveredFor(receiver, path, id);
                assertThat(got).hasSize(1);
                JsonNode body = Json.MAPPER.readTree(got.get(0).body());
                assertThat(body.get("type").asText()).isEqualTo("oauth.refresh_failing");
                assertThat(body.get("cause").asText()).startsWith("refresh");
                assertThat(got.get(0).text())
                        .as("the label, never the token endpoint's message or a token")
                        .doesNotContain("temporarily_unavailable")
                        .doesNotContain(account.refreshToken)
                        .doesNotContain(account.accessToken);
            } finally {
                admin().delete("/admin/v1/webhooks/" + endpoint).then().statusCode(204);
            }
        }
    }

    @Test
    void anAuthorizationThatExpiresWithoutARefreshNotifies() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String path = "/" + unique("expired");
            String endpoint = webhook(receiver.url(path), "oauth.expired");
            try {
                MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("lapsed"));
                account.failStatus = 502;
                String id = official(Platform.CLAUDE, account, Instant.now().minusSeconds(5));

                round("test-owner");

                await().atMost(PATIENCE)
                        .until(() -> !deliveredFor(receiver, path, id).isEmpty());
                WebhookReceiver.Received one = deliveredFor(receiver, path, id).get(0);
                assertThat(one.event()).isEqualTo("oauth.expired");
                JsonNode body = Json.MAPPER.readTree(one.body());
                assertThat(body.get("from").asText()).isEqualTo("authorized");
                assertThat(body.get("to").asText()).isEqualTo("expired");
                assertThat(one.text()).doesNotContain(account.accessToken).doesNotContain(account.refreshToken);
            } finally {
                admin().delete("/admin/v1/webhooks/" + endpoint).then().statusCode(204);
            }
        }
    }

    private static String webhook(String url, String type) {
        return admin().body(java.util.Map.of(
                        "url", url, "event_types", List.of(type), "secret", "whsec-oauth-0123456789abcdef"))
                .post("/admin/v1/webhooks")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** The deliveries the receiver took (answered 200) about one credential. */
    private static List<WebhookReceiver.Received> deliveredFor(WebhookReceiver receiver, String path, String id) {
        return receiver.received(path).stream()
                .filter(one -> one.answered() == 200 && one.text().contains("\"credential_id\":\"" + id + "\""))
                .toList();
    }

    private static CredentialEvent.TransientFailureRecorded unauthorized(String id, Instant at, int status) {
        return new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(),
                id,
                at,
                "gpt-5.1-codex",
                "upstream_status",
                status,
                "upstream returned " + status,
                null);
    }
}
