package io.routegateway.core.event;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The named factories of the wide records fill exactly what their name promises. */
class WideRecordFactoriesTests {

    private static final UUID ID = UUID.fromString("0b7f3c1e-5a2d-4c1b-9e8f-1a2b3c4d5e6f");
    private static final Instant AT = Instant.parse("2026-09-02T10:00:00Z");

    @Test
    void aRefusalNamesTheKeyStatusAndCodeAndNothingRouted() {
        RequestCompleted refused =
                RequestCompleted.refused(ID, AT, Protocol.GEMINI, "key-1", 403, "access_key_disabled");

        assertThat(refused)
                .isEqualTo(new RequestCompleted(
                        ID,
                        AT,
                        Protocol.GEMINI,
                        "key-1",
                        null,
                        null,
                        null,
                        null,
                        0,
                        403,
                        "access_key_disabled",
                        0,
                        null,
                        null,
                        null,
                        false,
                        false,
                        false,
                        false));
    }

    @Test
    void aSettledRequestIsNeverAProbe() {
        RequestCompleted settled = RequestCompleted.settled(
                ID,
                AT,
                Protocol.OPENAI_CHAT,
                "key-1",
                "g1",
                "c1",
                "gpt",
                "upstream-gpt",
                2,
                200,
                null,
                120L,
                40L,
                10L,
                20L,
                true,
                true,
                true);

        assertThat(settled)
                .isEqualTo(new RequestCompleted(
                        ID,
                        AT,
                        Protocol.OPENAI_CHAT,
                        "key-1",
                        "g1",
                        "c1",
                        "gpt",
                        "upstream-gpt",
                        2,
                        200,
                        null,
                        120L,
                        40L,
                        10L,
                        20L,
                        true,
                        true,
                        true,
                        false));
    }

    @Test
    void aProbeIsOneAttemptOnOneCredentialWithoutKeyOrGroup() {
        RequestCompleted probe = RequestCompleted.probe(
                ID, AT, Protocol.ANTHROPIC_MESSAGES, "c1", "claude", "claude-up", 0, 900L, false);

        assertThat(probe)
                .isEqualTo(new RequestCompleted(
                        ID,
                        AT,
                        Protocol.ANTHROPIC_MESSAGES,
                        null,
                        null,
                        "c1",
                        "claude",
                        "claude-up",
                        1,
                        0,
                        null,
                        900L,
                        null,
                        null,
                        null,
                        false,
                        false,
                        false,
                        true));
    }

    @Test
    void otherModelNamesKeepEverythingElse() {
        RequestCompleted settled = RequestCompleted.settled(
                ID,
                AT,
                Protocol.OPENAI_CHAT,
                "key-1",
                "g1",
                "c1",
                "gpt",
                "upstream-gpt",
                2,
                502,
                "x",
                120L,
                null,
                null,
                null,
                false,
                false,
                false);

        RequestCompleted renamed = settled.withModelNames("a", "b");

        assertThat(renamed)
                .usingRecursiveComparison()
                .ignoringFields("requestedModel", "modelKey")
                .isEqualTo(settled);
        assertThat(renamed.requestedModel()).isEqualTo("a");
        assertThat(renamed.modelKey()).isEqualTo("b");
    }

    @Test
    void aSnapshotsHealthIsItsAccountAndItsRowsByKey() {
        ModelState paused = ModelState.created("m1", ModelStatus.PAUSED, AT);
        ModelState errored = ModelState.created("m2", ModelStatus.ERROR, AT);
        AccountState warning = AccountState.HEALTHY.withStatus(AccountStatus.WARNING);

        CredentialHealth health = snapshot(warning, List.of(paused, errored)).health();

        assertThat(health.account()).isEqualTo(warning);
        assertThat(health.models()).isEqualTo(Map.of("m1", paused, "m2", errored));
    }

    @Test
    void withHealthReplacesOnlyTheAccountAndTheRows() {
        CredentialSnapshot held = snapshot(AccountState.HEALTHY, List.of());
        ModelState errored = ModelState.created("m2", ModelStatus.ERROR, AT);
        CredentialHealth next =
                new CredentialHealth(AccountState.HEALTHY.withStatus(AccountStatus.ERROR), Map.of("m2", errored));

        CredentialSnapshot changed = held.withHealth(next);

        assertThat(changed)
                .usingRecursiveComparison()
                .ignoringFields("account", "models")
                .isEqualTo(held);
        assertThat(changed.health()).isEqualTo(next);
        assertThat(changed.version()).isEqualTo(held.version());
    }

    private static CredentialSnapshot snapshot(AccountState account, List<ModelState> rows) {
        return new CredentialSnapshot(
                "c1",
                7,
                "name",
                Platform.OPENAI,
                CredentialKind.API,
                "https://relay.example/c1",
                "enc",
                List.of(new ModelMapping("gpt", "upstream-gpt")),
                FailurePolicy.DEFAULTS,
                true,
                false,
                true,
                3,
                WeightMode.MANUAL,
                40,
                100L,
                List.of("g1"),
                account,
                rows,
                AT,
                null,
                null,
                null);
    }
}
