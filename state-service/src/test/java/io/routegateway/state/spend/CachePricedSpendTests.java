package io.routegateway.state.spend;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.usage.TokenUsage;
import io.routegateway.state.repository.RequestLogEntity;
import io.routegateway.state.support.MovableClock;
import io.routegateway.state.support.MovableClockProfile;
import io.routegateway.state.support.TestKafka;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.Records.logs;
import static io.routegateway.state.support.Records.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A cached-token answer's spend is priced per cache price: usage records read from an Anthropic
 * answer (cache read, 5-minute and 1-hour writes) and an OpenAI one (cached and reasoning tokens),
 * sent through the real {@code route.usage} topic, end in {@code request_logs} rows and key, team,
 * model and credential spend whose cost is each kind at its own price, to the micro-USD. Prices are
 * set through the admin settings API.
 */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
class CachePricedSpendTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    /** An Anthropic Messages answer: 100 uncached, 600 read, 200 written for 5 minutes, 100 for 1 hour. */
    private static final String ANTHROPIC_ANSWER = "{\"id\":\"msg_1\",\"type\":\"message\",\"content\":[],"
            + "\"usage\":{\"input_tokens\":100,\"cache_read_input_tokens\":600,\"cache_creation_input_tokens\":300,"
            + "\"cache_creation\":{\"ephemeral_5m_input_tokens\":200,\"ephemeral_1h_input_tokens\":100},"
            + "\"output_tokens\":50}}";

    /** An OpenAI Chat answer: 2000 prompt tokens of which 1024 cached; 500 output of which 300 reasoning. */
    private static final String OPENAI_ANSWER = "{\"id\":\"c\",\"object\":\"chat.completion\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":2000,\"completion_tokens\":500,\"total_tokens\":2500,"
            + "\"prompt_tokens_details\":{\"cached_tokens\":1024},"
            + "\"completion_tokens_details\":{\"reasoning_tokens\":300}}}";

    @Inject
    MovableClock clock;

    /** The record a gateway settles for an answer: totals and details read by route-core's one reader. */
    private static RequestCompleted settled(
            String key, String team, String credential, Instant at, String model, String answer) {
        TokenUsage tokens = TokenUsage.fromBody(answer);
        return RequestCompleted.settled(
                        UUID.randomUUID(),
                        at,
                        Protocol.ANTHROPIC_MESSAGES,
                        key,
                        "grp-cache",
                        credential,
                        model,
                        model,
                        1,
                        200,
                        null,
                        120,
                        40L,
                        tokens.inputTokens(),
                        tokens.outputTokens(),
                        false,
                        false,
                        true)
                .withTeam(team)
                .withTokenDetails(
                        tokens.cacheReadTokens(),
                        tokens.cacheWrite5mTokens(),
                        tokens.cacheWrite1hTokens(),
                        tokens.reasoningTokens());
    }

    private static JsonPath exact(String path) {
        return JsonPath.from(admin().get(path).then().statusCode(200).extract().asString())
                .using(JsonPathConfig.jsonPathConfig().numberReturnType(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    @Test
    void theSpendOfCachedTokenAnswersIsPricedPerCachePrice() {
        String sonnet = "sonnet-" + UUID.randomUUID();
        String o4 = "o4-" + UUID.randomUUID();
        // Anthropic's list prices for Sonnet; o4 has no write prices (they default to its input price)
        JsonPath written = JsonPath.from(admin().body(Map.of(
                                "model_prices",
                                Map.of(
                                        sonnet,
                                        Map.of(
                                                "input_per_million", 3,
                                                "output_per_million", 15,
                                                "cache_read_per_million", 0.3,
                                                "cache_write_5m_per_million", 3.75,
                                                "cache_write_1h_per_million", 6),
                                        o4,
                                        Map.of(
                                                "input_per_million", 1.1,
                                                "output_per_million", 4.4,
                                                "cache_read_per_million", 0.275,
                                                "reasoning_per_million", 8))))
                        .patch("/admin/v1/settings")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .using(JsonPathConfig.jsonPathConfig().numberReturnType(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        // only what was set comes back
        assertThat(written.getMap("model_prices.'" + o4 + "'"))
                .containsOnlyKeys(
                        "input_per_million", "output_per_million", "cache_read_per_million", "reasoning_per_million");
        assertThat(written.getString("model_prices.'" + sonnet + "'.cache_write_1h_per_million"))
                .isEqualTo("6");

        String team = admin().body(Map.of("name", "cache-spenders", "limits", Map.of("max_budget", 100)))
                .post("/admin/v1/teams")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        String key = createKey(Map.of("name", "cached", "team_id", team))[0];
        String anthropicCredential = "cred-anthropic-" + UUID.randomUUID();
        String openAiCredential = "cred-openai-" + UUID.randomUUID();
        Instant at = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        RequestCompleted anthropic = settled(key, team, anthropicCredential, at, sonnet, ANTHROPIC_ANSWER);
        RequestCompleted openAi = settled(key, team, openAiCredential, at.plusMillis(1), o4, OPENAI_ANSWER);
        TestKafka.send(Topics.USAGE, null, Json.write(List.of(anthropic, openAi)));

        await().atMost(PATIENCE).until(() -> logs(key).size() == 2);
        // 100 × 3 + 600 × 0.3 + 200 × 3.75 + 100 × 6 + 50 × 15 = 300 + 180 + 750 + 600 + 750
        RequestLogEntity anthropicRow = row(logs(key), anthropic.requestId());
        assertThat(anthropicRow.costMicros).isEqualTo(2580L);
        assertThat(anthropicRow.inputTokens).isEqualTo(1000L);
        assertThat(anthropicRow.cacheReadTokens).isEqualTo(600L);
        assertThat(anthropicRow.cacheWrite5mTokens).isEqualTo(200L);
        assertThat(anthropicRow.cacheWrite1hTokens).isEqualTo(100L);
        assertThat(anthropicRow.reasoningTokens).isNull();
        // 976 × 1.1 + 1024 × 0.275 + 200 × 4.4 + 300 × 8 = 1073.6 + 281.6 + 880 + 2400 = 4635.2
        RequestLogEntity openAiRow = row(logs(key), openAi.requestId());
        assertThat(openAiRow.costMicros).isEqualTo(4635L);
        assertThat(openAiRow.cacheReadTokens).isEqualTo(1024L);
        assertThat(openAiRow.reasoningTokens).isEqualTo(300L);
        assertThat(openAiRow.cacheWrite5mTokens).isNull();

        for (String subject : List.of("/admin/v1/teams/" + team, "/admin/v1/access-keys/" + key)) {
            JsonPath spend = exact(subject + "/spend");
            assertThat(spend.getString("spend_usd")).as(subject).isEqualTo("0.007215");
            assertThat(spend.getLong("requests")).isEqualTo(2);
            assertThat(spend.getLong("input_tokens")).isEqualTo(3000);
            assertThat(spend.getLong("output_tokens")).isEqualTo(550);
            assertThat(spend.getLong("cache_read_tokens")).isEqualTo(1624);
            assertThat(spend.getLong("cache_write_tokens")).isEqualTo(300);
            assertThat(spend.getLong("cache_write_5m_tokens")).isEqualTo(200);
            assertThat(spend.getLong("cache_write_1h_tokens")).isEqualTo(100);
            assertThat(spend.getLong("reasoning_tokens")).isEqualTo(300);
            List<Map<String, Object>> byModel = spend.getList("by_model");
            assertThat(byModel).hasSize(2);
            assertThat(byModel.get(0)).containsEntry("model", o4);
            assertThat(byModel.get(0).get("spend_usd").toString()).isEqualTo("0.004635");
            assertThat(byModel.get(1).get("spend_usd").toString()).isEqualTo("0.00258");
        }

        // per credential, and each request's details as listed
        JsonPath byCredential = exact("/admin/v1/usage?group_by=credential&access_key_id=" + key);
        assertThat(byCredential.getLong("rows.find { it.key == '" + anthropicCredential + "' }.cost_micros"))
                .isEqualTo(2580);
        assertThat(byCredential.getLong("rows.find { it.key == '" + openAiCredential + "' }.cost_micros"))
                .isEqualTo(4635);
        JsonPath requests = exact("/admin/v1/requests?access_key_id=" + key);
        String anthropicItem = "items.find { it.request_id == '" + anthropic.requestId() + "' }";
        assertThat(requests.getLong(anthropicItem + ".cache_read_tokens")).isEqualTo(600);
        assertThat(requests.getLong(anthropicItem + ".cache_write_5m_tokens")).isEqualTo(200);
        assertThat(requests.getLong(anthropicItem + ".cache_write_1h_tokens")).isEqualTo(100);
        assertThat(requests.getLong(anthropicItem + ".cost_micros")).isEqualTo(2580);
        String openAiItem = "items.find { it.request_id == '" + openAi.requestId() + "' }";
        assertThat(requests.getLong(openAiItem + ".reasoning_tokens")).isEqualTo(300);
    }
}
