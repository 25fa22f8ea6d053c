package io.routegateway.state.consume;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.RuntimeSettings;
import io.routegateway.core.usage.ModelPrices;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes {@code route.usage} in batches into {@code request_logs}: one transaction and one
 * pipelined batch insert per poll, idempotent by {@code request_id} ({@code ON CONFLICT DO
 * NOTHING}), failed requests included. {@code cost_micros} comes from the {@code model_prices}
 * runtime setting, read once per batch; an unpriced model has a null cost. A record that cannot be
 * parsed is logged and counted ({@code state.usage.rejected}) and skipped: usage never holds up the
 * partition.
 */
@ApplicationScoped
public class UsageConsumer {

    /** The channel name, shared with configuration and tests. */
    public static final String CHANNEL = "usage";

    static final String INSERT = "INSERT INTO request_logs (request_id, occurred_at, occurred_epoch_ms, protocol,"
            + " access_key_id, group_id, credential_id, requested_model, model_key, attempts, status, reason_code,"
            + " latency_ms, ttft_ms, input_tokens, output_tokens, cost_micros, stream, client_disconnected, success,"
            + " probe) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,"
            + " $20, $21) ON CONFLICT (request_id) DO NOTHING";

    private static final Logger LOG = Logger.getLogger(UsageConsumer.class);

    private final Pool pool;
    private final EventMetrics metrics;

    public UsageConsumer(Pool pool, EventMetrics metrics) {
        this.pool = pool;
        this.metrics = metrics;
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(List<String> payloads) {
        List<RequestCompleted> records = new ArrayList<>(payloads.size());
        for (String payload : payloads) {
            RequestCompleted record = parse(payload);
            if (record != null) {
                records.add(record);
            }
        }
        if (records.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        metrics.usageRecords(records.size());
        // a passing database outage (restart, failover) must not fail-stop the channel: retry like outcomes
        return pool.withTransaction(connection -> prices(connection)
                        .flatMap(prices -> connection.preparedQuery(INSERT).executeBatch(tuples(records, prices))))
                .onFailure(Failures::isTransient)
                .retry()
                .withBackOff(OutcomeConsumer.FIRST_RETRY, OutcomeConsumer.MAX_RETRY)
                .indefinitely()
                .replaceWithVoid();
    }

    private RequestCompleted parse(String payload) {
        try {
            RequestCompleted record = payload == null ? null : Json.MAPPER.readValue(payload, RequestCompleted.class);
            if (record == null || record.requestId() == null || record.occurredAt() == null) {
                throw new IllegalArgumentException("request_id and occurred_at are required");
            }
            return record;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            metrics.usageRejected();
            LOG.warnf(
                    "Skipping a usage record that cannot be stored: %s",
                    e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage());
            return null;
        }
    }

    private static Uni<ModelPrices> prices(SqlConnection connection) {
        return connection
                .preparedQuery("SELECT key, value FROM runtime_settings WHERE key = $1")
                .execute(Tuple.of(RuntimeSettings.MODEL_PRICES))
                .map(rows -> {
                    Map<String, String> stored = new HashMap<>();
                    for (Row row : rows) {
                        stored.put(row.getString("key"), row.getString("value"));
                    }
                    return RuntimeSettings.fromStored(stored).modelPrices();
                });
    }

    static List<Tuple> tuples(List<RequestCompleted> records, ModelPrices prices) {
        List<Tuple> tuples = new ArrayList<>(records.size());
        for (RequestCompleted record : records) {
            tuples.add(Tuple.from(new Object[] {
                record.requestId(),
                record.occurredAt().toString(),
                record.occurredAt().toEpochMilli(),
                record.protocol() == null ? null : record.protocol().wire(),
                record.accessKeyId(),
                record.groupId(),
                record.credentialId(),
                record.requestedModel(),
                record.modelKey(),
                record.attempts(),
                record.status(),
                record.reasonCode(),
                record.latencyMs(),
                record.ttftMs(),
                record.inputTokens(),
                record.outputTokens(),
                prices.costMicros(
                        record.modelKey(), record.requestedModel(), record.inputTokens(), record.outputTokens()),
                record.stream(),
                record.clientDisconnected(),
                record.success(),
                record.probe()
            }));
        }
        return tuples;
    }
}
