package io.routegateway.recovery.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.recovery.support.RecoveryIntegrationTest;
import io.routegateway.recovery.support.RecoveryTestProfile;
import org.junit.jupiter.api.Test;

import static io.routegateway.recovery.support.TestCredentials.credential;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Scheduled mode end to end: PostgreSQL rows in, events on the real {@code route.outcomes} out. */
@QuarkusTest
@TestProfile(RecoveryTestProfile.class)
class ScheduledRecoveryTests extends RecoveryIntegrationTest {

    static final String MIDNIGHT_UTC =
            "{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"00:00\"],\"time_zone\":\"UTC\"}}";

    TickReport tickAt(String instant) {
        return tickAt(Instant.parse(instant));
    }

    /** Waits until every event of this tick is on the topic: a marker account fires at each tick. */
    List<CredentialEvent> outcomesSettled(String credentialId, int expected) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> topics.outcomes(credentialId).size() >= expected);
        return topics.outcomes(credentialId);
    }

    @Test
    void firesAcrossMidnightOnceAndNotAgainOnTheNextTick() {
        String id = credentials.insert(credential().status("error").config(MIDNIGHT_UTC));

        assertThat(tickAt("2026-08-11T23:59:50Z").reactivated()).isZero();
        TickReport acrossMidnight = tickAt("2026-08-12T00:00:20Z");
        TickReport next = tickAt("2026-08-12T00:00:50Z");

        assertThat(acrossMidnight.reactivated()).isEqualTo(1);
        assertThat(next.reactivated()).isZero();
        List<CredentialEvent> events = outcomesSettled(id, 1);
        assertThat(events)
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.ScheduledReactivationTriggered.class, event -> {
                    assertThat(event.credentialId()).isEqualTo(id);
                    assertThat(event.scheduledTime()).isEqualTo("00:00");
                    assertThat(event.occurredAt()).isEqualTo("2026-08-12T00:00:20Z");
                });
    }

    @Test
    void firesOnceAfterATwoDayGap() {
        String id = credentials.insert(credential()
                .status("warning")
                .config("{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"15:00\"],\"time_zone\":\"UTC\"}}"));

        tickAt("2026-08-11T16:00:00Z");
        TickReport afterTheGap = tickAt("2026-08-13T10:00:00Z");

        assertThat(afterTheGap.reactivated()).isEqualTo(1);
        assertThat(outcomesSettled(id, 1))
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.ScheduledReactivationTriggered.class,
                        event -> assertThat(event.scheduledTime()).isEqualTo("15:00"));
    }

    @Test
    void unpaddedTimesAreTheSameTime() {
        String id = credentials.insert(
                credential()
                        .status("error")
                        .config(
                                "{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"3:00\",\"03:00\"],\"time_zone\":\"UTC\"}}"));

        tickAt("2026-08-12T02:59:40Z");
        TickReport report = tickAt("2026-08-12T03:00:10Z");

        assertThat(report.reactivated()).isEqualTo(1);
        assertThat(outcomesSettled(id, 1))
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.ScheduledReactivationTriggered.class,
                        event -> assertThat(event.scheduledTime()).isEqualTo("03:00"));
    }

    @Test
    void evaluatesTimesInTheRulesZone() {
        String id = credentials.insert(
                credential()
                        .status("error")
                        .config(
                                "{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"08:00\"],\"time_zone\":\"Asia/Shanghai\"}}"));

        tickAt("2026-08-12T07:59:50Z");
        assertThat(tickAt("2026-08-12T08:00:20Z").reactivated())
                .as("08:00 UTC is 16:00 in Shanghai")
                .isZero();
        tickAt("2026-08-12T23:59:50Z");
        assertThat(tickAt("2026-08-13T00:00:20Z").reactivated())
                .as("00:00 UTC is 08:00 in Shanghai")
                .isEqualTo(1);
        assertThat(outcomesSettled(id, 1)).hasSize(1);
    }

    @Test
    void firesOnlyForAccountsThatNeedRecoveryAndOneBadAccountStopsNoOther() {
        String error = credentials.insert(credential().status("error").config(MIDNIGHT_UTC));
        String cooling = credentials.insert(
                credential().config(MIDNIGHT_UTC).cooldownUntil(Instant.parse("2026-08-12T00:05:00Z")));
        String parkedModel = credentials.insert(credential().config(MIDNIGHT_UTC));
        credentials.modelRow(parkedModel, "up-model", "error", null, Instant.parse("2026-08-11T20:00:00Z"));
        String healthy = credentials.insert(credential().config(MIDNIGHT_UTC));
        String onlyPausedModel = credentials.insert(credential().config(MIDNIGHT_UTC));
        credentials.modelRow(onlyPausedModel, "up-model", "paused", null, Instant.parse("2026-08-11T20:00:00Z"));
        String revoked = credentials.insert(credential().status("revoked").config(MIDNIGHT_UTC));
        String paused = credentials.insert(credential().status("paused").config(MIDNIGHT_UTC));
        String blacklisted = credentials.insert(credential().blacklisted().config(MIDNIGHT_UTC));
        String archived = credentials.insert(
                credential().status("error").config(MIDNIGHT_UTC).archived());
        String off = credentials.insert(credential().status("error"));
        String corruptConfig = credentials.insert(credential().status("error").config("{\"recovery\": {\"mode\": "));
        String corruptRule = credentials.insert(
                credential().status("error").config("{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"25:00\"]}}"));

        TickReport before = tickAt("2026-08-11T23:59:50Z");
        TickReport report = tickAt("2026-08-12T00:00:20Z");

        assertThat(before.walked())
                .as("archived, revoked, paused and blacklisted accounts are not walked")
                .isEqualTo(8);
        assertThat(report.failed()).isZero();
        assertThat(report.reactivated()).isEqualTo(3);
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(List.of(error, cooling, parkedModel))
                        .allSatisfy(id -> assertThat(topics.outcomes(id)).hasSize(1)));
        assertThat(List.of(
                        healthy,
                        onlyPausedModel,
                        revoked,
                        paused,
                        blacklisted,
                        archived,
                        off,
                        corruptConfig,
                        corruptRule))
                .as("a scheduled job overrules neither a person's pause nor a blacklist")
                .allSatisfy(id -> assertThat(topics.outcomes(id)).isEmpty());
    }
}
