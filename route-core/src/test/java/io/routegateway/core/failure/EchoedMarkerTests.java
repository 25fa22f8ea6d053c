package io.routegateway.core.failure;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Content a client controls is never evidence about a credential: every permanent and quota marker,
 * put by the client in each place the three vendors quote back (model name, extra field, prompt
 * text, tool name), in the vendor's own error wording.
 */
class EchoedMarkerTests {

    /** Every marker text a client could plant: permanent markers, quota phrases, the new-api prefix. */
    static List<String> markers() {
        List<String> all = new ArrayList<>(FailureClassifier.PERMANENT_MARKERS);
        all.addAll(QuotaExhaustion.MESSAGE_PHRASES);
        all.add(QuotaExhaustion.NEW_API_BALANCE_PREFIX);
        all.add("Insufficient_Quota");
        return all;
    }

    enum Vendor {
        OPENAI,
        ANTHROPIC,
        GEMINI
    }

    enum Shape {
        MODEL_NAME,
        EXTRA_FIELD,
        PROMPT_TEXT,
        TOOL_NAME
    }

    /** One echo attack: what the client sent and how the vendor quotes it in an error. */
    record Attack(Vendor vendor, Shape shape, String marker, ClientEcho echo, String errorBody) {
        @Override
        public String toString() {
            return vendor + " " + shape + " '" + marker + "'";
        }
    }

    static Attack attack(Vendor vendor, Shape shape, String marker) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        String url;
        switch (vendor) {
            case OPENAI -> {
                url = "https://api.openai.test/v1/chat/completions";
                body.put("model", shape == Shape.MODEL_NAME ? marker : "gpt-4o");
                body.putArray("messages")
                        .addObject()
                        .put("role", "user")
                        .put("content", shape == Shape.PROMPT_TEXT ? marker : "hi");
                if (shape == Shape.TOOL_NAME) {
                    body.putArray("tools")
                            .addObject()
                            .put("type", "function")
                            .putObject("function")
                            .put("name", marker);
                }
            }
            case ANTHROPIC -> {
                url = "https://api.anthropic.test/v1/messages";
                body.put("model", shape == Shape.MODEL_NAME ? marker : "claude-sonnet");
                body.put("max_tokens", 16);
                body.putArray("messages")
                        .addObject()
                        .put("role", "user")
                        .put("content", shape == Shape.PROMPT_TEXT ? marker : "hi");
                if (shape == Shape.TOOL_NAME) {
                    body.putArray("tools").addObject().put("name", marker).putObject("input_schema");
                }
            }
            default -> {
                url = "https://gemini.test/v1beta/models/" + (shape == Shape.MODEL_NAME ? marker : "gemini-pro")
                        + ":generateContent";
                body.putArray("contents")
                        .addObject()
                        .putArray("parts")
                        .addObject()
                        .put("text", shape == Shape.PROMPT_TEXT ? marker : "hi");
                if (shape == Shape.TOOL_NAME) {
                    body.putArray("tools")
                            .addObject()
                            .putArray("functionDeclarations")
                            .addObject()
                            .put("name", marker);
                }
            }
        }
        if (shape == Shape.EXTRA_FIELD) {
            body.put(marker, 1);
        }
        byte[] sent = body.toString().getBytes(StandardCharsets.UTF_8);
        return new Attack(
                vendor, shape, marker, ClientEcho.of(sent, url), VendorEchoes.errorBody(vendor, shape, marker));
    }

    static Stream<Attack> attacks() {
        List<Attack> all = new ArrayList<>();
        for (Vendor vendor : Vendor.values()) {
            for (Shape shape : Shape.values()) {
                for (String marker : markers()) {
                    all.add(attack(vendor, shape, marker));
                }
            }
        }
        return all.stream();
    }

    static Stream<Arguments> attacksOnClientStatuses() {
        return attacks().flatMap(a -> Stream.of(400, 404, 422).map(status -> Arguments.of(a, status)));
    }

    static Stream<Arguments> attacksOnFailureStatuses() {
        return attacks().flatMap(a -> Stream.of(401, 403, 429, 500, 503).map(status -> Arguments.of(a, status)));
    }

    @Test
    void everyAttackReallyCarriesAMarkerInTheUpstreamErrorFields() {
        // guards the fixture: without a matching marker the tests below would pass vacuously
        attacks().forEach(a -> {
            ErrorFields fields = ErrorFields.fromErrorBody(a.errorBody());
            boolean marked = FailureClassifier.isPermanentText(fields.message())
                    || QuotaExhaustion.matchesCodeOrPhrase(null, fields.message())
                    || fields.message().contains(QuotaExhaustion.NEW_API_BALANCE_PREFIX)
                    || QuotaExhaustion.normalizeCode(fields.message()).contains("insufficientquota");
            assertThat(marked).as(a.toString()).isTrue();
        });
    }

    @ParameterizedTest(name = "{0} on {1}: not a failure")
    @MethodSource("attacksOnClientStatuses")
    void anEchoOnAClientStatusIsNotAFailure(Attack a, int status) {
        assertThat(OutcomeClassifier.classify(UpstreamOutcome.response(status, a.errorBody(), false), a.echo()))
                .isEqualTo(new Verdict.NotAFailure(status));
        // the control: the same answer to a client that sent no marker is the upstream's own word;
        // on these statuses only a permanent marker counts (a relay's 400 for a revoked key)
        Verdict unechoed = OutcomeClassifier.classify(UpstreamOutcome.response(status, a.errorBody(), false));
        if (FailureClassifier.isPermanentText(
                ErrorFields.fromErrorBody(a.errorBody()).message())) {
            assertThat(unechoed).as("not sent by the client: evidence").isInstanceOf(Verdict.Permanent.class);
        } else {
            assertThat(unechoed).as("a quota phrase on a client status").isEqualTo(new Verdict.NotAFailure(status));
        }
    }

    @ParameterizedTest(name = "{0} on {1}: counted by its status only")
    @MethodSource("attacksOnFailureStatuses")
    void anEchoOnAFailureStatusIsNeitherPermanentNorQuota(Attack a, int status) {
        Verdict verdict = OutcomeClassifier.classify(UpstreamOutcome.response(status, a.errorBody(), false), a.echo());
        assertThat(verdict)
                .isEqualTo(new Verdict.Transient(
                        FailureKind.UPSTREAM_STATUS,
                        status,
                        OutcomeClassifier.synthesized(status),
                        a.errorBody(),
                        FailureClassifier.shouldRetrySameCredentialStatus(status)));
    }

    @ParameterizedTest(name = "{0} inside a 200 failure envelope: semantic transient only")
    @MethodSource("attacks")
    void anEchoInsideA2xxFailureEnvelopeIsNeitherPermanentNorQuota(Attack a) {
        Verdict verdict = OutcomeClassifier.classify(UpstreamOutcome.response(200, a.errorBody(), false), a.echo());
        assertThat(verdict).isInstanceOf(Verdict.Transient.class);
        assertThat(((Verdict.Transient) verdict).kind()).isEqualTo(FailureKind.SEMANTIC_RESPONSE_TRANSIENT);
    }

    @Test
    void anEchoInATransportErrorIsNotPermanent() {
        Attack a = attack(Vendor.GEMINI, Shape.MODEL_NAME, "invalid_grant");
        Verdict verdict = OutcomeClassifier.classify(
                UpstreamOutcome.transportFailure("could not reach models/invalid_grant", false), a.echo());
        assertThat(verdict).isInstanceOf(Verdict.Transient.class);
    }

    @Test
    void aCodeMarkerTheClientSpelledDifferentlyIsStillTheEcho() {
        ClientEcho echo = ClientEcho.of("{\"Insufficient-Quota\":1}".getBytes(StandardCharsets.UTF_8), null);
        assertThat(OutcomeClassifier.classify(
                        UpstreamOutcome.response(429, "{\"error\":{\"code\":\"insufficient_quota\"}}", false), echo))
                .isInstanceOf(Verdict.Transient.class);
    }

    @Test
    void aPercentEncodedGeminiPathIsComparedDecoded() {
        ClientEcho echo =
                ClientEcho.of(null, "https://g.test/v1beta/models/token%20has%20been%20revoked:generateContent");
        assertThat(echo.sent("token has been revoked")).isTrue();
        assertThat(echo.sent("invalid_grant")).isFalse();
    }

    /** The genuine cases of the spec, sent with an ordinary request, keep their verdicts. */
    @Nested
    class GenuineEvidence {

        final ClientEcho ordinary = attack(Vendor.OPENAI, Shape.PROMPT_TEXT, "what is the capital of France")
                .echo();

        @ParameterizedTest(name = "permanent marker on {0} revokes")
        @ValueSource(ints = {401, 403, 429, 500, 503})
        void permanentMarkerOnAFailureStatusRevokes(int status) {
            for (String marker : FailureClassifier.PERMANENT_MARKERS) {
                String body = "{\"error\":{\"message\":\"OAuth: " + marker + "\"}}";
                assertThat(OutcomeClassifier.classify(UpstreamOutcome.response(status, body, false), ordinary))
                        .as(marker)
                        .isInstanceOf(Verdict.Permanent.class);
            }
        }

        @ParameterizedTest(name = "permanent marker the client did not send, on {0}, revokes")
        @ValueSource(ints = {400, 402, 404, 409, 422})
        void permanentMarkerOnAClientStatusRevokes(int status) {
            for (String marker : FailureClassifier.PERMANENT_MARKERS) {
                String body = "{\"error\":{\"message\":\"" + marker + "\",\"type\":\"invalid_request_error\"}}";
                assertThat(OutcomeClassifier.classify(UpstreamOutcome.response(status, body, false), ordinary))
                        .as(marker)
                        .isEqualTo(new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, status, marker, body));
            }
        }

        @Test
        void aQuotaPhraseOnAClientStatusIsStillNotAFailure() {
            String body = "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"配额耗尽\"}}";
            assertThat(OutcomeClassifier.classify(UpstreamOutcome.response(400, body, false), ordinary))
                    .isEqualTo(new Verdict.NotAFailure(400));
        }

        @Test
        void refreshTokenRevokedOn401Revokes() {
            String body = "{\"error\":\"invalid_grant\",\"error_description\":\"Refresh token has been revoked\"}";
            assertThat(OutcomeClassifier.classify(UpstreamOutcome.response(401, body, false), ordinary))
                    .isEqualTo(new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, 401, "invalid_grant", body));
        }

        @ParameterizedTest(name = "new-api spent balance on {0} flips to error")
        @ValueSource(ints = {401, 403})
        void newApiBalanceEnvelope(int status) {
            assertThat(OutcomeClassifier.classify(
                            UpstreamOutcome.response(status, QuotaExhaustionTests.NEW_API_SPENT_BALANCE, false),
                            ordinary))
                    .isInstanceOf(Verdict.QuotaExhausted.class);
        }

        @ParameterizedTest(name = "budget pool body on {0} flips to error")
        @ValueSource(ints = {200, 429, 500})
        void budgetPoolBody(int status) {
            assertThat(OutcomeClassifier.classify(
                            UpstreamOutcome.response(status, QuotaExhaustionTests.BUDGET_POOL_EXHAUSTED, false),
                            ordinary))
                    .isInstanceOf(Verdict.QuotaExhausted.class);
        }

        @ParameterizedTest(name = "quota code {0} on 429 flips to error")
        @ValueSource(strings = {"insufficient_quota", "quota_exhausted", "usage-exhausted"})
        void quotaCodes(String code) {
            String body = "{\"error\":{\"code\":\"" + code + "\",\"message\":\"out of credit\"}}";
            assertThat(OutcomeClassifier.classify(UpstreamOutcome.response(429, body, false), ordinary))
                    .isInstanceOf(Verdict.QuotaExhausted.class);
        }

        @Test
        void quotaPhraseInA200FailureEnvelope() {
            String body = "{\"error\":{\"message\":\"配额耗尽\"}}";
            assertThat(OutcomeClassifier.classify(UpstreamOutcome.response(200, body, false), ordinary))
                    .isInstanceOf(Verdict.QuotaExhausted.class);
        }

        @Test
        void permanentMarkerInA200FailureEnvelope() {
            String body = "{\"error\":{\"message\":\"token has been revoked\"}}";
            assertThat(OutcomeClassifier.classify(UpstreamOutcome.response(200, body, false), ordinary))
                    .isInstanceOf(Verdict.Permanent.class);
        }
    }
}
