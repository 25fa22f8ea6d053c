package io.routegateway.gateway.metrics;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.Startup;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.telemetry.CredentialCondition;
import io.routegateway.core.telemetry.PoolCensus;
import io.routegateway.core.telemetry.PoolCensus.ModelCredentials;
import io.routegateway.core.telemetry.PoolCensus.ModelRowState;
import io.routegateway.gateway.view.PoolViewHolder;
import io.vertx.core.Vertx;

/**
 * The pool's health as this replica's view holds it, counted by route-core's {@link PoolCensus}
 * every {@link #REFRESH_MILLIS} off the event loops and read by the gauges at each scrape (every
 * replica reports the same pool: aggregate with {@code max}, not {@code sum}):
 *
 * <ul>
 *   <li>{@code gateway_pool_credentials{condition}} — non-archived credentials by {@link
 *       CredentialCondition} (every condition, zeros included);
 *   <li>{@code gateway_pool_model_rows{state}} — (credential, model) pairs {@code cooling}, in
 *       {@code error} or {@code paused};
 *   <li>{@code gateway_pool_model_credentials{model,state}} — per configured model key, the group
 *       members that could serve it now: {@code available}, {@code cooling}, {@code unavailable};
 *   <li>{@code gateway_pool_oauth_credentials{state}} — OAuth-managed official accounts by
 *       authorization state;
 *   <li>{@code gateway_pool_oauth_next_expiry_seconds} — seconds until the soonest access token of
 *       an authorized account expires (negative once past; NaN when there is none).
 * </ul>
 */
@Startup
@Singleton
public class PoolMetrics {

    /** How often the census is taken; the gauges read the latest one. */
    static final long REFRESH_MILLIS = 5_000;

    private final PoolViewHolder holder;
    private final Clock clock;
    private final Vertx vertx;
    private final MultiGauge modelCredentials;
    private volatile PoolCensus census = PoolCensus.EMPTY;
    private volatile long timerId = -1;

    PoolMetrics(MeterRegistry registry, PoolViewHolder holder, Clock clock, Vertx vertx) {
        this.holder = holder;
        this.clock = clock;
        this.vertx = vertx;
        for (CredentialCondition condition : CredentialCondition.values()) {
            Gauge.builder("gateway.pool.credentials", this, metrics -> metrics.census.credentials(condition))
                    .description("Non-archived credentials in the pool view by condition")
                    .tag("condition", condition.wire())
                    .register(registry);
        }
        for (ModelRowState state : ModelRowState.values()) {
            Gauge.builder("gateway.pool.model.rows", this, metrics -> metrics.census.modelRows(state))
                    .description("(credential, model) pairs kept out of routing, by why")
                    .tag("state", state.wire())
                    .register(registry);
        }
        for (AuthState state : AuthState.values()) {
            Gauge.builder("gateway.pool.oauth.credentials", this, metrics -> metrics.census.oauth(state))
                    .description("OAuth-managed official accounts by authorization state")
                    .tag("state", state.wire())
                    .register(registry);
        }
        Gauge.builder(
                        "gateway.pool.oauth.next.expiry.seconds",
                        this,
                        metrics -> metrics.census.oauthNextExpirySeconds().orElse(Double.NaN))
                .description("Seconds until the soonest access token of an authorized official account expires")
                .register(registry);
        this.modelCredentials = MultiGauge.builder("gateway.pool.model.credentials")
                .description("Per configured model key, the group members that could serve it now, by state")
                .register(registry);
    }

    @PostConstruct
    void start() {
        refresh();
        timerId = vertx.setPeriodic(
                REFRESH_MILLIS,
                id -> vertx.executeBlocking(
                        () -> {
                            refresh();
                            return null;
                        },
                        false));
    }

    @PreDestroy
    void stop() {
        vertx.cancelTimer(timerId);
    }

    /** Takes the census of the current view now. */
    public void refresh() {
        PoolCensus next = PoolCensus.of(holder.pool().credentials(), clock.instant());
        census = next;
        List<MultiGauge.Row<?>> rows = new ArrayList<>(next.models().size() * 3);
        for (Map.Entry<String, ModelCredentials> model : next.models().entrySet()) {
            ModelCredentials counts = model.getValue();
            rows.add(row(model.getKey(), "available", counts.available()));
            rows.add(row(model.getKey(), "cooling", counts.cooling()));
            rows.add(row(model.getKey(), "unavailable", counts.unavailable()));
        }
        modelCredentials.register(rows, true);
    }

    public PoolCensus census() {
        return census;
    }

    private static MultiGauge.Row<?> row(String model, String state, int value) {
        return MultiGauge.Row.of(Tags.of("model", model, "state", state), value);
    }
}
