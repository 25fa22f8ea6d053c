package io.routegateway.state.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.event.UsageBatch;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.usage.LatencyHistogram;
import io.routegateway.state.support.TestKafka;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.await;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-minute usage rollups against real PostgreSQL: folded from the rows an insert actually
 * stored (a redelivery counts once), equal to the raw rows they summarise, and the usage stats read
 * from them equal to the stats the raw rows give.
 */
@QuarkusTest
class UsageRollupsTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    static final Instant DAY = Instant.parse("2026-09-15T00:00:00Z");

    /** The usage stats as they were computed before the rollups: straight from the raw rows. */
    static final String RAW_STATS = "SELECT %s AS key, count(*) AS requests,"
            + " count(*) FILTER (WHERE NOT success) AS failures, count(*) FILTER (WHERE probe) AS probes,"
            + " coalesce(sum(input_tokens), 0)::bigint AS input_tokens,"
            + " coalesce(sum(output_tokens), 0)::bigint AS output_tokens,"
            + " coalesce(sum(cost_micros), 0)::bigint AS cost_micros FROM request_logs%s GROUP BY 1";

    static final String ROLLUP_COLUMNS = "minute_epoch_ms, access_key_id, group_id, credential_id, requested_model,"
            + " model_key, status_class, reason_code, success, probe, requests, failures, probes, input_tokens,"
            + " output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_micros, latency_ms_sum,"
            + " ttft_ms_sum, ttft_count, latency_b00, latency_b01, latency_b02, latency_b03, latency_b04, latency_b05,"
            + " latency_b06, latency_b07, latency_b08, latency_b09, latency_b10, latency_b11";

    @Inject
    Pool pool;

    @Test
    void aReplayedUsageRecordChangesNoRollup() {
        String key = unique("ak");
        Instant at = Instant.parse("2026-09-20T10:15:30Z");
        RequestCompleted first = record(key, at, 100L, 20L);
        TestKafka.send(Topics.USAGE, "cred-r", json(first));
        org.awaitility.Awaitility.await().atMost(PATIENCE).until(() -> rollupRequests(key) == 1);
        String before = rollups("access_key_id = $1", key);

        // the same record again, alone and in a gateway's batch with a new one of the same minute
        TestKafka.send(Topics.USAGE, "cred-r", json(first));
        RequestCompleted marker = record(key, at.plusSeconds(5), 1L, 1L);
        TestKafka.send(Topics.USAGE, "cred-r", UsageBatch.encode(List.of(json(first), json(marker))));
        org.awaitility.Awaitility.await().atMost(PATIENCE).until(() -> rollupRequests(key) == 2);
        TestKafka.send(Topics.USAGE, "cred-r", json(first));
        RequestCompleted later = record(key, at.plusSeconds(120), 1L, 1L);
        TestKafka.send(Topics.USAGE, "cred-r", json(later));
        org.awaitility.Awaitility.await().atMost(PATIENCE).until(() -> rollupRequests(key) == 3);

        Map<String, Object> minute = rollupOf(key, at);
        assertThat(minute.get("requests")).isEqualTo(2L);
        assertThat(minute.get("input_tokens")).isEqualTo(101L);
        assertThat(minute.get("output_tokens")).isEqualTo(21L);
        assertThat(before).isNotEmpty();
        assertThat(count("SELECT count(*) FROM request_logs WHERE access_key_id = $1", key))
                .isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(longs = {1L, 36L, 20261206L})
    void rollupsEqualTheRawRowsTheySummarise(long seed) {
        Random random = new Random(seed);
        String team = unique("team");
        List<Traffic.Raw> rows = Traffic.random(random, team, DAY.plusSeconds(3600L * (seed % 20)), 3, 600);
        Traffic.store(pool, random, rows);

        assertThat(count("SELECT count(*) FROM request_logs WHERE team_id = $1", team))
                .isEqualTo(rows.size());
        assertThat(storedRollups(team)).isEqualTo(expectedRollups(rows));
    }

    @ParameterizedTest
    @ValueSource(longs = {7L, 400L})
    void statsFromRollupsEqualTheStatsOfTheRawRows(long seed) {
        Random random = new Random(seed);
        String team = unique("team");
        List<Traffic.Raw> rows = Traffic.random(random, team, DAY, 4, 500);
        Traffic.store(pool, random, rows);
        Traffic.Raw any = rows.get(0);
        List<String> filters = new ArrayList<>();
        filters.add("");
        filters.add("&success=false");
        filters.add("&probe=false");
        filters.add("&model=m-glm");
        filters.add("&model=up-m-sol");
        filters.add("&access_key_id=ak-a-" + team);
        filters.add("&credential_id=c2-" + team);
        filters.add("&group_id=g1&success=true");
        filters.add("&reason_code=rate_limit_exceeded");
        List<String> ranges = List.of(
                "",
                "&from=2026-09-15T00:00:00Z&to=2026-09-16T00:00:00Z",
                "&from=2026-09-15T00:37:12.345Z&to=2026-09-15T02:11:05.500Z",
                "&from=2026-09-15T01:00:00Z",
                "&to=2026-09-15T03:00:00.001Z",
                "&from=" + Instant.ofEpochMilli(any.epochMs()) + "&to=" + Instant.ofEpochMilli(any.epochMs() + 1));
        for (String query : pairwise(List.copyOf(UsageRules.GROUPINGS.keySet()), filters, ranges, team)) {
            assertThat(apiStats(query)).as(query).isEqualTo(rawStats(query));
        }
        // and the percentiles are read from the buckets the raw rows fall in
        long[] buckets = new long[LatencyHistogram.BUCKETS];
        for (Traffic.Raw row : rows) {
            buckets[row.bucket()]++;
        }
        Map<String, Object> total = admin().get("/admin/v1/usage?team_id=" + team)
                .then()
                .statusCode(200)
                .extract()
                .path("total");
        assertThat(number(total.get("latency_p50_ms"))).isEqualTo(LatencyHistogram.quantile(buckets, 0.5));
        assertThat(number(total.get("latency_p95_ms"))).isEqualTo(LatencyHistogram.quantile(buckets, 0.95));
        assertThat(number(total.get("latency_p99_ms"))).isEqualTo(LatencyHistogram.quantile(buckets, 0.99));
    }

    /** The same measures summed to the hour and to the day from the minute level, or read from a level. */
    static String levelRows(String table, String column, String bucket) {
        String measures = ROLLUP_COLUMNS.substring(ROLLUP_COLUMNS.indexOf("requests"));
        String sums = String.join(
                ", ",
                java.util.Arrays.stream(measures.split(", "))
                        .map(m -> "sum(" + m + ")::bigint")
                        .toList());
        return "SELECT (floor(" + column + " / " + bucket + ".0) * " + bucket + ")::bigint AS at, access_key_id,"
                + " group_id, credential_id, requested_model, model_key, status_class, reason_code, success, probe, "
                + sums + " FROM " + table + " WHERE team_id = $1 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10";
    }

    /** Rows of {@code left} not in {@code right}, as text (empty when they hold the same rows). */
    List<String> missing(String left, String right, String team) {
        RowSet<Row> rows =
                await(() -> pool.preparedQuery("(" + left + ") EXCEPT ALL (" + right.replace("$1", "$2") + ")")
                        .execute(Tuple.of(team, team)));
        List<String> out = new ArrayList<>();
        rows.forEach(row -> out.add(row.toJson().encode()));
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = {3L, 14L, 20261207L})
    void hourlyAndDailyLevelsEqualTheMinutesTheySummarise(long seed) {
        Random random = new Random(seed);
        String team = unique("team");
        // three days and a bit, off day boundaries, stored in random batches with redeliveries
        List<Traffic.Raw> rows = Traffic.random(random, team, DAY.plusSeconds(3_600L * 7 + 1_234), 75, 1_500);
        Traffic.store(pool, random, rows);
        // and one batch replayed whole: no level changes
        Traffic.insert(pool, rows.subList(0, 40));

        assertThat(storedRollups(team)).isEqualTo(expectedRollups(rows));
        for (String[] level : new String[][] {
            {"usage_rollups_hourly", "hour_epoch_ms", "3600000"}, {"usage_rollups_daily", "day_epoch_ms", "86400000"}
        }) {
            String fromMinutes = levelRows("usage_rollups", "minute_epoch_ms", level[2]);
            String stored = levelRows(level[0], level[1], level[2]);
            assertThat(missing(fromMinutes, stored, team)).as(level[0]).isEmpty();
            assertThat(missing(stored, fromMinutes, team)).as(level[0]).isEmpty();
            // one row per interval and dimensions: the stored rows are already summed
            long distinct = count("SELECT count(*) FROM (" + stored + ") AS s", team);
            long all = count("SELECT count(*) FROM " + level[0] + " WHERE team_id = $1", team);
            assertThat(all).as(level[0]).isEqualTo(distinct);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {11L, 2026L})
    void statsAcrossDaysEqualTheMinuteOnlyAndRawAnswers(long seed) {
        Random random = new Random(seed);
        String team = unique("team");
        List<Traffic.Raw> rows = Traffic.random(random, team, DAY, 72, 1_200);
        Traffic.store(pool, random, rows);
        List<String> ranges = new ArrayList<>(List.of(
                "",
                "&from=2026-09-15T00:00:00Z&to=2026-09-18T00:00:00Z",
                "&from=2026-09-15T05:00:00Z&to=2026-09-17T19:00:00Z",
                "&from=2026-09-15T05:17:00Z&to=2026-09-17T19:43:00Z",
                "&from=2026-09-15T05:17:12.345Z&to=2026-09-17T19:43:59.999Z",
                "&from=2026-09-15T23:59:59.999Z&to=2026-09-16T00:00:00.001Z",
                "&from=2026-09-16T00:00:00.001Z",
                "&to=2026-09-16T13:00:00Z"));
        for (int i = 0; i < 6; i++) {
            long from = DAY.toEpochMilli() + (long) random.nextInt(72 * 3_600_000);
            long to = from + 1 + (long) random.nextInt(72 * 3_600_000);
            ranges.add("&from=" + Instant.ofEpochMilli(from) + "&to=" + Instant.ofEpochMilli(to));
        }
        List<String> groupings = List.of("day", "hour", "access_key", "model", "reason_code");
        List<String> filters = List.of("", "&success=false", "&probe=false", "&access_key_id=ak-b-" + team);
        for (String query : pairwise(groupings, filters, ranges, team)) {
            Map<String, List<Long>> api = apiStats(query);
            assertThat(api).as(query).isEqualTo(rawStats(query));
            if (!query.contains(".")) {
                // whole minutes (only a range holds a "."): the minute level alone gives the same answer
                assertThat(api).as(query).isEqualTo(minuteStats(query));
            }
        }
    }

    /**
     * Queries covering every pair of the three dimensions rather than their whole product (which cost minutes of
     * the build): every grouping with every range (the filter rotating), and every filter with every range (the
     * grouping rotating), so each grouping, filter and range edge is checked against the others.
     */
    static List<String> pairwise(List<String> groupings, List<String> filters, List<String> ranges, String team) {
        java.util.LinkedHashSet<String> queries = new java.util.LinkedHashSet<>();
        for (int r = 0; r < ranges.size(); r++) {
            for (int g = 0; g < groupings.size(); g++) {
                queries.add(query(groupings.get(g), filters.get((g + r) % filters.size()), ranges.get(r), team));
            }
            for (int f = 0; f < filters.size(); f++) {
                queries.add(query(groupings.get((f + r) % groupings.size()), filters.get(f), ranges.get(r), team));
            }
        }
        return List.copyOf(queries);
    }

    private static String query(String grouping, String filter, String range, String team) {
        return "group_by=" + grouping + "&team_id=" + team + filter + range;
    }

    /** The query over the per-minute rollups alone (a range on whole minutes). */
    Map<String, List<Long>> minuteStats(String query) {
        Map<String, String> params = new HashMap<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            params.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        RequestFilter filter = filterOf(params);
        List<Object> args = new ArrayList<>();
        String sql = "SELECT " + UsageRules.groupBy(params.get("group_by")).over("minute_epoch_ms")
                + " AS key, sum(requests)::bigint AS requests, sum(failures)::bigint AS failures,"
                + " sum(probes)::bigint AS probes, sum(input_tokens)::bigint AS input_tokens,"
                + " sum(output_tokens)::bigint AS output_tokens, sum(cost_micros)::bigint AS cost_micros"
                + " FROM usage_rollups"
                + filter.where(
                        args,
                        "minute_epoch_ms",
                        filter.from() == null ? null : filter.from().toEpochMilli(),
                        filter.to() == null ? null : filter.to().toEpochMilli())
                + " GROUP BY 1";
        RowSet<Row> rows = await(() -> pool.preparedQuery(sql).execute(Tuple.from(args)));
        Map<String, List<Long>> out = new TreeMap<>();
        for (Row row : rows) {
            out.put(
                    String.valueOf(row.getString("key")),
                    List.of(
                            row.getLong("requests"),
                            row.getLong("failures"),
                            row.getLong("probes"),
                            row.getLong("input_tokens"),
                            row.getLong("output_tokens"),
                            row.getLong("cost_micros")));
        }
        return out;
    }

    static RequestFilter filterOf(Map<String, String> params) {
        return UsageRules.filter(
                params.get("access_key_id"),
                params.get("credential_id"),
                params.get("group_id"),
                params.get("model"),
                params.get("success"),
                params.get("reason_code"),
                params.get("probe"),
                params.get("from"),
                params.get("to"),
                params.get("team_id"));
    }

    /** What the API answers: key → requests, failures, probes, tokens, cost. */
    Map<String, List<Long>> apiStats(String query) {
        List<Map<String, Object>> rows = admin().get("/admin/v1/usage?" + query)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("rows");
        Map<String, List<Long>> out = new TreeMap<>();
        for (Map<String, Object> row : rows) {
            out.put(
                    String.valueOf(row.get("key")),
                    List.of(
                            number(row.get("requests")),
                            number(row.get("failures")),
                            number(row.get("probes")),
                            number(row.get("input_tokens")),
                            number(row.get("output_tokens")),
                            number(row.get("cost_micros"))));
        }
        return out;
    }

    /** The same query over the raw rows, as the stats were computed before the rollups. */
    Map<String, List<Long>> rawStats(String query) {
        Map<String, String> params = new HashMap<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            params.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        RequestFilter filter = UsageRules.filter(
                params.get("access_key_id"),
                params.get("credential_id"),
                params.get("group_id"),
                params.get("model"),
                params.get("success"),
                params.get("reason_code"),
                params.get("probe"),
                params.get("from"),
                params.get("to"),
                params.get("team_id"));
        List<Object> args = new ArrayList<>();
        String sql = String.format(
                RAW_STATS, UsageRules.groupBy(params.get("group_by")).over("occurred_epoch_ms"), filter.where(args));
        RowSet<Row> rows = await(() -> pool.preparedQuery(sql).execute(Tuple.from(args)));
        Map<String, List<Long>> out = new TreeMap<>();
        for (Row row : rows) {
            out.put(
                    String.valueOf(row.getString("key")),
                    List.of(
                            row.getLong("requests"),
                            row.getLong("failures"),
                            row.getLong("probes"),
                            row.getLong("input_tokens"),
                            row.getLong("output_tokens"),
                            row.getLong("cost_micros")));
        }
        return out;
    }

    /** The team's rollups, one line per row, sorted. */
    Map<String, String> storedRollups(String team) {
        RowSet<Row> rows =
                await(() -> pool.preparedQuery("SELECT " + ROLLUP_COLUMNS + " FROM usage_rollups WHERE team_id = $1")
                        .execute(Tuple.of(team)));
        Map<String, String> out = new TreeMap<>();
        for (Row row : rows) {
            List<Object> dims = new ArrayList<>();
            List<Object> measures = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                (i < 10 ? dims : measures).add(row.getValue(i));
            }
            String previous = out.put(dims.toString(), measures.toString());
            assertThat(previous).as("one rollup row per minute and dimensions").isNull();
        }
        return out;
    }

    /** The rollups computed here from the distinct requests, with route-core's buckets. */
    static Map<String, String> expectedRollups(List<Traffic.Raw> rows) {
        Map<String, long[]> sums = new TreeMap<>();
        for (Traffic.Raw r : rows) {
            String dims = List.of(
                            r.minute(),
                            String.valueOf(r.key()),
                            String.valueOf(r.group()),
                            String.valueOf(r.credential()),
                            String.valueOf(r.requested()),
                            String.valueOf(r.modelKey()),
                            (short) (r.status() / 100),
                            String.valueOf(r.reason()),
                            r.success(),
                            r.probe())
                    .toString();
            long[] m = sums.computeIfAbsent(dims, d -> new long[12 + LatencyHistogram.BUCKETS]);
            m[0]++;
            m[1] += r.success() ? 0 : 1;
            m[2] += r.probe() ? 1 : 0;
            m[3] += orZero(r.input());
            m[4] += orZero(r.output());
            m[5] += orZero(r.cacheRead());
            m[6] += orZero(r.cacheWrite5m()) + orZero(r.cacheWrite1h());
            m[7] += orZero(r.reasoning());
            m[8] += orZero(r.cost());
            m[9] += r.latency();
            m[10] += orZero(r.ttft());
            m[11] += r.ttft() == null ? 0 : 1;
            m[12 + r.bucket()]++;
        }
        Map<String, String> out = new TreeMap<>();
        sums.forEach((dims, m) -> {
            List<Long> measures = new ArrayList<>();
            for (long value : m) {
                measures.add(value);
            }
            out.put(dims, measures.toString());
        });
        return out;
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    private static Long number(Object value) {
        return value == null ? null : ((Number) value).longValue();
    }

    long count(String sql, String value) {
        return await(() -> pool.preparedQuery(sql).execute(Tuple.of(value)))
                .iterator()
                .next()
                .getLong(0);
    }

    long rollupRequests(String key) {
        return count("SELECT coalesce(sum(requests), 0) FROM usage_rollups WHERE access_key_id = $1", key);
    }

    String rollups(String where, String value) {
        RowSet<Row> rows =
                await(() -> pool.preparedQuery("SELECT " + ROLLUP_COLUMNS + " FROM usage_rollups WHERE " + where)
                        .execute(Tuple.of(value)));
        List<String> out = new ArrayList<>();
        rows.forEach(row -> out.add(row.toJson().encode()));
        return String.join("\n", out);
    }

    Map<String, Object> rollupOf(String key, Instant at) {
        long minute = Math.floorDiv(at.toEpochMilli(), 60_000L) * 60_000L;
        RowSet<Row> rows =
                await(() -> pool.preparedQuery("SELECT requests, input_tokens, output_tokens FROM usage_rollups"
                                + " WHERE access_key_id = $1 AND minute_epoch_ms = $2")
                        .execute(Tuple.of(key, minute)));
        Row row = rows.iterator().next();
        return Map.of(
                "requests", row.getLong("requests"),
                "input_tokens", row.getLong("input_tokens"),
                "output_tokens", row.getLong("output_tokens"));
    }

    static RequestCompleted record(String key, Instant at, Long input, Long output) {
        return RequestCompleted.settled(
                UUID.randomUUID(),
                at,
                Protocol.OPENAI_CHAT,
                key,
                "group-r",
                "cred-r",
                "m-replay",
                "m-replay",
                1,
                200,
                null,
                321,
                40L,
                input,
                output,
                false,
                false,
                true);
    }
}
