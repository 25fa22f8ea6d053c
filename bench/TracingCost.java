import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.management.OperatingSystemMXBean;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.usage.TokenUsage;
import io.routegateway.gateway.trace.RequestTracing;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The tracing work one buffered, successful gateway request adds, in process and single-threaded,
 * tracing off (OpenTelemetry's no-op, what quarkus.otel.sdk.disabled=true gives) against the SDK at a
 * ratio of 1 % and 100 % (parentbased_traceidratio), with the batch span processor and an exporter
 * that encodes every batch to OTLP protobuf (as the real exporter does before sending; nothing is
 * sent). Per request: the server span Quarkus makes (its HTTP attributes), the gateway's attributes
 * on it (RequestTracing.requestStarted), one attempt span (attemptStarted/attemptEnded with tokens),
 * the usage record's producer span with its traceparent written into Kafka headers (SmallRye's
 * work), the server span's end. Paced to -Drate requests per second (default 20,000) so that the
 * export keeps up; prints process-CPU time per request (it includes the span processor's thread and the
 * flush of what is queued at the end of each run), modes interleaved over rounds. Wall time per request
 * is the pacing's, not a cost.
 *
 * <pre>
 * java -cp "gateway-service/target/quarkus-app/lib/main/*:gateway-service/target/quarkus-app/app/*" \
 *   bench/TracingCost.java [SECONDS_PER_RUN] [ROUNDS]
 * </pre>
 */
public final class TracingCost {

    static final AtomicLong EXPORTED_BYTES = new AtomicLong();

    /** Encodes each batch to OTLP protobuf, then drops it. */
    static final class EncodingExporter implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            try {
                ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
                TraceRequestMarshaler.create(spans).writeBinaryTo(out);
                EXPORTED_BYTES.addAndGet(out.size());
            } catch (Exception e) {
                return CompletableResultCode.ofFailure();
            }
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }

    record Mode(String name, OpenTelemetry otel, RequestTracing tracing, Tracer tracer, SdkTracerProvider provider) {}

    /** Requests per second the loop is paced to: a gateway replica's order of magnitude, which the
     * span processor's export keeps up with (unpaced, its queue overflows and spans are dropped
     * unexported, which would make tracing look cheaper than it is). */
    static final int RATE = Integer.getInteger("rate", 20_000);

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        CredentialSnapshot credential = credential();
        Mode[] modes = {mode("off", OpenTelemetry.noop(), null), sdkMode("1%", 0.01), sdkMode("100%", 1.0)};
        for (Mode m : modes) {
            run(m, credential, 2); // warm-up
        }
        double[][] cpu = new double[modes.length][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < modes.length; i++) {
                Mode m = modes[(i + r) % modes.length];
                double[] res = run(m, credential, seconds);
                int idx = (i + r) % modes.length;
                cpu[idx][r] = res[1];
                System.out.printf("round %d %-5s cpu %8.0f ns/request%n", r + 1, m.name, res[1]);
            }
        }
        for (int i = 0; i < modes.length; i++) {
            double sum = 0;
            for (double v : cpu[i]) {
                sum += v;
            }
            System.out.printf("mean %-5s cpu %8.0f ns/request%n", modes[i].name, sum / rounds);
        }
        System.out.printf("exported %d bytes of OTLP protobuf%n", EXPORTED_BYTES.get());
        System.exit(0);
    }

    static Mode sdkMode(String name, double ratio) throws Exception {
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(ratio)))
                .addSpanProcessor(BatchSpanProcessor.builder(new EncodingExporter()).build())
                .build();
        OpenTelemetry otel = OpenTelemetrySdk.builder()
                .setTracerProvider(provider)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        return mode(name, otel, provider);
    }

    static Mode mode(String name, OpenTelemetry otel, SdkTracerProvider provider) throws Exception {
        Tracer tracer = otel.getTracer("io.quarkus.opentelemetry");
        Constructor<RequestTracing> c = RequestTracing.class.getDeclaredConstructor(Tracer.class);
        c.setAccessible(true);
        return new Mode(name, otel, c.newInstance(otel.getTracer("gateway")), tracer, provider);
    }

    /** [wall ns per request, process CPU ns per request] */
    static double[] run(Mode m, CredentialSnapshot credential, int seconds) {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        long end = t0 + seconds * 1_000_000_000L;
        long n = 0;
        long perHundred = 100L * 1_000_000_000L / RATE;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 100; i++) {
                oneRequest(m, credential);
            }
            n += 100;
            long due = t0 + (n / 100) * perHundred;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
            }
        }
        if (m.provider != null) {
            // what is still queued is exported inside the measured CPU
            m.provider.forceFlush().join(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        long wall = System.nanoTime() - t0;
        long cpu = os.getProcessCpuTime() - cpu0;
        return new double[] {(double) wall / n, (double) cpu / n};
    }

    static final Verdict SUCCESS = new Verdict.Success();
    static final TokenUsage TOKENS = new TokenUsage(11L, 7L);

    static void oneRequest(Mode m, CredentialSnapshot credential) {
        // Quarkus's server span, with the attributes its HTTP instrumentation sets
        Span server = m.tracer.spanBuilder("POST /v1/chat/completions")
                .setSpanKind(SpanKind.SERVER)
                .setParent(Context.root())
                .setAttribute("http.request.method", "POST")
                .setAttribute("url.path", "/v1/chat/completions")
                .setAttribute("url.scheme", "http")
                .setAttribute("http.route", "/v1/chat/completions")
                .setAttribute("client.address", "127.0.0.1")
                .setAttribute("user_agent.original", "wrk")
                .startSpan();
        Context request = Context.root().with(server);
        m.tracing.requestStarted(request, "0193c0de-0000-7000-8000-000000000001", "k-bench", Operation.GENERATE,
                Protocol.OPENAI_CHAT, "bench-model");
        Span attempt = m.tracing.attemptStarted(request, Operation.GENERATE, Protocol.OPENAI_CHAT, credential,
                "g-bench", "bench-model", "bench-model", 1, null);
        m.tracing.attemptEnded(attempt, SUCCESS, "success", "bench-model", TOKENS);
        // the usage record's producer span and its traceparent in the record's headers (SmallRye)
        Span producer = m.tracer.spanBuilder("route.usage publish")
                .setSpanKind(SpanKind.PRODUCER)
                .setParent(request)
                .setAttribute("messaging.system", "kafka")
                .setAttribute("messaging.destination.name", "route.usage")
                .startSpan();
        RecordHeaders headers = new RecordHeaders();
        m.otel.getPropagators().getTextMapPropagator().inject(Context.root().with(producer), headers,
                (carrier, key, value) -> carrier.add(key, value.getBytes(StandardCharsets.UTF_8)));
        producer.end();
        server.setAttribute("http.response.status_code", 200L);
        server.end();
    }

    /** A credential snapshot with only what the spans read: its id and platform. */
    static CredentialSnapshot credential() throws Exception {
        RecordComponent[] components = CredentialSnapshot.class.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            values[i] = defaultOf(types[i]);
            if (components[i].getName().equals("credentialId")) {
                values[i] = "c-bench";
            } else if (components[i].getName().equals("platform")) {
                values[i] = Platform.OPENAI;
            } else if (types[i] == java.util.List.class) {
                values[i] = java.util.List.of();
            } else if (types[i] == java.util.Map.class) {
                values[i] = java.util.Map.of();
            } else if (types[i] == UUID.class) {
                values[i] = UUID.randomUUID();
            }
        }
        Constructor<CredentialSnapshot> c = CredentialSnapshot.class.getDeclaredConstructor(types);
        return c.newInstance(values);
    }

    static Object defaultOf(Class<?> type) {
        if (!type.isPrimitive()) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == double.class) {
            return 0.0;
        }
        return 0;
    }
}
