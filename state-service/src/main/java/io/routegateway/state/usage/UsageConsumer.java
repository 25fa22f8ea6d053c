package io.routegateway.state.usage;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.opentelemetry.api.trace.Span;
import io.quarkus.runtime.ShutdownEvent;
import io.routegateway.core.event.InboundScreen;
import io.routegateway.core.event.InboundScreen.Screened;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.UsageBatch;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.RuntimeSettings;
import io.routegateway.core.usage.ModelPrices;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.outcome.Failures;
import io.routegateway.state.outcome.OutcomeConsumer;
import io.routegateway.state.outcome.RecordTracing;
import io.routegateway.state.publish.OutboxRelay;
import io.routegateway.state.signing.ProducerSignatures;
import io.routegateway.state.spend.SpendLedger;
import io.routegateway.state.spend.SpendRules;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes {@code route.usage} in batches into {@code request_logs}: one transaction and one
 * insert statement per poll (the records as column arrays), idempotent by {@code request_id} ({@code ON CONFLICT DO
 * NOTHING}), failed requests included, with their token details. The same transaction adds the stored rows to the spend
 * windows of their keys and teams and queues the changed {@code spend.v1} snapshots ({@link SpendLedger}). {@code cost_micros} comes from the {@code model_prices}
 * runtime setting, read once per batch, priced per token kind (input, cache read, 5-minute and 1-hour
 * cache writes, output, reasoning); an unpriced model has a null cost.
 *
 * <p>A message holds one record or a gateway's batch of them ({@link UsageBatch}), signed once as a
 * whole by the producing service ({@link ProducerSignatures}): a message whose signature does not
 * verify is dead-lettered whole with the reason {@code signature} and none of its records is read.
 * Every record of a signed message is read, screened and stored on its own. No record can stop the channel, nor take the rest of its
 * batch with it. Each one is screened first ({@link InboundScreen#usage}): unstorable text in its
 * model names is replaced, a record that cannot be parsed or carries an unstorable identifier goes
 * to {@code route.usage.dlq} alone ({@link UsageDeadLetters}). A passing
 * database failure is retried with back-off for as long as it lasts ({@link Failures}); any other
 * failure of the batch insert sends the batch through one record at a time, so the record at fault
 * is found: a data or constraint error dead-letters it at once, an unknown error after {@link
 * Failures#BOUNDED_RETRIES} retries, and every other record of the batch is stored.
 */
@ApplicationScoped
public class UsageConsumer {

    /** The channel name, shared with configuration and tests. */
    public static final String CHANNEL = "usage";

    /**
     * One statement per batch, however many records: the columns travel as arrays and {@code unnest}
     * turns them back into rows. PostgreSQL plans and starts the statement once instead of once per
     * record, which is most of what a row of {@code request_logs} costs it apart from its indexes
     * (bench/analysis.md, "Usage rows in one statement"). A request id twice in one batch is stored
     * once: the second row conflicts with the first and is skipped like any other redelivery.
     * {@code RETURNING} names the rows actually stored: {@link SpendLedger} counts those in the same
     * transaction, so a redelivered record never adds to a key's or team's spend twice. The conflict
     * target is the partitioned table's primary key: a redelivered record carries the same {@code
     * occurred_at}, so it meets its stored row in the same daily partition. The table's statement
     * trigger folds the same stored rows, and only those, into {@code usage_rollups}.
     */
    static final String INSERT = "INSERT INTO request_logs (request_id, occurred_at, occurred_epoch_ms, protocol,"
            + " access_key_id, group_id, credential_id, requested_model, model_key, attempts, status, reason_code,"
            + " latency_ms, ttft_ms, input_tokens, output_tokens, cost_micros, stream, client_disconnected, success,"
            + " probe, team_id, cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens, reasoning_tokens,"
            + " attempt_chain)"
            // the attempt chain travels as text and is cast here: a String bound to jsonb would be a JSON string
            + " SELECT c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20,"
            + " c21, c22, c23, c24, c25, c26, c27::jsonb FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::text[], $5::text[],"
            + " $6::text[], $7::text[], $8::text[], $9::text[], $10::integer[], $11::integer[], $12::text[],"
            + " $13::bigint[], $14::bigint[], $15::bigint[], $16::bigint[], $17::bigint[], $18::boolean[],"
            + " $19::boolean[], $20::boolean[], $21::boolean[], $22::text[], $23::bigint[], $24::bigint[],"
            + " $25::bigint[], $26::bigint[], $27::text[]) AS u(c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12,"
            + " c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23, c24, c25, c26, c27) ON CONFLICT (request_id, occurred_epoch_ms) DO NOTHING"
            // the rows this statement stored, and only those, count towards spend
            + " RETURNING request_id, cost_micros";

    private static final Logger LOG = Logger.getLogger(UsageConsumer.class);

    /** A screened record and where it came from (for its dead letter). */
    private record Usage(UsageDeadLetters.Origin origin, RequestCompleted value) {}

    private final Pool pool;
    private final StateMetrics metrics;
    private final UsageDeadLetters deadLetters;
    private final SpendLedger spend;
    private final OutboxRelay relay;
    private final Clock clock;
    private final RecordTracing tracing;
    private final UsageStorage storage;
    private final ProducerSignatures signatures;
    private volatile boolean stopping;

    public UsageConsumer(
            Pool pool,
            StateMetrics metrics,
            UsageDeadLetters deadLetters,
            SpendLedger spend,
            OutboxRelay relay,
            Clock clock,
            RecordTracing tracing,
            UsageStorage storage,
            ProducerSignatures signatures) {
        this.tracing = tracing;
        this.signatures = signatures;
        this.storage = storage;
        this.pool = pool;
        this.metrics = metrics;
        this.deadLetters = deadLetters;
        this.spend = spend;
        this.relay = relay;
        this.clock = clock;
    }

    /** Fired before any bean is destroyed, so before the database pool closes. */
    void stopping(@Observes ShutdownEvent shutdown) {
        stopping = true;
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(ConsumerRecords<String, String> batch) {
        List<Usage> records = new ArrayList<>(batch.count());
        Uni<Void> refusals = Uni.createFrom().voidItem();
        long now = clock.millis();
        // a record that carries a request's traceparent (the gateway sends a sampled request's
        // record alone, not in a batch) is stored in a span of that request's trace
        List<Span> spans = null;
        for (ConsumerRecord<String, String> source : batch) {
            metrics.usageDelivered(source.timestamp(), now);
            Span span = tracing.start("store " + CHANNEL, source);
            if (span.isRecording()) {
                if (spans == null) {
                    spans = new ArrayList<>(1);
                }
                spans.add(span);
            }
            // one signature covers the whole message (a batch): a message no producer key signed is
            // dead-lettered whole, unread, and the rest of the poll goes on
            ProducerSignatures.Verdict signed = signatures.check(source);
            if (!signed.valid()) {
                UsageDeadLetters.Origin origin = new UsageDeadLetters.Origin(source, -1, source.value());
                refusals = refusals.flatMap(ok -> deadLetters.send(origin, "signature", signed.describe(), null));
                continue;
            }
            // a gateway's message is a batch of records; each is read, screened and stored on its own
            for (UsageBatch.Entry entry : UsageBatch.decode(source.value())) {
                UsageDeadLetters.Origin origin = new UsageDeadLetters.Origin(source, entry.index(), entry.payload());
                if (entry.refused()) {
                    refusals = refusals.flatMap(ok -> deadLetters.send(origin, "unparsable", entry.refusal(), null));
                    continue;
                }
                Screened<RequestCompleted> screened = InboundScreen.usage(entry.record());
                if (screened instanceof Screened.Refused<RequestCompleted> refused) {
                    refusals = refusals.flatMap(ok -> deadLetters.send(origin, "unstorable", refused.reason(), null));
                } else {
                    Screened.Accepted<RequestCompleted> accepted = (Screened.Accepted<RequestCompleted>) screened;
                    if (accepted.sanitised()) {
                        metrics.sanitised(CHANNEL);
                    }
                    records.add(new Usage(origin, accepted.value()));
                }
            }
        }
        Uni<Void> stored = refusals.flatMap(ok -> store(records));
        if (spans == null) {
            return stored;
        }
        List<Span> traced = spans;
        return stored.onTermination().invoke(() -> traced.forEach(Span::end));
    }

    private Uni<Void> store(List<Usage> records) {
        if (records.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        metrics.usageRecords(records.size());
        // a passing database outage (restart, failover, out of space) must not fail-stop the channel:
        // retry like outcomes. Until one attempt stores the batch the consumer is paused (UsageStorage):
        // the records after it wait in Kafka, uncommitted, and the credential-state path goes on.
        return insert(records)
                .onFailure(failure -> !stopping && Failures.isTransient(failure))
                .invoke(storage::failed)
                .onItem()
                .invoke(storage::stored)
                .onFailure(failure -> !stopping && Failures.isTransient(failure))
                .retry()
                .withBackOff(OutcomeConsumer.FIRST_RETRY, OutcomeConsumer.MAX_RETRY)
                .indefinitely()
                .onFailure(failure -> !stopping)
                .recoverWithUni(failure -> {
                    LOG.infof(
                            "A batch of %d usage records was refused (%s); storing them one at a time",
                            records.size(), describe(failure));
                    return oneAtATime(records);
                })
                .onFailure()
                .recoverWithUni(UsageConsumer::leftForRedelivery);
    }

    private Uni<Void> oneAtATime(List<Usage> records) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Usage record : records) {
            chain = chain.flatMap(ok -> storeOne(record));
        }
        return chain;
    }

    private Uni<Void> storeOne(Usage record) {
        return insert(List.of(record))
                .onFailure(failure -> !stopping && Failures.isTransient(failure))
                .retry()
                .withBackOff(OutcomeConsumer.FIRST_RETRY, OutcomeConsumer.MAX_RETRY)
                .indefinitely()
                .onFailure(failure -> !stopping && Failures.classify(failure) == Failures.Verdict.UNKNOWN)
                .retry()
                .withBackOff(OutcomeConsumer.FIRST_RETRY, OutcomeConsumer.MAX_RETRY)
                .atMost(Failures.BOUNDED_RETRIES)
                .onFailure(failure -> !stopping)
                .recoverWithUni(failure -> deadLetters.send(
                        record.origin(),
                        Failures.classify(failure) == Failures.Verdict.RECORD
                                ? "database_rejected"
                                : "retries_exhausted",
                        "request_logs refused the record: " + describe(failure),
                        failure.getClass().getName()));
    }

    /** Neither stored nor dead-lettered during shutdown: the batch is not committed and comes again. */
    private static Uni<Void> leftForRedelivery(Throwable failure) {
        LOG.infof("Usage batch not stored during shutdown (%s); it is delivered again after the restart", failure);
        return Uni.createFrom().nothing();
    }

    /**
     * Stores the records and counts the stored ones towards spend, in one transaction; once it
     * committed, the relay publishes the spend snapshots it queued.
     */
    private Uni<Void> insert(List<Usage> records) {
        return pool.withTransaction(connection -> prices(connection)
                        .flatMap(prices -> connection.preparedQuery(INSERT).execute(columns(records, prices)))
                        .flatMap(stored -> spend.count(connection, counted(records, stored))))
                .invoke(queued -> {
                    if (queued) {
                        relay.trigger();
                    }
                })
                .replaceWithVoid();
    }

    /**
     * The stored rows as spend counts them: each returned id's record (the first of the batch with
     * that id, which is the one the statement stored) with the cost the row holds.
     */
    private static List<SpendRules.Counted> counted(List<Usage> records, RowSet<Row> stored) {
        Map<UUID, RequestCompleted> byId = new HashMap<>();
        for (Usage record : records) {
            byId.putIfAbsent(record.value().requestId(), record.value());
        }
        List<SpendRules.Counted> out = new ArrayList<>();
        for (Row row : stored) {
            RequestCompleted record = byId.get(row.getUUID("request_id"));
            out.add(new SpendRules.Counted(
                    record.accessKeyId(),
                    record.teamId(),
                    record.occurredAt(),
                    row.getLong("cost_micros"),
                    record.inputTokens(),
                    record.outputTokens(),
                    record.cacheReadTokens(),
                    cacheWrites(record),
                    record.cacheWrite1hTokens(),
                    record.reasoningTokens()));
        }
        return out;
    }

    /** 5-minute and 1-hour cache writes together; null when the upstream reported neither. */
    private static Long cacheWrites(RequestCompleted record) {
        if (record.cacheWrite5mTokens() == null && record.cacheWrite1hTokens() == null) {
            return null;
        }
        long fiveMinutes = record.cacheWrite5mTokens() == null ? 0 : Math.max(0, record.cacheWrite5mTokens());
        long oneHour = record.cacheWrite1hTokens() == null ? 0 : Math.max(0, record.cacheWrite1hTokens());
        long sum = fiveMinutes + oneHour;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** The failure's class and SQLSTATE: PostgreSQL's message text can quote the value. */
    private static String describe(Throwable failure) {
        String sqlState = Failures.sqlState(failure);
        return failure.getClass().getSimpleName() + (sqlState == null ? "" : " SQLSTATE " + sqlState);
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

    /** The records as the statement's 27 column arrays, in {@link #INSERT}'s order. */
    private static Tuple columns(List<Usage> records, ModelPrices prices) {
        int n = records.size();
        UUID[] requestId = new UUID[n];
        String[] occurredAt = new String[n];
        Long[] occurredEpochMs = new Long[n];
        String[] protocol = new String[n];
        String[] accessKeyId = new String[n];
        String[] groupId = new String[n];
        String[] credentialId = new String[n];
        String[] requestedModel = new String[n];
        String[] modelKey = new String[n];
        Integer[] attempts = new Integer[n];
        Integer[] status = new Integer[n];
        String[] reasonCode = new String[n];
        Long[] latencyMs = new Long[n];
        Long[] ttftMs = new Long[n];
        Long[] inputTokens = new Long[n];
        Long[] outputTokens = new Long[n];
        Long[] costMicros = new Long[n];
        Boolean[] stream = new Boolean[n];
        Boolean[] clientDisconnected = new Boolean[n];
        Boolean[] success = new Boolean[n];
        Boolean[] probe = new Boolean[n];
        String[] teamId = new String[n];
        Long[] cacheRead = new Long[n];
        Long[] cacheWrite5m = new Long[n];
        Long[] cacheWrite1h = new Long[n];
        Long[] reasoning = new Long[n];
        String[] attemptChain = new String[n];
        for (int i = 0; i < n; i++) {
            RequestCompleted record = records.get(i).value();
            requestId[i] = record.requestId();
            occurredAt[i] = record.occurredAt().toString();
            occurredEpochMs[i] = record.occurredAt().toEpochMilli();
            protocol[i] = record.protocol() == null ? null : record.protocol().wire();
            accessKeyId[i] = record.accessKeyId();
            groupId[i] = record.groupId();
            credentialId[i] = record.credentialId();
            requestedModel[i] = record.requestedModel();
            modelKey[i] = record.modelKey();
            attempts[i] = record.attempts();
            status[i] = record.status();
            reasonCode[i] = record.reasonCode();
            latencyMs[i] = record.latencyMs();
            ttftMs[i] = record.ttftMs();
            inputTokens[i] = record.inputTokens();
            outputTokens[i] = record.outputTokens();
            // priced per token kind: cache reads, 5-minute and 1-hour writes and reasoning at their own prices
            costMicros[i] = record.costMicros(prices);
            stream[i] = record.stream();
            clientDisconnected[i] = record.clientDisconnected();
            success[i] = record.success();
            probe[i] = record.probe();
            teamId[i] = record.teamId();
            cacheRead[i] = record.cacheReadTokens();
            cacheWrite5m[i] = record.cacheWrite5mTokens();
            cacheWrite1h[i] = record.cacheWrite1hTokens();
            reasoning[i] = record.reasoningTokens();
            attemptChain[i] = record.attemptChain() == null ? null : Json.write(record.attemptChain());
        }
        return Tuple.from(new Object[] {
            requestId,
            occurredAt,
            occurredEpochMs,
            protocol,
            accessKeyId,
            groupId,
            credentialId,
            requestedModel,
            modelKey,
            attempts,
            status,
            reasonCode,
            latencyMs,
            ttftMs,
            inputTokens,
            outputTokens,
            costMicros,
            stream,
            clientDisconnected,
            success,
            probe,
            teamId,
            cacheRead,
            cacheWrite5m,
            cacheWrite1h,
            reasoning,
            attemptChain
        });
    }
}
