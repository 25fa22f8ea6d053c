package io.routegateway.state.outcome;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Singleton;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * State-service's spans of the gateway's records (docs/observability.md#traces): a record's
 * {@code traceparent} header (W3C, written by the gateway's Kafka producer in the attempt's or the
 * request's span) is read with the configured propagator, and the work the record causes here (an
 * outcome's apply transaction, a usage record's insert) is a span under it, so it joins the client
 * request's trace. Attributes are identifiers and closed-set labels only. With the SDK disabled, or
 * a record that carries no sampled parent, the spans are no-ops.
 */
@Singleton
public class RecordTracing {

    public static final AttributeKey<String> CREDENTIAL_ID = AttributeKey.stringKey("route.credential.id");
    public static final AttributeKey<String> EVENT_TYPE = AttributeKey.stringKey("route.event.type");
    public static final AttributeKey<String> EVENT_ID = AttributeKey.stringKey("route.event.id");
    public static final AttributeKey<String> APPLY_RESULT = AttributeKey.stringKey("route.apply.result");
    public static final AttributeKey<Long> STATE_VERSION = AttributeKey.longKey("route.state.version");
    public static final AttributeKey<Long> HEALTH_CHANGES = AttributeKey.longKey("route.state.changes");
    public static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("route.request.id");
    public static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    public static final AttributeKey<Long> PARTITION = AttributeKey.longKey("messaging.destination.partition.id");
    public static final AttributeKey<Long> OFFSET = AttributeKey.longKey("messaging.kafka.offset");
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private static final TextMapGetter<ConsumerRecord<?, ?>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(ConsumerRecord<?, ?> record) {
            List<String> keys = new ArrayList<>();
            for (Header header : record.headers()) {
                keys.add(header.key());
            }
            return keys;
        }

        @Override
        public String get(ConsumerRecord<?, ?> record, String key) {
            if (record == null) {
                return null;
            }
            Header header = record.headers().lastHeader(key);
            return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
        }
    };

    private final OpenTelemetry openTelemetry;
    private final Tracer tracer;

    RecordTracing(OpenTelemetry openTelemetry, Tracer tracer) {
        this.openTelemetry = openTelemetry;
        this.tracer = tracer;
    }

    /** No spans at all (plain unit tests). */
    public static RecordTracing off() {
        OpenTelemetry noop = OpenTelemetry.noop();
        return new RecordTracing(noop, noop.getTracer("state-service"));
    }

    /** The trace context the record's headers name; the root context when they name none. */
    public Context parentOf(ConsumerRecord<?, ?> record) {
        return openTelemetry.getPropagators().getTextMapPropagator().extract(Context.root(), record, HEADERS);
    }

    /**
     * Opens the span of the work {@code record} causes: {@code name} (e.g. {@code apply
     * route.outcomes}), a consumer span under the record's trace context.
     */
    public Span start(String name, ConsumerRecord<?, ?> record) {
        Context parent = parentOf(record);
        if (!Span.fromContext(parent).getSpanContext().isValid()) {
            // a record without a traceparent starts no trace of its own here
            return Span.getInvalid();
        }
        return tracer.spanBuilder(name)
                .setParent(parent)
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute(DESTINATION, record.topic())
                .setAttribute(PARTITION, (long) record.partition())
                .setAttribute(OFFSET, record.offset())
                .startSpan();
    }

    /** An outcome's apply ended. */
    public void applied(Span span, ApplyResult result) {
        if (!span.isRecording()) {
            return;
        }
        span.setAttribute(APPLY_RESULT, result.kind().name().toLowerCase(java.util.Locale.ROOT));
        if (result.kind() == ApplyResult.Kind.CHANGED) {
            span.setAttribute(STATE_VERSION, result.stateVersion());
        }
        span.setAttribute(HEALTH_CHANGES, (long) result.changes().size());
        span.end();
    }

    /** The work failed: its error type (a class name or a reason label, never a message), then the end. */
    public void failed(Span span, String errorType) {
        if (!span.isRecording()) {
            return;
        }
        span.setAttribute(ERROR_TYPE, errorType);
        span.setStatus(StatusCode.ERROR);
        span.end();
    }

    /** The work ended without a result to report. */
    public void ended(Span span) {
        span.end();
    }
}
