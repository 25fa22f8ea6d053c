package io.routegateway.state.spend;

import java.math.BigDecimal;
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
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.state.repository.RequestLogEntity;
import io.routegateway.state.repository.RuntimeSettingEntity;
import io.routegateway.state.support.MovableClock;
import io.routegateway.state.support.MovableClockProfile;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.SignedRecords;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.Records.logs;
import static io.routegateway.state.support.Records.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spend: usage records counted once per stored row into their key's and team's windows, the spend
 * answers, {@code spend.v1} on {@code route.spend}, the window's reset, and the route check's budget
 * verdict. The clock is movable ({@link MovableClockProfile}); windows are in UTC.
 */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
class SpendTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Inject
    MovableClock clock;

    @AfterEach
    void realTime() {
        clock.reset();
    }

    /** A model priced 2.5 USD per million input tokens and 10 per million output tokens. */
    private static String pricedModel() {
        String model = "spend-" + UUID.randomUUID();
        OutcomeFixtures.inTransaction(() -> RuntimeSettingEntity.<RuntimeSettingEntity>findById("model_prices")
                .invoke(setting ->
                        setting.value = "{\"" + model + "\":{\"input_per_million\":2.5,\"output_per_million\":10}}"));
        return model;
    }

    private static String createTeam(Map<String, Object> fields) {
        return admin().body(fields)
                .post("/admin/v1/teams")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    private static RequestCompleted used(String key, String team, Instant at, String model, long in, long out) {
        return RequestCompleted.settled(
                        UUID.randomUUID(),
                        at,
                        Protocol.OPENAI_CHAT,
                        key,
                        "grp-spend",
                        "cred-spend",
                        model,
                        model,
                        1,
                        200,
                        null,
                        120,
                        40L,
                        in,
                        out,
                        false,
                        false,
                        true)
                .withTeam(team);
    }

    private static void send(Object records) {
        TestKafka.send(Topics.USAGE, null, Json.write(records));
    }

    /** The answer with its decimals read exactly (USD amounts are compared as text). */
    private static JsonPath spend(String path) {
        return exact(admin().get(path).then().statusCode(200).extract().asString());
    }

    private static JsonPath exact(String json) {
        return JsonPath.from(json)
                .using(JsonPathConfig.jsonPathConfig().numberReturnType(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    @Test
    void everyStoredRequestCountsOnceForItsKeyAndTeamAndBudgetedSubjectsArePublished() throws Exception {
        String model = pricedModel();
        String team =
                createTeam(Map.of("name", "spenders", "limits", Map.of("max_budget", 100, "budget_duration", "1mo")));
        String plain = createKey(Map.of("name", "no budget", "team_id", team))[0];
        String lifetime = createKey(Map.of("name", "lifetime", "team_id", team, "limits", Map.of("max_budget", 50)))[0];
        Instant at = clock.instant().truncatedTo(ChronoUnit.MILLIS);

        RequestCompleted first = used(plain, team, at, model, 1000, 200); // 4500 µUSD
        RequestCompleted cached =
                used(lifetime, team, at.plusMillis(1), model, 2000, 0).withTokenDetails(500L, 100L, 50L, null);
        RequestCompleted refused = RequestCompleted.refused(
                        UUID.randomUUID(), at.plusMillis(2), Protocol.OPENAI_CHAT, plain, 429, "budget_exceeded")
                .withTeam(team);
        // one gateway batch: one transaction, one spend.v1 per subject
        send(List.of(first, cached, refused));

        await().atMost(PATIENCE)
                .until(() -> spend("/admin/v1/teams/" + team + "/spend").getLong("requests") == 3);
        long cachedCost = row(logs(lifetime), cached.requestId()).costMicros;
        assertThat(row(logs(plain), first.requestId()).costMicros).isEqualTo(4500L);
        assertThat(row(logs(plain), first.requestId()).teamId).isEqualTo(team);

        JsonPath teamSpend = spend("/admin/v1/teams/" + team + "/spend");
        // the spend is the sum of the stored rows' cost_micros, cache-priced ones included
        assertThat(teamSpend.getString("spend_usd")).isEqualTo(usd(4500 + cachedCost));
        assertThat(teamSpend.getString("max_budget")).isEqualTo("100");
        assertThat(teamSpend.getString("budget_duration")).isEqualTo("1mo");
        Instant monthStart = at.atZone(java.time.ZoneOffset.UTC)
                .toLocalDate()
                .withDayOfMonth(1)
                .atStartOfDay(java.time.ZoneOffset.UTC)
                .toInstant();
        assertThat(Instant.parse(teamSpend.getString("budget_window_start"))).isEqualTo(monthStart);
        assertThat(Instant.parse(teamSpend.getString("budget_reset_at")))
                .isEqualTo(monthStart
                        .atZone(java.time.ZoneOffset.UTC)
                        .plusMonths(1)
                        .toInstant());
        assertThat(teamSpend.getLong("input_tokens")).isEqualTo(3000);
        assertThat(teamSpend.getLong("output_tokens")).isEqualTo(200);
        assertThat(teamSpend.getLong("cache_read_tokens")).isEqualTo(500);
        assertThat(teamSpend.getLong("cache_write_tokens")).isEqualTo(150);
        List<Map<String, Object>> byModel = teamSpend.getList("by_model");
        assertThat(byModel).hasSize(2);
        assertThat(byModel.get(0)).containsEntry("model", model).containsEntry("requests", 2);
        assertThat(byModel.get(0).get("spend_usd").toString()).isEqualTo(usd(4500 + cachedCost));
        assertThat(byModel.get(1)).containsEntry("model", null).containsEntry("requests", 1);

        JsonPath plainSpend = spend("/admin/v1/access-keys/" + plain + "/spend");
        assertThat(plainSpend.getString("spend_usd")).isEqualTo("0.0045");
        assertThat(plainSpend.getLong("requests")).isEqualTo(2);
        assertThat(plainSpend.getString("max_budget")).isNull();
        assertThat(plainSpend.getString("budget_duration")).isNull();
        assertThat(Instant.parse(plainSpend.getString("budget_window_start"))).isEqualTo(monthStart);
        JsonPath lifetimeSpend = spend("/admin/v1/access-keys/" + lifetime + "/spend");
        assertThat(lifetimeSpend.getString("spend_usd")).isEqualTo(usd(cachedCost));
        assertThat(lifetimeSpend.getString("max_budget")).isEqualTo("50");
        assertThat(lifetimeSpend.getString("budget_window_start")).isEqualTo("1970-01-01T00:00:00Z");
        assertThat(lifetimeSpend.getString("budget_reset_at")).isNull();

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> teamRecords = TestKafka.readKey(Topics.SPEND, "team:" + team);
            // the empty window published when the team got its budget, then one for the whole batch
            assertThat(teamRecords).hasSize(2);
            SpendSnapshot last = snapshot(teamRecords.get(1));
            assertThat(last.spendMicros()).isEqualTo(4500 + cachedCost);
            assertThat(last.requests()).isEqualTo(3);
            assertThat(last.asOf()).isEqualTo(at.plusMillis(2));
            assertThat(last.windowStart()).isEqualTo(monthStart);
            assertThat(last.version())
                    .isGreaterThan(snapshot(teamRecords.get(0)).version());
            List<ConsumerRecord<String, String>> lifetimeRecords = TestKafka.readKey(Topics.SPEND, "key:" + lifetime);
            assertThat(lifetimeRecords).hasSize(2);
            assertThat(snapshot(lifetimeRecords.get(1)).windowEnd()).isNull();
            assertThat(snapshot(lifetimeRecords.get(1)).spendMicros()).isEqualTo(cachedCost);
            SignedRecords.assertSigned(teamRecords);
            SignedRecords.assertSigned(lifetimeRecords);
        });
        // a key without a budget has its spend kept but never published
        assertThat(TestKafka.readKey(Topics.SPEND, "key:" + plain)).isEmpty();

        // a replayed record is skipped by the insert, so it adds nothing; the one after it counts
        send(first);
        RequestCompleted marker = used(plain, team, at.plusMillis(3), model, 100, 0); // 250 µUSD
        send(marker);
        await().atMost(PATIENCE).until(() -> logs(plain).size() == 3);
        await().atMost(PATIENCE)
                .until(() -> spend("/admin/v1/access-keys/" + plain + "/spend").getLong("requests") == 3);
        assertThat(spend("/admin/v1/access-keys/" + plain + "/spend").getString("spend_usd"))
                .isEqualTo("0.00475");
        JsonPath after = spend("/admin/v1/teams/" + team + "/spend");
        assertThat(after.getLong("requests")).isEqualTo(4);
        assertThat(after.getString("spend_usd")).isEqualTo(usd(4500 + cachedCost + 250));
    }

    @Test
    void snapshotsHeldBackWithinTheIntervalLeaveLaterWithTheWindowsTotals() {
        String model = pricedModel();
        String team =
                createTeam(Map.of("name", "bursty", "limits", Map.of("max_budget", 100, "budget_duration", "1mo")));
        String key = createKey(Map.of("name", "bursty key", "team_id", team))[0];
        Instant at = clock.instant().truncatedTo(ChronoUnit.MILLIS);

        // three batches, one after the other: within state.spend.publish-interval only the first
        // leaves at once, the others wait; the last snapshot still carries all three
        send(List.of(used(key, team, at, model, 1000, 200))); // 4500 µUSD
        send(List.of(used(key, team, at.plusMillis(1), model, 1000, 0))); // 2500 µUSD
        send(List.of(used(key, team, at.plusMillis(2), model, 0, 100))); // 1000 µUSD

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> records = TestKafka.readKey(Topics.SPEND, "team:" + team);
            SpendSnapshot last = snapshot(records.get(records.size() - 1));
            assertThat(last.requests()).isEqualTo(3);
            assertThat(last.spendMicros()).isEqualTo(8000);
            assertThat(last.asOf()).isEqualTo(at.plusMillis(2));
            SignedRecords.assertSigned(records);
        });
    }

    @Test
    void aWindowResetsAtItsEndAndTheRouteCheckFollowsIt() {
        String model = pricedModel();
        // the middle of an hour, so the records and the checks fall in one window
        Instant half = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofMinutes(30));
        clock.setTo(half);
        String key =
                createKey(Map.of("name", "hourly", "limits", Map.of("max_budget", 0.001, "budget_duration", "1h")))[0];
        Instant hourStart = half.truncatedTo(ChronoUnit.HOURS);
        Instant hourEnd = hourStart.plus(Duration.ofHours(1));

        JsonPath before = routeCheck(key);
        assertThat(before.getString("admission.decision")).isEqualTo("admitted");
        assertThat(before.getString("reason_code")).isNotEqualTo(SpendRules.BUDGET_EXCEEDED);

        send(used(key, null, half.plusSeconds(1), model, 1000, 200)); // 4500 µUSD, over 1000
        await().atMost(PATIENCE)
                .until(() -> spend("/admin/v1/access-keys/" + key + "/spend").getLong("requests") == 1);
        JsonPath spent = spend("/admin/v1/access-keys/" + key + "/spend");
        assertThat(spent.getString("spend_usd")).isEqualTo("0.0045");
        assertThat(Instant.parse(spent.getString("budget_window_start"))).isEqualTo(hourStart);
        assertThat(Instant.parse(spent.getString("budget_reset_at"))).isEqualTo(hourEnd);

        JsonPath refused = routeCheck(key);
        assertThat(refused.getString("decision")).isEqualTo("refused");
        assertThat(refused.getString("reason_code")).isEqualTo("budget_exceeded");
        assertThat(refused.getInt("http_status")).isEqualTo(429);
        assertThat(Instant.parse(refused.getString("admission.budget_reset_at")))
                .isEqualTo(hourEnd);
        assertThat(Instant.parse(refused.getString("earliest_recovery_at"))).isEqualTo(hourEnd);
        assertThat(refused.getBoolean("admission.budgets[0].exceeded")).isTrue();
        assertThat(refused.getString("admission.budgets[0].spend_usd")).isEqualTo("0.0045");
        assertThat(refused.getMap("trace")).isNotNull();

        // the next hour: a new window, nothing spent in it yet
        clock.advance(Duration.ofHours(1));
        JsonPath next = spend("/admin/v1/access-keys/" + key + "/spend");
        assertThat(next.getString("spend_usd")).isEqualTo("0");
        assertThat(next.getLong("requests")).isZero();
        assertThat(next.getList("by_model")).isEmpty();
        assertThat(Instant.parse(next.getString("budget_window_start"))).isEqualTo(hourEnd);
        assertThat(Instant.parse(next.getString("budget_reset_at"))).isEqualTo(hourEnd.plus(Duration.ofHours(1)));
        JsonPath admitted = routeCheck(key);
        assertThat(admitted.getString("admission.decision")).isEqualTo("admitted");
        assertThat(admitted.getString("admission.reason_code")).isNull();
        assertThat(admitted.getString("reason_code")).isNotEqualTo("budget_exceeded");
    }

    @Test
    void aTeamsSpentBudgetRefusesItsKeysAndALifetimeBudgetNeverResets() {
        String team =
                createTeam(Map.of("name", "broke", "weight", 2, "limits", Map.of("max_budget", 0, "rpm_limit", 100)));
        String key = createKey(Map.of("name", "member", "team_id", team, "limits", Map.of("rpm_limit", 500)))[0];
        JsonPath check = routeCheck(key);
        assertThat(check.getString("decision")).isEqualTo("refused");
        assertThat(check.getString("reason_code")).isEqualTo("budget_exceeded");
        assertThat(check.getString("admission.team_id")).isEqualTo(team);
        assertThat(check.getString("admission.team_name")).isEqualTo("broke");
        assertThat(check.getInt("admission.key_limits.rpm_limit")).isEqualTo(500);
        assertThat(check.getInt("admission.team_limits.rpm_limit")).isEqualTo(100);
        // the tighter of the two
        assertThat(check.getInt("admission.effective_limits.rpm_limit")).isEqualTo(100);
        assertThat(check.getList("admission.budgets")).hasSize(1);
        assertThat(check.getString("admission.budgets[0].subject")).isEqualTo("team");
        assertThat(check.getString("admission.budget_reset_at")).isNull();
        assertThat(check.getString("message")).contains("does not reset");

        String free = createKey(Map.of("name", "unlimited"))[0];
        assertThat(routeCheck(free).getString("admission.decision")).isEqualTo("not_limited");
        error(admin().get("/admin/v1/access-keys/no-such-key/spend").then(), 404, "not_found");
    }

    @Test
    void requestLogsAndUsageShowTeamsAndTheRefusalsOfLimits() {
        String team = createTeam(Map.of("name", "refusals"));
        String key = createKey(Map.of("name", "refused", "team_id", team))[0];
        Instant at = clock.instant();
        List<String> codes =
                List.of("rate_limit_exceeded", "concurrency_limit_exceeded", "budget_exceeded", "limits_unavailable");
        send(List.of(
                refusal(key, team, at, 429, codes.get(0)),
                refusal(key, team, at.plusMillis(1), 429, codes.get(1)),
                refusal(key, team, at.plusMillis(2), 429, codes.get(2)),
                refusal(key, team, at.plusMillis(3), 503, codes.get(3))));
        await().atMost(PATIENCE).until(() -> logs(key).size() == 4);
        List<RequestLogEntity> rows = logs(key);
        assertThat(rows).extracting(row -> row.teamId).containsOnly(team);

        JsonPath requests = admin().queryParam("team_id", team)
                .get("/admin/v1/requests")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(requests.getList("items.reason_code", String.class)).containsExactlyInAnyOrderElementsOf(codes);
        assertThat(requests.getList("items.team_id", String.class)).containsOnly(team);
        assertThat(requests.getList("items.status", Integer.class)).containsExactlyInAnyOrder(429, 429, 429, 503);

        JsonPath byReason = admin().queryParam("team_id", team)
                .queryParam("group_by", "reason_code")
                .get("/admin/v1/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(byReason.getList("rows.key", String.class)).containsExactlyInAnyOrderElementsOf(codes);
        assertThat(byReason.getList("rows.failures", Integer.class)).containsOnly(1);
        JsonPath byTeam = admin().queryParam("access_key_id", key)
                .queryParam("group_by", "team")
                .get("/admin/v1/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(byTeam.getList("rows.key", String.class)).containsExactly(team);
        assertThat(byTeam.getLong("total.requests")).isEqualTo(4);
        error(
                admin().queryParam("team_id", "a\u0001b")
                        .get("/admin/v1/requests")
                        .then(),
                400,
                "validation.query");
    }

    private static RequestCompleted refusal(String key, String team, Instant at, int status, String code) {
        return RequestCompleted.refused(UUID.randomUUID(), at, Protocol.OPENAI_CHAT, key, status, code)
                .withTeam(team);
    }

    private static JsonPath routeCheck(String key) {
        return exact(admin().body(Map.of("access_key_id", key, "protocol", "openai_chat", "model", "gpt-5.6-sol"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .extract()
                .asString());
    }

    private static SpendSnapshot snapshot(ConsumerRecord<String, String> record) throws Exception {
        return Json.MAPPER.readValue(record.value(), SpendSnapshot.class);
    }

    private static String usd(long micros) {
        BigDecimal usd = BigDecimal.valueOf(micros, 6).stripTrailingZeros();
        return (usd.scale() < 0 ? usd.setScale(0) : usd).toPlainString();
    }
}
