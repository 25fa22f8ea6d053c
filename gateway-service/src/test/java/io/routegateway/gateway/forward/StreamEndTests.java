package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.testing.CredentialBuilder;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.sse;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a stream's end and its opening are judged on the request path: a stream that ended under
 * its protocol's own finish reason completed (streamed, buffered, native and bridged), SSE comments
 * before the first data keep the failover window open, and a relay's 400 that names a revoked key
 * is the credential's.
 */
@QuarkusTest
class StreamEndTests extends GatewayTestBase {

    /**
     * Every protocol's end under a finish reason other than "stop": what the client asked for (a
     * token limit) or a safety verdict on its prompt. None may count against the credential.
     */
    enum EndedUnderItsOwnReason {
        GEMINI_MAX_TOKENS_STREAMED(
                "/v1beta/models/m:streamGenerateContent?alt=sse",
                "{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}],\"generationConfig\":{\"maxOutputTokens\":1}}",
                Platform.GEMINI,
                false,
                List.of("data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"H\"}]},"
                        + "\"finishReason\":\"MAX_TOKENS\"}],\"usageMetadata\":{\"promptTokenCount\":2,"
                        + "\"candidatesTokenCount\":1}}\r\n\r\n")),
        GEMINI_SAFETY_STREAMED(
                "/v1beta/models/m:streamGenerateContent?alt=sse",
                "{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}",
                Platform.GEMINI,
                false,
                List.of(
                        "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"I\"}]}}]}\r\n\r\n",
                        "data: {\"candidates\":[{\"finishReason\":\"SAFETY\",\"safetyRatings\":[]}]}\r\n\r\n")),
        GEMINI_BLOCKED_PROMPT_STREAMED(
                "/v1beta/models/m:streamGenerateContent?alt=sse",
                "{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}",
                Platform.GEMINI,
                false,
                List.of("data: {\"promptFeedback\":{\"blockReason\":\"SAFETY\"},\"usageMetadata\":"
                        + "{\"promptTokenCount\":2}}\r\n\r\n")),
        CHAT_LENGTH_WITHOUT_DONE_STREAMED(
                "/v1/chat/completions",
                "{\"model\":\"m\",\"stream\":true,\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                Platform.OPENAI,
                false,
                List.of(
                        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"H\"},\"finish_reason\":null}]}\n\n",
                        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n")),
        RESPONSES_INCOMPLETE_STREAMED(
                "/v1/responses",
                "{\"model\":\"m\",\"stream\":true,\"max_output_tokens\":16,\"input\":\"hi\"}",
                Platform.OPENAI,
                false,
                List.of(
                        "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\","
                                + "\"status\":\"in_progress\"}}\n\n",
                        "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
                                + "\"delta\":\"H\"}\n\n",
                        "event: response.incomplete\ndata: {\"type\":\"response.incomplete\",\"response\":{\"id\":"
                                + "\"r1\",\"status\":\"incomplete\",\"incomplete_details\":{\"reason\":"
                                + "\"max_output_tokens\"},\"usage\":{\"input_tokens\":2,\"output_tokens\":16}}}\n\n")),
        RESPONSES_INCOMPLETE_BUFFERED_OFFICIAL(
                "/v1/responses",
                "{\"model\":\"gpt-5.1\",\"stream\":true,\"max_output_tokens\":16,\"input\":\"hi\"}",
                Platform.CODEX,
                true,
                RESPONSES_INCOMPLETE_STREAMED.frames),
        CHAT_CLIENT_OVER_GEMINI_MAX_TOKENS_BRIDGED(
                "/v1/chat/completions",
                "{\"model\":\"m\",\"stream\":true,\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                Platform.GEMINI,
                false,
                GEMINI_MAX_TOKENS_STREAMED.frames),
        ANTHROPIC_CLIENT_OVER_CHAT_LENGTH_BRIDGED(
                "/v1/messages",
                "{\"model\":\"m\",\"max_tokens\":1,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                Platform.OPENAI,
                false,
                CHAT_LENGTH_WITHOUT_DONE_STREAMED.frames);

        final String path;
        final String body;
        final Platform platform;
        final boolean official;
        final List<String> frames;

        EndedUnderItsOwnReason(String path, String body, Platform platform, boolean official, List<String> frames) {
            this.path = path;
            this.body = body;
            this.platform = platform;
            this.official = official;
            this.frames = frames;
        }
    }

    private String a;
    private String b;
    private String keyId;
    private String group;

    @BeforeEach
    void names() {
        a = Pool.uid("a");
        b = Pool.uid("b");
        keyId = Pool.uid("k");
        group = Pool.uid("g");
    }

    /** The credentials in this order of priority, in one group that bridges where it must. */
    private void pool(CredentialBuilder... credentials) {
        List<io.routegateway.core.event.CredentialSnapshot> built = new ArrayList<>();
        for (int i = 0; i < credentials.length; i++) {
            built.add(credentials[i].groups(group).priority(i).build(box));
        }
        install(
                built,
                List.of(new GroupSnapshot(
                        group,
                        1,
                        "group-" + group,
                        true,
                        WeightMode.AUTO,
                        0,
                        List.of(),
                        false,
                        BridgePolicy.NATIVE_FIRST,
                        java.time.Instant.now())),
                Pool.key(keyId, List.of(group)));
    }

    @ParameterizedTest
    @EnumSource(EndedUnderItsOwnReason.class)
    void aStreamThatEndedUnderItsOwnFinishReasonCompleted(EndedUnderItsOwnReason end) {
        CredentialBuilder first = Pool.credential(a).platform(end.platform);
        first = end.official ? first.official() : first.maps("m", "up-m");
        pool(first, Pool.credential(b).platform(end.platform).maps("m", "up-m"));
        upstream.on(a, sse(end.frames, -1, 5));

        HttpResponse<String> response = post(end.path, keyId, end.body);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(upstream.count(b)).as("neither failed over nor regenerated").isZero();
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .as("a success, no truncation")
                .singleElement()
                .isInstanceOf(CredentialEvent.AttemptSucceeded.class);
        assertThat(usage(a, list -> !list.isEmpty()).get(0).success()).isTrue();
    }

    @Test
    void keepAliveCommentsBeforeAnErrorFrameDoNotCommitTheStream() {
        upstream.on(
                a,
                sse(
                        List.of(
                                ": OPENROUTER PROCESSING\n\n",
                                ": keep-alive\n\n",
                                "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                                        + "\"message\":\"Overloaded\"}}\n\n"),
                        -1,
                        20));
        upstream.on(b, sse(StreamingTests.CHAT_FRAMES, -1, 5));
        pool(Pool.credential(a).serves("m"), Pool.credential(b).serves("m"));

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("[DONE]").doesNotContain("Overloaded");
        assertThat(upstream.count(b)).as("failed over inside the window").isEqualTo(1);
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.kind()).isEqualTo("semantic_response_transient");
                    assertThat(failure.message()).isEqualTo("Overloaded");
                });
    }

    @Test
    void keepAliveCommentsBeforeTheFirstDataReachTheClientWithIt() {
        List<String> frames = new ArrayList<>(List.of(": keep-alive\n\n"));
        frames.addAll(StreamingTests.CHAT_FRAMES);
        upstream.on(a, sse(frames, -1, 5));
        pool(Pool.credential(a).serves("m"), Pool.credential(b).serves("m"));

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .startsWith(": keep-alive\n\n")
                .contains("\"a\"")
                .contains("[DONE]");
        assertThat(upstream.count(b)).isZero();
    }

    @Test
    void aRelays400NamingARevokedKeyRevokesAndFailsOver() {
        upstream.on(
                a,
                json(400, "{\"error\":{\"message\":\"token has been revoked\",\"type\":\"invalid_request_error\"}}"));
        upstream.on(
                b,
                json(
                        200,
                        "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},"
                                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}"));
        pool(Pool.credential(a).serves("m"), Pool.credential(b).serves("m"));

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"ok\"").doesNotContain("revoked");
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOf(CredentialEvent.PermanentFailureRecorded.class);
    }

    @Test
    void a400QuotingTheClientsOwnRevokedTextIsPassedThroughAndCountsNothing() {
        upstream.on(
                a,
                json(
                        400,
                        "{\"error\":{\"message\":\"The model `token has been revoked` does not exist\","
                                + "\"type\":\"invalid_request_error\"}}"));
        pool(
                Pool.credential(a).serves("token has been revoked"),
                Pool.credential(b).serves("other"));

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"token has been revoked\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(upstream.count(a)).isEqualTo(1);
        assertThat(usage(a, list -> !list.isEmpty())).isNotEmpty();
        assertThat(outcomes(a, list -> true))
                .noneMatch(event -> event instanceof CredentialEvent.PermanentFailureRecorded
                        || event instanceof CredentialEvent.TransientFailureRecorded);
    }
}
