package io.routegateway.gateway.metrics;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.select.PoolView;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.testing.CredentialBuilder;
import io.routegateway.gateway.view.PoolViewHolder;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pool gauges as Prometheus reads them: present from the start, following the view at each census. */
class PoolMetricsTests {

    static final Instant NOW = Instant.parse("2026-09-02T12:00:00Z");

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PoolViewHolder holder = new PoolViewHolder();
    private final Vertx vertx = Vertx.vertx();
    private final PoolMetrics metrics = new PoolMetrics(registry, holder, Clock.fixed(NOW, ZoneOffset.UTC), vertx);

    @AfterEach
    void closeVertx() {
        vertx.close();
    }

    @Test
    void everyConditionIsExportedFromTheStartAtZero() {
        metrics.refresh();

        String scrape = registry.scrape();

        for (String condition : List.of(
                "available",
                "cooling",
                "warning",
                "error",
                "revoked",
                "paused",
                "disabled",
                "auth_unavailable",
                "quota_exhausted")) {
            assertThat(scrape).contains("gateway_pool_credentials{condition=\"" + condition + "\",} 0.0");
        }
        assertThat(scrape)
                .contains("gateway_pool_model_rows{state=\"cooling\",} 0.0")
                .contains("gateway_pool_oauth_credentials{state=\"expired\",} 0.0")
                .contains("gateway_pool_oauth_next_expiry_seconds NaN")
                .doesNotContain("gateway_pool_model_credentials{");
    }

    @Test
    void theGaugesFollowTheViewAtEachCensusAndModelsThatLeaveTheViewLeaveTheScrape() {
        holder.update(view -> PoolView.of(
                List.of(
                        credential("a")
                                .modelCooling("upstream-sol", NOW.plusSeconds(30))
                                .build(),
                        credential("b").status(AccountStatus.REVOKED).build(),
                        credential("c").accountCooling(NOW.plusSeconds(30)).build(),
                        CredentialBuilder.credential("o")
                                .official(Platform.CODEX)
                                .groups("g1")
                                .oauth(new OAuthStatus(AuthState.AUTHORIZED, NOW.plusSeconds(240), null, NOW))
                                .build()),
                List.of(),
                List.of()));
        metrics.refresh();

        String scrape = registry.scrape();

        assertThat(scrape)
                .contains("gateway_pool_credentials{condition=\"available\",} 2.0")
                .contains("gateway_pool_credentials{condition=\"revoked\",} 1.0")
                .contains("gateway_pool_credentials{condition=\"cooling\",} 1.0")
                .contains("gateway_pool_model_rows{state=\"cooling\",} 1.0")
                .contains("gateway_pool_model_credentials{model=\"upstream-sol\",state=\"available\",} 0.0")
                .contains("gateway_pool_model_credentials{model=\"upstream-sol\",state=\"cooling\",} 2.0")
                .contains("gateway_pool_model_credentials{model=\"upstream-sol\",state=\"unavailable\",} 1.0")
                .contains("gateway_pool_model_credentials{model=\"gpt-5\",state=\"available\",} 1.0")
                .contains("gateway_pool_oauth_credentials{state=\"authorized\",} 1.0")
                .contains("gateway_pool_oauth_next_expiry_seconds 240.0");

        holder.update(view -> PoolView.EMPTY);
        metrics.refresh();

        assertThat(registry.scrape())
                .doesNotContain("model=\"upstream-sol\"")
                .contains("gateway_pool_credentials{condition=\"revoked\",} 0.0");
    }

    private static CredentialBuilder credential(String id) {
        return CredentialBuilder.credential(id).groups("g1").maps("sol", "upstream-sol");
    }
}
