package io.routegateway.state.rest;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.routegateway.state.rest.AdminApiFixtures.admin;
import static io.routegateway.state.rest.AdminApiFixtures.error;
import static org.assertj.core.api.Assertions.assertThat;
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

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "negative threshold|{\"blacklist_threshold\":-1}|validation.blacklist_threshold",
                "ttl 0|{\"affinity_ttl_seconds\":0}|validation.affinity_ttl_seconds",
                "capacity 0|{\"affinity_capacity\":0}|validation.affinity_capacity",
                "negative price|{\"model_prices\":{\"m\":{\"input_per_million\":-1,\"output_per_million\":1}}}|validation.model_prices",
                "unknown key|{\"colour\":\"blue\"}|validation.unknown_setting"
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
