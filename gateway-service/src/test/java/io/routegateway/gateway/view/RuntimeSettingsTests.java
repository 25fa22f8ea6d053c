package io.routegateway.gateway.view;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.forward.ForwardingService;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The runtime settings on {@code route.settings} size the affinity table and set the local blacklist threshold. */
@QuarkusTest
class RuntimeSettingsTests extends GatewayTestBase {

    @Inject
    ForwardingService forwarding;

    @Inject
    LocalOutcomes localOutcomes;

    @Inject
    GatewayConfig config;

    /** Above any version state-service's sequence hands out in a test run. */
    private static long nextVersion = System.currentTimeMillis() * 1000;

    @AfterEach
    void backToTheConfiguredSettings() {
        publishAndWait(new RuntimeSettingsSnapshot(
                ++nextVersion,
                0,
                config.affinity().ttl().toSeconds(),
                config.affinity().capacity(),
                Instant.now()));
        assertThat(forwarding.affinity().ttl()).isEqualTo(config.affinity().ttl());
    }

    @Test
    void publishedSettingsRebuildTheAffinityTableAndSetTheLocalBlacklistThreshold() {
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        install(
                List.of(Pool.credential(credential).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, true)),
                Pool.key(Pool.uid("k"), List.of(group)));

        publishAndWait(new RuntimeSettingsSnapshot(++nextVersion, 2, 120, 50, Instant.now()));
        assertThat(forwarding.affinity().ttl()).isEqualTo(Duration.ofSeconds(120));
        assertThat(forwarding.affinity().capacity()).isEqualTo(50);

        // an older version changes nothing
        topics().publish(new RuntimeSettingsSnapshot(1, 7, 60, 7, Instant.now()));
        publishAndWait(new RuntimeSettingsSnapshot(++nextVersion, 2, 120, 50, Instant.now()));
        assertThat(views.settings().blacklistThreshold()).isEqualTo(2);
        assertThat(forwarding.affinity().capacity()).isEqualTo(50);

        // threshold 2: two transient failures keep the account ok, the third exceeds it and flips it to error
        localOutcomes.apply(transientFailure(credential));
        localOutcomes.apply(transientFailure(credential));
        assertThat(accountStatus(credential)).isEqualTo(AccountStatus.OK);
        localOutcomes.apply(transientFailure(credential));
        assertThat(accountStatus(credential)).isEqualTo(AccountStatus.ERROR);
    }

    @Test
    void withoutAThresholdTransientFailuresNeverFlipTheAccount() {
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        install(
                List.of(Pool.credential(credential).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                null);
        publishAndWait(new RuntimeSettingsSnapshot(++nextVersion, 0, 3600, 10000, Instant.now()));
        assertThat(forwarding.affinity().ttl()).isEqualTo(Duration.ofHours(1));

        for (int i = 0; i < 3; i++) {
            localOutcomes.apply(transientFailure(credential));
        }
        assertThat(accountStatus(credential)).isEqualTo(AccountStatus.OK);
    }

    private void publishAndWait(RuntimeSettingsSnapshot snapshot) {
        topics().publish(snapshot);
        await().atMost(KAFKA_WAIT)
                .until(() -> views.settings() != null && views.settings().version() == snapshot.version());
    }

    private AccountStatus accountStatus(String credential) {
        return views.pool().credential(credential).orElseThrow().account().status();
    }

    private static CredentialEvent transientFailure(String credential) {
        return new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(), credential, Instant.now(), null, "upstream_status", 500, "boom", null);
    }
}
