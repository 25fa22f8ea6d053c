package io.routegateway.state.settings;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
class SettingsTests {

    @AfterEach
    void backToDefaults() {
        admin().body(Map.of(
                        "blacklist_threshold",
                        0,
                        "affinity_ttl_seconds",
                        3600,
                        "affinity_capacity",
                        10000,
                        "model_prices",
                        Map.of()))
                .patch("/admin/v1/settings")
                .then()
                .statusCode(200);
    }

    @Test
    void theDefaultsAreBlacklistOffAndTenThousandAffinityEntries() {
        admin().get("/admin/v1/settings")
                .then()
                .statusCode(200)
                .body("blacklist_threshold", equalTo(0))
                .body("affinity_capacity", equalTo(10000))
                .body("affinity_ttl_seconds", equalTo(3600));
    }

    @Test
    void anUpdateChangesOnlyWhatIsSent() {
        admin().body(Map.of(
                        "blacklist_threshold",
                        5,
                        "model_prices",
                        Map.of("upstream-sol", Map.of("input_per_million", 1.25, "output_per_million", 10))))
                .patch("/admin/v1/settings")
                .then()
                .statusCode(200)
                .body("blacklist_threshold", equalTo(5))
                .body("affinity_capacity", equalTo(10000))
                .body("model_prices.upstream-sol.input_per_million", equalTo(1.25f));
        admin().get("/admin/v1/settings").then().body("blacklist_threshold", equalTo(5));
    }

    @Test
    void anUpdatePublishesTheNewSettingsWithAHigherVersionOnTheSettingsTopic() {
        admin().body(Map.of("affinity_capacity", 4321))
                .patch("/admin/v1/settings")
                .then()
                .statusCode(200);
        RuntimeSettingsSnapshot before = await().atMost(Duration.ofSeconds(60))
                .until(SettingsTests::lastPublished, last -> last != null && last.affinityCapacity() == 4321);

        admin().body(Map.of("blacklist_threshold", 2, "affinity_ttl_seconds", 120, "affinity_capacity", 50))
                .patch("/admin/v1/settings")
                .then()
                .statusCode(200);

        RuntimeSettingsSnapshot after = await().atMost(Duration.ofSeconds(60))
                .until(SettingsTests::lastPublished, last -> last != null && last.affinityCapacity() == 50);
        assertThat(after.version()).isGreaterThan(before.version());
        assertThat(after.blacklistThreshold()).isEqualTo(2);
        assertThat(after.affinityTtlSeconds()).isEqualTo(120);
        assertThat(after.publishedAt()).isNotNull();
    }

    @Test
    void thePublishedSettingsCarryTheModelPricesTheGatewaysPriceBudgetsWith() {
        admin().body(Map.of(
                        "model_prices",
                        Map.of("priced-model", Map.of("input_per_million", 2, "output_per_million", 4))))
                .patch("/admin/v1/settings")
                .then()
                .statusCode(200);

        RuntimeSettingsSnapshot published = await().atMost(Duration.ofSeconds(60))
                .until(
                        SettingsTests::lastPublished,
                        last -> last != null && last.prices().prices().containsKey("priced-model"));

        assertThat(published.prices().costMicros("priced-model", null, 1000L, 1000L))
                .isEqualTo(6000L);
    }

    private static RuntimeSettingsSnapshot lastPublished() throws Exception {
        List<ConsumerRecord<String, String>> records = TestKafka.readKey(Topics.SETTINGS, RuntimeSettingsSnapshot.KEY);
        if (records.isEmpty()) {
            return null;
        }
        return Json.MAPPER.readValue(records.get(records.size() - 1).value(), RuntimeSettingsSnapshot.class);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "negative threshold|{\"blacklist_threshold\":-1}|validation.blacklist_threshold",
                "ttl 0|{\"affinity_ttl_seconds\":0}|validation.affinity_ttl_seconds",
                "capacity 0|{\"affinity_capacity\":0}|validation.affinity_capacity",
                "negative price|{\"model_prices\":{\"m\":{\"input_per_million\":-1,\"output_per_million\":1}}}|validation.model_prices",
                "misspelt price|{\"model_prices\":{\"m\":{\"input_per_million\":1,\"output_per_million\":1,\"cache_read_per_milion\":1}}}|validation.model_prices",
                "negative cache price|{\"model_prices\":{\"m\":{\"input_per_million\":1,\"output_per_million\":1,\"cache_write_1h_per_million\":-6}}}|validation.model_prices",
                "unknown key|{\"colour\":\"blue\"}|validation.unknown_field"
            })
    void aBadValueRefusesTheWholeUpdate(String label, String body, String code) {
        String before = admin().get("/admin/v1/settings").then().extract().asString();
        String withGoodField = body.replaceFirst("\\{", "{\"affinity_capacity\":77,");
        error(admin().body(withGoodField).patch("/admin/v1/settings").then(), 400, code);
        String after = admin().get("/admin/v1/settings").then().extract().asString();
        assertThat(JsonPath.from(after).getMap(""))
                .isEqualTo(JsonPath.from(before).getMap(""));
    }
}
