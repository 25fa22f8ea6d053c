package io.routegateway.core.failure;

import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class OutcomeClassifierTests {

    static final String CHAT_OK = "{\"choices\":[{\"message\":{\"content\":\"Hello\"},\"finish_reason\":\"stop\"}]}";
    static final String RATE_LIMITED =
            "{\"error\":{\"message\":\"Rate limit reached for requests\",\"type\":\"requests\"}}";

    static Verdict classify(UpstreamOutcome outcome) {
        return OutcomeClassifier.classify(outcome);
    }

    @Nested
    class StatusClassification {

        @ParameterizedTest(name = "status {0} is transient upstream_status")
        @ValueSource(ints = {408, 429, 500, 502, 503, 504, 599})
        void retryableStatusIsTransientWithSameCredentialRetry(int status) {
            assertThat(classify(UpstreamOutcome.response(status, RATE_LIMITED, false)))
                    .isEqualTo(new Verdict.Transient(
                            FailureKind.UPSTREAM_STATUS, status, "upstream returned " + status, RATE_LIMITED, true));
        }

        @ParameterizedTest(name = "status {0} is transient without same-credential retry")
        @ValueSource(ints = {401, 403})
        void authStatusIsTransientWithoutSameCredentialRetry(int status) {
            assertThat(classify(UpstreamOutcome.response(status, "{\"error\":{\"message\":\"key throttled\"}}", false)))
                    .isEqualTo(new Verdict.Transient(
                            FailureKind.UPSTREAM_STATUS,
                            status,
                            "upstream returned " + status,
                            "{\"error\":{\"message\":\"key throttled\"}}",
                            false));
        }

        @ParameterizedTest(name = "status {0} is not a failure")
        @ValueSource(ints = {400, 404, 405, 413, 422})
        void clientErrorsAreNotFailures(int status) {
            assertThat(classify(
                            UpstreamOutcome.response(status, "{\"error\":{\"message\":\"model not found\"}}", false)))
                    .isEqualTo(new Verdict.NotAFailure(status));
        }

        @Test
        void noStatusIsTransportFailure() {
            assertThat(classify(UpstreamOutcome.transportFailure(
                            "read timed out: no bytes for 180s (read-timeout=180s)", false)))
                    .isEqualTo(new Verdict.Transient(
                            FailureKind.TRANSPORT,
                            null,
                            "read timed out: no bytes for 180s (read-timeout=180s)",
                            null,
                            true));
        }

        @Test
        void transportFailureWithoutTextGetsAFallbackMessage() {
            Verdict verdict = classify(UpstreamOutcome.transportFailure(null, false));
            assertThat(((Verdict.Transient) verdict).message()).isEqualTo("transport failure");
        }

        @Test
        void modelTestUsesModelTestLabels() {
            assertThat(((Verdict.Transient) classify(UpstreamOutcome.response(429, "{}", true))).kind())
                    .isEqualTo(FailureKind.MODEL_TEST_STATUS);
            assertThat(((Verdict.Transient) classify(UpstreamOutcome.transportFailure("connection refused", true)))
                            .kind())
                    .isEqualTo(FailureKind.MODEL_TEST);
        }

        @Test
        void successIsSuccess() {
            assertThat(classify(UpstreamOutcome.response(200, CHAT_OK, false))).isEqualTo(Verdict.SUCCESS);
            assertThat(classify(UpstreamOutcome.response(200, CHAT_OK, false)).isFailure())
                    .isFalse();
        }
    }

    @Nested
    class Permanent {

        @Test
        void permanentTextOnAnErrorStatusRevokes() {
            String body = "{\"error\":\"invalid_grant\",\"error_description\":\"Refresh token has been revoked\"}";
            assertThat(classify(UpstreamOutcome.response(401, body, false)))
                    .isEqualTo(new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, 401, "invalid_grant", body));
        }

        @Test
        void permanentTextInTheUpstreamsOwnErrorOnA400Revokes() {
            // relays answer a revoked key with 400: every request would get that 400 for ever
            String body = "{\"error\":{\"message\":\"token has been revoked\"}}";
            assertThat(classify(UpstreamOutcome.response(400, body, false)))
                    .isEqualTo(new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, 400, "token has been revoked", body));
        }

        @Test
        void permanentTextOnA400ThatTheClientSentIsNotAFailure() {
            ClientEcho echo = ClientEcho.of(
                    "{\"model\":\"token has been revoked\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
            assertThat(OutcomeClassifier.classify(
                            UpstreamOutcome.response(
                                    400,
                                    "{\"error\":{\"message\":\"The model `token has been revoked` does not exist\"}}",
                                    false),
                            echo))
                    .isEqualTo(new Verdict.NotAFailure(400));
        }

        @Test
        void permanentTextOutsideTheErrorFieldsOfA400IsNotEvidence() {
            String body = "{\"error\":{\"message\":\"bad request\"},\"request\":{\"model\":\"invalid_grant\"}}";
            assertThat(classify(UpstreamOutcome.response(400, body, false))).isEqualTo(new Verdict.NotAFailure(400));
        }

        @Test
        void permanentTextOutsideTheErrorFieldsIsNotEvidence() {
            String body = "{\"error\":{\"message\":\"Unauthorized\"},\"echo\":{\"model\":\"invalid_grant\"}}";
            assertThat(classify(UpstreamOutcome.response(401, body, false))).isInstanceOf(Verdict.Transient.class);
        }

        @Test
        void permanentTextInTheOAuthErrorDescriptionRevokes() {
            String body = "{\"error\":\"unauthorized\",\"error_description\":\"Refresh token has been revoked\"}";
            assertThat(classify(UpstreamOutcome.response(401, body, false))).isInstanceOf(Verdict.Permanent.class);
        }

        @Test
        void permanentTextInTransportErrorRevokes() {
            assertThat(classify(UpstreamOutcome.transportFailure("refresh failed: 官方 OAuth 凭证已失效", false)))
                    .isInstanceOf(Verdict.Permanent.class);
        }

        @Test
        void permanentTextInsideA2xxFailureEnvelopeRevokes() {
            assertThat(classify(UpstreamOutcome.response(200, "{\"error\":{\"message\":\"invalid_grant\"}}", false)))
                    .isEqualTo(new Verdict.Permanent(
                            FailureKind.UPSTREAM_STATUS,
                            200,
                            "invalid_grant",
                            "{\"error\":{\"message\":\"invalid_grant\"}}"));
        }

        @Test
        void generatedContentMentioningPermanentTextIsASuccess() {
            String body =
                    "{\"choices\":[{\"message\":{\"content\":\"OAuth returns invalid_grant when the token has been revoked\"}}]}";
            assertThat(classify(UpstreamOutcome.response(200, body, false))).isEqualTo(Verdict.SUCCESS);
        }
    }

    @Nested
    class Quota {

        @ParameterizedTest(name = "new-api spent balance with {0}")
        @ValueSource(ints = {401, 403})
        void newApiSpentBalanceIsQuotaExhaustionNotAuthBackoff(int status) {
            assertThat(classify(UpstreamOutcome.response(status, QuotaExhaustionTests.NEW_API_SPENT_BALANCE, false)))
                    .isEqualTo(new Verdict.QuotaExhausted(
                            status,
                            "用户额度不足, 剩余额度: ＄-0.398052 (request id: 20260902...)",
                            QuotaExhaustionTests.NEW_API_SPENT_BALANCE));
        }

        @Test
        void anthropicEnvelopeTypeErrorDoesNotMakeABalanceMessageQuota() {
            String body = "{\"type\":\"error\",\"error\":{\"type\":\"permission_error\",\"message\":\"用户额度不足\"}}";
            assertThat(classify(UpstreamOutcome.response(403, body, false))).isInstanceOf(Verdict.Transient.class);
        }

        @Test
        void openAiInsufficientQuotaOn429IsQuotaExhaustion() {
            String body = "{\"error\":{\"message\":\"You exceeded your current quota\",\"type\":\"insufficient_quota\","
                    + "\"code\":\"insufficient_quota\"}}";
            assertThat(classify(UpstreamOutcome.response(429, body, false)))
                    .isEqualTo(new Verdict.QuotaExhausted(429, "You exceeded your current quota", body));
        }

        @Test
        void budgetPoolBodyOn200IsQuotaExhaustion() {
            Verdict verdict =
                    classify(UpstreamOutcome.response(200, QuotaExhaustionTests.BUDGET_POOL_EXHAUSTED, false));
            assertThat(verdict).isInstanceOf(Verdict.QuotaExhausted.class);
            assertThat(((Verdict.QuotaExhausted) verdict).message())
                    .startsWith("Budget pool quota has been exhausted.");
            assertThat(((Verdict.QuotaExhausted) verdict).kind()).isEqualTo(FailureKind.SEMANTIC_RESPONSE_FAILED);
        }

        @Test
        void budgetPoolBodyOn500IsQuotaExhaustion() {
            assertThat(classify(UpstreamOutcome.response(500, QuotaExhaustionTests.BUDGET_POOL_EXHAUSTED, false)))
                    .isInstanceOf(Verdict.QuotaExhausted.class);
        }

        @Test
        void quotaIsJudgedBeforePermanentText() {
            String body = "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"invalid_grant\"}}";
            assertThat(classify(UpstreamOutcome.response(401, body, false))).isInstanceOf(Verdict.QuotaExhausted.class);
        }

        @ParameterizedTest(name = "quota text on {0} is not a failure")
        @ValueSource(ints = {400, 402, 404, 422})
        void quotaTextNeverMakesANotAFailureStatusAFailure(int status) {
            assertThat(classify(UpstreamOutcome.response(
                            status, "{\"error\":{\"message\":\"insufficient quota\"}}", false)))
                    .isEqualTo(new Verdict.NotAFailure(status));
        }

        @Test
        void quotaInAStreamedErrorEventIsQuotaExhaustion() {
            String stream = "event: error\ndata: {\"type\":\"error\",\"code\":\"insufficient_quota\","
                    + "\"message\":\"You exceeded your current quota\"}\n\n";
            assertThat(classify(UpstreamOutcome.bufferedStream(200, stream, false)))
                    .isEqualTo(new Verdict.QuotaExhausted(200, "You exceeded your current quota", stream));
        }

        @Test
        void quotaCodeWithoutMessageUsesTheCode() {
            assertThat(classify(UpstreamOutcome.response(403, "{\"error\":{\"code\":\"usage_exhausted\"}}", false)))
                    .isEqualTo(new Verdict.QuotaExhausted(
                            403, "usage_exhausted", "{\"error\":{\"code\":\"usage_exhausted\"}}"));
        }
    }

    @Nested
    class Semantic {

        @Test
        void failureBodyOn200IsSemanticTransientWithTheUpstreamMessage() {
            String body = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";
            assertThat(classify(UpstreamOutcome.response(200, body, false)))
                    .isEqualTo(new Verdict.Transient(
                            FailureKind.SEMANTIC_RESPONSE_TRANSIENT, 200, "Overloaded", body, false));
        }

        @Test
        void semanticFailureInAModelTestIsStillSemanticTransient() {
            assertThat(((Verdict.Transient) classify(UpstreamOutcome.response(200, RATE_LIMITED, true))).kind())
                    .isEqualTo(FailureKind.SEMANTIC_RESPONSE_TRANSIENT);
        }

        @Test
        void completedStreamIsSuccess() {
            String stream = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: [DONE]\n\n";
            assertThat(classify(UpstreamOutcome.bufferedStream(200, stream, false)))
                    .isEqualTo(Verdict.SUCCESS);
        }

        @Test
        void truncatedStreamIsSemanticTransientDisconnected() {
            String stream = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n";
            assertThat(classify(UpstreamOutcome.bufferedStream(200, stream, false)))
                    .isEqualTo(new Verdict.Transient(
                            FailureKind.SEMANTIC_RESPONSE_TRANSIENT,
                            200,
                            "stream_disconnected_before_completion",
                            stream,
                            false));
        }

        @Test
        void emptyStreamIsTruncated() {
            assertThat(((Verdict.Transient) classify(UpstreamOutcome.bufferedStream(200, "", false))).message())
                    .isEqualTo(StreamCompletion.DISCONNECTED_MESSAGE);
        }

        @Test
        void failureFrameWinsOverTruncation() {
            String stream = "data: {\"error\":{\"message\":\"upstream overloaded\"}}\n\n";
            assertThat(((Verdict.Transient) classify(UpstreamOutcome.bufferedStream(200, stream, false))).message())
                    .isEqualTo("upstream overloaded");
        }

        @Test
        void passthroughStreamCutAfterDataIsTruncationEvenWithAReadTimeout() {
            Verdict verdict = classify(UpstreamOutcome.passthroughStream(
                    200, "data: {\"choices\":[]}\n\n", false, "read timed out (read-timeout=180s)", false));
            assertThat(((Verdict.Transient) verdict).kind()).isEqualTo(FailureKind.SEMANTIC_RESPONSE_TRANSIENT);
            assertThat(((Verdict.Transient) verdict).message()).isEqualTo(StreamCompletion.DISCONNECTED_MESSAGE);
        }

        @Test
        void passthroughStreamThatBrokeBeforeAnyByteIsTransport() {
            Verdict verdict = classify(
                    UpstreamOutcome.passthroughStream(200, "", false, "read timed out (read-timeout=180s)", false));
            assertThat(verdict)
                    .isEqualTo(new Verdict.Transient(
                            FailureKind.TRANSPORT, 200, "read timed out (read-timeout=180s)", "", true));
        }

        @Test
        void passthroughStreamThatSawItsMarkerIsSuccessEvenIfTheSocketThenBroke() {
            assertThat(classify(UpstreamOutcome.passthroughStream(
                            200, "data: [DONE]\n\n", true, "connection reset", false)))
                    .isEqualTo(Verdict.SUCCESS);
        }

        @Test
        void bufferedBodyThatCouldNotBeReadIsTransport() {
            assertThat(classify(new UpstreamOutcome(200, "connection reset by peer", "{\"choi", false, false, false)))
                    .isEqualTo(new Verdict.Transient(
                            FailureKind.TRANSPORT, 200, "connection reset by peer", "{\"choi", true));
        }
    }

    @Property
    void bufferedAndStreamingPathsReachTheSameVerdict(
            @ForAll("streams") String stream, @ForAll @IntRange(min = 0, max = 600) int cut) {
        int at = Math.min(cut, stream.length());
        boolean seen = StreamCompletion.scan()
                .feed(stream.substring(0, at))
                .feed(stream.substring(at))
                .completed();
        assertThat(classify(UpstreamOutcome.passthroughStream(200, stream, seen, null, false)))
                .isEqualTo(classify(UpstreamOutcome.bufferedStream(200, stream, false)));
    }

    @Provide
    Arbitrary<String> streams() {
        List<String> frames = List.of(
                "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n",
                "data: [DONE]\n\n",
                "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
                "data: {\"candidates\":[{\"finishReason\": \"STOP\"}]}\n\n",
                "event: error\ndata: {\"type\":\"error\",\"error\":{\"message\":\"Overloaded\"}}\n\n",
                "data: {\"error\":{\"code\":\"insufficient_quota\"}}\n\n",
                "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"error\":null}}\n\n");
        return Arbitraries.of(frames).list().ofMaxSize(6).map(list -> String.join("", list));
    }
}
