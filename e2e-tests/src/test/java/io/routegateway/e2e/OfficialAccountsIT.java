package io.routegateway.e2e;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.demo.Behaviour;
import io.routegateway.demo.OAuthServer;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.GatewayClient;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Load;
import io.routegateway.e2e.support.OutcomeTap;
import io.routegateway.e2e.support.Pool;
import io.routegateway.e2e.support.RouteSystem;
import io.routegateway.e2e.support.ServiceProcess;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Official (subscription) Codex accounts whose OAuth material state-service holds, against the demo
 * upstream's mock OAuth server (every platform's token endpoint in {@link RouteSystem}), with traffic
 * from three gateway replicas: an access token expiring under load is refreshed once per expiry and
 * no client sees an error; a refresh answered {@code invalid_grant} revokes the account for good
 * until it is re-authorized; a usage-limit answer cools the account until the reported reset.
 *
 * <p>Each official credential's OAuth account id is its credential id, so the demo's request counts,
 * behaviours and answers ("demo account X") name the credential however often its token rotates.
 */
class OfficialAccountsIT extends EndToEndTest {

    /** A Codex baseline model: official accounts send the requested name as it is. */
    private static final String MODEL = "gpt-5";
    /**
     * Lifetime of the access tokens the mock issues in the refresh cases: due {@link
     * RouteSystem#OAUTH_REFRESH_LEAD} before expiry, i.e. 10 s after each issue.
     */
    private static final int SHORT_TTL_SECONDS = 30;
    /** The usage-limit case's window resets this long after the answer. */
    private static final int RESET_AFTER_SECONDS = 30;

    private static List<ServiceProcess> gateways;

    @BeforeAll
    static void threeGatewayReplicas() {
        gateways = List.of(system.gatewayProcess(), system.startExtraGateway(), system.startExtraGateway());
    }

    @AfterEach
    void mockOAuthServerBackToDefaults() {
        system.demo().oauth().resetSwitches();
    }

    @Test
    void anAccessTokenExpiringUnderLoadIsRefreshedOncePerExpiryAndNoClientSeesAnError() {
        OAuthServer oauth = system.demo().oauth();
        EventLedger ledger = EventLedger.start(system);
        Pool pool = Pool.create(system, gateways);
        String account = pool.credential("oref", c -> c.official("codex"));
        String key = pool.accessKey(pool.group("main", List.of(MODEL), account));
        // the refreshed tokens are short-lived too: every one of them falls due within the test
        oauth.setAccessTtl(Duration.ofSeconds(SHORT_TTL_SECONDS));
        long reuseBefore = oauth.refreshReuse();
        long rejectedBefore = oauth.rejectedAccess();
        long refreshCallsBefore = oauth.refreshCalls();

        JsonNode grant = grant(account, SHORT_TTL_SECONDS);
        Instant firstExpiry = Instant.parse(grant.path("expires_at").asText());
        JsonNode stored = system.admin().storeOAuth(account, tokenFields(grant));
        assertThat(stored.path("state").asText()).isEqualTo("authorized");
        assertThat(Instant.parse(stored.path("access_expires_at").asText())).isEqualTo(firstExpiry);
        assertThat(stored.path("account_id").asText()).isEqualTo(account);
        assertThat(stored.toString()).doesNotContain(grant.path("access_token").asText());
        pool.awaitVisible(key);
        awaitServedBy(key, account);

        List<Load> loads = new ArrayList<>();
        long requests = 0;
        long errors = 0;
        List<String> errorSamples = new ArrayList<>();
        try {
            for (ServiceProcess gateway : gateways) {
                loads.add(Load.start(new GatewayClient(gateway.baseUrl()), key, List.of(MODEL), 1));
            }
            // three rotations, and traffic on past the first token's expiry
            await("three refreshes and the first token's expiry passed")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() ->
                            oauth.refreshCalls(account) >= 3 && Instant.now().isAfter(firstExpiry.plusSeconds(2)));
        } finally {
            for (Load load : loads) {
                load.stop();
                requests += load.requests();
                errors += load.errors();
                errorSamples.addAll(load.errorSamples());
            }
            oauth.resetSwitches();
        }

        // one read of the counters: a refresh landing between two reads cannot tell them apart
        JsonNode counters = oauth.describe().path("counters");
        long refreshes = counters.path("refreshes_per_account").path(account).asLong();
        long refreshCalls = counters.path("refresh_calls").asLong() - refreshCallsBefore;
        long reuse = counters.path("refresh_reuse").asLong() - reuseBefore;
        long rejected = counters.path("rejected_access").asLong() - rejectedBefore;
        JsonNode view = system.admin().oauth(account);
        JsonNode credential = system.admin().credential(account);
        EventLedger.Counts counts = ledger.settle(pool.credentials(), false);
        EventLedger.summary(
                "OfficialAccountsIT",
                "case=refresh_under_load",
                "gateways=" + gateways.size(),
                "requests=" + requests,
                "client_errors=" + errors,
                "refresh_calls=" + refreshCalls,
                "refreshes_of_account=" + refreshes,
                "refresh_reuse=" + reuse,
                "rejected_access=" + rejected,
                "invalid_grant_answers=" + oauth.invalidGrantAnswers(account),
                "access_expires_at=" + view.path("access_expires_at").asText(),
                counts);

        assertThat(errors).as("client-visible errors: %s", errorSamples).isZero();
        assertThat(refreshes).isGreaterThanOrEqualTo(3);
        assertThat(reuse)
                .as("a rotated refresh token presented again: two refreshes of one token")
                .isZero();
        assertThat(refreshCalls)
                .as("every refresh call presented the current refresh token")
                .isEqualTo(refreshes);
        assertThat(oauth.invalidGrantAnswers(account)).isZero();
        assertThat(rejected)
                .as("requests that reached the upstream with an expired or unknown access token")
                .isZero();
        assertThat(view.path("state").asText()).isEqualTo("authorized");
        assertThat(Instant.parse(view.path("access_expires_at").asText())).isAfter(firstExpiry);
        assertThat(view.path("last_refresh_error").isNull()).isTrue();
        assertThat(credential.path("status").asText()).isEqualTo("ok");
        assertThat(system.demo().requestCount(account, MODEL)).isGreaterThanOrEqualTo(requests);
        assertThat(counts.missing()).isEmpty();
    }

    @Test
    void aRefreshAnsweredInvalidGrantRevokesTheAccountUntilItIsReauthorized() {
        OAuthServer oauth = system.demo().oauth();
        EventLedger ledger = EventLedger.start(system);
        Pool pool = Pool.create(system, gateways);
        String account = pool.credential("orev", c -> c.official("codex").priority(0));
        String spare = pool.credential("spare", c -> c.priority(1).map(MODEL, MODEL));
        String key = pool.accessKey(pool.group("main", List.of(MODEL), account, spare));
        oauth.setInvalidGrant(account, true);

        JsonNode grant = grant(account, SHORT_TTL_SECONDS);
        Instant expiry = Instant.parse(grant.path("expires_at").asText());
        system.admin().storeOAuth(account, tokenFields(grant));
        pool.awaitVisible(key);

        // the refresh falls due 10 s after the grant and is refused with the permanent marker
        await("the refused refresh revokes the account")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> "revoked"
                        .equals(system.admin()
                                .credential(account)
                                .path("status")
                                .asText()));
        assertThat(oauth.invalidGrantAnswers(account)).isEqualTo(1);
        // every replica's view has it: each routes to the spare
        awaitServedBy(key, spare);
        JsonNode check = system.admin().routeCheck(key, "openai_chat", MODEL);
        JsonNode skipped = credentialTrace(check, account);
        assertThat(skipped.path("reason").asText())
                .as("route check: %s", check)
                .isEqualTo("credential_auth_unavailable");
        assertThat(check.path("selected").path("credential_id").asText()).isEqualTo(spare);

        long servedBefore = system.demo().requestCount(account);
        long requests;
        long errors;
        List<String> errorSamples = new ArrayList<>();
        List<Load> loads = new ArrayList<>();
        try {
            for (ServiceProcess gateway : gateways) {
                loads.add(Load.start(new GatewayClient(gateway.baseUrl()), key, List.of(MODEL), 1));
            }
            // past the revoked token's expiry and many refresher ticks: nothing brings it back
            waitUntilPassed(expiry.plus(RouteSystem.OAUTH_TICK.multipliedBy(5)));
        } finally {
            requests = 0;
            errors = 0;
            for (Load load : loads) {
                load.stop();
                requests += load.requests();
                errors += load.errors();
                errorSamples.addAll(load.errorSamples());
            }
        }
        JsonNode revoked = system.admin().credential(account);
        long refusedRefreshes = oauth.invalidGrantAnswers(account);
        long reachedWhileRevoked = system.demo().requestCount(account) - servedBefore;

        // re-authorization in place brings it back
        oauth.setInvalidGrant(account, false);
        JsonNode fresh = grant(account, 3600);
        JsonNode reauthorized = system.admin().storeOAuth(account, tokenFields(fresh));
        assertThat(reauthorized.path("state").asText()).isEqualTo("authorized");
        assertThat(system.admin().credential(account).path("status").asText()).isEqualTo("ok");
        awaitServedBy(key, account);

        EventLedger.Counts counts = ledger.settle(pool.credentials(), false);
        EventLedger.summary(
                "OfficialAccountsIT",
                "case=invalid_grant",
                "requests=" + requests,
                "client_errors=" + errors,
                "invalid_grant_answers=" + refusedRefreshes,
                "refreshes_of_account=" + oauth.refreshCalls(account),
                "requests_reaching_revoked_account=" + reachedWhileRevoked,
                "status_after_wait=" + revoked.path("status").asText(),
                "status_after_reauthorization=ok",
                counts);

        assertThat(errors).as("client-visible errors: %s", errorSamples).isZero();
        assertThat(revoked.path("status").asText())
                .as("never recovered automatically")
                .isEqualTo("revoked");
        assertThat(refusedRefreshes)
                .as("no refresh attempt after the revocation")
                .isEqualTo(1);
        assertThat(reachedWhileRevoked)
                .as("requests sent to the revoked account")
                .isZero();
        assertThat(counts.missing()).isEmpty();
    }

    @Test
    void aCodexUsageLimitAnswerCoolsTheAccountUntilTheReportedReset() {
        EventLedger ledger = EventLedger.start(system);
        Pool pool = Pool.create(system, gateways);
        String account = pool.credential("olim", c -> c.official("codex").priority(0));
        String spare = pool.credential("spare", c -> c.priority(1).map(MODEL, MODEL));
        String key = pool.accessKey(pool.group("main", List.of(MODEL), account, spare));
        system.admin().storeOAuth(account, tokenFields(grant(account, 3600)));
        pool.awaitVisible(key);
        awaitServedBy(key, account);

        Map<TopicPartition, Long> mark = system.outcomes().mark();
        long sentBefore = system.demo().requestCount(account);
        system.demo().setBehaviour(account, Behaviour.usageLimit(RESET_AFTER_SECONDS, "5h"));
        long requests = 0;
        long errors = 0;
        List<String> errorSamples = new ArrayList<>();
        Instant reset;
        List<OutcomeTap.Outcome> quota;
        JsonNode cooled;
        try {
            Instant asked = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            Http.Response first = system.gateway().chat(key, MODEL);
            Instant answered = Instant.now();
            assertThat(first.status()).as("%s", first).isEqualTo(200);
            assertThat(first.servedBy()).as("a usage limit fails over at once").isEqualTo(spare);
            await("the account cooled")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> !system.admin()
                            .credential(account)
                            .path("account")
                            .path("cooldown_until")
                            .isNull());

            List<Load> loads = new ArrayList<>();
            try {
                for (ServiceProcess gateway : gateways) {
                    loads.add(Load.start(new GatewayClient(gateway.baseUrl()), key, List.of(MODEL), 1));
                }
                for (Load load : loads) {
                    load.awaitMore(20);
                }
            } finally {
                for (Load load : loads) {
                    load.stop();
                    requests += load.requests();
                    errors += load.errors();
                    errorSamples.addAll(load.errorSamples());
                }
            }
            cooled = system.admin().credential(account);
            quota = system.outcomes().readSince(mark, List.of(account)).stream()
                    .filter(outcome -> outcome.type().startsWith("quota-exhaustion-recorded"))
                    .toList();
            assertThat(quota).as("usage-limit answers recorded").isNotEmpty();
            reset = quota.get(quota.size() - 1).resetsAt();
            assertThat(reset)
                    .as("the reset the upstream reported")
                    .isBetween(asked.plusSeconds(RESET_AFTER_SECONDS), answered.plusSeconds(RESET_AFTER_SECONDS + 60));
        } finally {
            system.demo().reset(account);
        }
        long reachedWhileCooled = system.demo().requestCount(account) - sentBefore;

        // once the window has reset, the account serves again
        waitUntilPassed(reset);
        awaitServedBy(key, account);

        EventLedger.Counts counts = ledger.settle(pool.credentials(), false);
        EventLedger.summary(
                "OfficialAccountsIT",
                "case=usage_limit",
                "requests=" + (requests + 1),
                "client_errors=" + errors,
                "quota_events=" + quota.size(),
                "requests_reaching_limited_account=" + reachedWhileCooled,
                "reset=" + reset,
                "cooldown_until="
                        + cooled.path("account").path("cooldown_until").asText(),
                counts);

        assertThat(errors).as("client-visible errors: %s", errorSamples).isZero();
        assertThat(Instant.parse(cooled.path("account").path("cooldown_until").asText()))
                .as("cooled until the reported reset")
                .isEqualTo(reset);
        assertThat(cooled.path("status").asText())
                .as("cooled, not flipped to error")
                .isEqualTo("ok");
        assertThat(reachedWhileCooled)
                .as("only the answers that reported the limit reached the account")
                .isEqualTo(quota.size());
        assertThat(counts.missing()).isEmpty();
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** Fresh OAuth material from the mock OAuth server, as a login would leave it. */
    private static JsonNode grant(String accountId, int accessTtlSeconds) {
        Http.Response answer = Http.send(
                "POST",
                system.demoBaseUrl() + "/_control/oauth/grants",
                Map.of(),
                Http.JSON.createObjectNode().put("account_id", accountId).put("access_ttl_seconds", accessTtlSeconds));
        assertThat(answer.status()).as("grant: %s", answer.status()).isEqualTo(201);
        return answer.json();
    }

    /** The onboarding API's token fields from a grant. */
    private static ObjectNode tokenFields(JsonNode grant) {
        return Http.JSON
                .createObjectNode()
                .put("access_token", grant.path("access_token").asText())
                .put("refresh_token", grant.path("refresh_token").asText())
                .put("expires_at", grant.path("expires_at").asText())
                .put("account_id", grant.path("account_id").asText());
    }

    /** Waits until every replica routes the key's requests to {@code credential}. */
    private static void awaitServedBy(String key, String credential) {
        for (ServiceProcess gateway : gateways) {
            GatewayClient client = new GatewayClient(gateway.baseUrl());
            await("served by " + credential + " on " + gateway.baseUrl())
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> credential.equals(client.chat(key, MODEL).servedBy()));
        }
    }

    /** The route check's trace entry of one credential. */
    private static JsonNode credentialTrace(JsonNode check, String credentialId) {
        for (JsonNode group : check.path("trace").path("groups")) {
            for (JsonNode credential : group.path("credentials")) {
                if (credentialId.equals(credential.path("credential_id").asText())) {
                    return credential;
                }
            }
        }
        throw new AssertionError("no trace of " + credentialId + " in " + check);
    }
}
