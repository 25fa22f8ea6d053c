package io.routegateway.core.recovery;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;

import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

class RecoveryDecisionsTests {

    static final Instant NOW = Instant.parse("2026-09-02T08:00:00Z");
    static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

    static ModelState row(String key, ModelStatus status, Instant cooldownUntil, Instant updatedAt) {
        return new ModelState(
                key, status, 1, cooldownUntil, 0, null, "upstream_status", "x", null, updatedAt, updatedAt);
    }

    static ZonedDateTime at(String localDateTime, ZoneId zone) {
        return LocalDateTime.parse(localDateTime).atZone(zone);
    }

    @Nested
    class NeedsRecovery {

        @Test
        void revokedNeverNeedsRecoveryWhateverElseItCarries() {
            assertThat(RecoveryDecisions.needsRecovery(AccountStatus.REVOKED, NOW, NOW, true))
                    .isFalse();
        }

        @Test
        void cleanOkAccountDoesNotNeedRecovery() {
            assertThat(RecoveryDecisions.needsRecovery(AccountStatus.OK, null, null, false))
                    .isFalse();
        }

        @ParameterizedTest(name = "status {0} needs recovery")
        @EnumSource(
                value = AccountStatus.class,
                names = {"WARNING", "ERROR"})
        void errorAndWarningNeedRecovery(AccountStatus status) {
            assertThat(RecoveryDecisions.needsRecovery(status, null, null, false))
                    .isTrue();
        }

        @Test
        void aPausedAccountIsThePersonsAndNeverNeedsRecoveryWhateverElseItCarries() {
            // issue 34: "paused is the user's will … automation may only undo automation"
            assertThat(RecoveryDecisions.needsRecovery(AccountStatus.PAUSED, null, null, false))
                    .isFalse();
            assertThat(RecoveryDecisions.needsRecovery(AccountStatus.PAUSED, NOW, NOW, true))
                    .isFalse();
        }

        @Test
        void aBlacklistedAccountWaitsForAPersonWhileOtherErrorsRecover() {
            CredentialHealth blacklisted = new CredentialHealth(
                    new AccountState(
                            AccountStatus.ERROR,
                            4,
                            null,
                            null,
                            "blacklisted",
                            "4 consecutive failures exceeded the blacklist threshold of 3",
                            null,
                            0,
                            null),
                    Map.of());
            CredentialHealth quotaError = new CredentialHealth(
                    new AccountState(
                            AccountStatus.ERROR, 0, null, null, "semantic_response_failed", "quota", null, 1, "fp"),
                    Map.of());
            assertThat(RecoveryDecisions.needsRecovery(blacklisted)).isFalse();
            assertThat(RecoveryDecisions.needsRecovery(quotaError)).isTrue();
        }

        @Test
        void okWithLingeringNextRetryAtNeedsRecovery() {
            assertThat(RecoveryDecisions.needsRecovery(AccountStatus.OK, NOW, null, false))
                    .isTrue();
        }

        @Test
        void okWithLingeringCooldownUntilNeedsRecovery() {
            assertThat(RecoveryDecisions.needsRecovery(AccountStatus.OK, null, NOW, false))
                    .isTrue();
        }

        @Test
        void okWithModelFailuresNeedsRecovery() {
            assertThat(RecoveryDecisions.needsRecovery(AccountStatus.OK, null, null, true))
                    .isTrue();
        }

        @Test
        void onlyNonPausedModelRowsCountAsModelFailures() {
            CredentialHealth pausedOnly =
                    new CredentialHealth(AccountState.HEALTHY, Map.of("m", row("m", ModelStatus.PAUSED, null, NOW)));
            CredentialHealth cooling = new CredentialHealth(
                    AccountState.HEALTHY, Map.of("m", row("m", ModelStatus.OK, NOW.plusSeconds(10), NOW)));
            assertThat(RecoveryDecisions.needsRecovery(pausedOnly)).isFalse();
            assertThat(RecoveryDecisions.needsRecovery(cooling)).isTrue();
        }
    }

    @Nested
    class Schedule {

        final List<LocalTime> midnight = List.of(LocalTime.MIDNIGHT);
        final List<LocalTime> fifteen = List.of(LocalTime.of(15, 0));

        @Test
        void firesAcrossMidnight() {
            assertThat(RecoveryDecisions.scheduledTriggerFires(
                            midnight, at("2026-08-11T23:59:50", SHANGHAI), at("2026-08-12T00:00:20", SHANGHAI)))
                    .isTrue();
        }

        @Test
        void firesOnceAfterAMultiDaySleep() {
            assertThat(RecoveryDecisions.scheduledTrigger(
                            fifteen, at("2026-08-11T16:00:00", SHANGHAI), at("2026-08-13T10:00:00", SHANGHAI)))
                    .contains(LocalTime.of(15, 0));
        }

        @Test
        void multiDaySleepFiresOnceThenNotAgainOnTheNextTick() {
            ZonedDateTime wake = at("2026-08-13T10:00:00", SHANGHAI);
            int fired = 0;
            fired +=
                    RecoveryDecisions.scheduledTriggerFires(fifteen, at("2026-08-11T16:00:00", SHANGHAI), wake) ? 1 : 0;
            fired += RecoveryDecisions.scheduledTriggerFires(fifteen, wake, wake.plusSeconds(30)) ? 1 : 0;
            assertThat(fired).isEqualTo(1);
        }

        @Test
        void intervalIsOpenAtThePreviousTick() {
            assertThat(RecoveryDecisions.scheduledTriggerFires(
                            fifteen, at("2026-08-11T15:00:00", SHANGHAI), at("2026-08-11T15:00:30", SHANGHAI)))
                    .isFalse();
        }

        @Test
        void intervalIsClosedAtThisTick() {
            assertThat(RecoveryDecisions.scheduledTriggerFires(
                            fifteen, at("2026-08-11T14:59:30", SHANGHAI), at("2026-08-11T15:00:00", SHANGHAI)))
                    .isTrue();
        }

        @Test
        void doesNotFireOutsideTheInterval() {
            assertThat(RecoveryDecisions.scheduledTriggerFires(
                            fifteen, at("2026-08-11T15:00:30", SHANGHAI), at("2026-08-11T15:01:00", SHANGHAI)))
                    .isFalse();
        }

        @Test
        void firstTickAfterStartDoesNotFireRetroactively() {
            assertThat(RecoveryDecisions.scheduledTriggerFires(fifteen, null, at("2026-08-11T15:00:10", SHANGHAI)))
                    .isFalse();
        }

        @Test
        void clockSteppedBackFiresNothing() {
            assertThat(RecoveryDecisions.scheduledTriggerFires(
                            fifteen, at("2026-08-11T15:00:30", SHANGHAI), at("2026-08-11T14:59:00", SHANGHAI)))
                    .isFalse();
        }

        @Test
        void noTimesNeverFire() {
            assertThat(RecoveryDecisions.scheduledTriggerFires(
                            List.of(), at("2026-08-11T00:00:00", SHANGHAI), at("2026-08-12T00:00:00", SHANGHAI)))
                    .isFalse();
        }

        @Test
        void latestOccurrenceIsReported() {
            List<LocalTime> times = List.of(LocalTime.of(3, 0), LocalTime.of(9, 0), LocalTime.of(21, 0));
            assertThat(RecoveryDecisions.scheduledTrigger(
                            times, at("2026-08-11T08:00:00", SHANGHAI), at("2026-08-12T04:00:00", SHANGHAI)))
                    .contains(LocalTime.of(3, 0));
        }

        @Test
        void timesAreEvaluatedInThisTicksZone() {
            // 15:00 in Shanghai is 07:00 UTC; the previous tick arrives in UTC.
            ZonedDateTime previous = at("2026-08-11T06:59:50", ZoneOffset.UTC);
            assertThat(RecoveryDecisions.scheduledTriggerFires(
                            fifteen, previous, previous.plusSeconds(30).withZoneSameInstant(SHANGHAI)))
                    .isTrue();
            assertThat(RecoveryDecisions.scheduledTriggerFires(fifteen, previous, previous.plusSeconds(30)))
                    .isFalse();
        }

        @Test
        void timeInASpringForwardGapFiresWhenTheClockJumpsPastIt() {
            ZoneId newYork = ZoneId.of("America/New_York");
            List<LocalTime> twoThirty = List.of(LocalTime.of(2, 30));
            int fired = countFires(twoThirty, at("2026-03-08T00:00:00", newYork), 4 * 120);
            assertThat(fired).isEqualTo(1);
        }

        @Test
        void timeRepeatedByAFallBackFiresOnce() {
            ZoneId newYork = ZoneId.of("America/New_York");
            List<LocalTime> oneThirty = List.of(LocalTime.of(1, 30));
            int fired = countFires(oneThirty, at("2026-11-01T00:00:00", newYork), 4 * 120);
            assertThat(fired).isEqualTo(1);
        }

        private int countFires(List<LocalTime> times, ZonedDateTime start, int ticks) {
            int fired = 0;
            ZonedDateTime previous = start;
            for (int i = 0; i < ticks; i++) {
                ZonedDateTime next = previous.plusSeconds(30);
                if (RecoveryDecisions.scheduledTriggerFires(times, previous, next)) {
                    fired++;
                }
                previous = next;
            }
            return fired;
        }
    }

    @Property
    void splittingAWindowNeverChangesWhetherItFires(
            @ForAll @IntRange(min = 0, max = 4 * 24 * 60) int startMinute,
            @ForAll @IntRange(min = 1, max = 3 * 24 * 60) int firstLength,
            @ForAll @IntRange(min = 1, max = 3 * 24 * 60) int secondLength,
            @ForAll @IntRange(min = 0, max = 23) int hour,
            @ForAll @IntRange(min = 0, max = 59) int minute) {
        List<LocalTime> times = List.of(LocalTime.of(hour, minute));
        ZonedDateTime a = at("2026-10-30T00:00:00", ZoneId.of("Europe/Berlin")).plusMinutes(startMinute);
        ZonedDateTime b = a.plusMinutes(firstLength);
        ZonedDateTime c = b.plusMinutes(secondLength);
        assertThat(RecoveryDecisions.scheduledTriggerFires(times, a, c))
                .isEqualTo(RecoveryDecisions.scheduledTriggerFires(times, a, b)
                        || RecoveryDecisions.scheduledTriggerFires(times, b, c));
    }

    @Nested
    class Healthcheck {

        @Test
        void neverProbedIsDue() {
            assertThat(RecoveryDecisions.healthcheckDue(null, 30, NOW)).isTrue();
        }

        @Test
        void notDueBeforeTheInterval() {
            assertThat(RecoveryDecisions.healthcheckDue(NOW.minusSeconds(29 * 60 + 59), 30, NOW))
                    .isFalse();
        }

        @Test
        void dueExactlyAtTheInterval() {
            assertThat(RecoveryDecisions.healthcheckDue(NOW.minusSeconds(30 * 60), 30, NOW))
                    .isTrue();
        }

        @Test
        void theShortestLegalIntervalIsOneMinute() {
            assertThat(RecoveryDecisions.healthcheckDue(NOW.minusSeconds(60), 1, NOW))
                    .isTrue();
            assertThat(RecoveryDecisions.healthcheckDue(NOW.minusSeconds(59), 1, NOW))
                    .isFalse();
        }

        @Test
        void dueAfterTheInterval() {
            assertThat(RecoveryDecisions.healthcheckDue(NOW.minusSeconds(3 * 60 * 60), 30, NOW))
                    .isTrue();
        }
    }

    @Nested
    class ProbeModel {

        final List<ModelMapping> mappings = List.of(
                new ModelMapping("gpt-5.6-sol", "upstream-sol"),
                new ModelMapping("glm-5.3", "upstream-glm"),
                new ModelMapping("kimi", "upstream-kimi"),
                new ModelMapping("*", "upstream-default"));

        Object probe(List<ModelState> rows) {
            return RecoveryDecisions.probeModel(Platform.OPENAI, CredentialKind.API, mappings, rows, NOW);
        }

        @Test
        void oldestUpdatedAtWinsAndIsMappedBackToARequestedName() {
            assertThat(probe(List.of(
                            row("upstream-glm", ModelStatus.OK, null, NOW.minusSeconds(60)),
                            row("upstream-kimi", ModelStatus.ERROR, null, NOW.minusSeconds(600)),
                            row("upstream-sol", ModelStatus.OK, NOW.minusSeconds(1), NOW.minusSeconds(300)))))
                    .isEqualTo("kimi");
        }

        @Test
        void pausedRowsAreNeverProbed() {
            assertThat(probe(List.of(
                            row("upstream-kimi", ModelStatus.PAUSED, null, NOW.minusSeconds(600)),
                            row("upstream-glm", ModelStatus.OK, null, NOW.minusSeconds(60)))))
                    .isEqualTo("glm-5.3");
        }

        @Test
        void stillCoolingRowsAreNeverProbed() {
            assertThat(probe(List.of(
                            row("upstream-kimi", ModelStatus.OK, NOW.plusSeconds(5), NOW.minusSeconds(600)),
                            row("upstream-glm", ModelStatus.OK, null, NOW.minusSeconds(60)))))
                    .isEqualTo("glm-5.3");
        }

        @Test
        void cooldownEndingExactlyNowHasExpired() {
            assertThat(probe(List.of(row("upstream-kimi", ModelStatus.OK, NOW, NOW.minusSeconds(600)))))
                    .isEqualTo("kimi");
        }

        @Test
        void equalUpdatedAtIsBrokenByModelKey() {
            Instant same = NOW.minusSeconds(100);
            assertThat(probe(List.of(
                            row("upstream-sol", ModelStatus.OK, null, same),
                            row("upstream-glm", ModelStatus.OK, null, same),
                            row("upstream-kimi", ModelStatus.OK, null, same))))
                    .isEqualTo("glm-5.3");
        }

        @Test
        void rowWhoseMappingWasRemovedIsSkipped() {
            List<ModelMapping> noCatchAll = mappings.subList(0, 3);
            assertThat(RecoveryDecisions.probeModel(
                            Platform.OPENAI,
                            CredentialKind.API,
                            noCatchAll,
                            List.of(
                                    row("upstream-gone", ModelStatus.ERROR, null, NOW.minusSeconds(900)),
                                    row("upstream-glm", ModelStatus.OK, null, NOW.minusSeconds(60))),
                            NOW))
                    .isEqualTo("glm-5.3");
        }

        @Test
        void withoutAProbeableRowTheFirstNonFallbackMappingIsUsed() {
            assertThat(probe(List.of())).isEqualTo("gpt-5.6-sol");
            assertThat(probe(List.of(row("upstream-glm", ModelStatus.PAUSED, null, NOW.minusSeconds(60)))))
                    .isEqualTo("gpt-5.6-sol");
            assertThat(probe(List.of(row("upstream-glm", ModelStatus.OK, NOW.plusSeconds(60), NOW.minusSeconds(60)))))
                    .isEqualTo("gpt-5.6-sol");
        }

        @Test
        void officialAccountProbesTheKeyVerbatim() {
            assertThat(RecoveryDecisions.probeModel(
                            Platform.CLAUDE,
                            CredentialKind.OFFICIAL,
                            List.of(),
                            List.of(row("claude-haiku-4-5", ModelStatus.ERROR, null, NOW.minusSeconds(60))),
                            NOW))
                    .isEqualTo("claude-haiku-4-5");
        }
    }

    @Nested
    class Decide {

        final List<ModelMapping> mappings = List.of(new ModelMapping("gpt-5.6-sol", "upstream-sol"));
        final CredentialHealth erroring =
                CredentialHealth.HEALTHY.withAccount(AccountState.HEALTHY.withStatus(AccountStatus.ERROR));

        RecoveryAction decide(
                RecoveryConfig config, CredentialHealth health, Instant previous, Instant now, Instant lastProbe) {
            return RecoveryDecisions.decide(
                    config, health, Platform.OPENAI, CredentialKind.API, mappings, previous, now, lastProbe);
        }

        @Test
        void scheduledReactivatesWhenATimeFallsInTheTick() {
            RecoveryConfig config = RecoveryConfig.scheduled(List.of(LocalTime.of(16, 0)), SHANGHAI);
            Instant tick = Instant.parse("2026-09-02T08:00:10Z"); // 16:00:10 in Shanghai
            RecoveryAction action = decide(config, erroring, tick.minusSeconds(30), tick, null);
            assertThat(action).isEqualTo(new RecoveryAction.Reactivate(LocalTime.of(16, 0)));
            assertThat(((RecoveryAction.Reactivate) action).scheduledTimeText()).isEqualTo("16:00");
        }

        @Test
        void healthcheckProbesWhenDue() {
            assertThat(decide(RecoveryConfig.healthcheck(30), erroring, NOW.minusSeconds(30), NOW, null))
                    .isEqualTo(new RecoveryAction.Probe("gpt-5.6-sol"));
            assertThat(decide(
                            RecoveryConfig.healthcheck(30), erroring, NOW.minusSeconds(30), NOW, NOW.minusSeconds(60)))
                    .isEqualTo(RecoveryAction.NOTHING);
        }

        /**
         * Issue 34: an account in error whose mappings name no model (none, or only a catch-all) is
         * still probed — with its platform's probe model, which the account then serves — for every
         * platform and kind, so no healthcheck rule can be one that never fires.
         */
        @ParameterizedTest(name = "{0}")
        @EnumSource(Platform.class)
        void everyAccountWithoutANamedModelIsProbedWithAModelItServes(Platform platform) {
            List<List<ModelMapping>> unnamed = List.of(
                    List.of(), List.of(new ModelMapping("*", "*")), List.of(new ModelMapping("*", "upstream-any")));
            for (CredentialKind kind : CredentialKind.values()) {
                if (!platform.accepts(kind)) {
                    continue;
                }
                for (List<ModelMapping> shape : unnamed) {
                    RecoveryAction action = RecoveryDecisions.decide(
                            RecoveryConfig.healthcheck(30),
                            erroring,
                            platform,
                            kind,
                            shape,
                            NOW.minusSeconds(30),
                            NOW,
                            null);
                    assertThat(action)
                            .as("%s %s with mappings %s", platform, kind, shape)
                            .isInstanceOf(RecoveryAction.Probe.class);
                    String model = ((RecoveryAction.Probe) action).model();
                    assertThat(model).isNotBlank();
                    assertThat(ModelKeys.upstreamModel(kind, shape, model))
                            .as("the account serves the probe model")
                            .isPresent();
                }
            }
        }

        @Test
        void anOpenaiRelayWithoutMappingsIsProbedWithItsCheapChatModel() {
            assertThat(RecoveryDecisions.decide(
                            RecoveryConfig.healthcheck(30),
                            erroring,
                            Platform.OPENAI,
                            CredentialKind.API,
                            List.of(),
                            NOW.minusSeconds(30),
                            NOW,
                            null))
                    .isEqualTo(new RecoveryAction.Probe("gpt-5-mini"));
        }

        @Test
        void offHealthyAndRevokedAccountsGetNothing() {
            CredentialHealth revoked =
                    CredentialHealth.HEALTHY.withAccount(AccountState.HEALTHY.withStatus(AccountStatus.REVOKED));
            RecoveryConfig healthcheck = RecoveryConfig.healthcheck(30);
            assertThat(decide(RecoveryConfig.OFF, erroring, NOW.minusSeconds(30), NOW, null))
                    .isEqualTo(RecoveryAction.NOTHING);
            assertThat(decide(healthcheck, CredentialHealth.HEALTHY, NOW.minusSeconds(30), NOW, null))
                    .isEqualTo(RecoveryAction.NOTHING);
            assertThat(decide(healthcheck, revoked, NOW.minusSeconds(30), NOW, null))
                    .isEqualTo(RecoveryAction.NOTHING);
        }

        @Test
        void aPausedAccountIsNeitherReactivatedNorProbedWhateverItsRule() {
            // issue 34: a pause lasted one tick under healthcheck (due at once, the pass lifted it)
            // and until the next configured time under scheduled; it lasts until a person acts
            CredentialHealth paused = new CredentialHealth(
                    AccountState.HEALTHY.withStatus(AccountStatus.PAUSED),
                    Map.of("upstream-sol", row("upstream-sol", ModelStatus.OK, null, NOW.minusSeconds(600))));
            RecoveryConfig scheduled = RecoveryConfig.scheduled(List.of(LocalTime.of(16, 0)), SHANGHAI);
            Instant tick = Instant.parse("2026-09-02T08:00:10Z"); // 16:00:10 in Shanghai
            assertThat(decide(scheduled, paused, tick.minusSeconds(30), tick, null))
                    .isEqualTo(RecoveryAction.NOTHING);
            assertThat(decide(RecoveryConfig.healthcheck(30), paused, NOW.minusSeconds(30), NOW, null))
                    .isEqualTo(RecoveryAction.NOTHING);
            assertThat(decide(RecoveryConfig.OFF, paused, NOW.minusSeconds(30), NOW, null))
                    .isEqualTo(RecoveryAction.NOTHING);
        }

        @Test
        void aBlacklistedAccountIsNeitherReactivatedNorProbed() {
            CredentialHealth blacklisted = CredentialHealth.HEALTHY.withAccount(
                    new AccountState(AccountStatus.ERROR, 4, null, null, "blacklisted", "blacklisted", null, 0, null));
            RecoveryConfig scheduled = RecoveryConfig.scheduled(List.of(LocalTime.of(16, 0)), SHANGHAI);
            Instant tick = Instant.parse("2026-09-02T08:00:10Z"); // 16:00:10 in Shanghai
            assertThat(decide(scheduled, blacklisted, tick.minusSeconds(30), tick, null))
                    .isEqualTo(RecoveryAction.NOTHING);
            assertThat(decide(RecoveryConfig.healthcheck(30), blacklisted, NOW.minusSeconds(30), NOW, null))
                    .isEqualTo(RecoveryAction.NOTHING);
        }
    }
}
