package io.routegateway.state.identity;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.state.outcome.ApplyResult;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.support.OutcomeFixtures;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.OutcomeFixtures.PRIMARY_CONFIG;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recovery's own decisions, applied by state-service, leave audit entries attributed to {@code
 * service:recovery}, written with the change: one per change, none for a redelivery or an event
 * that changes nothing, none for traffic (a gateway's failure is the timeline's).
 */
@QuarkusTest
class ServiceAuditTests {

    @Inject
    CredentialEventService events;

    @Inject
    SecretBox secretBox;

    private static List<Map<String, Object>> entries(String credential) {
        return admin().get("/admin/v1/audit?resource_type=credentials&resource_id=" + credential)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    private ApplyResult apply(CredentialEvent event) {
        return OutcomeFixtures.await(() -> events.apply(event));
    }

    @Test
    void aScheduledReactivationIsRecordedAsRecoverysWriteOnce() {
        String credential = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-service-audit");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        // traffic: a gateway's failure cools the model, which is no audited write
        assertThat(apply(OutcomeFixtures.failure(credential, now, "upstream-sol"))
                        .kind())
                .isEqualTo(ApplyResult.Kind.CHANGED);
        assertThat(entries(credential)).isEmpty();

        CredentialEvent.ScheduledReactivationTriggered reactivation =
                new CredentialEvent.ScheduledReactivationTriggered(
                        UUID.randomUUID(), credential, now.plusSeconds(1), "09:00");
        assertThat(apply(reactivation).kind()).isEqualTo(ApplyResult.Kind.CHANGED);
        // delivered again: nothing more
        assertThat(apply(reactivation).kind()).isEqualTo(ApplyResult.Kind.DUPLICATE);
        // a second reactivation finds nothing to change: no entry
        assertThat(apply(new CredentialEvent.ScheduledReactivationTriggered(
                                UUID.randomUUID(), credential, now.plusSeconds(2), "09:00"))
                        .kind())
                .isEqualTo(ApplyResult.Kind.UNCHANGED);

        List<Map<String, Object>> log = entries(credential);
        assertThat(log).hasSize(1);
        Map<String, Object> entry = log.get(0);
        assertThat(entry.get("subject")).isEqualTo("service:recovery");
        assertThat(entry.get("via")).isEqualTo("service");
        assertThat(entry.get("method")).isEqualTo("SERVICE");
        assertThat(entry.get("path")).isEqualTo("recovery/scheduled-reactivation");
        assertThat(entry.get("token_id")).isNull();
        assertThat(entry.get("request_id")).isEqualTo(reactivation.eventId().toString());
        assertThat(((Map<?, ?>) entry.get("before")).get("model:upstream-sol")).isNotEqualTo("ok");
        assertThat(((Map<?, ?>) entry.get("after")).get("model:upstream-sol")).isIn("ok", "absent");
        // filtered by the service's subject
        assertThat(admin().get("/admin/v1/audit?subject=service:recovery&resource_id=" + credential)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("items"))
                .hasSize(1);
    }

    @Test
    void anAutomaticHealthcheckThatRecoversIsRecordedAndAPersonsTestIsNotTheServices() {
        String credential = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-service-audit-2");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        apply(OutcomeFixtures.failure(credential, now, "upstream-glm"));
        CredentialEvent.ModelTestSucceeded probe = new CredentialEvent.ModelTestSucceeded(
                UUID.randomUUID(), credential, now.plusSeconds(1), "upstream-glm", false, true);
        assertThat(apply(probe).kind()).isEqualTo(ApplyResult.Kind.CHANGED);
        List<Map<String, Object>> log = entries(credential);
        assertThat(log).hasSize(1);
        assertThat(log.get(0).get("subject")).isEqualTo("service:recovery");
        assertThat(log.get(0).get("path")).isEqualTo("recovery/healthcheck");
        assertThat(log.get(0).get("request_id")).isEqualTo(probe.eventId().toString());

        // a test a person ran (not automatic) is that person's admin write, not the service's
        apply(OutcomeFixtures.failure(credential, now.plusSeconds(2), "upstream-glm"));
        apply(new CredentialEvent.ModelTestSucceeded(
                UUID.randomUUID(), credential, now.plusSeconds(3), "upstream-glm", true, false));
        assertThat(entries(credential)).hasSize(1);
    }
}
