package io.routegateway.gateway.forward;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.ResponseStream;
import com.google.genai.errors.ClientException;
import com.google.genai.types.Candidate;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.Part;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import com.openai.models.responses.EasyInputMessage;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseStreamEvent;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import io.routegateway.gateway.support.Sdks;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.sse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The official SDKs — OpenAI (Chat Completions and Responses), Anthropic, Google GenAI — against a
 * pool of one credential whose platform speaks another protocol, for every client protocol ×
 * upstream protocol pair a bridge serves, buffered and streamed: a text answer, a tool call round
 * trip (two parallel calls with their ids, the results, the final answer), usage, the finish reason
 * and an upstream error. The upstream answers are wire-shaped fixtures under
 * {@code src/test/resources/sdk-bridge/<upstream protocol>/}.
 *
 * <p>Chat Completions ↔ Responses is never bridged: every platform that speaks one speaks the
 * other natively (Codex, Grok, OpenAI relays).
 */
@QuarkusTest
class SdkBridgeMatrixTests extends GatewayTestBase {

    static final String MODEL = "m";
    static final String UPSTREAM_MODEL = "up-m";
    static final String QUESTION = "Weather in Paris and Tokyo?";
    static final String ANSWER = "Sunny in both cities.";
    /** The tool results the client sends back, one per call in call order. */
    static final List<String> RESULTS = List.of("18 degrees", "22 degrees");

    /** An upstream protocol, the platform whose credentials speak it, and where its tool names sit. */
    enum Upstream {
        CHAT(Protocol.OPENAI_CHAT, Platform.OPENAI, "/tools/0/function/name", List.of("call_paris_1", "call_tokyo_2")),
        RESPONSES(Protocol.OPENAI_RESPONSES, Platform.CODEX, "/tools/0/name", List.of("call_paris_1", "call_tokyo_2")),
        ANTHROPIC(
                Protocol.ANTHROPIC_MESSAGES,
                Platform.CLAUDE,
                "/tools/0/name",
                List.of("toolu_paris_1", "toolu_tokyo_2")),
        /** Gemini's calls carry no ids: the bridge makes them from the response id. */
        GEMINI(Protocol.GEMINI, Platform.GEMINI, "/tools/0/functionDeclarations/0/name", List.of());

        final Protocol protocol;
        final Platform platform;
        final String toolName;
        final List<String> callIds;

        Upstream(Protocol protocol, Platform platform, String toolName, List<String> callIds) {
            this.protocol = protocol;
            this.platform = platform;
            this.toolName = toolName;
            this.callIds = callIds;
        }

        String path(boolean stream) {
            return switch (protocol) {
                case OPENAI_CHAT -> "/v1/chat/completions";
                case OPENAI_RESPONSES -> "/v1/responses";
                case ANTHROPIC_MESSAGES -> "/v1/messages";
                case GEMINI ->
                    "/v1beta/models/" + UPSTREAM_MODEL + ":" + (stream ? "streamGenerateContent" : "generateContent");
            };
        }

        MockUpstream.Behaviour answer(String name, boolean stream) {
            return stream
                    ? sse(frames(fixture(protocol, name + ".sse")), -1, 2)
                    : json(200, fixture(protocol, name + ".json"));
        }
    }

    /** One client protocol served through the bridge into another. */
    enum Pair {
        CHAT_OVER_ANTHROPIC(Client.CHAT, Upstream.ANTHROPIC),
        CHAT_OVER_GEMINI(Client.CHAT, Upstream.GEMINI),
        RESPONSES_OVER_ANTHROPIC(Client.RESPONSES, Upstream.ANTHROPIC),
        RESPONSES_OVER_GEMINI(Client.RESPONSES, Upstream.GEMINI),
        ANTHROPIC_OVER_CHAT(Client.ANTHROPIC, Upstream.CHAT),
        ANTHROPIC_OVER_RESPONSES(Client.ANTHROPIC, Upstream.RESPONSES),
        ANTHROPIC_OVER_GEMINI(Client.ANTHROPIC, Upstream.GEMINI),
        GEMINI_OVER_CHAT(Client.GEMINI, Upstream.CHAT),
        GEMINI_OVER_RESPONSES(Client.GEMINI, Upstream.RESPONSES),
        GEMINI_OVER_ANTHROPIC(Client.GEMINI, Upstream.ANTHROPIC);

        final Client client;
        final Upstream upstream;

        Pair(Client client, Upstream upstream) {
            this.client = client;
            this.upstream = upstream;
        }
    }

    static Stream<Arguments> pairsBufferedAndStreamed() {
        return Stream.of(Pair.values()).flatMap(pair -> Stream.of(Arguments.of(pair, false), Arguments.of(pair, true)));
    }

    /** What a client's SDK made of an answer. */
    record Call(String id, String name, String arguments) {}

    record Answer(String text, List<Call> calls, String finish, long inputTokens, long outputTokens) {}

    /** A client protocol, spoken by its official SDK. */
    enum Client {
        CHAT(Protocol.OPENAI_CHAT, "stop", "tool_calls") {
            @Override
            Answer[] converse(Sdk sdk, boolean tools, boolean stream) {
                ChatCompletionCreateParams.Builder params =
                        ChatCompletionCreateParams.builder().model(MODEL).addUserMessage(QUESTION);
                if (tools) {
                    params.addFunctionTool(FunctionDefinition.builder()
                            .name("get_weather")
                            .parameters(FunctionParameters.builder()
                                    .putAdditionalProperty("type", JsonValue.from("object"))
                                    .putAdditionalProperty(
                                            "properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                                    .build())
                            .build());
                }
                ChatCompletion first = chat(sdk.openAi, params, stream);
                if (!tools) {
                    return new Answer[] {chatAnswer(first)};
                }
                ChatCompletionMessage assistant = first.choices().get(0).message();
                params.addMessage(assistant);
                List<Call> calls = chatAnswer(first).calls();
                for (int i = 0; i < calls.size(); i++) {
                    params.addMessage(ChatCompletionToolMessageParam.builder()
                            .toolCallId(calls.get(i).id())
                            .content(RESULTS.get(i))
                            .build());
                }
                return new Answer[] {chatAnswer(first), chatAnswer(chat(sdk.openAi, params, stream))};
            }

            @Override
            int failingStatus(Sdk sdk, boolean stream) {
                ChatCompletionCreateParams.Builder params =
                        ChatCompletionCreateParams.builder().model(MODEL).addUserMessage(QUESTION);
                Throwable thrown = catchThrowable(() -> chat(sdk.openAi, params, stream));
                assertThat(thrown).isInstanceOf(com.openai.errors.BadRequestException.class);
                return ((com.openai.errors.BadRequestException) thrown).statusCode();
            }
        },

        RESPONSES(Protocol.OPENAI_RESPONSES, "completed", "completed") {
            @Override
            Answer[] converse(Sdk sdk, boolean tools, boolean stream) {
                List<ResponseInputItem> input = new ArrayList<>();
                input.add(ResponseInputItem.ofEasyInputMessage(EasyInputMessage.builder()
                        .role(EasyInputMessage.Role.USER)
                        .content(QUESTION)
                        .build()));
                ResponseCreateParams.Builder params =
                        ResponseCreateParams.builder().model(MODEL);
                if (tools) {
                    params.addTool(FunctionTool.builder()
                            .name("get_weather")
                            .parameters(FunctionTool.Parameters.builder()
                                    .putAdditionalProperty("type", JsonValue.from("object"))
                                    .putAdditionalProperty(
                                            "properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                                    .build())
                            .strict(false)
                            .build());
                }
                Response first = responses(sdk.openAi, params.inputOfResponse(input), stream);
                if (!tools) {
                    return new Answer[] {responsesAnswer(first)};
                }
                List<ResponseFunctionToolCall> calls = new ArrayList<>();
                first.output().forEach(item -> item.functionCall().ifPresent(calls::add));
                for (ResponseFunctionToolCall call : calls) {
                    input.add(ResponseInputItem.ofFunctionCall(call));
                }
                for (int i = 0; i < calls.size(); i++) {
                    input.add(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder()
                            .callId(calls.get(i).callId())
                            .output(RESULTS.get(i))
                            .build()));
                }
                Response second = responses(sdk.openAi, params.inputOfResponse(input), stream);
                return new Answer[] {responsesAnswer(first), responsesAnswer(second)};
            }

            @Override
            int failingStatus(Sdk sdk, boolean stream) {
                ResponseCreateParams.Builder params =
                        ResponseCreateParams.builder().model(MODEL).input(QUESTION);
                Throwable thrown = catchThrowable(() -> responses(sdk.openAi, params, stream));
                assertThat(thrown).isInstanceOf(com.openai.errors.BadRequestException.class);
                return ((com.openai.errors.BadRequestException) thrown).statusCode();
            }
        },

        ANTHROPIC(Protocol.ANTHROPIC_MESSAGES, "end_turn", "tool_use") {
            @Override
            Answer[] converse(Sdk sdk, boolean tools, boolean stream) {
                MessageCreateParams.Builder params = MessageCreateParams.builder()
                        .model(MODEL)
                        .maxTokens(256)
                        .addUserMessage(QUESTION);
                if (tools) {
                    params.addTool(Tool.builder()
                            .name("get_weather")
                            .inputSchema(Tool.InputSchema.builder()
                                    .properties(Tool.InputSchema.Properties.builder()
                                            .putAdditionalProperty(
                                                    "city", com.anthropic.core.JsonValue.from(Map.of("type", "string")))
                                            .build())
                                    .build())
                            .build());
                }
                Message first = messages(sdk.anthropic, params, stream);
                if (!tools) {
                    return new Answer[] {anthropicAnswer(first)};
                }
                params.addMessage(first);
                List<Call> calls = anthropicAnswer(first).calls();
                List<ContentBlockParam> results = new ArrayList<>();
                for (int i = 0; i < calls.size(); i++) {
                    results.add(ContentBlockParam.ofToolResult(ToolResultBlockParam.builder()
                            .toolUseId(calls.get(i).id())
                            .content(RESULTS.get(i))
                            .build()));
                }
                params.addUserMessageOfContentBlockParams(results);
                return new Answer[] {anthropicAnswer(first), anthropicAnswer(messages(sdk.anthropic, params, stream))};
            }

            @Override
            int failingStatus(Sdk sdk, boolean stream) {
                MessageCreateParams.Builder params = MessageCreateParams.builder()
                        .model(MODEL)
                        .maxTokens(256)
                        .addUserMessage(QUESTION);
                Throwable thrown = catchThrowable(() -> messages(sdk.anthropic, params, stream));
                assertThat(thrown).isInstanceOf(com.anthropic.errors.BadRequestException.class);
                return ((com.anthropic.errors.BadRequestException) thrown).statusCode();
            }
        },

        /** Gemini has no finish reason of its own for a call: a turn that calls tools ends with STOP. */
        GEMINI(Protocol.GEMINI, "STOP", "STOP") {
            @Override
            Answer[] converse(Sdk sdk, boolean tools, boolean stream) {
                List<Content> contents = new ArrayList<>();
                contents.add(Content.builder()
                        .role("user")
                        .parts(Part.fromText(QUESTION))
                        .build());
                GenerateContentConfig config = tools
                        ? GenerateContentConfig.builder()
                                .tools(com.google.genai.types.Tool.builder()
                                        .functionDeclarations(FunctionDeclaration.builder()
                                                .name("get_weather")
                                                .parametersJsonSchema(Map.of(
                                                        "type",
                                                        "object",
                                                        "properties",
                                                        Map.of("city", Map.of("type", "string"))))))
                                .build()
                        : null;
                Answer first = generate(sdk.gemini, contents, config, stream);
                if (!tools) {
                    return new Answer[] {first};
                }
                List<Part> called = new ArrayList<>();
                List<Part> answered = new ArrayList<>();
                for (int i = 0; i < first.calls().size(); i++) {
                    Call call = first.calls().get(i);
                    called.add(Part.builder()
                            .functionCall(FunctionCall.builder()
                                    .id(call.id())
                                    .name(call.name())
                                    .args(parseMap(call.arguments())))
                            .build());
                    answered.add(Part.builder()
                            .functionResponse(FunctionResponse.builder()
                                    .id(call.id())
                                    .name(call.name())
                                    .response(Map.of("result", RESULTS.get(i))))
                            .build());
                }
                contents.add(Content.builder().role("model").parts(called).build());
                contents.add(Content.builder().role("user").parts(answered).build());
                return new Answer[] {first, generate(sdk.gemini, contents, config, stream)};
            }

            @Override
            int failingStatus(Sdk sdk, boolean stream) {
                List<Content> contents = List.of(Content.builder()
                        .role("user")
                        .parts(Part.fromText(QUESTION))
                        .build());
                Throwable thrown = catchThrowable(() -> generate(sdk.gemini, contents, null, stream));
                assertThat(thrown).isInstanceOf(ClientException.class);
                return ((ClientException) thrown).code();
            }
        };

        final Protocol protocol;
        final String textFinish;
        final String toolFinish;

        Client(Protocol protocol, String textFinish, String toolFinish) {
            this.protocol = protocol;
            this.textFinish = textFinish;
            this.toolFinish = toolFinish;
        }

        /** Asks; with tools, answers the calls and asks again: one answer, or the calls and the final answer. */
        abstract Answer[] converse(Sdk sdk, boolean tools, boolean stream);

        /** Makes a request the upstream refuses; asserts the SDK's exception type and returns its status. */
        abstract int failingStatus(Sdk sdk, boolean stream);
    }

    /** The three SDK clients, on one access key. */
    record Sdk(OpenAIClient openAi, AnthropicClient anthropic, com.google.genai.Client gemini) {}

    // ---- the matrix ------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("pairsBufferedAndStreamed")
    void aTextAnswerWithItsFinishReasonAndUsage(Pair pair, boolean stream) {
        String credential = Pool.uid("cred");
        Sdk sdk = sdk(credential, pair);
        upstream.on(credential, pair.upstream.answer("text", stream));

        Answer answer = pair.client.converse(sdk, false, stream)[0];

        assertThat(answer.text()).isEqualTo(ANSWER);
        assertThat(answer.calls()).isEmpty();
        assertThat(answer.finish()).isEqualTo(pair.client.textFinish);
        assertThat(answer.inputTokens()).isEqualTo(12);
        assertThat(answer.outputTokens()).isEqualTo(5);
        MockUpstream.Hit hit = upstream.hits(credential).get(0);
        assertThat(hit.path()).isEqualTo(pair.upstream.path(stream));
        assertThat(hit.body()).contains(QUESTION);
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("pairsBufferedAndStreamed")
    void aToolCallRoundTripKeepsTheParallelCallsAndTheirIds(Pair pair, boolean stream) {
        String credential = Pool.uid("cred");
        Sdk sdk = sdk(credential, pair);
        upstream.on(
                credential,
                MockUpstream.sequence(pair.upstream.answer("tools", stream), pair.upstream.answer("text", stream)));

        Answer[] turns = pair.client.converse(sdk, true, stream);

        // the calls: both of them, in order, with the upstream's ids where it has ids
        Answer calling = turns[0];
        assertThat(calling.calls())
                .hasSize(2)
                .allSatisfy(call -> assertThat(call.name()).isEqualTo("get_weather"));
        assertThat(calling.calls().get(0).arguments()).contains("Paris");
        assertThat(calling.calls().get(1).arguments()).contains("Tokyo");
        List<String> ids = calling.calls().stream().map(Call::id).toList();
        if (pair.upstream.callIds.isEmpty()) {
            assertThat(ids)
                    .doesNotContainNull()
                    .doesNotHaveDuplicates()
                    .allSatisfy(id -> assertThat(id).isNotBlank());
        } else {
            assertThat(ids).isEqualTo(pair.upstream.callIds);
        }
        assertThat(calling.finish()).isEqualTo(pair.client.toolFinish);
        assertThat(calling.inputTokens()).isEqualTo(30);
        assertThat(calling.outputTokens()).isEqualTo(9);
        List<MockUpstream.Hit> hits = upstream.hits(credential);
        assertThat(hits).hasSize(2);
        // the client's tool definition reached the upstream in the upstream's shape
        assertThat(parse(hits.get(0).body()).at(pair.upstream.toolName).asText())
                .isEqualTo("get_weather");

        // the results reached the upstream answering the same ids, and the final answer came back
        assertThat(hits.get(1).path()).isEqualTo(pair.upstream.path(stream));
        assertThat(hits.get(1).body()).contains(RESULTS);
        assertThat(resultIds(pair.upstream, parse(hits.get(1).body())))
                .as("each result answers its call's id, in the upstream's shape")
                .isEqualTo(ids);
        Answer last = turns[1];
        assertThat(last.text()).isEqualTo(ANSWER);
        assertThat(last.calls()).isEmpty();
        assertThat(last.finish()).isEqualTo(pair.client.textFinish);
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("pairsBufferedAndStreamed")
    void anUpstreamErrorReachesTheSdkAsItsOwnExceptionWithTheStatus(Pair pair, boolean stream) {
        String credential = Pool.uid("cred");
        Sdk sdk = sdk(credential, pair);
        upstream.on(credential, json(400, fixture(pair.upstream.protocol, "error-400.json")));

        assertThat(pair.client.failingStatus(sdk, stream)).isEqualTo(400);
        assertThat(upstream.count(credential)).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Pair.class)
    void everyPairIsABridgeIntoThePlatformsOwnProtocol(Pair pair) {
        assertThat(pair.upstream.platform.servesNatively(pair.client.protocol)).isFalse();
        assertThat(pair.upstream.platform.upstreamProtocol(pair.client.protocol))
                .isEqualTo(pair.upstream.protocol);
    }

    // ---- set-up and the SDKs' calls ----------------------------------------------------------

    private Sdk sdk(String credential, Pair pair) {
        String keyId = onePlatformPool(credential, pair.upstream.platform, MODEL, UPSTREAM_MODEL);
        return new Sdk(Sdks.openAi(gateway, keyId), Sdks.anthropic(gateway, keyId), Sdks.gemini(gateway, keyId));
    }

    static ChatCompletion chat(OpenAIClient client, ChatCompletionCreateParams.Builder params, boolean stream) {
        if (!stream) {
            return client.chat().completions().create(params.build());
        }
        params.streamOptions(
                ChatCompletionStreamOptions.builder().includeUsage(true).build());
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        try (com.openai.core.http.StreamResponse<ChatCompletionChunk> chunks =
                client.chat().completions().createStreaming(params.build())) {
            chunks.stream().forEach(accumulator::accumulate);
        }
        return accumulator.chatCompletion();
    }

    static Answer chatAnswer(ChatCompletion completion) {
        ChatCompletion.Choice choice = completion.choices().get(0);
        List<Call> calls = new ArrayList<>();
        choice.message()
                .toolCalls()
                .orElse(List.of())
                .forEach(call -> calls.add(new Call(
                        call.asFunction().id(),
                        call.asFunction().function().name(),
                        call.asFunction().function().arguments())));
        return new Answer(
                choice.message().content().orElse(""),
                calls,
                choice.finishReason().asString(),
                completion.usage().orElseThrow().promptTokens(),
                completion.usage().orElseThrow().completionTokens());
    }

    static Response responses(OpenAIClient client, ResponseCreateParams.Builder params, boolean stream) {
        if (!stream) {
            return client.responses().create(params.build());
        }
        ResponseAccumulator accumulator = ResponseAccumulator.create();
        try (com.openai.core.http.StreamResponse<ResponseStreamEvent> events =
                client.responses().createStreaming(params.build())) {
            events.stream().forEach(accumulator::accumulate);
        }
        return accumulator.response();
    }

    static Answer responsesAnswer(Response response) {
        StringBuilder text = new StringBuilder();
        List<Call> calls = new ArrayList<>();
        response.output().forEach(item -> {
            item.message()
                    .ifPresent(message -> message.content()
                            .forEach(content -> content.outputText().ifPresent(output -> text.append(output.text()))));
            item.functionCall().ifPresent(call -> calls.add(new Call(call.callId(), call.name(), call.arguments())));
        });
        return new Answer(
                text.toString(),
                calls,
                response.status().orElseThrow().asString(),
                response.usage().orElseThrow().inputTokens(),
                response.usage().orElseThrow().outputTokens());
    }

    static Message messages(AnthropicClient client, MessageCreateParams.Builder params, boolean stream) {
        if (!stream) {
            return client.messages().create(params.build());
        }
        MessageAccumulator accumulator = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> events = client.messages().createStreaming(params.build())) {
            events.stream().forEach(accumulator::accumulate);
        }
        return accumulator.message();
    }

    static Answer anthropicAnswer(Message message) {
        StringBuilder text = new StringBuilder();
        List<Call> calls = new ArrayList<>();
        for (ContentBlock block : message.content()) {
            block.text().ifPresent(t -> text.append(t.text()));
            block.toolUse()
                    .ifPresent(call -> calls.add(
                            new Call(call.id(), call.name(), call._input().toString())));
        }
        return new Answer(
                text.toString(),
                calls,
                message.stopReason().orElseThrow().asString(),
                message.usage().inputTokens(),
                message.usage().outputTokens());
    }

    /** generateContent, or generateContentStream read chunk by chunk into one answer. */
    static Answer generate(
            com.google.genai.Client client, List<Content> contents, GenerateContentConfig config, boolean stream) {
        List<GenerateContentResponse> chunks = new ArrayList<>();
        if (stream) {
            try (ResponseStream<GenerateContentResponse> responses =
                    client.models.generateContentStream(MODEL, contents, config)) {
                responses.forEach(chunks::add);
            }
        } else {
            chunks.add(client.models.generateContent(MODEL, contents, config));
        }
        StringBuilder text = new StringBuilder();
        List<Call> calls = new ArrayList<>();
        String finish = null;
        GenerateContentResponseUsageMetadata usage = null;
        for (GenerateContentResponse chunk : chunks) {
            for (Candidate candidate : chunk.candidates().orElse(List.of())) {
                for (Part part : candidate.content().flatMap(Content::parts).orElse(List.of())) {
                    part.text().ifPresent(text::append);
                    part.functionCall()
                            .ifPresent(call -> calls.add(new Call(
                                    call.id().orElse(null),
                                    call.name().orElse(null),
                                    writeMap(call.args().orElse(Map.of())))));
                }
                if (candidate.finishReason().isPresent()) {
                    finish = candidate.finishReason().get().toString();
                }
            }
            if (chunk.usageMetadata().isPresent()) {
                usage = chunk.usageMetadata().get();
            }
        }
        assertThat(usage).isNotNull();
        return new Answer(
                text.toString(),
                calls,
                finish,
                usage.promptTokenCount().orElse(0),
                usage.candidatesTokenCount().orElse(0));
    }

    /** The call ids the tool results of an upstream request answer, in order. */
    static List<String> resultIds(Upstream upstream, JsonNode body) {
        List<String> ids = new ArrayList<>();
        switch (upstream) {
            case CHAT ->
                body.path("messages").forEach(message -> {
                    if (message.path("role").asText().equals("tool")) {
                        ids.add(message.path("tool_call_id").asText());
                    }
                });
            case RESPONSES ->
                body.path("input").forEach(item -> {
                    if (item.path("type").asText().equals("function_call_output")) {
                        ids.add(item.path("call_id").asText());
                    }
                });
            case ANTHROPIC ->
                body.path("messages")
                        .forEach(message -> message.path("content").forEach(block -> {
                            if (block.path("type").asText().equals("tool_result")) {
                                ids.add(block.path("tool_use_id").asText());
                            }
                        }));
            case GEMINI ->
                body.path("contents")
                        .forEach(content -> content.path("parts").forEach(part -> {
                            if (part.has("functionResponse")) {
                                assertThat(part.at("/functionResponse/name").asText())
                                        .isEqualTo("get_weather");
                                ids.add(part.at("/functionResponse/id").asText());
                            }
                        }));
        }
        return ids;
    }

    // ---- fixtures ----------------------------------------------------------------------------

    static String fixture(Protocol protocol, String name) {
        String path = "/sdk-bridge/" + protocol.wire() + "/" + name;
        try (InputStream in = SdkBridgeMatrixTests.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("no fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> frames(String sse) {
        List<String> frames = new ArrayList<>();
        for (String frame : sse.split("\n\n")) {
            if (!frame.isBlank()) {
                frames.add(frame + "\n\n");
            }
        }
        return frames;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> parseMap(String json) {
        try {
            return io.routegateway.core.json.Json.MAPPER.readValue(json, Map.class);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static String writeMap(Map<String, Object> map) {
        try {
            return io.routegateway.core.json.Json.MAPPER.writeValueAsString(map);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
