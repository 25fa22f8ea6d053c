package io.routegateway.demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.routegateway.demo.Replies.Protocol;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo upstream plays an agent's turn in every protocol it speaks, buffered and streamed:
 * offered tools, it calls the first one with arguments made from the tool's schema; given the
 * tool's result, it answers with a final text.
 */
class DemoToolCallsTests {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},"
            + "\"unit\":{\"type\":\"string\",\"enum\":[\"celsius\",\"fahrenheit\"]},\"days\":{\"type\":\"integer\"}},"
            + "\"required\":[\"city\"]}";
    /** The arguments the demo makes from {@link #SCHEMA}, as they appear in every protocol's body. */
    static final String ARGUMENTS = "{\"city\":\"demo city\",\"unit\":\"celsius\",\"days\":1}";

    static Vertx vertx;
    static int port;
    final HttpClient client = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        port = new DemoUpstream(vertx)
                .start(0)
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @CsvSource({
        "OPENAI_CHAT,false", "OPENAI_CHAT,true",
        "OPENAI_RESPONSES,false", "OPENAI_RESPONSES,true",
        "ANTHROPIC,false", "ANTHROPIC,true",
        "GEMINI,false", "GEMINI,true"
    })
    void offeredToolsAreCalledWithArgumentsFromTheSchema(Protocol protocol, boolean stream) throws Exception {
        HttpResponse<String> response = send(protocol, stream, request(protocol, stream, false));

        assertThat(response.statusCode()).isEqualTo(200);
        String body = response.body();
        assertThat(body).contains("get_weather");
        // the arguments are a JSON string (escaped) in three protocols and an object in Gemini
        assertThat(body.replace("\\\"", "\"")).contains(ARGUMENTS);
        assertThat(body).contains(TOOL_FINISH[protocol.ordinal()]);
        if (stream) {
            assertThat(response.headers().firstValue("content-type")).contains("text/event-stream");
            assertThat(body).contains(TERMINAL[protocol.ordinal()]);
            assertThat(body).doesNotContain("Hello from demo account");
        } else {
            assertThat(call(protocol, JSON.readTree(body))).isEqualTo(JSON.readTree(ARGUMENTS));
        }
        if (protocol == Protocol.GEMINI) {
            // as on the Gemini API, calls carry no id
            assertThat(body).doesNotContain("call_demo_1");
        } else {
            assertThat(body).contains(protocol == Protocol.ANTHROPIC ? "toolu_demo_1" : "call_demo_1");
        }
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @CsvSource({
        "OPENAI_CHAT,false", "OPENAI_CHAT,true",
        "OPENAI_RESPONSES,false", "OPENAI_RESPONSES,true",
        "ANTHROPIC,false", "ANTHROPIC,true",
        "GEMINI,false", "GEMINI,true"
    })
    void aToolResultGetsTheFinalText(Protocol protocol, boolean stream) throws Exception {
        HttpResponse<String> response = send(protocol, stream, request(protocol, stream, true));

        assertThat(response.statusCode()).isEqualTo(200);
        String body = response.body();
        // streamed word by word, so look for the last words
        assertThat(body).contains("tool").contains("result").doesNotContain(ARGUMENTS.replace("\"", "\\\""));
        assertThat(body).doesNotContain(TOOL_FINISH[protocol.ordinal()]);
        if (stream) {
            assertThat(body).contains(TERMINAL[protocol.ordinal()]);
        } else {
            assertThat(text(protocol, JSON.readTree(body))).endsWith(", after the tool result");
        }
    }

    @Test
    void withoutToolsTheAnswerIsPlainText() throws Exception {
        HttpResponse<String> response = send(
                Protocol.OPENAI_CHAT, false, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(response.body()).contains("\"finish_reason\":\"stop\"").doesNotContain("tool_calls");
    }

    @Test
    void aServerToolIsNotCalled() throws Exception {
        HttpResponse<String> response = send(
                Protocol.ANTHROPIC,
                false,
                "{\"model\":\"m\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                        + "\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}");
        assertThat(response.body()).contains("\"stop_reason\":\"end_turn\"").doesNotContain("tool_use");
    }

    @Test
    void argumentsFollowTheSchemasTypesNestedOnes() throws Exception {
        JsonNode schema = JSON.readTree(
                "{\"type\":\"object\",\"properties\":{"
                        + "\"flag\":{\"type\":\"boolean\"},\"ratio\":{\"type\":\"number\"},\"tags\":{\"type\":\"array\","
                        + "\"items\":{\"type\":\"string\"}},\"where\":{\"type\":\"object\",\"properties\":{\"lat\":{\"type\":"
                        + "\"number\"},\"kind\":{\"enum\":[\"city\",\"town\"]}}},\"either\":{\"type\":[\"integer\",\"null\"]}}}");

        assertThat(ToolCalls.arguments(schema))
                .isEqualTo(JSON.readTree("{\"flag\":true,\"ratio\":1.5,\"tags\":[\"demo tags\"],"
                        + "\"where\":{\"lat\":1.5,\"kind\":\"city\"},\"either\":1}"));
        assertThat(ToolCalls.arguments(JSON.readTree("{}"))).isEmpty();
    }

    // ---- requests and what to look for, per protocol (ordinal order of Replies.Protocol) ----------

    static final String[] TOOL_FINISH = {
        "\"finish_reason\":\"tool_calls\"",
        "\"type\":\"function_call\"",
        "\"stop_reason\":\"tool_use\"",
        "\"functionCall\""
    };
    static final String[] TERMINAL = {"data: [DONE]", "response.completed", "message_stop", "\"finishReason\":\"STOP\""
    };

    static String request(Protocol protocol, boolean stream, boolean afterResult) {
        switch (protocol) {
            case OPENAI_CHAT:
                return "{\"model\":\"m\",\"stream\":" + stream
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"weather?\"}"
                        + (afterResult
                                ? ",{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_demo_1\","
                                        + "\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{}\"}}]},"
                                        + "{\"role\":\"tool\",\"tool_call_id\":\"call_demo_1\",\"content\":\"18 degrees\"}"
                                : "")
                        + "],\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":"
                        + SCHEMA + "}}]}";
            case OPENAI_RESPONSES:
                return "{\"model\":\"m\",\"stream\":" + stream
                        + ",\"input\":[{\"role\":\"user\",\"content\":\"weather?\"}"
                        + (afterResult
                                ? ",{\"type\":\"function_call\",\"call_id\":\"call_demo_1\",\"name\":\"get_weather\","
                                        + "\"arguments\":\"{}\"},{\"type\":\"function_call_output\",\"call_id\":\"call_demo_1\","
                                        + "\"output\":\"18 degrees\"}"
                                : "")
                        + "],\"tools\":[{\"type\":\"function\",\"name\":\"get_weather\",\"parameters\":" + SCHEMA
                        + "}]}";
            case ANTHROPIC:
                return "{\"model\":\"m\",\"max_tokens\":64,\"stream\":" + stream
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"weather?\"}"
                        + (afterResult
                                ? ",{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_demo_1\","
                                        + "\"name\":\"get_weather\",\"input\":{}}]},{\"role\":\"user\",\"content\":[{\"type\":"
                                        + "\"tool_result\",\"tool_use_id\":\"toolu_demo_1\",\"content\":\"18 degrees\"}]}"
                                : "")
                        + "],\"tools\":[{\"name\":\"get_weather\",\"input_schema\":" + SCHEMA + "}]}";
            default:
                return "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"weather?\"}]}"
                        + (afterResult
                                ? ",{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"get_weather\",\"args\":{}}}]},"
                                        + "{\"role\":\"user\",\"parts\":[{\"functionResponse\":{\"name\":\"get_weather\","
                                        + "\"response\":{\"result\":\"18 degrees\"}}}]}"
                                : "")
                        + "],\"tools\":[{\"functionDeclarations\":[{\"name\":\"get_weather\",\"parameters\":" + SCHEMA
                        + "}]}]}";
        }
    }

    /** The arguments of the one call in a buffered answer. */
    static JsonNode call(Protocol protocol, JsonNode body) throws Exception {
        switch (protocol) {
            case OPENAI_CHAT:
                assertThat(body.at("/choices/0/message/tool_calls")).hasSize(1);
                return JSON.readTree(body.at("/choices/0/message/tool_calls/0/function/arguments")
                        .asText());
            case OPENAI_RESPONSES:
                assertThat(body.at("/output/0/call_id").asText()).isEqualTo("call_demo_1");
                return JSON.readTree(body.at("/output/0/arguments").asText());
            case ANTHROPIC:
                return body.at("/content/0/input");
            default:
                assertThat(body.at("/candidates/0/content/parts/0/functionCall/name")
                                .asText())
                        .isEqualTo("get_weather");
                return body.at("/candidates/0/content/parts/0/functionCall/args");
        }
    }

    static String text(Protocol protocol, JsonNode body) {
        switch (protocol) {
            case OPENAI_CHAT:
                return body.at("/choices/0/message/content").asText();
            case OPENAI_RESPONSES:
                return body.at("/output/0/content/0/text").asText();
            case ANTHROPIC:
                return body.at("/content/0/text").asText();
            default:
                return body.at("/candidates/0/content/parts/0/text").asText();
        }
    }

    HttpResponse<String> send(Protocol protocol, boolean stream, String body) throws Exception {
        String path = switch (protocol) {
            case OPENAI_CHAT -> "/v1/chat/completions";
            case OPENAI_RESPONSES -> "/v1/responses";
            case ANTHROPIC -> "/v1/messages";
            case GEMINI -> "/v1beta/models/g:" + (stream ? "streamGenerateContent" : "generateContent");
        };
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("authorization", "Bearer key-tools")
                        .timeout(Duration.ofSeconds(5))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
