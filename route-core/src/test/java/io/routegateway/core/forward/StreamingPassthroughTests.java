package io.routegateway.core.forward;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StreamingPassthroughTests {

    private static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text);
    }

    /** The two halves as production runs them: before sending, then on the response head. */
    private static boolean passthrough(
            boolean bridged, boolean clientAskedForStream, int status, boolean customTools, CredentialKind kind) {
        return StreamingPassthrough.mayStream(bridged, clientAskedForStream, customTools, kind)
                && StreamingPassthrough.statusAllows(status);
    }

    @Test
    void allFiveConditionsStream() {
        assertThat(passthrough(false, true, 200, false, CredentialKind.API)).isTrue();
        assertThat(passthrough(false, true, 299, false, CredentialKind.API)).isTrue();
    }

    @Test
    void aBridgedStreamIsTranslatedFrameByFrameUnlessTheAccountIsOfficial() {
        assertThat(StreamingPassthrough.mayTranslate(true, CredentialKind.API)).isTrue();
        assertThat(StreamingPassthrough.mayTranslate(true, CredentialKind.OFFICIAL))
                .isFalse();
        assertThat(StreamingPassthrough.mayTranslate(false, CredentialKind.API)).isFalse();
    }

    @Test
    void eachConditionAloneKeepsTheBufferedPath() {
        assertThat(passthrough(true, true, 200, false, CredentialKind.API))
                .as("bridge")
                .isFalse();
        assertThat(passthrough(false, false, 200, false, CredentialKind.API))
                .as("no stream asked")
                .isFalse();
        assertThat(passthrough(false, true, 429, false, CredentialKind.API))
                .as("non-2xx")
                .isFalse();
        assertThat(passthrough(false, true, 200, true, CredentialKind.API))
                .as("custom tools")
                .isFalse();
        assertThat(passthrough(false, true, 200, false, CredentialKind.OFFICIAL))
                .as("official account")
                .isFalse();
    }

    @Test
    void onlyA2xxHeadIsPassedThrough() {
        for (int status : new int[] {100, 199, 300, 304, 400, 401, 429, 500, 503}) {
            assertThat(StreamingPassthrough.statusAllows(status))
                    .as("%d", status)
                    .isFalse();
        }
        for (int status : new int[] {200, 201, 206, 299}) {
            assertThat(StreamingPassthrough.statusAllows(status))
                    .as("%d", status)
                    .isTrue();
        }
    }

    @Test
    void streamFlagComesFromTheBodyOrTheGeminiMethod() throws Exception {
        assertThat(StreamingPassthrough.clientAskedForStream(Protocol.OPENAI_CHAT, json("{\"stream\":true}"), false))
                .isTrue();
        assertThat(StreamingPassthrough.clientAskedForStream(Protocol.ANTHROPIC_MESSAGES, json("{}"), false))
                .isFalse();
        assertThat(StreamingPassthrough.clientAskedForStream(Protocol.GEMINI, json("{}"), true))
                .isTrue();
        assertThat(StreamingPassthrough.clientAskedForStream(Protocol.GEMINI, json("{\"stream\":true}"), false))
                .isFalse();
    }

    @Test
    void customToolsAreOpenAiCustomTypedTools() throws Exception {
        JsonNode custom = json(
                "{\"tools\":[{\"type\":\"function\",\"name\":\"f\"},{\"type\":\"custom\",\"name\":\"apply_patch\"}]}");
        JsonNode functions = json("{\"tools\":[{\"type\":\"function\",\"name\":\"f\"}]}");
        assertThat(StreamingPassthrough.hasCustomTools(Protocol.OPENAI_RESPONSES, custom))
                .isTrue();
        assertThat(StreamingPassthrough.hasCustomTools(Protocol.OPENAI_CHAT, custom))
                .isTrue();
        assertThat(StreamingPassthrough.hasCustomTools(Protocol.OPENAI_RESPONSES, functions))
                .isFalse();
        assertThat(StreamingPassthrough.hasCustomTools(Protocol.ANTHROPIC_MESSAGES, custom))
                .isFalse();
        assertThat(StreamingPassthrough.hasCustomTools(Protocol.OPENAI_CHAT, json("{}")))
                .isFalse();
    }
}
