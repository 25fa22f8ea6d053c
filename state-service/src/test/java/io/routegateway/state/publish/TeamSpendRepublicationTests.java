package io.routegateway.state.publish;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.state.support.SignedRecords;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.OutcomeFixtures.inTransaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Start-up republishes every team at its current version and the spend of every key and team with a budget. */
@QuarkusTest
class TeamSpendRepublicationTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Inject
    StartupRepublisher republisher;

    @Inject
    OutboxRelay relay;

    @Test
    void startUpRepublishesTeamsAndTheSpendOfBudgets() {
        String team = admin().body(Map.of(
                        "name", "republished", "weight", 9, "limits", Map.of("max_budget", 3, "budget_duration", "7d")))
                .post("/admin/v1/teams")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        admin().body(Map.of("name", "republished 2"))
                .patch("/admin/v1/teams/" + team)
                .then()
                .statusCode(200);
        String key = createKey(Map.of("name", "budgeted", "team_id", team, "limits", Map.of("max_budget", 1)))[0];
        String unbudgeted = createKey(Map.of("name", "free", "limits", Map.of("rpm_limit", 5)))[0];
        await().atMost(PATIENCE)
                .until(() -> TestKafka.readKey(Topics.TEAMS, team).size() == 2
                        && TestKafka.readKey(Topics.SPEND, "team:" + team).size() == 1
                        && TestKafka.readKey(Topics.SPEND, "key:" + key).size() == 1);

        inTransaction(() -> republisher.queueEverything());
        relay.trigger();

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> teams = TestKafka.readKey(Topics.TEAMS, team);
            assertThat(teams).hasSize(3);
            TeamSnapshot again = Json.MAPPER.readValue(teams.get(2).value(), TeamSnapshot.class);
            assertThat(again.version()).isEqualTo(2);
            assertThat(again.name()).isEqualTo("republished 2");
            assertThat(again.weight()).isEqualTo(9);
            List<ConsumerRecord<String, String>> teamSpend = TestKafka.readKey(Topics.SPEND, "team:" + team);
            assertThat(teamSpend).hasSize(2);
            SpendSnapshot first = Json.MAPPER.readValue(teamSpend.get(0).value(), SpendSnapshot.class);
            SpendSnapshot second = Json.MAPPER.readValue(teamSpend.get(1).value(), SpendSnapshot.class);
            assertThat(second.version()).isGreaterThan(first.version());
            assertThat(second.windowStart()).isEqualTo(first.windowStart());
            assertThat(TestKafka.readKey(Topics.SPEND, "key:" + key)).hasSize(2);
            SignedRecords.assertSigned(teams);
            SignedRecords.assertSigned(teamSpend);
        });
        assertThat(TestKafka.readKey(Topics.SPEND, "key:" + unbudgeted)).isEmpty();
    }
}
