package io.routegateway.state.poolhealth;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.support.AdminApiFixtures;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.await;
import static io.routegateway.state.support.OutcomeFixtures.failure;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/** The Health tab: status tag, the two badges, the unavailable-models panel, the reminders. */
@QuarkusTest
class PoolHealthTests {

    @Inject
    CredentialEventService events;

    static String item(String id) {
        return "items.find { it.id == '" + id + "' }";
    }

    @Test
    void aModelScopedFailureShowsTheCountAndTheModelBadgeButNoAccountCooldown() {
        String id = createCredential(unique("cred"), "sk-health-000000", AdminApiFixtures.COOLING_FOR_AN_HOUR);
        await(() -> events.apply(failure(id, Instant.now(), "upstream-sol")));
        admin().get("/admin/v1/health")
                .then()
                .statusCode(200)
                .body(item(id) + ".status", equalTo("ok"))
                .body(item(id) + ".status_tag", equalTo("错误 1 次"))
                .body(item(id) + ".cooldown_badge", nullValue())
                .body(item(id) + ".unavailable_models_badge", equalTo("模型 1 不可用"))
                .body(item(id) + ".unavailable_models[0].model_key", equalTo("upstream-sol"))
                .body(item(id) + ".unavailable_models[0].display_name", equalTo("upstream-sol (gpt-5.6-sol)"))
                .body(item(id) + ".unavailable_models[0].reason", equalTo("cooling"))
                .body(item(id) + ".unavailable_models[0].last_failure_message", equalTo("upstream returned 429"))
                .body("failing", greaterThanOrEqualTo(1))
                .body("with_unavailable_models", greaterThanOrEqualTo(1));
    }

    @Test
    void anAccountScopedFailureShowsTheCooldownBadge() {
        String id = createCredential(unique("cred"), "sk-health-2-000000", AdminApiFixtures.COOLING_FOR_AN_HOUR);
        await(() -> events.apply(new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(), id, Instant.now(), null, "transport", null, "connect timed out after 20s", null)));
        admin().get("/admin/v1/health")
                .then()
                .body(item(id) + ".cooldown_badge", matchesPattern("冷却 \\d+ 秒"))
                .body(item(id) + ".cooldown_remaining_seconds", greaterThanOrEqualTo(3500))
                .body(item(id) + ".unavailable_models", empty());
    }

    @Test
    void terminalStatusesKeepTheirLabelAndRemindersAppear() {
        String id = createCredential(unique("cred"), "sk-health-3-000000", Map.of());
        await(
                () -> events.apply(
                        CredentialEvent.QuotaExhaustionRecorded.withoutReset(
                                UUID.randomUUID(),
                                id,
                                Instant.now(),
                                "upstream-sol",
                                200,
                                "Budget pool quota has been exhausted. Please ask an administrator to increase the limit.",
                                "{\"error\":{\"message\":\"Budget pool quota has been exhausted.\",\"code\":\"bad_response_status_code\"}}")));
        admin().get("/admin/v1/health")
                .then()
                .body(item(id) + ".status", equalTo("error"))
                .body(item(id) + ".status_tag", equalTo("error"))
                .body(item(id) + ".reminders.code", contains("budget_pool"))
                .body(item(id) + ".reminders[0].text", matchesPattern("友情提醒：当前中转站公共池额度耗尽.*"))
                .body("by_status.error", greaterThanOrEqualTo(1));
    }

    @Test
    void archivedCredentialsAreLeftOut() {
        String id = createCredential(unique("cred"), "sk-health-4-000000", Map.of());
        admin().delete("/admin/v1/credentials/" + id).then().statusCode(204);
        admin().get("/admin/v1/health").then().body("items.id", not(hasItem(id)));
    }
}
