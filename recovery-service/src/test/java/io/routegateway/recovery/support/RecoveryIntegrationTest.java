package io.routegateway.recovery.support;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import io.routegateway.recovery.schedule.RecoveryTicker;
import io.routegateway.recovery.schedule.TickReport;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the end-to-end tests share: the published topics read back from the real broker, an empty
 * credential table and a fresh simulated upstream per test, and ticks driven at a chosen instant.
 * Subclasses are {@code @QuarkusTest @TestProfile(RecoveryTestProfile.class)}.
 */
public abstract class RecoveryIntegrationTest {

    protected static TopicRecords topics;

    @Inject
    protected TestCredentials credentials;

    @Inject
    protected RecoveryTicker ticker;

    @Inject
    protected MutableClock clock;

    @Inject
    protected Vertx vertx;

    protected MockUpstream upstream;

    @BeforeAll
    static void readTopics() {
        topics = TopicRecords.start();
    }

    @AfterAll
    static void stopReadingTopics() {
        topics.close();
    }

    @BeforeEach
    void onlyThisTestsAccounts() {
        credentials.deleteAll();
        upstream = MockUpstream.start(vertx);
    }

    @AfterEach
    void stopUpstream() {
        upstream.close();
    }

    /** Runs one tick at {@code instant} as the only replica, which therefore leads. */
    protected TickReport tickAt(Instant instant) {
        clock.set(instant);
        TickReport report = ticker.tick().await().atMost(Duration.ofSeconds(30));
        assertThat(report.leader()).as("the only replica leads").isTrue();
        return report;
    }
}
