package io.routegateway.state.outcome;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import io.opentelemetry.api.trace.Span;
import io.quarkus.runtime.ShutdownEvent;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.InboundScreen;
import io.routegateway.core.event.InboundScreen.Screened;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.json.Json;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.signing.ProducerSignatures;
import io.smallrye.mutiny.Uni;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes {@code route.outcomes} (key = credential id, so one credential's events arrive in order)
 * and, once its producer signature verified ({@link ProducerSignatures}: one not signed by a
 * configured producer key is dead-lettered with the reason {@code signature} and never read), applies each event through {@link CredentialEventService#apply}, after {@link
 * InboundScreen#outcome} made its free text storable or refused an unstorable identifier. A message
 * that can never be applied fails with a {@link PoisonMessageException}: the channel's {@code
 * dead-letter-queue} failure strategy sends it, with its key, payload and the error, to {@code
 * route.outcomes.dlq} and the partition moves on. A passing infrastructure failure (database
 * unreachable, deadlock) is retried with backoff instead, so no good event is dead-lettered because
 * PostgreSQL restarted; a failure that is neither ({@link Failures.Verdict#UNKNOWN}) is retried
 * {@link Failures#BOUNDED_RETRIES} times before the message is dead-lettered.
 *
 * <p>Once the service is shutting down, nothing is dead-lettered and nothing is retried: a failure
 * then is the shutdown's (the database pool closing under an event in flight), so the message is left
 * unacknowledged and is delivered again after the restart, where idempotency makes it count once.
 */
@ApplicationScoped
public class OutcomeConsumer {

    /** The channel name, shared with configuration and tests. */
    public static final String CHANNEL = "outcomes";

    private static final Logger LOG = Logger.getLogger(OutcomeConsumer.class);
    public static final Duration FIRST_RETRY = Duration.ofMillis(100);
    public static final Duration MAX_RETRY = Duration.ofSeconds(10);

    private final CredentialEventService service;
    private final StateMetrics metrics;
    private final Clock clock;
    private final RecordTracing tracing;
    private final ProducerSignatures signatures;
    private volatile boolean stopping;

    /** Without spans (plain unit tests). */
    public OutcomeConsumer(
            CredentialEventService service, StateMetrics metrics, Clock clock, ProducerSignatures signatures) {
        this(service, metrics, clock, RecordTracing.off(), signatures);
    }

    @Inject
    public OutcomeConsumer(
            CredentialEventService service,
            StateMetrics metrics,
            Clock clock,
            RecordTracing tracing,
            ProducerSignatures signatures) {
        this.tracing = tracing;
        this.signatures = signatures;
        this.service = service;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Fired before any bean is destroyed, so before the database pool closes. */
    void stopping(@Observes ShutdownEvent shutdown) {
        stopping = true;
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        metrics.delivered(record.timestamp(), clock.millis());
        // the apply joins the gateway's trace when the record carries its traceparent
        Span span = tracing.start("apply " + CHANNEL, record);
        // nothing a producing service's key did not sign is read, let alone applied
        ProducerSignatures.Verdict signed = signatures.check(record);
        if (!signed.valid()) {
            tracing.failed(span, "signature");
            return deadLetter(record, "signature", new PoisonMessageException(signed.describe()));
        }
        CredentialEvent event;
        try {
            event = parse(record.value());
        } catch (PoisonMessageException e) {
            tracing.failed(span, "unparsable");
            return deadLetter(record, "unparsable", e);
        }
        if (span.isRecording()) {
            span.setAttribute(RecordTracing.CREDENTIAL_ID, event.credentialId());
            span.setAttribute(RecordTracing.EVENT_ID, event.eventId().toString());
            span.setAttribute(RecordTracing.EVENT_TYPE, event.getClass().getSimpleName());
        }
        Screened<CredentialEvent> screened = InboundScreen.outcome(event);
        if (screened instanceof Screened.Refused<CredentialEvent> refused) {
            tracing.failed(span, "unstorable");
            return deadLetter(record, "unstorable", new PoisonMessageException(refused.reason()));
        }
        Screened.Accepted<CredentialEvent> accepted = (Screened.Accepted<CredentialEvent>) screened;
        if (accepted.sanitised()) {
            metrics.sanitised(CHANNEL);
        }
        Instant sentAt = record.timestamp() < 0 ? null : Instant.ofEpochMilli(record.timestamp());
        return service.apply(accepted.value(), new OutcomePosition(record.partition(), record.offset()), sentAt)
                .onFailure(failure -> !stopping && Failures.isTransient(failure))
                .retry()
                .withBackOff(FIRST_RETRY, MAX_RETRY)
                .indefinitely()
                .onFailure(failure -> !stopping && Failures.classify(failure) == Failures.Verdict.UNKNOWN)
                .retry()
                .withBackOff(FIRST_RETRY, MAX_RETRY)
                .atMost(Failures.BOUNDED_RETRIES)
                .invoke(result -> tracing.applied(span, result))
                .onFailure()
                .invoke(failure -> tracing.failed(span, failure.getClass().getName()))
                .replaceWithVoid()
                .onFailure()
                .recoverWithUni(failure -> stopping
                        ? leftForRedelivery(record, failure)
                        : deadLetter(record, reason(failure), poison(failure)));
    }

    /** Neither acknowledged nor dead-lettered: the offset is not committed past it. */
    private static Uni<Void> leftForRedelivery(ConsumerRecord<String, String> record, Throwable failure) {
        LOG.infof(
                "Outcome message %s-%d@%d (key %s) not applied during shutdown (%s); it is delivered again after"
                        + " the restart",
                record.topic(), record.partition(), record.offset(), record.key(), failure.toString());
        return Uni.createFrom().nothing();
    }

    /** Reads one outcome message; anything that is not a known event type is poison. */
    static CredentialEvent parse(String payload) {
        if (payload == null || payload.isBlank()) {
            throw new PoisonMessageException("empty outcome message");
        }
        try {
            return Json.MAPPER.readValue(payload, CredentialEvent.class);
        } catch (InvalidTypeIdException e) {
            throw new PoisonMessageException("unknown event type " + e.getTypeId(), e);
        } catch (JsonProcessingException e) {
            throw new PoisonMessageException("unparsable outcome event: " + e.getOriginalMessage(), e);
        }
    }

    private Uni<Void> deadLetter(ConsumerRecord<String, String> record, String reason, PoisonMessageException e) {
        metrics.eventDeadLettered(reason);
        LOG.warnf(
                "Outcome message %s-%d@%d (key %s) goes to the dead-letter topic: %s",
                record.topic(), record.partition(), record.offset(), record.key(), e.getMessage());
        // failing the message hands it to the dead-letter-queue failure strategy
        return Uni.createFrom().failure(e);
    }

    private static String reason(Throwable failure) {
        if (failure instanceof UnknownCredentialException) {
            return "unknown_credential";
        }
        return Failures.classify(failure) == Failures.Verdict.UNKNOWN ? "retries_exhausted" : "rejected";
    }

    /** The dead letter's reason: the failure's class and SQLSTATE, never PostgreSQL's text (it can quote values). */
    private static PoisonMessageException poison(Throwable failure) {
        if (failure instanceof PoisonMessageException poison) {
            return poison;
        }
        String sqlState = Failures.sqlState(failure);
        return new PoisonMessageException(
                "event rejected: " + failure.getClass().getName() + (sqlState == null ? "" : " SQLSTATE " + sqlState),
                failure);
    }
}
