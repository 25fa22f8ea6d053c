package io.routegateway.gateway.metrics;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.telemetry.GenAiAttributes;
import io.routegateway.core.usage.TokenUsage;

/**
 * The OpenTelemetry GenAI semantic conventions' metrics in Micrometer form (Prometheus replaces the
 * dots with underscores and adds {@code _seconds} to timers), one record per settled client request:
 *
 * <ul>
 *   <li>{@code gen_ai_client_token_usage{gen_ai_operation_name, gen_ai_provider_name,
 *       gen_ai_request_model, gen_ai_token_type}} — tokens the upstream reported, {@code input} and
 *       {@code output} (histogram, the conventions' buckets);
 *   <li>{@code gen_ai_server_request_duration_seconds{…, error_type}} — request arrival to its last
 *       byte (histogram);
 *   <li>{@code gen_ai_server_time_to_first_token_seconds{…}} — request arrival to the first byte of a
 *       successful answer (histogram).
 * </ul>
 *
 * <p>Every tag value comes from {@link GenAiAttributes}: closed sets and configured model keys only.
 * Meters are looked up once per tag combination and cached.
 */
public final class GenAiMetrics {

    /** The conventions' advice for {@code gen_ai.client.token.usage}. */
    static final double[] TOKEN_BUCKETS = {
        1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864
    };

    /** The conventions' advice for {@code gen_ai.server.request.duration}, in seconds. */
    static final Duration[] DURATION_BUCKETS =
            seconds(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92);

    /** The conventions' advice for {@code gen_ai.server.time_to_first_token}, in seconds. */
    static final Duration[] TTFT_BUCKETS =
            seconds(0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0);

    private final MeterRegistry registry;
    private final ConcurrentHashMap<Series, Timer> durations = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Target, TargetMeters> targets = new ConcurrentHashMap<>();

    GenAiMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * One settled client request.
     *
     * @param credential the last credential tried, null when none was selected
     * @param modelKey the model key it was charged under, may be null
     * @param ttftNanos arrival to the first byte sent, negative when nothing was sent
     */
    public void completed(
            Operation operation,
            Protocol protocol,
            CredentialSnapshot credential,
            String modelKey,
            int status,
            boolean success,
            TokenUsage tokens,
            long durationNanos,
            long ttftNanos) {
        Target target = new Target(
                GenAiAttributes.operationName(operation, protocol),
                GenAiAttributes.providerName(credential == null ? null : credential.platform()),
                GenAiAttributes.requestModel(credential, modelKey));
        durations
                .computeIfAbsent(new Series(target, GenAiAttributes.errorType(status, success)), this::duration)
                .record(Math.max(0, durationNanos), TimeUnit.NANOSECONDS);
        TargetMeters meters = targets.computeIfAbsent(target, this::targetMeters);
        if (success && ttftNanos >= 0) {
            meters.ttft.record(ttftNanos, TimeUnit.NANOSECONDS);
        }
        if (tokens.inputTokens() != null && tokens.inputTokens() >= 0) {
            meters.input.record(tokens.inputTokens());
        }
        if (tokens.outputTokens() != null && tokens.outputTokens() >= 0) {
            meters.output.record(tokens.outputTokens());
        }
    }

    private Timer duration(Series series) {
        return Timer.builder("gen_ai.server.request.duration")
                .description("GenAI server request duration: a client request's arrival to its last byte")
                .tags(series.target.tags())
                .tag("error.type", series.errorType)
                .serviceLevelObjectives(DURATION_BUCKETS)
                .register(registry);
    }

    private TargetMeters targetMeters(Target target) {
        Timer ttft = Timer.builder("gen_ai.server.time_to_first_token")
                .description("GenAI time to first token: a client request's arrival to the first byte of a"
                        + " successful answer")
                .tags(target.tags())
                .serviceLevelObjectives(TTFT_BUCKETS)
                .register(registry);
        return new TargetMeters(ttft, tokens(target, "input"), tokens(target, "output"));
    }

    private DistributionSummary tokens(Target target, String type) {
        return DistributionSummary.builder("gen_ai.client.token.usage")
                .description("GenAI token usage reported by the upstream, per request")
                .tags(target.tags())
                .tag("gen_ai.token.type", type)
                .serviceLevelObjectives(TOKEN_BUCKETS)
                .register(registry);
    }

    private static Duration[] seconds(double... values) {
        Duration[] durations = new Duration[values.length];
        for (int i = 0; i < values.length; i++) {
            durations[i] = Duration.ofNanos(Math.round(values[i] * 1_000_000_000L));
        }
        return durations;
    }

    private record Target(String operation, String provider, String model) {
        String[] tags() {
            return new String[] {
                "gen_ai.operation.name", operation,
                "gen_ai.provider.name", provider,
                "gen_ai.request.model", model
            };
        }
    }

    private record Series(Target target, String errorType) {}

    private record TargetMeters(Timer ttft, DistributionSummary input, DistributionSummary output) {}
}
