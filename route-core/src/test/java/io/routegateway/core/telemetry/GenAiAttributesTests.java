package io.routegateway.core.telemetry;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.testing.CredentialBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GenAiAttributesTests {

    @Test
    void operationsFollowTheSemanticConventions() {
        assertThat(GenAiAttributes.operationName(Operation.GENERATE, Protocol.OPENAI_CHAT))
                .isEqualTo("chat");
        assertThat(GenAiAttributes.operationName(Operation.GENERATE, Protocol.OPENAI_RESPONSES))
                .isEqualTo("chat");
        assertThat(GenAiAttributes.operationName(Operation.GENERATE, Protocol.ANTHROPIC_MESSAGES))
                .isEqualTo("chat");
        assertThat(GenAiAttributes.operationName(Operation.GENERATE, Protocol.GEMINI))
                .isEqualTo("generate_content");
        assertThat(GenAiAttributes.operationName(Operation.EMBEDDINGS, Protocol.OPENAI_CHAT))
                .isEqualTo("embeddings");
        assertThat(GenAiAttributes.operationName(Operation.COUNT_TOKENS, Protocol.ANTHROPIC_MESSAGES))
                .isEqualTo("count_tokens");
    }

    @Test
    void everyPlatformHasAConventionalProviderName() {
        assertThat(GenAiAttributes.providerName(Platform.CLAUDE)).isEqualTo("anthropic");
        assertThat(GenAiAttributes.providerName(Platform.CODEX)).isEqualTo("openai");
        assertThat(GenAiAttributes.providerName(Platform.OPENAI)).isEqualTo("openai");
        assertThat(GenAiAttributes.providerName(Platform.GEMINI)).isEqualTo("gcp.gemini");
        assertThat(GenAiAttributes.providerName(Platform.GROK)).isEqualTo("x_ai");
        assertThat(GenAiAttributes.providerName(null)).isEqualTo("none");
    }

    @Test
    void aModelIsNamedOnlyWhenTheConfigurationNamesItNeverWhatAClientChose() {
        CredentialSnapshot mapped = CredentialBuilder.credential("a")
                .maps("sol", "upstream-sol")
                .maps("*", "*")
                .build();
        CredentialSnapshot official =
                CredentialBuilder.credential("o").official(Platform.CODEX).build();

        assertThat(GenAiAttributes.requestModel(mapped, "upstream-sol")).isEqualTo("upstream-sol");
        // sent through the pass-through catch-all: the client's own string
        assertThat(GenAiAttributes.requestModel(mapped, "anything-a-client-typed"))
                .isEqualTo("_OTHER");
        assertThat(GenAiAttributes.requestModel(official, "gpt-5")).isEqualTo("gpt-5");
        assertThat(GenAiAttributes.requestModel(official, "gpt-5-made-up")).isEqualTo("_OTHER");
        assertThat(GenAiAttributes.requestModel(null, "gpt-5")).isEqualTo("none");
        assertThat(GenAiAttributes.requestModel(mapped, null)).isEqualTo("none");
    }

    @Test
    void errorTypeIsTheClientStatusAndEmptyOnSuccess() {
        assertThat(GenAiAttributes.errorType(200, true)).isEmpty();
        assertThat(GenAiAttributes.errorType(502, false)).isEqualTo("502");
        assertThat(GenAiAttributes.errorType(429, false)).isEqualTo("429");
        assertThat(GenAiAttributes.errorType(200, false)).isEqualTo("stream_failed");
    }

    @Test
    void aFailoverCarriesTheFailureKindAndTheLayerItWasChargedTo() {
        assertThat(FailoverCause.of(
                        new Verdict.Transient(FailureKind.UPSTREAM_STATUS, 429, "upstream returned 429", null, true),
                        "upstream-sol"))
                .isEqualTo(new FailoverCause("upstream_status", "model"));
        assertThat(FailoverCause.of(
                        new Verdict.Transient(FailureKind.UPSTREAM_STATUS, 401, "upstream returned 401", null, false),
                        "upstream-sol"))
                .isEqualTo(new FailoverCause("upstream_status", "account"));
        assertThat(FailoverCause.of(
                        new Verdict.Transient(FailureKind.TRANSPORT, null, "reset", null, true), "upstream-sol"))
                .isEqualTo(new FailoverCause("transport", "account"));
        // no model name: charged to the account
        assertThat(FailoverCause.of(
                        new Verdict.Transient(FailureKind.UPSTREAM_STATUS, 500, "upstream returned 500", null, true),
                        null))
                .isEqualTo(new FailoverCause("upstream_status", "account"));
        assertThat(FailoverCause.of(new Verdict.QuotaExhausted(200, "quota", null), "upstream-sol"))
                .isEqualTo(new FailoverCause("semantic_response_failed", "account"));
        assertThat(FailoverCause.of(
                        new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, 401, "invalid api key", null),
                        "upstream-sol"))
                .isEqualTo(new FailoverCause("upstream_status", "account"));
        assertThat(FailoverCause.of(Verdict.SUCCESS, "upstream-sol")).isEqualTo(FailoverCause.UNKNOWN);
        assertThat(FailoverCause.of(null, null)).isEqualTo(FailoverCause.UNKNOWN);
    }
}
