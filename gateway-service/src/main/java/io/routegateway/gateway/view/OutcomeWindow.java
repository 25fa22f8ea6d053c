package io.routegateway.gateway.view;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import io.routegateway.core.select.CredentialStats;
import io.routegateway.gateway.config.GatewayConfig;
import io.vertx.core.Vertx;

/**
 * This replica's recent counted attempts per credential, in a sliding window of fixed buckets,
 * turned into {@link CredentialStats} (the automatic weights) and pushed into the view every
 * {@code gateway.view.stats-refresh}. Counting is a short critical section on one credential's
 * small bucket array, so requests for different credentials never contend.
 */
@Singleton
public class OutcomeWindow {

    static final int BUCKETS = 12;

    private final PoolViewHolder holder;
    private final Clock clock;
    private final Vertx vertx;
    private final long bucketMillis;
    private final long refreshMillis;
    private final ConcurrentHashMap<String, Counts> byCredential = new ConcurrentHashMap<>();
    private volatile long timerId = -1;

    OutcomeWindow(PoolViewHolder holder, Clock clock, Vertx vertx, GatewayConfig config) {
        this.holder = holder;
        this.clock = clock;
        this.vertx = vertx;
        this.bucketMillis = Math.max(1, config.view().statsWindow().toMillis() / BUCKETS);
        this.refreshMillis = Math.max(100, config.view().statsRefresh().toMillis());
    }

    @PostConstruct
    void start() {
        timerId = vertx.setPeriodic(refreshMillis, id -> refresh());
    }

    @PreDestroy
    void stop() {
        vertx.cancelTimer(timerId);
    }

    public void record(String credentialId, boolean success) {
        long bucket = clock.millis() / bucketMillis;
        byCredential.computeIfAbsent(credentialId, id -> new Counts()).add(bucket, success);
    }

    /** The stats of the current window, for every credential with recent attempts. */
    public Map<String, CredentialStats> snapshot() {
        long bucket = clock.millis() / bucketMillis;
        Map<String, CredentialStats> stats = new HashMap<>();
        byCredential.forEach((id, counts) -> {
            CredentialStats credentialStats = counts.stats(bucket);
            if (credentialStats == null) {
                byCredential.remove(id, counts);
            } else {
                stats.put(id, credentialStats);
            }
        });
        return stats;
    }

    void refresh() {
        Map<String, CredentialStats> stats = snapshot();
        holder.update(view -> view.stats().equals(stats) ? view : view.withStats(stats));
    }

    Duration bucket() {
        return Duration.ofMillis(bucketMillis);
    }

    /** One credential's ring of buckets; bucket numbers tell stale slots from live ones. */
    private static final class Counts {

        private final long[] bucketOf = new long[BUCKETS];
        private final int[] successes = new int[BUCKETS];
        private final int[] failures = new int[BUCKETS];

        synchronized void add(long bucket, boolean success) {
            int slot = (int) Math.floorMod(bucket, (long) BUCKETS);
            if (bucketOf[slot] != bucket) {
                bucketOf[slot] = bucket;
                successes[slot] = 0;
                failures[slot] = 0;
            }
            if (success) {
                successes[slot]++;
            } else {
                failures[slot]++;
            }
        }

        /** Sums the live buckets; null when none is live (the credential can be forgotten). */
        synchronized CredentialStats stats(long currentBucket) {
            int s = 0;
            int f = 0;
            boolean live = false;
            for (int slot = 0; slot < BUCKETS; slot++) {
                if (currentBucket - bucketOf[slot] < BUCKETS && bucketOf[slot] <= currentBucket) {
                    if (successes[slot] > 0 || failures[slot] > 0) {
                        live = true;
                        s += successes[slot];
                        f += failures[slot];
                    }
                }
            }
            return live ? new CredentialStats(s, f) : null;
        }
    }
}
