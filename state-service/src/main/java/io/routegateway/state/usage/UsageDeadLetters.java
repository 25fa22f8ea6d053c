package io.routegateway.state.usage;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.webhook.NotificationRules;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.outcome.OutcomeConsumer;
import io.routegateway.state.webhook.WebhookQueue;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

/**
 * Writes a usage record that cannot be stored to {@code route.usage.dlq} with its original key and
 * its own payload (one record of a batch, not the batch) and the same headers as the outcomes'
 * dead-letter topic ({@code dead-letter-reason}, {@code dead-letter-exception-class-name}, {@code
 * dead-letter-topic}, {@code dead-letter-partition}, {@code dead-letter-offset}), plus {@code
 * dead-letter-batch-index} for a record of a batch. The usage channel consumes in batches, so it
 * dead-letters record by record itself instead of through a failure strategy (which would take the
 * whole batch). The returned Uni completes once the broker has the record; a passing broker failure
 * is retried, so the batch is committed only after its dead letters are safe.
 */
@ApplicationScoped
public class UsageDeadLetters {

    /** The outgoing channel to {@code route.usage.dlq}. */
    public static final String CHANNEL = "usage-dead-letter";

    private static final Logger LOG = Logger.getLogger(UsageDeadLetters.class);

    private final MutinyEmitter<Record<String, String>> emitter;
    private final StateMetrics metrics;
    private final WebhookQueue webhooks;
    private final Clock clock;

    public UsageDeadLetters(
            @Channel(CHANNEL) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
                    MutinyEmitter<Record<String, String>> emitter,
            StateMetrics metrics,
            WebhookQueue webhooks,
            Clock clock) {
        this.emitter = emitter;
        this.metrics = metrics;
        this.webhooks = webhooks;
        this.clock = clock;
    }

    /**
     * Where a record came from.
     *
     * @param index its position in its message's batch, -1 for a message of one record
     * @param payload the record's own JSON text
     */
    record Origin(ConsumerRecord<String, String> source, int index, String payload) {}

    /**
     * @param reasonTag the metric tag: {@code unparsable}, {@code unstorable}, {@code
     *     database_rejected} or {@code retries_exhausted}
     * @param reason what is wrong, for operators; never the record's content
     * @param exceptionClass the failure's class, null when the record was refused before storing
     */
    Uni<Void> send(Origin origin, String reasonTag, String reason, String exceptionClass) {
        ConsumerRecord<String, String> source = origin.source();
        metrics.usageDeadLettered(reasonTag);
        LOG.warnf(
                "Usage record %s-%d@%d%s goes to the dead-letter topic (%s): %s",
                source.topic(),
                source.partition(),
                source.offset(),
                origin.index() < 0 ? "" : "#" + origin.index(),
                reasonTag,
                reason);
        RecordHeaders headers = new RecordHeaders();
        header(headers, "dead-letter-reason", reason);
        if (exceptionClass != null) {
            header(headers, "dead-letter-exception-class-name", exceptionClass);
        }
        header(headers, "dead-letter-topic", source.topic());
        header(headers, "dead-letter-partition", Integer.toString(source.partition()));
        header(headers, "dead-letter-offset", Long.toString(source.offset()));
        if (origin.index() >= 0) {
            header(headers, "dead-letter-batch-index", Integer.toString(origin.index()));
        }
        Message<Record<String, String>> message = Message.of(Record.of(source.key(), origin.payload()))
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                        .withHeaders(headers)
                        .build());
        return emitter.sendMessage(message)
                .onFailure()
                .invoke(failure -> LOG.warnf("Dead-lettering a usage record failed, retrying: %s", failure.toString()))
                .onFailure()
                .retry()
                .withBackOff(OutcomeConsumer.FIRST_RETRY, OutcomeConsumer.MAX_RETRY)
                .indefinitely()
                .flatMap(sent -> notifyDeadLettered(source, origin.index(), reasonTag));
    }

    /** The {@code usage.dead_lettered} webhook; a failure to queue it is logged, never retried (the record is safe). */
    private Uni<Void> notifyDeadLettered(ConsumerRecord<String, String> source, int index, String reasonTag) {
        String position =
                source.topic() + "-" + source.partition() + "@" + source.offset() + (index < 0 ? "" : "#" + index);
        return webhooks.queueAlone(NotificationRules.usageDeadLettered(reasonTag, position, clock.instant()))
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.warnf("Queueing the webhook of a dead-lettered usage record failed: %s", failure.toString());
                    return null;
                });
    }

    private static void header(RecordHeaders headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
