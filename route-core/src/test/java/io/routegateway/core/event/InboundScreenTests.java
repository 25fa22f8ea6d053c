package io.routegateway.core.event;

import java.time.Instant;
import java.util.UUID;

import io.routegateway.core.event.InboundScreen.Screened;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.text.StorableText;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InboundScreenTests {

    private static final Instant AT = Instant.parse("2026-07-01T12:00:00Z");
    private static final String NUL = "\u0000";
    private static final String LONE = "\uD800";

    @Test
    void aCleanUsageRecordPassesUnchanged() {
        RequestCompleted clean = usage("ak-1", "grp-1", "cred-1", "gpt-4o", "upstream-4o", null);
        assertThat(InboundScreen.usage(clean)).isEqualTo(new Screened.Accepted<>(clean, false));
    }

    @Test
    void aUsageRecordsModelNamesAreRepairedAndCut() {
        String huge = "m".repeat(100_000);
        Screened<RequestCompleted> screened =
                InboundScreen.usage(usage("ak-1", "grp-1", null, "mock" + NUL + "model", huge + LONE, "x"));
        assertThat(screened).isInstanceOf(Screened.Accepted.class);
        Screened.Accepted<RequestCompleted> accepted = (Screened.Accepted<RequestCompleted>) screened;
        assertThat(accepted.sanitised()).isTrue();
        assertThat(accepted.value().requestedModel()).isEqualTo("mock\uFFFDmodel");
        assertThat(accepted.value().modelKey())
                .hasSize(InboundScreen.MAX_MODEL_CHARS + 1)
                .endsWith(StorableText.ELLIPSIS);
        assertThat(accepted.value().accessKeyId()).isEqualTo("ak-1");
    }

    @Test
    void aUsageRecordWithAnUnstorableOrOverlongIdentifierIsRefused() {
        assertRefused(InboundScreen.usage(usage("ak" + NUL, "g", "c", "m", "m", null)), "access_key_id", "U+0000");
        assertRefused(InboundScreen.usage(usage("ak", "g" + LONE, "c", "m", "m", null)), "group_id", "surrogate");
        assertRefused(InboundScreen.usage(usage("ak", "g", NUL, "m", "m", null)), "credential_id", "U+0000");
        assertRefused(InboundScreen.usage(usage("ak", "g", "c", "m", "m", "code" + NUL)), "reason_code", "U+0000");
        assertRefused(
                InboundScreen.usage(usage("ak", "g", "c", "m", "m", null).withTeam("team" + NUL)), "team_id", "U+0000");
        assertRefused(
                InboundScreen.usage(usage("ak", "g", "c", "m", "m", null)
                        .withTeam("t".repeat(InboundScreen.MAX_IDENTIFIER_CHARS + 1))),
                "team_id",
                "longer than");
        assertRefused(
                InboundScreen.usage(
                        usage("a".repeat(InboundScreen.MAX_IDENTIFIER_CHARS + 1), "g", "c", "m", "m", null)),
                "access_key_id",
                "longer than");
    }

    @Test
    void theRefusalNeverQuotesTheValue() {
        Screened<RequestCompleted> screened = InboundScreen.usage(usage("secret-ish" + NUL, "g", "c", "m", "m", null));
        assertThat(((Screened.Refused<RequestCompleted>) screened).reason()).doesNotContain("secret-ish");
    }

    @Test
    void anOutcomesFreeTextIsRepairedAndItsIdentifiersKept() {
        UUID id = UUID.randomUUID();
        CredentialEvent failure = new CredentialEvent.TransientFailureRecorded(
                id,
                "cred-1",
                AT,
                "upstream-sol",
                "upstream_5xx",
                502,
                "bad" + NUL + "gateway",
                "{\"e\":\"" + LONE + "\"}");
        Screened<CredentialEvent> screened = InboundScreen.outcome(failure);
        assertThat(screened)
                .isEqualTo(new Screened.Accepted<CredentialEvent>(
                        new CredentialEvent.TransientFailureRecorded(
                                id,
                                "cred-1",
                                AT,
                                "upstream-sol",
                                "upstream_5xx",
                                502,
                                "bad\uFFFDgateway",
                                "{\"e\":\"\uFFFD\"}"),
                        true));
        CredentialEvent permanent =
                new CredentialEvent.PermanentFailureRecorded(id, "cred-1", AT, null, "permanent", 401, NUL, NUL);
        assertThat(((Screened.Accepted<CredentialEvent>) InboundScreen.outcome(permanent)).value())
                .isEqualTo(new CredentialEvent.PermanentFailureRecorded(
                        id, "cred-1", AT, null, "permanent", 401, "\uFFFD", "\uFFFD"));
        CredentialEvent quota =
                CredentialEvent.QuotaExhaustionRecorded.withoutReset(id, "cred-1", AT, null, 429, NUL, null);
        assertThat(((Screened.Accepted<CredentialEvent>) InboundScreen.outcome(quota)).value())
                .isEqualTo(CredentialEvent.QuotaExhaustionRecorded.withoutReset(
                        id, "cred-1", AT, null, 429, "\uFFFD", null));
    }

    @Test
    void aQuotaLimitWindowIsMadeStorableAndCutToAShortLabel() {
        UUID id = UUID.randomUUID();
        java.time.Instant reset = AT.plusSeconds(3600);
        CredentialEvent hostile = new CredentialEvent.QuotaExhaustionRecorded(
                id, "cred-1", AT, null, 429, "limit", null, reset, "5h\u0000" + "x".repeat(5000));
        CredentialEvent.QuotaExhaustionRecorded screened = (CredentialEvent.QuotaExhaustionRecorded)
                ((Screened.Accepted<CredentialEvent>) InboundScreen.outcome(hostile)).value();
        assertThat(screened.limitWindow())
                .startsWith("5h\uFFFD")
                .hasSize(InboundScreen.MAX_LIMIT_WINDOW + 1)
                .endsWith("…");
        assertThat(screened.resetsAt()).isEqualTo(reset);
        CredentialEvent clean =
                new CredentialEvent.QuotaExhaustionRecorded(id, "cred-1", AT, null, 429, "limit", null, reset, "5h");
        assertThat(InboundScreen.outcome(clean)).isEqualTo(new Screened.Accepted<>(clean, false));
    }

    @Test
    void aCleanOutcomePassesUnchanged() {
        CredentialEvent success = new CredentialEvent.AttemptSucceeded(UUID.randomUUID(), "cred-1", AT, "m");
        assertThat(InboundScreen.outcome(success)).isEqualTo(new Screened.Accepted<>(success, false));
    }

    @Test
    void anOutcomeWithAnUnstorableIdentifierIsRefused() {
        UUID id = UUID.randomUUID();
        assertRefused(
                InboundScreen.outcome(new CredentialEvent.CredentialPaused(id, "cred" + NUL, AT)),
                "credential_id",
                "U+0000");
        assertRefused(
                InboundScreen.outcome(new CredentialEvent.ModelPaused(id, "cred-1", AT, "m" + LONE)),
                "model_key",
                "surrogate");
        assertRefused(
                InboundScreen.outcome(new CredentialEvent.AttemptSucceeded(id, "cred-1", AT, "m".repeat(257))),
                "model_key",
                "longer than");
        assertRefused(
                InboundScreen.outcome(new CredentialEvent.TransientFailureRecorded(
                        id, "cred-1", AT, "m", "kind" + NUL, 500, "fine", null)),
                "kind",
                "U+0000");
        assertRefused(
                InboundScreen.outcome(
                        new CredentialEvent.ScheduledReactivationTriggered(id, "cred-1", AT, "03:00" + NUL)),
                "scheduled_time",
                "U+0000");
    }

    @Test
    void anOutcomeNamingTheBlacklistMarkerAsItsKindIsRefused() {
        // it would take an erroring account out of automatic recovery for good
        UUID id = UUID.randomUUID();
        assertRefused(
                InboundScreen.outcome(new CredentialEvent.TransientFailureRecorded(
                        id, "cred-1", AT, null, "blacklisted", 500, "forged", null)),
                "kind",
                "blacklist marker");
        assertRefused(
                InboundScreen.outcome(new CredentialEvent.PermanentFailureRecorded(
                        id, "cred-1", AT, null, " Blacklisted", 401, "forged", null)),
                "kind",
                "blacklist marker");
    }

    private static void assertRefused(Screened<?> screened, String field, String what) {
        assertThat(screened).isInstanceOf(Screened.Refused.class);
        assertThat(((Screened.Refused<?>) screened).reason())
                .startsWith(field + " ")
                .contains(what);
    }

    private static RequestCompleted usage(
            String accessKey, String group, String credential, String requested, String modelKey, String reason) {
        return new RequestCompleted(
                UUID.randomUUID(),
                AT,
                Protocol.OPENAI_CHAT,
                accessKey,
                group,
                credential,
                requested,
                modelKey,
                1,
                200,
                reason,
                10,
                null,
                null,
                null,
                false,
                false,
                true,
                false);
    }
}
