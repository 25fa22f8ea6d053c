package io.routegateway.core.telemetry;

import java.time.Instant;
import java.util.List;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.telemetry.PoolCensus.ModelCredentials;
import io.routegateway.core.telemetry.PoolCensus.ModelRowState;
import io.routegateway.core.testing.CredentialBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PoolCensusTests {

    static final Instant NOW = Instant.parse("2026-09-02T12:00:00Z");

    static CredentialBuilder api(String id) {
        return CredentialBuilder.credential(id)
                .groups("g1")
                .publishedAt(NOW)
                .rowsAt(NOW)
                .maps("sol", "upstream-sol")
                .maps("glm", "upstream-glm");
    }

    @Test
    void eachCredentialIsCountedOnceInTheFirstConditionThatHoldsAndArchivedOnesNotAtAll() {
        List<CredentialSnapshot> pool = List.of(
                api("ok").build(),
                api("cooling").accountCooling(NOW.plusSeconds(30)).build(),
                api("cooled-off").accountCooling(NOW.minusSeconds(1)).build(),
                api("revoked").status(AccountStatus.REVOKED).build(),
                api("error").status(AccountStatus.ERROR).build(),
                api("warning").status(AccountStatus.WARNING).build(),
                api("paused").status(AccountStatus.PAUSED).build(),
                // disabled wins over revoked: someone already acted on it
                api("disabled-revoked").disabled().status(AccountStatus.REVOKED).build(),
                api("out-of-pool").notInPool().build(),
                api("no-quota").quota(0L).build(),
                api("archived").archived().status(AccountStatus.REVOKED).build(),
                official("expired", AuthState.EXPIRED, null));

        PoolCensus census = PoolCensus.of(pool, NOW);

        assertThat(census.credentials(CredentialCondition.AVAILABLE)).isEqualTo(2);
        assertThat(census.credentials(CredentialCondition.COOLING)).isEqualTo(1);
        assertThat(census.credentials(CredentialCondition.REVOKED)).isEqualTo(1);
        assertThat(census.credentials(CredentialCondition.ERROR)).isEqualTo(1);
        assertThat(census.credentials(CredentialCondition.WARNING)).isEqualTo(1);
        assertThat(census.credentials(CredentialCondition.PAUSED)).isEqualTo(1);
        assertThat(census.credentials(CredentialCondition.DISABLED)).isEqualTo(2);
        assertThat(census.credentials(CredentialCondition.QUOTA_EXHAUSTED)).isEqualTo(1);
        assertThat(census.credentials(CredentialCondition.AUTH_UNAVAILABLE)).isEqualTo(1);
        assertThat(census.credentials().values().stream()
                        .mapToInt(Integer::intValue)
                        .sum())
                .isEqualTo(pool.size() - 1);
        // every condition is present, zeros included: a gauge per condition from the first scrape
        assertThat(census.credentials()).containsOnlyKeys(CredentialCondition.values());
    }

    @Test
    void modelRowsAreCountedByWhatKeepsThePairOut() {
        CredentialSnapshot credential = api("a").modelCooling("upstream-sol", NOW.plusSeconds(5))
                .errored("upstream-glm")
                .paused("x")
                .modelCooling("y", NOW.minusSeconds(5))
                .build();

        PoolCensus census = PoolCensus.of(List.of(credential), NOW);

        assertThat(census.modelRows(ModelRowState.COOLING)).isEqualTo(1);
        assertThat(census.modelRows(ModelRowState.ERROR)).isEqualTo(1);
        assertThat(census.modelRows(ModelRowState.PAUSED)).isEqualTo(1);
    }

    @Test
    void perModelKeyTheCredentialsThatCouldServeItNow() {
        List<CredentialSnapshot> pool = List.of(
                api("a").modelCooling("upstream-sol", NOW.plusSeconds(10)).build(),
                api("b").accountCooling(NOW.plusSeconds(10)).build(),
                api("c").status(AccountStatus.REVOKED).build(),
                api("d").errored("upstream-glm").build());

        PoolCensus census = PoolCensus.of(pool, NOW);

        assertThat(census.models())
                .containsExactly(
                        org.assertj.core.api.Assertions.entry("upstream-glm", new ModelCredentials(1, 1, 2)),
                        org.assertj.core.api.Assertions.entry("upstream-sol", new ModelCredentials(1, 2, 1)));
    }

    @Test
    void aModelWhoseEveryCredentialIsOutShowsNoneAvailable() {
        PoolCensus census = PoolCensus.of(
                List.of(
                        api("a").status(AccountStatus.ERROR).build(),
                        api("b").status(AccountStatus.REVOKED).build()),
                NOW);

        assertThat(census.models().get("upstream-sol")).isEqualTo(new ModelCredentials(0, 0, 2));
    }

    @Test
    void onlyModelsAConfigurationNamesAreCountedNeverPassThroughNames() {
        CredentialSnapshot passThrough = CredentialBuilder.credential("p")
                .groups("g1")
                .publishedAt(NOW)
                .maps("*", "*")
                .maps("fixed", "upstream-fixed")
                .build();
        CredentialSnapshot official = official("o", AuthState.AUTHORIZED, NOW.plusSeconds(600));

        PoolCensus census = PoolCensus.of(List.of(passThrough, official), NOW);

        assertThat(census.models().keySet())
                .containsExactlyInAnyOrderElementsOf(withBaseline("upstream-fixed", Platform.CODEX));
    }

    @Test
    void modelsOfCredentialsNobodyCanReachOrThatAnOperatorTurnedOffAreNotOffered() {
        PoolCensus census = PoolCensus.of(
                List.of(
                        CredentialBuilder.credential("no-group")
                                .maps("sol", "upstream-sol")
                                .build(),
                        api("disabled").disabled().build(),
                        api("paused").status(AccountStatus.PAUSED).build()),
                NOW);

        assertThat(census.models()).isEmpty();
    }

    @Test
    void theModelListIsCappedSoAHugeConfigurationCannotFloodTheSeries() {
        CredentialBuilder many =
                CredentialBuilder.credential("many").groups("g1").publishedAt(NOW);
        for (int i = 0; i < PoolCensus.MAX_MODELS + 50; i++) {
            many.maps("m" + i, String.format("k%04d", i));
        }

        PoolCensus census = PoolCensus.of(List.of(many.build()), NOW);

        assertThat(census.models()).hasSize(PoolCensus.MAX_MODELS);
        assertThat(census.models().firstKey()).isEqualTo("k0000");
    }

    @Test
    void oauthAccountsByStateAndTheSoonestExpiryOfAnAuthorizedToken() {
        PoolCensus census = PoolCensus.of(
                List.of(
                        official("soon", AuthState.AUTHORIZED, NOW.plusSeconds(90)),
                        official("later", AuthState.AUTHORIZED, NOW.plusSeconds(3000)),
                        official("expired", AuthState.EXPIRED, NOW.minusSeconds(60)),
                        official("new", AuthState.UNAUTHORIZED, null),
                        api("plain").build()),
                NOW);

        assertThat(census.oauth(AuthState.AUTHORIZED)).isEqualTo(2);
        assertThat(census.oauth(AuthState.EXPIRED)).isEqualTo(1);
        assertThat(census.oauth(AuthState.UNAUTHORIZED)).isEqualTo(1);
        assertThat(census.oauthNextExpirySeconds()).hasValue(90.0);
    }

    @Test
    void noAuthorizedTokenMeansNoExpiryToReport() {
        assertThat(PoolCensus.of(List.of(api("a").build()), NOW).oauthNextExpirySeconds())
                .isEmpty();
        assertThat(PoolCensus.EMPTY.credentials(CredentialCondition.AVAILABLE)).isZero();
    }

    private static CredentialSnapshot official(String id, AuthState state, Instant expiresAt) {
        return CredentialBuilder.credential(id)
                .official(Platform.CODEX)
                .groups("g1")
                .publishedAt(NOW)
                .oauth(new OAuthStatus(state, expiresAt, null, NOW.minusSeconds(100)))
                .build();
    }

    private static List<String> withBaseline(String key, Platform platform) {
        List<String> keys = new java.util.ArrayList<>(platform.baselineModels());
        keys.add(key);
        return keys;
    }
}
