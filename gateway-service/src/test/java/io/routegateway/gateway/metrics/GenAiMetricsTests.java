package io.routegateway.gateway.metrics;

import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.testing.CredentialBuilder;
import io.routegateway.core.usage.TokenUsage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The GenAI metrics under the names docs/observability.md lists, as Prometheus reads them, with
 * only bounded tag values.
 */
class GenAiMetricsTests {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final GenAiMetrics metrics = new GenAiMetrics(registry);

    private final CredentialSnapshot relay = CredentialBuilder.credential("a")
            .maps("sol", "upstream-sol")
            .maps("*", "*")
            .build();

    @Test
    void aSuccessfulChatRecordsItsDurationTimeToFirstTokenAndBothTokenCounts() {
        metrics.completed(
                Operation.GENERATE,
                Protocol.OPENAI_CHAT,
                relay,
                "upstream-sol",
                200,
                true,
                new TokenUsage(120L, 30L),
                2_500_000_000L,
                400_000_000L);

        String scrape = registry.scrape();

        String target = "gen_ai_operation_name=\"chat\",gen_ai_provider_name=\"openai\","
                + "gen_ai_request_model=\"upstream-sol\"";
        assertThat(scrape)
                .contains("gen_ai_server_request_duration_seconds_count{error_type=\"\"," + target + ",} 1.0")
                .contains("gen_ai_server_request_duration_seconds_bucket{error_type=\"\"," + target
                        + ",le=\"2.56\",} 1.0")
                .contains("gen_ai_server_request_duration_seconds_bucket{error_type=\"\"," + target
                        + ",le=\"1.28\",} 0.0")
                .contains("gen_ai_server_time_to_first_token_seconds_bucket{" + target + ",le=\"0.5\",} 1.0")
                .contains("gen_ai_client_token_usage_sum{" + target + ",gen_ai_token_type=\"input\",} 120.0")
                .contains("gen_ai_client_token_usage_sum{" + target + ",gen_ai_token_type=\"output\",} 30.0")
                .contains("gen_ai_client_token_usage_bucket{" + target
                        + ",gen_ai_token_type=\"output\",le=\"64.0\",} 1.0");
    }

    @Test
    void aFailedRequestHasAnErrorTypeNoTimeToFirstTokenAndNoTokensWhenUnknown() {
        metrics.completed(
                Operation.GENERATE,
                Protocol.ANTHROPIC_MESSAGES,
                null,
                null,
                502,
                false,
                TokenUsage.UNKNOWN,
                1_000_000L,
                -1);

        String scrape = registry.scrape();

        assertThat(scrape)
                .contains("gen_ai_server_request_duration_seconds_count{error_type=\"502\","
                        + "gen_ai_operation_name=\"chat\",gen_ai_provider_name=\"none\","
                        + "gen_ai_request_model=\"none\",} 1.0")
                .contains("gen_ai_server_time_to_first_token_seconds_count{gen_ai_operation_name=\"chat\","
                        + "gen_ai_provider_name=\"none\",gen_ai_request_model=\"none\",} 0.0")
                .contains("gen_ai_client_token_usage_count{gen_ai_operation_name=\"chat\","
                        + "gen_ai_provider_name=\"none\",gen_ai_request_model=\"none\",gen_ai_token_type=\"input\",}"
                        + " 0.0");
    }

    @Test
    void namesAClientChoseNeverBecomeSeries() {
        for (int i = 0; i < 50; i++) {
            metrics.completed(
                    Operation.GENERATE,
                    Protocol.OPENAI_CHAT,
                    relay,
                    "client-model-" + i,
                    200,
                    true,
                    new TokenUsage(1L, 1L),
                    1_000L,
                    1_000L);
        }
        CredentialSnapshot gemini =
                CredentialBuilder.credential("g").official(Platform.GEMINI).build();
        metrics.completed(
                Operation.GENERATE, Protocol.GEMINI, gemini, "gemini-2.5-pro", 200, true, TokenUsage.UNKNOWN, 1, 1);

        String scrape = registry.scrape();

        assertThat(scrape).doesNotContain("client-model-");
        assertThat(registry.find("gen_ai.server.request.duration").timers()).hasSize(2);
        assertThat(registry.get("gen_ai.server.request.duration")
                        .tag("gen_ai.request.model", "_OTHER")
                        .timer()
                        .count())
                .isEqualTo(50);
        assertThat(scrape)
                .contains("gen_ai_operation_name=\"generate_content\",gen_ai_provider_name=\"gcp.gemini\","
                        + "gen_ai_request_model=\"gemini-2.5-pro\"");
    }

    @Test
    void failoversAreCountedByKindAndScope() {
        GatewayMetrics gateway = new GatewayMetrics(
                registry, new io.routegateway.gateway.view.PoolViewHolder(), null, java.time.Clock.systemUTC());
        gateway.failover(
                Protocol.OPENAI_CHAT,
                new Verdict.Transient(FailureKind.UPSTREAM_STATUS, 429, "upstream returned 429", null, true),
                "upstream-sol");
        gateway.failover(
                Protocol.OPENAI_CHAT,
                new Verdict.Transient(FailureKind.UPSTREAM_STATUS, 429, "upstream returned 429", null, true),
                "upstream-sol");
        gateway.failover(
                Protocol.OPENAI_CHAT,
                new Verdict.Transient(FailureKind.TRANSPORT, null, "reset", null, true),
                "upstream-sol");

        assertThat(registry.scrape())
                .contains("gateway_failovers_total{kind=\"upstream_status\",protocol=\"openai_chat\",scope=\"model\",}"
                        + " 2.0")
                .contains("gateway_failovers_total{kind=\"transport\",protocol=\"openai_chat\",scope=\"account\",}"
                        + " 1.0");
    }
}
