package io.routegateway.gateway.forward;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.testing.CredentialBuilder;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.sse;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Protocol bridges on the request path: every client protocol against a pool that has only
 * credentials of another platform, buffered and streamed, text and tool calls, with upstream
 * answers from the wire transcripts route-core's bridge tests use
 * ({@code route-core/src/test/resources/bridge}).
 */
@QuarkusTest
class BridgeTests extends GatewayTestBase {

    private static final Path TRANSCRIPTS = Path.of("..", "route-core", "src", "test", "resources", "bridge");

    /** One client protocol served by a pool of one other platform. */
    enum Pair {
        ANTHROPIC_OVER_CHAT(Protocol.ANTHROPIC_MESSAGES, Platform.OPENAI, Protocol.OPENAI_CHAT),
        CHAT_OVER_ANTHROPIC(Protocol.OPENAI_CHAT, Platform.CLAUDE, Protocol.ANTHROPIC_MESSAGES),
        RESPONSES_OVER_GEMINI(Protocol.OPENAI_RESPONSES, Platform.GEMINI, Protocol.GEMINI),
        GEMINI_OVER_RESPONSES(Protocol.GEMINI, Platform.CODEX, Protocol.OPENAI_RESPONSES);

        final Protocol client;
        final Platform platform;
        final Protocol upstream;

        Pair(Protocol client, Platform platform, Protocol upstream) {
            this.client = client;
            this.platform = platform;
            this.upstream = upstream;
        }
    }

    private String credential;
    private String keyId;
    private String group;

    @BeforeEach
    void names() {
        credential = Pool.uid("cred");
        keyId = Pool.uid("k");
        group = Pool.uid("g");
    }

    private void pool(Platform platform, BridgePolicy bridging, CredentialBuilder... extra) {
        List<io.routegateway.core.event.CredentialSnapshot> credentials = new ArrayList<>();
        credentials.add(Pool.credential(credential)
                .platform(platform)
                .maps("m", "up-m")
                .groups(group)
                .build(box));
        for (CredentialBuilder cred : extra) {
            credentials.add(cred.groups(group).build(box));
        }
        install(
                credentials,
                List.of(new GroupSnapshot(
                        group,
                        1,
                        "group-" + group,
                        true,
                        WeightMode.AUTO,
                        0,
                        List.of(),
                        false,
                        bridging,
                        java.time.Instant.now())),
                Pool.key(keyId, List.of(group)));
    }

    // ---- the matrix: text, stream, tool call -----------------------------------------------

    @ParameterizedTest
    @EnumSource(Pair.class)
    void aBufferedAnswerIsConvertedIntoTheClientsProtocol(Pair pair) {
        pool(pair.platform, BridgePolicy.NATIVE_FIRST);
        upstream.on(credential, json(200, transcript(pair.upstream, "response-text.json")));

        HttpResponse<String> response = call(pair.client, false, false);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(text(pair.client, parse(response.body()))).isEqualTo(TEXT.get(pair.upstream.ordinal()));
        MockUpstream.Hit hit = upstream.hits(credential).get(0);
        assertThat(hit.path()).isEqualTo(upstreamPath(pair.upstream, false));
        assertThat(parse(hit.body()).toString()).contains("hi");
        if (pair.upstream != Protocol.GEMINI) {
            assertThat(hit.model()).isEqualTo("up-m");
        }
        RequestCompleted record = usage(credential, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.protocol()).isEqualTo(pair.client);
        assertThat(record.inputTokens()).isNotNull();
        assertThat(record.outputTokens()).isNotNull();
    }

    @ParameterizedTest
    @EnumSource(Pair.class)
    void aToolCallIsConvertedIntoTheClientsProtocol(Pair pair) {
        pool(pair.platform, BridgePolicy.NATIVE_FIRST);
        upstream.on(credential, json(200, transcript(pair.upstream, "response-tools.json")));

        HttpResponse<String> response = call(pair.client, false, true);

        assertThat(response.statusCode()).isEqualTo(200);
        List<String> calls = toolCalls(pair.client, parse(response.body()));
        assertThat(calls).isNotEmpty().allMatch(name -> name.equals(TOOL.get(pair.upstream.ordinal())));
        // the client's tool definition reached the upstream in its protocol
        assertThat(upstream.hits(credential).get(0).body()).contains("get_weather");
    }

    @ParameterizedTest
    @EnumSource(Pair.class)
    void aStreamIsTranslatedFrameByFrame(Pair pair) {
        pool(pair.platform, BridgePolicy.NATIVE_FIRST);
        upstream.on(credential, sse(frames(transcript(pair.upstream, "stream-text.sse")), -1, 5));

        HttpResponse<String> response = call(pair.client, true, false);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        // translated, not buffered: chunked, no content-length
        assertThat(response.headers().firstValue("content-length")).isEmpty();
        assertThat(streamedText(pair.client, response.body())).startsWith("Hello");
        assertThat(response.body()).contains(TERMINAL.get(pair.client.ordinal()));
        assertThat(upstream.hits(credential).get(0).path()).isEqualTo(upstreamPath(pair.upstream, true));
        RequestCompleted record = usage(credential, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.stream()).isTrue();
        assertThat(record.outputTokens()).isNotNull();
    }

    @Test
    void aStreamedToolCallKeepsItsIds() {
        pool(Platform.OPENAI, BridgePolicy.NATIVE_FIRST);
        upstream.on(credential, sse(frames(transcript(Protocol.OPENAI_CHAT, "stream-tools.sse")), -1, 5));

        HttpResponse<String> response = call(Protocol.ANTHROPIC_MESSAGES, true, true);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains("\"tool_use\"")
                .contains("input_json_delta")
                .contains("message_stop");
        String upstreamIds = transcript(Protocol.OPENAI_CHAT, "stream-tools.sse");
        int at = upstreamIds.indexOf("\"id\":\"call_");
        assertThat(at).isPositive();
        String id = upstreamIds.substring(at + 6, upstreamIds.indexOf('"', at + 6));
        assertThat(response.body()).contains(id);
    }

    // ---- failures --------------------------------------------------------------------------

    @Test
    void anUpstreamClientErrorIsReshapedIntoTheClientsEnvelope() {
        pool(Platform.CLAUDE, BridgePolicy.NATIVE_FIRST);
        upstream.on(
                credential,
                json(
                        400,
                        "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"max_tokens: too"
                                + " large for " + Pool.secretOf(credential) + "\"}}"));

        HttpResponse<String> response = call(Protocol.OPENAI_CHAT, false, false);

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = parse(response.body()).path("error");
        assertThat(error.path("message").asText())
                .contains("max_tokens: too large")
                .doesNotContain(Pool.secretOf(credential));
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(parse(response.body()).has("type")).isFalse();
    }

    @Test
    void anUpstreamErrorOfChatReachesAnAnthropicClientAsAnAnthropicError() {
        pool(Platform.OPENAI, BridgePolicy.NATIVE_FIRST);
        upstream.on(
                credential,
                json(
                        404,
                        "{\"error\":{\"message\":\"The model `up-m` does not exist\",\"type\":\"invalid_request_error\","
                                + "\"param\":null,\"code\":\"model_not_found\"}}"));

        HttpResponse<String> response = call(Protocol.ANTHROPIC_MESSAGES, false, false);

        assertThat(response.statusCode()).isEqualTo(404);
        JsonNode body = parse(response.body());
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.at("/error/type").asText()).isEqualTo("not_found_error");
        assertThat(body.at("/error/message").asText()).contains("does not exist");
    }

    @Test
    void aRateLimitedBridgedCredentialFailsOverAndTheClassificationIsTheUpstreams() {
        String second = Pool.uid("second");
        pool(
                Platform.OPENAI,
                BridgePolicy.NATIVE_FIRST,
                Pool.credential(second)
                        .platform(Platform.OPENAI)
                        .maps("m", "up-m")
                        .priority(1));
        upstream.on(credential, json(429, transcript(Protocol.OPENAI_CHAT, "error-429.json")));
        upstream.on(second, json(200, transcript(Protocol.OPENAI_CHAT, "response-text.json")));

        HttpResponse<String> response = call(Protocol.ANTHROPIC_MESSAGES, false, false);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(text(Protocol.ANTHROPIC_MESSAGES, parse(response.body())))
                .isEqualTo("Hello! How can I assist you today?");
        CredentialEvent event = outcomes(credential, list -> !list.isEmpty()).get(0);
        assertThat(event).isInstanceOf(CredentialEvent.TransientFailureRecorded.class);
        CredentialEvent.TransientFailureRecorded failure = (CredentialEvent.TransientFailureRecorded) event;
        assertThat(failure.kind()).isEqualTo("upstream_status");
        assertThat(failure.status()).isEqualTo(429);
    }

    @Test
    void anAnswerTheBridgeCannotReadIsResponseTransformChargedToTheModel() {
        String second = Pool.uid("second");
        pool(
                Platform.OPENAI,
                BridgePolicy.NATIVE_FIRST,
                Pool.credential(second)
                        .platform(Platform.OPENAI)
                        .maps("m", "up-m")
                        .priority(1));
        upstream.on(credential, json(200, "{\"id\":\"c\",\"object\":\"chat.completion\",\"choices\":\"none\"}"));
        upstream.on(second, json(200, transcript(Protocol.OPENAI_CHAT, "response-text.json")));

        HttpResponse<String> response = call(Protocol.ANTHROPIC_MESSAGES, false, false);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(upstream.count(credential)).isEqualTo(1);
        CredentialEvent.TransientFailureRecorded failure = (CredentialEvent.TransientFailureRecorded)
                outcomes(credential, list -> !list.isEmpty()).get(0);
        assertThat(failure.kind()).isEqualTo("response_transform");
        assertThat(failure.modelKey()).isEqualTo("up-m");
        assertThat(failure.message()).contains("anthropic_messages->openai_chat");
    }

    @Test
    void aTruncatedUpstreamStreamIsJudgedOnTheUpstreamsFrames() {
        pool(Platform.OPENAI, BridgePolicy.NATIVE_FIRST);
        // the text frames arrive, then the connection drops before finish_reason and [DONE]
        upstream.on(credential, sse(frames(transcript(Protocol.OPENAI_CHAT, "stream-text.sse")), 3, 5));

        HttpResponse<String> response = call(Protocol.ANTHROPIC_MESSAGES, true, false);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("Hello").doesNotContain("message_stop");
        CredentialEvent.TransientFailureRecorded failure = (CredentialEvent.TransientFailureRecorded)
                outcomes(credential, list -> !list.isEmpty()).get(0);
        assertThat(failure.kind()).isEqualTo("semantic_response_transient");
        assertThat(failure.message()).contains("stream_disconnected_before_completion");
    }

    @Test
    void aFailureEnvelopeInTheFirstFrameFailsOverBeforeTheClientSeesAByte() {
        String second = Pool.uid("second");
        pool(
                Platform.OPENAI,
                BridgePolicy.NATIVE_FIRST,
                Pool.credential(second)
                        .platform(Platform.OPENAI)
                        .maps("m", "up-m")
                        .priority(1));
        upstream.on(
                credential,
                sse(
                        List.of(
                                "data: {\"error\":{\"message\":\"upstream overloaded\",\"type\":\"server_error\"}}\n\n"),
                        -1,
                        5));
        upstream.on(second, sse(frames(transcript(Protocol.OPENAI_CHAT, "stream-text.sse")), -1, 5));

        HttpResponse<String> response = call(Protocol.ANTHROPIC_MESSAGES, true, false);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("message_stop").doesNotContain("overloaded");
        assertThat(upstream.count(second)).isEqualTo(1);
    }

    @Test
    void aClientLeavingABridgedStreamStillSettlesItsUsage() throws Exception {
        pool(Platform.OPENAI, BridgePolicy.NATIVE_FIRST);
        List<String> frames = frames(transcript(Protocol.OPENAI_CHAT, "stream-text.sse"));
        upstream.on(credential, (request, body, n) -> {
            // the text and the usage frame, then the upstream keeps the stream open
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().write(frames.get(0) + frames.get(1) + frames.get(4));
        });

        HttpResponse<InputStream> response = http.send(
                request("/v1/messages", keyId)
                        .POST(HttpRequest.BodyPublishers.ofString(body(Protocol.ANTHROPIC_MESSAGES, true, false)))
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        InputStream stream = response.body();
        BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
        String line;
        do {
            line = reader.readLine();
        } while (line != null && !line.contains("Hello"));
        assertThat(line).contains("text_delta");
        stream.close();

        RequestCompleted record = usage(credential, list -> !list.isEmpty()).get(0);
        assertThat(record.clientDisconnected()).isTrue();
        assertThat(record.success()).isFalse();
        assertThat(record.inputTokens()).isEqualTo(12L);
        assertThat(record.outputTokens()).isEqualTo(5L);
    }

    // ---- routing ---------------------------------------------------------------------------

    @Test
    void nativeCredentialsComeFirstWhenTheGroupHasBoth() {
        String claude = Pool.uid("claude");
        pool(
                Platform.OPENAI,
                BridgePolicy.NATIVE_FIRST,
                Pool.credential(claude).platform(Platform.CLAUDE).maps("m", "up-m"));
        upstream.on(claude, json(200, transcript(Protocol.ANTHROPIC_MESSAGES, "response-text.json")));
        upstream.on(credential, json(200, transcript(Protocol.OPENAI_CHAT, "response-text.json")));

        for (int i = 0; i < 6; i++) {
            assertThat(call(Protocol.ANTHROPIC_MESSAGES, false, false).statusCode())
                    .isEqualTo(200);
        }

        assertThat(upstream.count(claude)).isEqualTo(6);
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void aRequestNoBridgeCanExpressIsOperationUnsupported() {
        pool(Platform.GEMINI, BridgePolicy.NATIVE_FIRST);

        HttpResponse<String> response =
                post("/v1/responses", keyId, "{\"model\":\"m\",\"input\":\"hi\",\"previous_response_id\":\"resp_1\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = parse(response.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("operation_unsupported");
        assertThat(error.path("message").asText()).contains("previous_response_id");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void aNativeOnlyRequestIsNativeRouteRequired() {
        pool(Platform.OPENAI, BridgePolicy.NATIVE_FIRST);

        HttpResponse<String> response = send(request("/v1/messages", keyId)
                .header("x-route-native-only", "true")
                .POST(HttpRequest.BodyPublishers.ofString(body(Protocol.ANTHROPIC_MESSAGES, false, false)))
                .build());

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(parse(response.body()).at("/error/code").asText()).isEqualTo("native_route_required");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void aNativeOnlyGroupIsNativeRouteRequired() {
        pool(Platform.OPENAI, BridgePolicy.NATIVE_ONLY);

        HttpResponse<String> response = call(Protocol.ANTHROPIC_MESSAGES, false, false);

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(parse(response.body()).at("/error/code").asText()).isEqualTo("native_route_required");
        assertThat(upstream.count(credential)).isZero();
    }

    // ---- helpers ---------------------------------------------------------------------------

    /** The text of each upstream protocol's {@code response-text.json}, by {@link Protocol} ordinal. */
    private static final List<String> TEXT = List.of(
            "Hello! How can I assist you today?",
            "In a peaceful grove beneath a silver moon, a unicorn named Lumina discovered a hidden pool.",
            "Hi! My name is Claude.",
            "AI learns patterns from data to make predictions.");

    private static final List<String> TOOL =
            List.of("get_current_weather", "get_weather", "get_weather", "get_weather");

    /** The terminal frame each client protocol's stream ends with, by {@link Protocol} ordinal. */
    private static final List<String> TERMINAL =
            List.of("[DONE]", "response.completed", "message_stop", "finishReason");

    private HttpResponse<String> call(Protocol client, boolean stream, boolean tools) {
        String path = switch (client) {
            case OPENAI_CHAT -> "/v1/chat/completions";
            case OPENAI_RESPONSES -> "/v1/responses";
            case ANTHROPIC_MESSAGES -> "/v1/messages";
            case GEMINI -> "/v1beta/models/m:" + (stream ? "streamGenerateContent" : "generateContent");
        };
        return post(path, keyId, body(client, stream, tools));
    }

    private static String body(Protocol client, boolean stream, boolean tools) {
        String schema = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}";
        String streamField = stream ? ",\"stream\":true" : "";
        return switch (client) {
            case OPENAI_CHAT ->
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]" + streamField
                        + (tools
                                ? ",\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":"
                                        + schema + "}}]"
                                : "")
                        + "}";
            case OPENAI_RESPONSES ->
                "{\"model\":\"m\",\"input\":\"hi\"" + streamField
                        + (tools
                                ? ",\"tools\":[{\"type\":\"function\",\"name\":\"get_weather\",\"parameters\":" + schema
                                        + "}]"
                                : "")
                        + "}";
            case ANTHROPIC_MESSAGES ->
                "{\"model\":\"m\",\"max_tokens\":256,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]"
                        + streamField
                        + (tools ? ",\"tools\":[{\"name\":\"get_weather\",\"input_schema\":" + schema + "}]" : "")
                        + "}";
            case GEMINI ->
                "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}]"
                        + (tools
                                ? ",\"tools\":[{\"functionDeclarations\":[{\"name\":\"get_weather\",\"parameters\":"
                                        + schema + "}]}]"
                                : "")
                        + "}";
        };
    }

    private static String upstreamPath(Protocol upstream, boolean stream) {
        return switch (upstream) {
            case OPENAI_CHAT -> "/v1/chat/completions";
            case OPENAI_RESPONSES -> "/v1/responses";
            case ANTHROPIC_MESSAGES -> "/v1/messages";
            case GEMINI -> "/v1beta/models/up-m:" + (stream ? "streamGenerateContent" : "generateContent");
        };
    }

    private static String transcript(Protocol protocol, String name) {
        try {
            return Files.readString(TRANSCRIPTS.resolve(protocol.wire()).resolve(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An SSE transcript cut into its events, each with its blank line. */
    private static List<String> frames(String sse) {
        List<String> frames = new ArrayList<>();
        for (String frame : sse.split("\n\n")) {
            if (!frame.isBlank()) {
                frames.add(frame + "\n\n");
            }
        }
        return frames;
    }

    private static String text(Protocol client, JsonNode body) {
        StringBuilder out = new StringBuilder();
        switch (client) {
            case OPENAI_CHAT -> out.append(body.at("/choices/0/message/content").asText());
            case OPENAI_RESPONSES -> {
                for (JsonNode item : body.path("output")) {
                    if (item.path("type").asText().equals("message")) {
                        for (JsonNode part : item.path("content")) {
                            out.append(part.path("text").asText());
                        }
                    }
                }
            }
            case ANTHROPIC_MESSAGES -> {
                for (JsonNode block : body.path("content")) {
                    if (block.path("type").asText().equals("text")) {
                        out.append(block.path("text").asText());
                    }
                }
            }
            case GEMINI -> {
                for (JsonNode part : body.at("/candidates/0/content/parts")) {
                    if (!part.path("thought").asBoolean(false)) {
                        out.append(part.path("text").asText());
                    }
                }
            }
        }
        return out.toString();
    }

    private static List<String> toolCalls(Protocol client, JsonNode body) {
        List<String> names = new ArrayList<>();
        switch (client) {
            case OPENAI_CHAT ->
                body.at("/choices/0/message/tool_calls")
                        .forEach(call -> names.add(call.at("/function/name").asText()));
            case OPENAI_RESPONSES ->
                body.path("output").forEach(item -> {
                    if (item.path("type").asText().equals("function_call")) {
                        names.add(item.path("name").asText());
                    }
                });
            case ANTHROPIC_MESSAGES ->
                body.path("content").forEach(block -> {
                    if (block.path("type").asText().equals("tool_use")) {
                        names.add(block.path("name").asText());
                    }
                });
            case GEMINI ->
                body.at("/candidates/0/content/parts").forEach(part -> {
                    if (part.has("functionCall")) {
                        names.add(part.at("/functionCall/name").asText());
                    }
                });
        }
        return names;
    }

    /** The text deltas of a client-protocol stream, concatenated. */
    private static String streamedText(Protocol client, String sse) {
        StringBuilder out = new StringBuilder();
        for (String line : sse.split("\n")) {
            if (!line.startsWith("data:")) {
                continue;
            }
            String data = line.substring(5).trim();
            if (data.equals("[DONE]")) {
                continue;
            }
            JsonNode frame = parse(data);
            switch (client) {
                case OPENAI_CHAT ->
                    out.append(frame.at("/choices/0/delta/content").asText(""));
                case OPENAI_RESPONSES -> {
                    if (frame.path("type").asText().equals("response.output_text.delta")) {
                        out.append(frame.path("delta").asText());
                    }
                }
                case ANTHROPIC_MESSAGES -> {
                    if (frame.path("type").asText().equals("content_block_delta")
                            && frame.at("/delta/type").asText().equals("text_delta")) {
                        out.append(frame.at("/delta/text").asText());
                    }
                }
                case GEMINI ->
                    frame.at("/candidates/0/content/parts").forEach(part -> {
                        if (!part.path("thought").asBoolean(false)) {
                            out.append(part.path("text").asText(""));
                        }
                    });
            }
        }
        return out.toString();
    }
}
