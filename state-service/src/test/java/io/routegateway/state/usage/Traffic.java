package io.routegateway.state.usage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import io.routegateway.core.usage.LatencyHistogram;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

import static io.routegateway.state.support.OutcomeFixtures.await;

/**
 * Random request-log rows of one team, stored as the usage consumer stores them (one statement per
 * batch, column arrays, {@code ON CONFLICT DO NOTHING} on the primary key), redeliveries included.
 */
final class Traffic {

    /** One request, as {@code request_logs} holds it. */
    record Raw(
            UUID id,
            long epochMs,
            String key,
            String team,
            String group,
            String credential,
            String requested,
            String modelKey,
            int status,
            String reason,
            boolean success,
            boolean probe,
            long latency,
            Long ttft,
            Long input,
            Long output,
            Long cost,
            Long cacheRead,
            Long cacheWrite5m,
            Long cacheWrite1h,
            Long reasoning) {

        long minute() {
            return Math.floorDiv(epochMs, 60_000L) * 60_000L;
        }

        int bucket() {
            return LatencyHistogram.bucket(latency);
        }
    }

    static final String INSERT = "INSERT INTO request_logs (request_id, occurred_at, occurred_epoch_ms,"
            + " access_key_id, team_id, group_id, credential_id, requested_model, model_key, status, reason_code,"
            + " success, probe, latency_ms, ttft_ms, input_tokens, output_tokens, cost_micros, cache_read_tokens,"
            + " cache_write_5m_tokens, cache_write_1h_tokens, reasoning_tokens, attempts)"
            + " SELECT *, 1 FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[],"
            + " $7::text[], $8::text[], $9::text[], $10::integer[], $11::text[], $12::boolean[], $13::boolean[],"
            + " $14::bigint[], $15::bigint[], $16::bigint[], $17::bigint[], $18::bigint[], $19::bigint[],"
            + " $20::bigint[], $21::bigint[], $22::bigint[])"
            + " ON CONFLICT (request_id, occurred_epoch_ms) DO NOTHING";

    private static final long[] LATENCIES = {
        0, 1, 99, 100, 249, 250, 999, 1_000, 4_999, 5_000, 119_999, 120_000, 400_000
    };

    private Traffic() {}

    /** {@code count} distinct requests of {@code team} within {@code hours} hours from {@code start}. */
    static List<Raw> random(Random random, String team, Instant start, int hours, int count) {
        String[] keys = {"ak-a-" + team, "ak-b-" + team, null};
        String[] groups = {"g1", "g2", null};
        String[] credentials = {"c1-" + team, "c2-" + team, null};
        String[] models = {"m-sol", "m-glm", null};
        String[] reasons = {null, "no_available_credential", "rate_limit_exceeded", "upstream_5xx"};
        List<Raw> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            boolean success = random.nextInt(4) != 0;
            String reason = success ? null : reasons[1 + random.nextInt(reasons.length - 1)];
            int status = success ? 200 : (random.nextBoolean() ? 429 : 502);
            long latency =
                    random.nextInt(3) == 0 ? LATENCIES[random.nextInt(LATENCIES.length)] : random.nextInt(150_000);
            String requested = models[random.nextInt(models.length)];
            rows.add(new Raw(
                    UUID.randomUUID(),
                    start.toEpochMilli() + (long) random.nextInt(hours * 3_600_000),
                    keys[random.nextInt(keys.length)],
                    team,
                    groups[random.nextInt(groups.length)],
                    credentials[random.nextInt(credentials.length)],
                    requested,
                    random.nextBoolean() ? null : "up-" + requested,
                    status,
                    reason,
                    success,
                    random.nextInt(10) == 0,
                    latency,
                    random.nextBoolean() ? null : (long) random.nextInt(5_000),
                    nullable(random, 100_000),
                    nullable(random, 10_000),
                    nullable(random, 1_000_000),
                    nullable(random, 1_000),
                    nullable(random, 1_000),
                    nullable(random, 1_000),
                    nullable(random, 1_000)));
        }
        return rows;
    }

    private static Long nullable(Random random, int bound) {
        return random.nextInt(4) == 0 ? null : (long) random.nextInt(bound);
    }

    /**
     * Stores {@code rows} in random batches, each also carrying redeliveries of random rows already
     * sent (same request id and time) and rows twice within the batch.
     */
    static void store(Pool pool, Random random, List<Raw> rows) {
        List<Raw> sent = new ArrayList<>();
        int next = 0;
        while (next < rows.size()) {
            int size = 1 + random.nextInt(60);
            List<Raw> batch = new ArrayList<>(rows.subList(next, Math.min(rows.size(), next + size)));
            next += batch.size();
            for (int replays = random.nextInt(5); replays > 0 && !sent.isEmpty(); replays--) {
                batch.add(sent.get(random.nextInt(sent.size())));
            }
            if (random.nextBoolean()) {
                batch.add(batch.get(0));
            }
            sent.addAll(batch);
            insert(pool, batch);
        }
    }

    static void insert(Pool pool, List<Raw> batch) {
        int n = batch.size();
        Object[][] columns = {
            new UUID[n],
            new String[n],
            new Long[n],
            new String[n],
            new String[n],
            new String[n],
            new String[n],
            new String[n],
            new String[n],
            new Integer[n],
            new String[n],
            new Boolean[n],
            new Boolean[n],
            new Long[n],
            new Long[n],
            new Long[n],
            new Long[n],
            new Long[n],
            new Long[n],
            new Long[n],
            new Long[n],
            new Long[n]
        };
        for (int i = 0; i < n; i++) {
            Raw r = batch.get(i);
            Object[] values = {
                r.id(),
                Instant.ofEpochMilli(r.epochMs()).toString(),
                r.epochMs(),
                r.key(),
                r.team(),
                r.group(),
                r.credential(),
                r.requested(),
                r.modelKey(),
                r.status(),
                r.reason(),
                r.success(),
                r.probe(),
                r.latency(),
                r.ttft(),
                r.input(),
                r.output(),
                r.cost(),
                r.cacheRead(),
                r.cacheWrite5m(),
                r.cacheWrite1h(),
                r.reasoning()
            };
            for (int c = 0; c < values.length; c++) {
                columns[c][i] = values[c];
            }
        }
        await(() -> pool.preparedQuery(INSERT).execute(Tuple.from(columns)));
    }
}
